/**
 * Members of the organisation and invitations (Account Settings → Members). Listing, inviting,
 * resending and revoking need users.manage; looking up an invitation by id + token is public;
 * accepting as an existing account needs a signed-in user whose email matches.
 */
import { v } from "convex/values";
import { orgMutation, orgQuery, publicQuery, userMutation } from "./functions";
import { appError } from "./lib/errors";
import { INVITABLE_ROLES } from "./lib/permissions";
import {
  acceptInvitationForExistingUser,
  createInvitation,
  findValidInvitation,
  invitationRoles,
  resendInvitation,
} from "./model/invitations";
import { assertGrantable, canManageMember, MEMBER_DENIED } from "./model/grants";
import { assertNotAlreadyMember, displayName, isEmail, membersWithUsers } from "./model/orgs";
import { normalizeEmail } from "./model/strings";
import { orgRoleLookup } from "./model/viewer";
import { audit } from "./model/audit";
import { coreTables, vIssuedInvitation, vMemberRow } from "./tables/core";
import { TEXTS } from "./lib/texts";

/** Active members and pending invitations, pending first. */
export const list = orgQuery("users.manage")({
  args: {},
  returns: v.array(vMemberRow),
  handler: async (ctx) => {
    const lookup = await orgRoleLookup(ctx, ctx.viewer.orgId);
    const roleInfo = (id: string) => {
      const r = lookup(id);
      return { role: id, roleName: r?.name ?? id, roleColor: r?.color ?? "gray" };
    };
    const invitations = await ctx.db
      .query("invitations")
      .withIndex("by_org_email", (q) => q.eq("orgId", ctx.viewer.orgId))
      .collect();
    const now = Date.now();
    const names = new Map<string, string>();
    const nameOf = async (id: string | undefined) => {
      if (!id) return "";
      if (!names.has(id)) {
        const uid = ctx.db.normalizeId("users", id);
        names.set(id, uid ? displayName(await ctx.db.get("users", uid)) : "");
      }
      return names.get(id)!;
    };
    const pending = [];
    for (const i of invitations) {
      if (i.status !== "pending") continue;
      pending.push({
        id: i._id,
        kind: "invitation" as const,
        userId: null,
        firstName: i.firstName,
        lastName: i.lastName,
        email: i.email,
        ...roleInfo(i.role),
        roles: invitationRoles(i),
        status: i.expiresAt < now ? ("expired" as const) : ("pending" as const),
        invitedBy: await nameOf(i.invitedBy),
        invitedAt: i.createdAt ?? i._creationTime,
      });
    }
    const members = [];
    for (const { membership: m, user } of await membersWithUsers(ctx, ctx.viewer.orgId)) {
      const top = m.roles.map((r) => ({ id: r, level: lookup(r)?.level ?? 0 })).sort((a, b) => b.level - a.level)[0];
      members.push({
        id: m._id,
        kind: "member" as const,
        userId: m.userId,
        firstName: user.firstName ?? "",
        lastName: user.lastName ?? "",
        email: user.email ?? "",
        ...roleInfo(top?.id ?? ""),
        roles: m.roles,
        status: m.status,
        invitedBy: await nameOf(m.invitedBy),
        invitedAt: m.joinedAt,
      });
    }
    return [...pending, ...members];
  },
});

/** Create New Member: records an invitation and emails its link. */
export const invite = orgMutation("users.manage")({
  args: { firstName: v.string(), lastName: v.string(), email: v.string(), role: v.string() },
  returns: vIssuedInvitation,
  handler: async (ctx, args) => {
    const firstName = args.firstName.trim();
    const lastName = args.lastName.trim();
    const email = normalizeEmail(args.email);
    if (!firstName || !lastName || !email) {
      throw appError("VALIDATION_ERROR", TEXTS.required.fields, "Missing Information");
    }
    if (!isEmail(email) || email.length > 254)
      throw appError("VALIDATION_ERROR", "Please enter a valid email address.");
    if (firstName.length > 100 || lastName.length > 100)
      throw appError("VALIDATION_ERROR", "Names are limited to 100 characters.");
    const isCustom = args.role.startsWith("custom_role_");
    if (!isCustom && !(INVITABLE_ROLES as readonly string[]).includes(args.role)) {
      throw appError("VALIDATION_ERROR", "Choose Campaign Manager, Account Administrator, Volunteer or Viewer.");
    }
    await assertGrantable(ctx, ctx.viewer, ctx.viewer.orgId, [args.role]);
    await assertNotAlreadyMember(ctx, ctx.viewer.orgId, email);
    const issued = await createInvitation(ctx, {
      orgId: ctx.viewer.orgId,
      orgName: ctx.viewer.org.name,
      email,
      firstName,
      lastName,
      roles: [args.role],
      kind: "invite",
      invitedBy: ctx.viewer.userId,
      inviterName: displayName(ctx.viewer.user),
    });
    await audit(ctx, ctx.viewer, {
      action: "invitation.create",
      target: { table: "invitations", id: issued.invitationId, label: email },
      summary: `Invited ${firstName} ${lastName} (${email}) as ${args.role}.`,
    });
    return issued;
  },
});

