/** Who am I: the signed-in user's organisation, roles, permissions and modes. Any signed-in user. */
import { v } from "convex/values";
import { internalQuery, orgMutation, publicMutation, userQuery } from "./functions";
import { appError } from "./lib/errors";
import { BUILT_IN_ROLES, type Permission } from "./lib/permissions";
import { createOrganizationFor } from "./model/orgs";
import { normalizeEmail } from "./model/strings";
import { currentUserId, customRoleToDefinition, loadViewer, requireViewer } from "./model/viewer";
import { audit } from "./model/audit";
import { displayName } from "./model/presence";
import { vMode, vPermission, vRoleColor } from "./tables/core";

/** The user's own profile fields, empty strings for anything unset. */
const meBase = {
  userId: v.id("users"),
  email: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  name: v.string(),
  phone: v.string(),
  organization: v.string(),
};
const vRoleBrief = v.object({ id: v.string(), name: v.string(), level: v.number(), color: vRoleColor });

/** Everything the shell needs; null organisation fields while the user has no active membership. */
export const me = userQuery({
  args: {},
  returns: v.union(
    v.object({ ...meBase, org: v.null() }),
    v.object({
      ...meBase,
      org: v.object({ id: v.id("organizations"), name: v.string() }),
      roles: v.array(vRoleBrief),
      activeRole: v.string(),
      impersonatedRole: v.union(v.string(), v.null()),
      permissions: v.array(vPermission),
      modes: v.array(vMode),
      impersonatableRoles: v.array(vRoleBrief),
    }),
  ),
  handler: async (ctx) => {
    const viewer = await loadViewer(ctx);
    const user = ctx.user;
    const base = {
      userId: user._id,
      email: user.email ?? "",
      firstName: user.firstName ?? "",
      lastName: user.lastName ?? "",
      name: user.name ?? "",
      phone: user.phone ?? "",
      organization: user.organization ?? "",
    };
    if (viewer === null) return { ...base, org: null };
    const custom = await ctx.db
      .query("customRoles")
      .withIndex("by_org_role", (q) => q.eq("orgId", viewer.orgId))
      .collect();
    const allRoles = [...BUILT_IN_ROLES, ...custom.map(customRoleToDefinition)];
    return {
      ...base,
      org: { id: viewer.orgId, name: viewer.org.name },
      roles: viewer.roles.owned.map((r) => ({ id: r.id, name: r.name, level: r.level, color: r.color })),
      activeRole: viewer.roles.active.id,
      impersonatedRole: viewer.roles.impersonating?.id ?? null,
      permissions: [...viewer.permissions].sort(),
      modes: viewer.roles.modes,
      impersonatableRoles: allRoles
        .filter((r) => r.id !== "super_admin")
        .map((r) => ({ id: r.id, name: r.name, level: r.level, color: r.color })),
    };
  },
});

export const resolveForAction = internalQuery({
  args: { permission: v.optional(v.string()) },
  handler: async (ctx, { permission }) => {
    const viewer = await requireViewer(ctx, (permission as Permission | undefined) ?? null);
    return { userId: viewer.userId, orgId: viewer.orgId, permissions: [...viewer.permissions] };
  },
});

/** Switch the active role; only to a role the member really holds. */
export const setActiveRole = orgMutation(null)({
  args: { roleId: v.string() },
  returns: v.null(),
  handler: async (ctx, { roleId }) => {
    if (!ctx.viewer.membership.roles.includes(roleId))
      throw appError("VALIDATION_ERROR", "You can only switch to a role you hold.");
    await ctx.db.patch("memberships", ctx.viewer.membership._id, { activeRole: roleId });
    return null;
  },
});

/** Try on another role; never super_admin, never while already impersonating. Narrows only. */
export const startImpersonation = orgMutation(null)({
  args: { roleId: v.string() },
  returns: v.null(),
  handler: async (ctx, { roleId }) => {
    if (ctx.viewer.membership.impersonatedRole)
      throw appError("VALIDATION_ERROR", "Already impersonating a role. Stop impersonating first.");
    if (roleId === "super_admin") throw appError("FORBIDDEN", "The super admin role cannot be impersonated.");
    const known =
      BUILT_IN_ROLES.some((r) => r.id === roleId) ||
      (await ctx.db
        .query("customRoles")
        .withIndex("by_org_role", (q) => q.eq("orgId", ctx.viewer.orgId).eq("roleId", roleId))
        .unique()) !== null;
    if (!known) throw appError("NOT_FOUND", "Unknown role.");
    await ctx.db.patch("memberships", ctx.viewer.membership._id, { impersonatedRole: roleId });
    await audit(ctx, ctx.viewer, {
      action: "impersonation.start",
      target: { table: "users", id: ctx.viewer.userId, label: displayName(ctx.viewer.user) },
      summary: `Started impersonating the role ${roleId}.`,
    });
    return null;
  },
});

export const stopImpersonation = orgMutation(null)({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    const role = ctx.viewer.membership.impersonatedRole;
    await ctx.db.patch("memberships", ctx.viewer.membership._id, { impersonatedRole: undefined });
    if (role)
      await audit(ctx, ctx.viewer, {
        action: "impersonation.stop",
        target: { table: "users", id: ctx.viewer.userId, label: displayName(ctx.viewer.user) },
        summary: `Stopped impersonating the role ${role}.`,
      });
    return null;
  },
});

/**
 * Hosted identity (Clerk): the first call after sign-in creates the user's row and organisation.
 * Convex Auth users already have both (created at sign-up), so this is a no-op for them.
 */
export const ensureUser = publicMutation({
  args: {},
  returns: v.id("users"),
  handler: async (ctx) => {
    const identity = await ctx.auth.getUserIdentity();
    if (identity === null) throw appError("UNAUTHORIZED");
    const existing = await currentUserId(ctx);
    if (existing !== null) return existing;
    const email = normalizeEmail(identity.email ?? "");
    const firstName = identity.givenName ?? "";
    const lastName = identity.familyName ?? "";
    const userId = await ctx.db.insert("users", {
      tokenIdentifier: identity.tokenIdentifier,
      email,
      firstName,
      lastName,
      name: identity.name ?? (`${firstName} ${lastName}`.trim() || email),
    });
    await createOrganizationFor(ctx, userId, identity.name ?? (`${firstName} ${lastName}`.trim() || email));
    return userId;
  },
});
