/**
 * Users & Roles → Roles: the built-in roles (read-only) and the organisation's custom roles
 * (id custom_role_ + timestamp). Needs users.manage. A role cannot be deleted while assigned.
 */
import { v, type Infer } from "convex/values";
import type { Doc } from "./_generated/dataModel";
import type { QueryCtx } from "./_generated/server";
import { orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { BUILT_IN_ROLES, PERMISSIONS, ROLE_COLORS, type Permission, type RoleDefinition } from "./lib/permissions";
import { assertRoleWithinReach, canGrant, roleWithinReach, type Grantor } from "./model/grants";
import { coreTables, vMode, vRoleColor } from "./tables/core";
import { customRoleToDefinition } from "./model/viewer";
import { audit, fieldChanges } from "./model/audit";

export const DEFAULT_ROLE_LEVEL = 20;
/** A role's fields the audit log compares. */
const AUDITED_ROLE_FIELDS = ["name", "description", "level", "permissions", "modes", "color"] as const;

/** A role as Users & Roles lists it: built-in or custom (the customRoles row's fields), with who holds it and what the caller may do with it. */
const vRoleRow = coreTables.customRoles.validator.pick("name", "description", "level", "permissions", "modes").extend({
  id: v.string(),
  color: vRoleColor,
  builtIn: v.boolean(),
  assignedCount: v.number(),
  updatedAt: v.union(v.number(), v.null()),
  /** the caller may assign it and invite with it */
  grantable: v.boolean(),
  /** a custom role the caller may edit or delete */
  editable: v.boolean(),
});
type RoleRow = Infer<typeof vRoleRow>;

async function assignedCounts(ctx: QueryCtx, orgId: Doc<"organizations">["_id"]): Promise<Map<string, number>> {
  const memberships = await ctx.db
    .query("memberships")
    .withIndex("by_org_user", (q) => q.eq("orgId", orgId))
    .collect();
  const counts = new Map<string, number>();
  for (const m of memberships) for (const r of new Set(m.roles)) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
}

function toRow(caller: Grantor, def: RoleDefinition, counts: Map<string, number>, updatedAt: number | null): RoleRow {
  return {
    ...def,
    permissions: def.permissions === "all" ? [...PERMISSIONS] : def.permissions,
    assignedCount: counts.get(def.id) ?? 0,
    updatedAt,
    grantable: canGrant(caller, def),
    editable:
      !def.builtIn &&
      roleWithinReach(caller, { id: def.id, level: def.level, permissions: def.permissions as Permission[] }),
  };
}

export const list = orgQuery("users.manage")({
  args: {},
  returns: v.array(vRoleRow),
  handler: async (ctx) => {
    const counts = await assignedCounts(ctx, ctx.viewer.orgId);
    const custom = await ctx.db
      .query("customRoles")
      .withIndex("by_org_role", (q) => q.eq("orgId", ctx.viewer.orgId))
      .collect();
    return [
      ...BUILT_IN_ROLES.map((r) => toRow(ctx.viewer, r, counts, null)),
      ...custom.map((r) => toRow(ctx.viewer, customRoleToDefinition(r), counts, r.updatedAt)),
    ];
  },
});

export const get = orgQuery("users.manage")({
  args: { roleId: v.string() },
  returns: vRoleRow,
  handler: async (ctx, { roleId }) => {
    const counts = await assignedCounts(ctx, ctx.viewer.orgId);
    const builtIn = BUILT_IN_ROLES.find((r) => r.id === roleId);
    if (builtIn) return toRow(ctx.viewer, builtIn, counts, null);
    const row = await ctx.db
      .query("customRoles")
      .withIndex("by_org_role", (q) => q.eq("orgId", ctx.viewer.orgId).eq("roleId", roleId))
      .unique();
    if (row === null) throw appError("NOT_FOUND");
    return toRow(ctx.viewer, customRoleToDefinition(row), counts, row.updatedAt);
  },
});

const roleFields = {
  name: v.string(),
  description: v.string(),
  permissions: v.array(v.string()),
  modes: v.array(vMode),
  color: v.string(),
  level: v.optional(v.number()),
};

type RoleInput = {
  name: string;
  description: string;
  permissions: string[];
  modes: Doc<"customRoles">["modes"];
  color: string;
  level?: number;
};

function cleanRole(input: RoleInput) {
  const name = input.name.trim();
  if (!name || name.length > 100) throw appError("VALIDATION_ERROR", "Please enter a role name.");
  if (input.description.length > 1000)
    throw appError("VALIDATION_ERROR", "The description is limited to 1,000 characters.");
  const level = input.level ?? DEFAULT_ROLE_LEVEL;
  if (!Number.isInteger(level) || level < 1 || level > 100)
    throw appError("VALIDATION_ERROR", "Access level must be 1 to 100.");
  if (!(ROLE_COLORS as readonly string[]).includes(input.color)) throw appError("VALIDATION_ERROR", "Unknown colour.");
  // Any known permission; assertRoleWithinReach then keeps it to those the caller holds.
  const unknown = input.permissions.filter((p) => !(PERMISSIONS as readonly string[]).includes(p));
  if (unknown.length > 0) throw appError("VALIDATION_ERROR", `Unknown permission: ${unknown.join(", ")}.`);
  return {
    name,
    description: input.description.trim(),
    permissions: [...new Set(input.permissions)] as Permission[],
    modes: [...new Set(input.modes)],
    color: input.color,
    level,
  };
}

export const create = orgMutation("users.manage")({
  args: roleFields,
  returns: v.object({ id: v.string() }),
  handler: async (ctx, args) => {
    const role = cleanRole(args);
    assertRoleWithinReach(ctx.viewer, role);
    let roleId = `custom_role_${Date.now()}`;
    // Two roles created in the same millisecond get distinct ids.
    while (
      (await ctx.db
        .query("customRoles")
        .withIndex("by_org_role", (q) => q.eq("orgId", ctx.viewer.orgId).eq("roleId", roleId))
        .unique()) !== null
    ) {
      roleId = `custom_role_${Number(roleId.slice("custom_role_".length)) + 1}`;
    }
    await ctx.db.insert("customRoles", { orgId: ctx.viewer.orgId, roleId, ...role, updatedAt: Date.now() });
    await audit(ctx, ctx.viewer, {
      action: "role.create",
      target: { table: "customRoles", id: roleId, label: role.name },
      summary: `Created role ${role.name}.`,
      changes: fieldChanges(null, role, AUDITED_ROLE_FIELDS),
    });
    return { id: roleId };
  },
});

async function customRole(ctx: QueryCtx & { viewer: { orgId: Doc<"organizations">["_id"] } }, roleId: string) {
  if (BUILT_IN_ROLES.some((r) => r.id === roleId)) throw appError("FORBIDDEN", "Built-in roles cannot be changed.");
  const row = await ctx.db
    .query("customRoles")
    .withIndex("by_org_role", (q) => q.eq("orgId", ctx.viewer.orgId).eq("roleId", roleId))
    .unique();
  if (row === null) throw appError("NOT_FOUND");
  return row;
}

export const update = orgMutation("users.manage")({
  args: { roleId: v.string(), ...roleFields },
  returns: v.null(),
  handler: async (ctx, { roleId, ...input }) => {
    const row = await customRole(ctx, roleId);
    assertRoleWithinReach(ctx.viewer, { id: roleId, level: row.level, permissions: row.permissions as Permission[] });
    const role = cleanRole(input);
    assertRoleWithinReach(ctx.viewer, role);
    await ctx.db.patch("customRoles", row._id, { ...role, updatedAt: Date.now() });
    await audit(ctx, ctx.viewer, {
      action: "role.update",
      target: { table: "customRoles", id: roleId, label: role.name },
      summary: `Changed role ${role.name}.`,
      changes: fieldChanges(row, role, AUDITED_ROLE_FIELDS),
    });
    return null;
  },
});

export const remove = orgMutation("users.manage")({
  args: { roleId: v.string() },
  returns: v.null(),
  handler: async (ctx, { roleId }) => {
    const row = await customRole(ctx, roleId);
    assertRoleWithinReach(ctx.viewer, { id: roleId, level: row.level, permissions: row.permissions as Permission[] });
    const assigned = (await assignedCounts(ctx, ctx.viewer.orgId)).get(roleId) ?? 0;
    if (assigned > 0) {
      throw appError(
        "VALIDATION_ERROR",
        `This role is assigned to ${assigned} user(s). Please reassign or remove these users first.`,
        "Cannot Delete Role",
      );
    }
    // Pending invitations that would grant the role are withdrawn with it.
    const invitations = await ctx.db
      .query("invitations")
      .withIndex("by_org_email", (q) => q.eq("orgId", ctx.viewer.orgId))
      .collect();
    for (const i of invitations) {
      if (i.status === "pending" && (i.role === roleId || i.roles?.includes(roleId)))
        await ctx.db.patch("invitations", i._id, { status: "revoked" });
    }
    await ctx.db.delete("customRoles", row._id);
    await audit(ctx, ctx.viewer, {
      action: "role.delete",
      target: { table: "customRoles", id: roleId, label: row.name },
      summary: `Deleted role ${row.name}.`,
      changes: fieldChanges(row, null, AUDITED_ROLE_FIELDS),
    });
    return null;
  },
});
