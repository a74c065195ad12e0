/**
 * Convex Auth (Password provider): sign up, sign in, reset by emailed link. New users get their
 * own organisation unless they sign up through an invitation, which joins the inviting one.
 */
import { Email } from "@convex-dev/auth/providers/Email";
import { Password } from "@convex-dev/auth/providers/Password";
import { convexAuth, invalidateSessions } from "@convex-dev/auth/server";
import { ConvexError } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { createOrganizationFor } from "./model/orgs";
import { acceptInvitationForNewUser } from "./model/invitations";
import { normalizeEmail, randomToken } from "./model/strings";
import { hashCheckDecoy, newPasswordProblem, RESET_CODE_MAX_AGE_MS } from "./model/passwords";
import { verifyTicket } from "./model/clientAddress";
import { markEmailVerified } from "./model/emailVerification";
import { appError, CODE_REFUSED } from "./lib/errors";
import type { ActionCtx } from "./_generated/server";
import { TEXTS } from "./lib/texts";

const passwordReset = Email({
  id: "password-reset",
  maxAge: RESET_CODE_MAX_AGE_MS / 1000,
  async generateVerificationToken() {
    return randomToken(24);
  },
  // Convex Auth passes the action ctx as a second argument (its types do not declare it yet).
  sendVerificationRequest: (async (
    { identifier, url, expires }: { identifier: string; url: string; expires: Date },
    ctx: unknown,
  ) => {
    const actionCtx = ctx as { runMutation: (ref: typeof internal.emails.enqueue, args: unknown) => Promise<unknown> };
    await actionCtx.runMutation(internal.emails.enqueue, {
      to: normalizeEmail(identifier),
      kind: "password_reset",
      subject: "Reset your Precinct password",
      text: `Someone asked to reset the password of your Precinct account.\n\nOpen this link to choose a new password (valid until ${expires.toISOString()}):\n${url}\n\nOnly the most recent reset email works. If you did not ask for this, ignore this email.`,
    });
  }) as unknown as (params: { identifier: string }) => Promise<void>,
});

type Authorize = (params: Record<string, unknown>, ctx: ActionCtx) => Promise<unknown>;

export const INVALID_CREDENTIALS = TEXTS.auth.invalidCredentials;
export const STALE_FORM = "Your sign-in form has expired. Please reload the page and try again.";
export const SIGN_UP_REFUSED =
  "We could not create an account with these details. If you already have an account, sign in or reset your password.";

const THROTTLED_FLOWS = new Set(["signIn", "signUp", "reset", "reset-verification"]);

/**
 * Puts the throttle of authThrottle.ts around the password provider: every attempt carries a
 * ticket naming the client address, is refused while a limit is spent, and failures count. The
 * answers do not tell whether an email has an account: an unknown email and a wrong password get
 * the same error after the same work (one Scrypt verify), and a reset request for an unknown email
 * gets the same answer as a known one. A reset request beyond the account's email budget gets that
 * answer too, without a new email. A wrong or used reset code gets CODE_REFUSED.
 */