/** Sends a pending invitation again with a new link; the old link stops working. */
export const resend = orgMutation("users.manage")({
  args: { invitationId: v.id("invitations") },
  returns: vIssuedInvitation,
  handler: async (ctx, { invitationId }) => {
    const invitation = await ctx.db.get("invitations", invitationId);
    if (invitation === null) throw appError("NOT_FOUND");
    await assertGrantable(ctx, ctx.viewer, ctx.viewer.orgId, invitationRoles(invitation));
    const issued = await resendInvitation(ctx, invitation, ctx.viewer.org.name, displayName(ctx.viewer.user));
    await audit(ctx, ctx.viewer, {
      action: "invitation.resend",
      target: { table: "invitations", id: invitationId, label: invitation.email },
      summary: `Sent the invitation of ${invitation.email} again with a new link.`,
    });
    return issued;
  },
});

/** Withdraws a pending invitation; its link stops working. */
export const revoke = orgMutation("users.manage")({
  args: { invitationId: v.id("invitations") },
  returns: v.null(),
  handler: async (ctx, { invitationId }) => {
    const invitation = await ctx.db.get("invitations", invitationId);
    if (invitation === null) throw appError("NOT_FOUND");
    // Withdrawing grants nothing: any invitation below the caller (or a peer's) may be revoked.
    if (!canManageMember(ctx.viewer, invitationRoles(invitation), await orgRoleLookup(ctx, ctx.viewer.orgId))) {
      throw appError("FORBIDDEN", MEMBER_DENIED);
    }
    if (invitation.status !== "pending") throw appError("VALIDATION_ERROR", "Only pending invitations can be revoked.");
    await ctx.db.patch("invitations", invitationId, { status: "revoked" });
    await audit(ctx, ctx.viewer, {
      action: "invitation.revoke",
      target: { table: "invitations", id: invitationId, label: invitation.email },
      summary: `Revoked the invitation of ${invitation.email}.`,
    });
    return null;
  },
});

/**
 * The invitation behind an /accept-invitation link, or null when id and token do not match a
 * pending, unexpired invitation. Only the token holder learns anything.
 */
export const getInvitation = publicQuery({
  args: { id: v.string(), token: v.string() },
  returns: v.union(
    coreTables.invitations.validator.pick("firstName", "lastName", "email", "kind").extend({
      id: v.id("invitations"),
      organizationName: v.string(),
      /** role names (the first role's, and every role granted) */
      role: v.string(),
      roles: v.array(v.string()),
      invitedBy: v.string(),
      accountExists: v.boolean(),
    }),
    v.null(),
  ),
  handler: async (ctx, { id, token }) => {
    if (id.length > 64 || token.length > 128) return null;
    const invitation = await findValidInvitation(ctx, id, token);
    if (invitation === null) return null;
    const org = await ctx.db.get("organizations", invitation.orgId);
    if (org === null) return null;
    const lookup = await orgRoleLookup(ctx, invitation.orgId);
    const inviter = await ctx.db.get("users", invitation.invitedBy);
    const existing = await ctx.db
      .query("users")
      .withIndex("email", (q) => q.eq("email", invitation.email))
      .first();
    return {
      id: invitation._id,
      firstName: invitation.firstName,
      lastName: invitation.lastName,
      email: invitation.email,
      organizationName: org.name,
      role: lookup(invitation.role)?.name ?? invitation.role,
      roles: invitationRoles(invitation).map((r) => lookup(r)?.name ?? r),
      invitedBy: displayName(inviter),
      kind: invitation.kind,
      accountExists: existing !== null,
    };
  },
});

/** Accepts an invitation as the signed-in user (who already had an account with the invited email). */
export const acceptInvitation = userMutation({
  args: { id: v.string(), token: v.string() },
  returns: v.object({ orgId: v.id("organizations") }),
  handler: async (ctx, { id, token }) => {
    const orgId = await acceptInvitationForExistingUser(ctx, ctx.user, id, token);
    return { orgId };
  },
});
