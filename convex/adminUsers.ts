/**
 * Users & Roles → Users: the organisation's members (never other organisations'), creating a user
 * by emailed invitation (they set their own password), editing name and roles, removing from the
 * organisation. Needs users.manage. Never leaves the organisation without an account admin, and
 * never lets an admin lock themselves out.
 */
import { v } from "convex/values";
import type { Doc } from "./_generated/dataModel";
import type { QueryCtx } from "./_generated/server";
import { orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { resolveRoles } from "./lib/permissions";
import { createInvitation } from "./model/invitations";
import { assertGrantable, canManageMember, MEMBER_DENIED } from "./model/grants";
import { assertKeepsAnAdmin, assertNotAlreadyMember, displayName, isEmail, membersWithUsers } from "./model/orgs";
import { normalizeEmail } from "./model/strings";
import { orgRoleLookup, type Viewer } from "./model/viewer";
import { audit, fieldChanges } from "./model/audit";
import { vIssuedInvitation, vMembershipStatus } from "./tables/core";

export const list = orgQuery("users.manage")({
  args: {},
  returns: v.array(
    v.object({
      /** the member's user, or the invitation of a user created here who has not set a password yet */
      id: v.union(v.id("users"), v.id("invitations")),
      membershipId: v.union(v.id("memberships"), v.null()),
      email: v.string(),
      name: v.string(),
      firstName: v.string(),
      lastName: v.string(),
      roles: v.array(v.string()),
      status: v.union(...vMembershipStatus.members, v.literal("invited")),
      createdAt: v.number(),
      lastSignInAt: v.union(v.number(), v.null()),
      isSelf: v.boolean(),
    }),
  ),
  handler: async (ctx) => {
    const users = [];
    for (const { membership: m, user } of await membersWithUsers(ctx, ctx.viewer.orgId)) {
      users.push({
        id: user._id,
        membershipId: m._id,
        email: user.email ?? "",
        name: displayName(user),
        firstName: user.firstName ?? "",
        lastName: user.lastName ?? "",
        roles: m.roles,
        status: m.status as "active" | "pending" | "invited",
        createdAt: user._creationTime,
        lastSignInAt: user.lastSignInAt ?? null,
        isSelf: user._id === ctx.viewer.userId,
      });
    }
    // Users created here but who have not set their password yet.
    const invitations = await ctx.db
      .query("invitations")
      .withIndex("by_org_email", (q) => q.eq("orgId", ctx.viewer.orgId))
      .collect();
    for (const i of invitations) {
      if (i.status !== "pending" || i.kind !== "create") continue;
      users.push({
        id: i._id,
        membershipId: null,
        email: i.email,
        name: `${i.firstName} ${i.lastName}`.trim(),
        firstName: i.firstName,
        lastName: i.lastName,
        roles: i.roles ?? [i.role],
        status: "invited" as const,
        createdAt: i.createdAt ?? i._creationTime,
        lastSignInAt: null,
        isSelf: false,
      });
    }
    return users;
  },
});

function splitName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return { firstName: parts[0] ?? "", lastName: parts.slice(1).join(" ") };
}

/** Create user: an invitation of kind "create" with the chosen roles; the email asks them to set a password. */
export const create = orgMutation("users.manage")({
  args: { email: v.string(), name: v.string(), roleIds: v.array(v.string()) },
  returns: vIssuedInvitation,
  handler: async (ctx, args) => {
    const email = normalizeEmail(args.email);
    const name = args.name.trim();
    if (!email || !isEmail(email) || email.length > 254)
      throw appError("VALIDATION_ERROR", "Please enter a valid email address.");
    if (!name || name.length > 200) throw appError("VALIDATION_ERROR", "Please enter the user's name.");
    const roles = [...new Set(args.roleIds)];
    await assertGrantable(ctx, ctx.viewer, ctx.viewer.orgId, roles);
    await assertNotAlreadyMember(ctx, ctx.viewer.orgId, email);
    const { firstName, lastName } = splitName(name);
    const issued = await createInvitation(ctx, {
      orgId: ctx.viewer.orgId,
      orgName: ctx.viewer.org.name,
      email,
      firstName,
      lastName,
      roles,
      kind: "create",
      invitedBy: ctx.viewer.userId,
      inviterName: displayName(ctx.viewer.user),
    });
    await audit(ctx, ctx.viewer, {
      action: "invitation.create",
      target: { table: "invitations", id: issued.invitationId, label: email },
      summary: `Created user ${name} (${email}) with roles ${roles.join(", ")}; invitation sent.`,
    });
    return issued;
  },
});

