/**
 * Convex Auth (Password provider): sign up, sign in, reset by emailed link. New users get their
 * own organisation unless they sign up through an invitation, which joins the inviting one.
 */
import { Email } from "@convex-dev/auth/providers/Email";
import { Password } from "@convex-dev/auth/providers/Password";
import { convexAuth } from "@convex-dev/auth/server";
import { ConvexError } from "convex/values";
import { internal } from "./_generated/api";
import type { MutationCtx } from "./_generated/server";
import { createOrganizationFor } from "./model/orgs";
import { acceptInvitationForNewUser } from "./model/invitations";
import { MIN_PASSWORD_LENGTH, normalizeEmail, randomToken } from "./model/strings";

const passwordReset = Email({
  id: "password-reset",
  maxAge: 60 * 60,
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
      to: identifier,
      kind: "password_reset",
      subject: "Reset your Precinct password",
      text: `Someone asked to reset the password of your Precinct account.\n\nOpen this link to choose a new password (valid until ${expires.toISOString()}):\n${url}\n\nIf you did not ask for this, ignore this email.`,
    });
  }) as unknown as (params: { identifier: string }) => Promise<void>,
});

export const { auth, signIn, signOut, store, isAuthenticated } = convexAuth({
  providers: [
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
      validatePasswordRequirements(password: string) {
        if (!password || password.length < MIN_PASSWORD_LENGTH) {
          throw new ConvexError({ code: "VALIDATION_ERROR", message: "Password must be at least 6 characters long" });
        }
      },
    }),
  ],
  callbacks: {
    async createOrUpdateUser(ctx, args) {
      const mctx = ctx as unknown as MutationCtx;
      if (args.existingUserId) return args.existingUserId;
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
      await (ctx as unknown as MutationCtx).db.patch(userId, { lastSignInAt: Date.now() });
    },
  },
});
