/**
 * Verifying one's email address with a code emailed to it. An address listed in
 * SUPER_ADMIN_EMAILS gives super administrator access only once verified (model/emailVerification.ts).
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { appError, internalMutation, userAction, userMutation, userQuery } from "./functions";
import {
  checkVerificationCode,
  pendingCode,
  sendVerificationCode,
  VERIFICATION_MESSAGES,
} from "./model/emailVerification";
import { superAdminPendingVerification } from "./model/orgs";
import { requireUser } from "./model/viewer";
import { securityTables } from "./tables/security";

/** Whether the caller's address is verified, whether the list's super admin role waits on it, and the code in flight. */
export const status = userQuery({
  args: {},
  returns: v.object({
    email: v.string(),
    verified: v.boolean(),
    superAdminPending: v.boolean(),
    /** the code in flight, if one is */
    code: v.union(securityTables.emailVerificationCodes.validator.pick("sentAt", "expiresAt"), v.null()),
  }),
  handler: async (ctx) => ({
    email: ctx.user.email ?? "",
    verified: ctx.user.emailVerificationTime !== undefined,
    superAdminPending: superAdminPendingVerification(ctx.user),
    code: await pendingCode(ctx, ctx.user._id),
  }),
});

/** Emails a code to the caller's own address (only one whose super admin access waits on it). */
export const sendCode = userMutation({
  args: {},
  returns: v.object({ sentTo: v.string(), expiresAt: v.number() }),
  handler: async (ctx) => await sendVerificationCode(ctx, ctx.user),
});

/** Checks the code; a wrong one is refused, and the code stops working after a few wrong tries. */
export const verify = userAction({
  args: { code: v.string() },
  returns: v.null(),
  handler: async (ctx, { code }): Promise<null> => {
    if (code.length > 64) throw appError("VALIDATION_ERROR", VERIFICATION_MESSAGES.wrong);
    const result = await ctx.runMutation(internal.emailVerification.check, { code });
    if (result === "wrong") throw appError("VALIDATION_ERROR", VERIFICATION_MESSAGES.wrong);
    if (result === "locked") throw appError("VALIDATION_ERROR", VERIFICATION_MESSAGES.locked);
    return null;
  },
});

/** The check itself: it returns instead of throwing, so that a wrong try is counted. */
export const check = internalMutation({
  args: { code: v.string() },
  returns: v.union(v.literal("verified"), v.literal("wrong"), v.literal("locked")),
  handler: async (ctx, { code }) => await checkVerificationCode(ctx, await requireUser(ctx), code),
});