async function loadTarget(ctx: QueryCtx & { viewer: Viewer }, userId: string) {
  const id = ctx.db.normalizeId("users", userId);
  const membership = id
    ? await ctx.db
        .query("memberships")
        .withIndex("by_org_user", (q) => q.eq("orgId", ctx.viewer.orgId).eq("userId", id))
        .unique()
    : null;
  if (!id || membership === null) throw appError("NOT_FOUND", "This user is not a member of your organization.");
  const lookup = await orgRoleLookup(ctx, ctx.viewer.orgId);
  const isSelf = id === ctx.viewer.userId;
  if (!isSelf && !canManageMember(ctx.viewer, membership.roles, lookup)) throw appError("FORBIDDEN", MEMBER_DENIED);
  return { userId: id, membership, lookup, isSelf };
}

/** Edits a member's name and roles (PATCH admin-users/{id}). */
export const update = orgMutation("users.manage")({
  args: { userId: v.string(), name: v.string(), roleIds: v.array(v.string()) },
  returns: v.null(),
  handler: async (ctx, args) => {
    const { userId, membership, lookup, isSelf } = await loadTarget(ctx, args.userId);
    const name = args.name.trim();
    if (!name || name.length > 200) throw appError("VALIDATION_ERROR", "Please enter the user's name.");
    const roles = [...new Set(args.roleIds)];
    if (roles.length === 0) throw appError("VALIDATION_ERROR", "Select at least one role.");
    const added = roles.filter((r) => !membership.roles.includes(r));
    if (isSelf) {
      // One's own roles can only be dropped, never added to.
      if (added.length > 0) throw appError("FORBIDDEN", "You cannot give yourself roles. Ask another administrator.");
      const next = resolveRoles(roles, undefined, undefined, lookup);
      if (!next || !next.permissions.has("users.manage")) {
        throw appError(
          "VALIDATION_ERROR",
          "You cannot remove your own access to user management. Ask another administrator to change your roles.",
          "Error saving user",
        );
      }
    } else if (added.length > 0) {
      await assertGrantable(ctx, ctx.viewer, ctx.viewer.orgId, added);
    }
    await assertKeepsAnAdmin(ctx, ctx.viewer.orgId, membership, roles);
    await ctx.db.patch("memberships", membership._id, {
      roles,
      activeRole: membership.activeRole && roles.includes(membership.activeRole) ? membership.activeRole : undefined,
    });
    const { firstName, lastName } = splitName(name);
    const before: Doc<"users"> | null = await ctx.db.get("users", userId);
    await ctx.db.patch("users", userId, { name, firstName, lastName });
    await audit(ctx, ctx.viewer, {
      action: "member.update",
      target: { table: "users", id: userId, label: name },
      summary: `Changed member ${name}.`,
      changes: [
        ...fieldChanges({ roles: membership.roles }, { roles }, ["roles"]),
        ...fieldChanges(before, { name }, ["name"]),
      ],
    });
    return null;
  },
});

/** Removes a member from this organisation (deletes the membership; the account stays). */
export const remove = orgMutation("users.manage")({
  args: { userId: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    if (args.userId === ctx.viewer.userId) {
      throw appError("VALIDATION_ERROR", "You cannot remove yourself from the organization.");
    }
    const { userId, membership } = await loadTarget(ctx, args.userId);
    await assertKeepsAnAdmin(ctx, ctx.viewer.orgId, membership, null);
    // named while still a member (only members' users are visible here)
    const label = displayName(await ctx.db.get("users", userId)) || userId;
    await ctx.db.delete("memberships", membership._id);
    const user: Doc<"users"> | null = await ctx.db.get("users", userId);
    if (user?.activeOrgId === ctx.viewer.orgId) await ctx.db.patch("users", userId, { activeOrgId: undefined });
    await audit(ctx, ctx.viewer, {
      action: "member.remove",
      target: { table: "users", id: userId, label },
      summary: `Removed ${label} from the organization.`,
      changes: fieldChanges({ roles: membership.roles }, null, ["roles"]),
    });
    return null;
  },
});
