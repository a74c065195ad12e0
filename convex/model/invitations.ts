/** Invitation tokens: created by admins, emailed, accepted once before they expire. */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import { addMember } from "./orgs";
import { normalizeEmail, sha256Hex } from "./strings";

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
  const invitation = await ctx.db.get(id);
  if (invitation === null || invitation.status !== "pending" || invitation.expiresAt < Date.now()) return null;
  if ((await sha256Hex(token)) !== invitation.tokenHash) return null;
  return invitation;
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
  await addMember(ctx, invitation.orgId, userId, [invitation.role], invitation.invitedBy);
  await ctx.db.patch(invitation._id, { status: "accepted", acceptedAt: Date.now(), acceptedUserId: userId });
  await ctx.db.patch(userId, { activeOrgId: invitation.orgId });
}
