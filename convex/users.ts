/**
 * The signed-in user's own account: profile edits (spec/1 §2, §5), password change, and the
 * public check of a password-reset link (spec/3 §2.5) before the reset form is shown.
 */
import { invalidateSessions, modifyAccountCredentials, retrieveAccount } from "@convex-dev/auth/server";
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalQuery, publicAction, publicQuery, userMutation } from "./functions";
import { appError } from "./lib/errors";
import { requireUser } from "./model/viewer";
import { normalizeEmail, sha256Hex } from "./model/strings";
import { isWeakPassword, MIN_PASSWORD_LENGTH, PASSWORD_MESSAGES } from "./model/passwords";
import { TEXTS } from "./lib/texts";

/** Convex Auth's provider ids (convex/auth.ts). */
export const PASSWORD_PROVIDER = "password";
export const RESET_PROVIDER = "password-reset";

export const RESET_LINK_MESSAGES = {
  missing: "Invalid or missing recovery token",
  format: "Invalid recovery link format",
  invalid: TEXTS.auth.recoveryLinkInvalid,
} as const;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Edit the profile. Changing the email also renames the Convex Auth password account, so sign-in keeps working. */
export const updateProfile = userMutation({
  args: {
    firstName: v.string(),
    lastName: v.string(),
    email: v.string(),
    phone: v.optional(v.string()),
    organization: v.optional(v.string()),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const firstName = args.firstName.trim();
    const lastName = args.lastName.trim();
    const email = normalizeEmail(args.email);
    if (!firstName || !lastName || !email) throw appError("VALIDATION_ERROR", TEXTS.profile.required);
    if (!EMAIL_RE.test(email) || email.length > 254)
      throw appError("VALIDATION_ERROR", "Please enter a valid email address.");
    if (firstName.length > 100 || lastName.length > 100)
      throw appError("VALIDATION_ERROR", "Names can be at most 100 characters.");
    const phone = (args.phone ?? "").trim();
    const organization = (args.organization ?? "").trim();
    if (phone.length > 40 || organization.length > 200) throw appError("VALIDATION_ERROR");

    const user = ctx.user;
    if (email !== normalizeEmail(user.email ?? "")) {
      const taken = await ctx.db
        .query("users")
        .withIndex("email", (q) => q.eq("email", email))
        .first();
      const takenAccount = await ctx.db
        .query("authAccounts")
        .withIndex("providerAndAccountId", (q) => q.eq("provider", PASSWORD_PROVIDER).eq("providerAccountId", email))
        .first();
      if ((taken && taken._id !== user._id) || (takenAccount && takenAccount.userId !== user._id)) {
        throw appError("DUPLICATE_ERROR", "An account with this email already exists.");
      }
      const account = await ctx.db
        .query("authAccounts")
        .withIndex("userIdAndProvider", (q) => q.eq("userId", user._id).eq("provider", PASSWORD_PROVIDER))
        .unique();
      if (account) await ctx.db.patch("authAccounts", account._id, { providerAccountId: email });
    }
    await ctx.db.patch("users", user._id, {
      firstName,
      lastName,
      email,
      name: `${firstName} ${lastName}`,
      phone: phone || undefined,
      organization: organization || undefined,
    });
    return null;
  },
});

/** The caller's password-account id (their email), user and session, or an error when signed out / not a password user. */
export const passwordAccountOfCaller = internalQuery({
  args: {},
  handler: async (ctx) => {
    const user = await requireUser(ctx);
    const account = await ctx.db
      .query("authAccounts")
      .withIndex("userIdAndProvider", (q) => q.eq("userId", user._id).eq("provider", PASSWORD_PROVIDER))
      .unique();
    if (account === null) throw appError("VALIDATION_ERROR", "This account does not sign in with a password.");
    const identity = await ctx.auth.getUserIdentity();
    const sessionId = ctx.db.normalizeId("authSessions", identity?.subject.split("|")[1] ?? "");
    return { accountId: account.providerAccountId, userId: user._id, sessionId };
  },
});

/**
 * Change the password after checking the current one (spec/1 §5 messages). Wrong guesses of the
 * current password are throttled like sign-ins; a change signs out every other session.
 */
export const changePassword = publicAction({
  args: { currentPassword: v.string(), newPassword: v.string() },
  returns: v.null(),
  handler: async (ctx, { currentPassword, newPassword }) => {
    const { accountId, userId, sessionId } = await ctx.runQuery(internal.users.passwordAccountOfCaller, {});
    if (newPassword.length < MIN_PASSWORD_LENGTH) throw appError("VALIDATION_ERROR", PASSWORD_MESSAGES.short);
    if (newPassword === currentPassword) throw appError("VALIDATION_ERROR", PASSWORD_MESSAGES.same);
    if (isWeakPassword(newPassword)) throw appError("VALIDATION_ERROR", PASSWORD_MESSAGES.weak);
    const throttle = { email: accountId, address: `session-of:${userId}` };
    await ctx.runMutation(internal.authThrottle.begin, { flow: "changePassword", ...throttle });
    try {
      await retrieveAccount(ctx, { provider: PASSWORD_PROVIDER, account: { id: accountId, secret: currentPassword } });
    } catch {
      await ctx.runMutation(internal.authThrottle.failed, { ...throttle, spendAccountBudget: false });
      throw appError("VALIDATION_ERROR", PASSWORD_MESSAGES.wrongCurrent);
    }
    await ctx.runMutation(internal.authThrottle.succeeded, throttle);
    await modifyAccountCredentials(ctx, {
      provider: PASSWORD_PROVIDER,
      account: { id: accountId, secret: newPassword },
    });
    await invalidateSessions(ctx, { userId, except: sessionId ? [sessionId] : [] });
    return null;
  },
});

/**
 * Is this reset link usable? Convex Auth stores sha256-hex of the code in authVerificationCodes
 * (provider "password-reset"), tied to the password account whose id is the email.
 */
export const checkResetLink = publicQuery({
  args: { email: v.string(), code: v.string() },
  returns: v.union(
    v.object({ valid: v.literal(false), message: v.string() }),
    v.object({ valid: v.literal(true), message: v.null() }),
  ),
  handler: async (ctx, args) => {
    const email = normalizeEmail(args.email);
    const code = args.code.trim();
    if (!email || !code) return { valid: false as const, message: RESET_LINK_MESSAGES.missing };
    if (!/^[A-Za-z0-9]{8,128}$/.test(code) || !EMAIL_RE.test(email))
      return { valid: false as const, message: RESET_LINK_MESSAGES.format };
    const codeHash = await sha256Hex(code);
    const row = await ctx.db
      .query("authVerificationCodes")
      .withIndex("code", (q) => q.eq("code", codeHash))
      .unique();
    if (row === null || row.provider !== RESET_PROVIDER || row.expirationTime < Date.now()) {
      return { valid: false as const, message: RESET_LINK_MESSAGES.invalid };
    }
    const account = await ctx.db.get("authAccounts", row.accountId);
    if (account === null || normalizeEmail(account.providerAccountId) !== email) {
      return { valid: false as const, message: RESET_LINK_MESSAGES.invalid };
    }
    return { valid: true as const, message: null };
  },
});
