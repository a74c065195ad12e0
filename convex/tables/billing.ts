/** Recorded billing profile: payment methods (brand/last4/expiry only) and billing history. */
import { defineTable } from "convex/server";
import { v } from "convex/values";

export const billingTables = {
  paymentMethods: defineTable({
    orgId: v.id("organizations"),
    name: v.string(),
    brand: v.string(),
    last4: v.string(),
    expMonth: v.string(),
    expYear: v.string(),
    createdAt: v.number(),
  }).index("by_org", ["orgId"]),

  billingHistory: defineTable({
    orgId: v.id("organizations"),
    date: v.number(),
    amount: v.number(),
    status: v.string(),
    description: v.string(),
    /** the plan change this entry records */
    tier: v.optional(v.string()),
    billingCycle: v.optional(v.union(v.literal("monthly"), v.literal("yearly"))),
    paymentMethodId: v.optional(v.id("paymentMethods")),
    changedBy: v.optional(v.id("users")),
  }).index("by_org_date", ["orgId", "date"]),
};
