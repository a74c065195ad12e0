/** Abuse controls: rate-limit buckets (convex-helpers) and the sign-in throttle per (account, address). */
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
};
