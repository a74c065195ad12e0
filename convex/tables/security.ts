/** Abuse controls: rate-limit buckets (convex-helpers), the sign-in throttle per (account, address), email verification codes. */
import { defineTable } from "convex/server";
import { rateLimitTables } from "convex-helpers/server/rateLimit";
import { v } from "convex/values";

export const securityTables = {
  ...rateLimitTables,
  /** Failed sign-ins of one account from one client address: the exponential delay's state. */
  signInThrottle: defineTable({
    email: v.string(),
    address: v.string(),
    failures: v.number(),
    nextAllowedAt: v.number(),
    lastFailureAt: v.number(),
    /** this address has signed in to this account before: the per-account cap does not apply to it */
    trusted: v.boolean(),
  })
    .index("by_email_address", ["email", "address"])
    .index("by_last_failure", ["lastFailureAt"]),
  /** A code emailed to a user's address to verify it (model/emailVerification.ts): one per user. */
  emailVerificationCodes: defineTable({
    userId: v.id("users"),
    /** the address the code went to: it verifies only that address */
    email: v.string(),
    /** SHA-256 hex of the code; the code itself is only in the email */
    codeHash: v.string(),
    sentAt: v.number(),
    expiresAt: v.number(),
    /** wrong entries so far; the code is deleted at the limit */
    attempts: v.number(),
  }).index("by_user", ["userId"]),
};
