/** Invitation tokens: created by admins, emailed, accepted once before they expire. */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { queueEmail } from "./emails";
import { appError } from "../lib/errors";
import { addMember } from "./orgs";
import { notifyInvitationAccepted } from "./preferences";
import { normalizeEmail, randomToken, sha256Hex } from "./strings";
import type { IssuedInvitation } from "../tables/core";
import { audit } from "./audit";

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const INVALID_INVITATION = "The invitation link is invalid or has expired.";

/** The invitation if id and token match a pending, unexpired one; null otherwise. */
export async function findValidInvitation(
  ctx: QueryCtx,
  invitationId: string,
  token: string,
): Promise<Doc<"invitations"> | null> {
  const id = ctx.db.normalizeId("invitations", invitationId);
  if (id === null) return null;
  const invitation = await ctx.db.get("invitations", id);
  if (invitation === null || invitation.status !== "pending" || invitation.expiresAt < Date.now()) return null;
  if ((await sha256Hex(token)) !== invitation.tokenHash) return null;
  return invitation;
}

/** Every role an invitation grants. */
export function invitationRoles(invitation: Doc<"invitations">): string[] {
  return invitation.roles && invitation.roles.length > 0 ? invitation.roles : [invitation.role];
}

/** The link in the email: the web app's origin (SITE_URL) + /accept-invitation?id&token. */
export function invitationLink(invitationId: Id<"invitations">, token: string): string {
  const origin = (process.env.SITE_URL ?? "").replace(/\/+$/, "");
  return `${origin}/accept-invitation?id=${encodeURIComponent(invitationId)}&token=${encodeURIComponent(token)}`;
}

export type InvitationInput = {
  orgId: Id<"organizations">;
  orgName: string;
  email: string;
  firstName: string;
  lastName: string;
  roles: string[];
  kind: "invite" | "create";
  invitedBy: Id<"users">;
  inviterName: string;
};

function invitationEmail(
  kind: "invite" | "create",
  firstName: string,
  orgName: string,
  inviterName: string,
  link: string,
  expiresAt: number,
) {
  const until = new Date(expiresAt).toUTCString();
  if (kind === "create") {
    return {
      subject: `Your Precinct account for ${orgName}`,
      text: `Hello ${firstName},\n\n${inviterName} created a Precinct account for you in ${orgName}.\n\nOpen this link to set your password and sign in (valid until ${until}, once):\n${link}\n\nIf you did not expect this, ignore this email.`,
    };
  }
  return {
    subject: `You're invited to join ${orgName} on Precinct`,
    text: `Hello ${firstName},\n\n${inviterName} invited you to join ${orgName} on Precinct.\n\nOpen this link to accept the invitation (valid until ${until}, once):\n${link}\n\nIf you did not expect this, ignore this email.`,
  };
}

/** Sends a fresh token for an invitation row (new or resent): only its hash is stored. */
async function issueToken(
  ctx: MutationCtx,
  invitation: Pick<Doc<"invitations">, "_id" | "email" | "firstName" | "kind" | "orgId">,
  orgName: string,
  inviterName: string,
): Promise<IssuedInvitation> {
  const token = randomToken();
  const expiresAt = Date.now() + INVITATION_TTL_MS;
  await ctx.db.patch("invitations", invitation._id, {
    tokenHash: await sha256Hex(token),
    expiresAt,
    status: "pending",
  });
  const link = invitationLink(invitation._id, token);
  const { subject, text } = invitationEmail(
    invitation.kind,
    invitation.firstName,
    orgName,
    inviterName,
    link,
    expiresAt,
  );
  await queueEmail(ctx, { to: invitation.email, subject, text, kind: "invitation", orgId: invitation.orgId });
  return { invitationId: invitation._id, email: invitation.email };
}

/**
 * Creates an invitation and emails its link. An earlier pending invitation of the same address
 * to the same organisation is revoked, so only the newest link works.
 */
export async function createInvitation(ctx: MutationCtx, input: InvitationInput): Promise<IssuedInvitation> {
  const email = normalizeEmail(input.email);
  const earlier = await ctx.db
    .query("invitations")
    .withIndex("by_org_email", (q) => q.eq("orgId", input.orgId).eq("email", email))
    .collect();
  for (const e of earlier) if (e.status === "pending") await ctx.db.patch("invitations", e._id, { status: "revoked" });
  const invitationId = await ctx.db.insert("invitations", {
    orgId: input.orgId,
    email,
    firstName: input.firstName.trim(),
    lastName: input.lastName.trim(),
    role: input.roles[0],
    roles: input.roles,
    tokenHash: "",
    expiresAt: 0,
    status: "pending",
    kind: input.kind,
    invitedBy: input.invitedBy,
    createdAt: Date.now(),
  });
  const row = (await ctx.db.get("invitations", invitationId))!;
  return await issueToken(ctx, row, input.orgName, input.inviterName);
}

/** A new token and a new expiry for a pending (or expired) invitation; the old link stops working. */
export async function resendInvitation(
  ctx: MutationCtx,
  invitation: Doc<"invitations">,
  orgName: string,
  inviterName: string,
) {
  if (invitation.status !== "pending") throw appError("VALIDATION_ERROR", "Only pending invitations can be resent.");
  return await issueToken(ctx, invitation, orgName, inviterName);
}

async function accept(ctx: MutationCtx, invitation: Doc<"invitations">, userId: Id<"users">) {
  await addMember(ctx, invitation.orgId, userId, invitationRoles(invitation), invitation.invitedBy);
  await ctx.db.patch("invitations", invitation._id, {
    status: "accepted",
    acceptedAt: Date.now(),
    acceptedUserId: userId,
  });
  await ctx.db.patch("users", userId, { activeOrgId: invitation.orgId });
  await notifyInvitationAccepted(ctx, invitation);
  const user = await ctx.db.get("users", userId);
  await audit(
    ctx,
    { orgId: invitation.orgId, userId, name: user?.name || invitation.email },
    {
      action: "invitation.accept",
      target: { table: "invitations", id: invitation._id, label: invitation.email },
      summary: `${invitation.email} accepted the invitation and joined as ${invitationRoles(invitation).join(", ")}.`,
    },
  );
}

/** Called while Convex Auth creates the account of someone signing up through an invitation. */
export async function acceptInvitationForNewUser(
  ctx: MutationCtx,
  userId: Id<"users">,
  email: string,
  invitationId: string,
  token: string,
) {
  const invitation = await findValidInvitation(ctx, invitationId, token);
  if (invitation === null || normalizeEmail(invitation.email) !== normalizeEmail(email)) {
    throw appError("NOT_FOUND", INVALID_INVITATION, "Invalid Invitation");
  }
  await accept(ctx, invitation, userId);
}

/** A signed-in user (who already had an account) accepts an invitation sent to their address. */
export async function acceptInvitationForExistingUser(
  ctx: MutationCtx,
  user: Doc<"users">,
  invitationId: string,
  token: string,
) {
  const invitation = await findValidInvitation(ctx, invitationId, token);
  if (invitation === null) throw appError("NOT_FOUND", INVALID_INVITATION, "Invalid Invitation");
  if (normalizeEmail(invitation.email) !== normalizeEmail(user.email ?? "")) {
    throw appError(
      "FORBIDDEN",
      `This invitation was sent to ${invitation.email}. Sign in with that address to accept it.`,
    );
  }
  await accept(ctx, invitation, user._id);
  return invitation.orgId;
}