function throttled<P>(provider: P): P {
  const options = (provider as unknown as { options: { authorize: Authorize } }).options;
  const inner = options.authorize;
  options.authorize = async (params, ctx) => {
    const flow = typeof params.flow === "string" ? params.flow : "";
    if (!THROTTLED_FLOWS.has(flow)) return await inner(params, ctx);
    const address = await verifyTicket(params.ticket);
    if (address === null) throw appError("VALIDATION_ERROR", STALE_FORM);
    const email = normalizeEmail(typeof params.email === "string" ? params.email : "");
    const attempt = { email, address };
    const { quiet } = await ctx.runMutation(internal.authThrottle.begin, { flow: flow as "signIn", ...attempt });
    if (flow === "reset" && quiet) return null;
    try {
      const result = await inner(params, ctx);
      // a reset-verification that verified nothing (result null) is no reset
      if (flow === "signIn" || flow === "reset-verification")
        await ctx.runMutation(internal.authThrottle.succeeded, {
          ...attempt,
          audit: flow === "signIn" ? "signin.success" : result !== null ? "password.reset" : undefined,
        });
      if (flow === "reset-verification" && result !== null) {
        // A completed reset signs nobody in (the spec sends the user on to sign in with the new
        // password): every session of the account ends, the one the reset opened included, and
        // the caller gets no tokens. A client that got tokens here and signed out at once could
        // have them renewed by its own refresh racing the sign-out.
        await invalidateSessions(ctx, { userId: (result as { userId: Id<"users"> }).userId });
        return null;
      }
      return result;
    } catch (e) {
      const reason = e instanceof Error ? e.message : "";
      if (flow === "signIn" && /InvalidAccountId|InvalidSecret|Invalid credentials/.test(reason)) {
        if (reason.includes("InvalidAccountId"))
          await hashCheckDecoy(typeof params.password === "string" ? params.password : "");
        await ctx.runMutation(internal.authThrottle.failed, { ...attempt, audit: "signin.failure" });
        throw appError("UNAUTHORIZED", INVALID_CREDENTIALS);
      }
      if (flow === "reset-verification" && /Could not verify code|Invalid code|InvalidAccountId/.test(reason)) {
        // Codes are long random tokens: the pair's delay is enough, the account's budget stays.
        await ctx.runMutation(internal.authThrottle.failed, { ...attempt, spendAccountBudget: false });
        throw appError("VALIDATION_ERROR", CODE_REFUSED);
      }
      if (flow === "reset" && reason.includes("InvalidAccountId")) return null;
      if (flow === "signUp" && /already exists/.test(reason)) throw appError("VALIDATION_ERROR", SIGN_UP_REFUSED);
      throw e;
    }
  };
  return provider;
}

export const { auth, signIn, signOut, store, isAuthenticated } = convexAuth({
  // The throttle above replaces Convex Auth's per-account lockout, which let anyone lock any
  // account (10 wrong passwords an hour locked out its owner too).
  signIn: { maxFailedAttempsPerHour: 1_000_000 },
  providers: [
    throttled(
      Password({
        reset: passwordReset,
        profile(params) {
          const str = (x: unknown) => (typeof x === "string" ? x : "");
          const email = normalizeEmail(str(params.email));
          const firstName = str(params.firstName).trim();
          const lastName = str(params.lastName).trim();
          return {
            email,
            firstName,
            lastName,
            ...(typeof params.invitationId === "string" ? { invitationId: params.invitationId } : {}),
            ...(typeof params.invitationToken === "string" ? { invitationToken: params.invitationToken } : {}),
          };
        },
        // Sign-up and reset refuse what change-password refuses: too short, or too weak.
        validatePasswordRequirements(password: string) {
          const problem = newPasswordProblem(password);
          if (problem !== null) throw new ConvexError({ code: "VALIDATION_ERROR", message: problem });
        },
      }),
    ),
  ],
  callbacks: {
    async createOrUpdateUser(ctx, args) {
      const mctx = ctx as unknown as MutationCtx;
      if (args.existingUserId) {
        // A completed password reset: the code came to the account's address, which is now verified.
        const verified =
          args.type === "verification" && (args.profile as { emailVerified?: unknown }).emailVerified === true;
        if (verified) await markEmailVerified(mctx, args.existingUserId);
        return args.existingUserId;
      }
      const profile = args.profile as {
        email?: string;
        firstName?: string;
        lastName?: string;
        invitationId?: string;
        invitationToken?: string;
      };
      const email = normalizeEmail(profile.email ?? "");
      const firstName = profile.firstName ?? "";
      const lastName = profile.lastName ?? "";
      const userId = await mctx.db.insert("users", {
        email,
        firstName,
        lastName,
        name: `${firstName} ${lastName}`.trim() || email,
      });
      if (profile.invitationId && profile.invitationToken) {
        await acceptInvitationForNewUser(mctx, userId, email, profile.invitationId, profile.invitationToken);
      } else {
        await createOrganizationFor(mctx, userId, `${firstName} ${lastName}`.trim() || email);
      }
      return userId;
    },
    async beforeSessionCreation(ctx, { userId }) {
      await (ctx as unknown as MutationCtx).db.patch("users", userId, { lastSignInAt: Date.now() });
    },
  },
});
