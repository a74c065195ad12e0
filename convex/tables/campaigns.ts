/**
 * Campaigns of every area: SMS and email outreach, and sign campaigns made from the sign map (one
 * table, as the dashboard counts them together), with the groups each one targets.
 */
import { defineTable } from "convex/server";
import { v } from "convex/values";

export const campaignTables = {
  /**
   * Outreach campaigns (SMS, email) and sign campaigns made from the sign map; an individually
   * sent email is logged as a completed one.
   */
  campaigns: defineTable({
    orgId: v.id("organizations"),
    name: v.string(),
    description: v.union(v.string(), v.null()),
    campaign_type: v.union(v.literal("sms"), v.literal("email"), v.literal("signs")),
    status: v.string(),
    voter_groups: v.optional(v.array(v.id("voterGroups"))),
    individual_voters: v.optional(v.array(v.id("voters"))),
    subject: v.optional(v.string()),
    body: v.optional(v.string()),
    sentCount: v.optional(v.number()),
    createdBy: v.optional(v.id("users")),
    updatedAt: v.number(),
  }).index("by_org_type", ["orgId", "campaign_type"]),

  campaignTargets: defineTable({
    orgId: v.id("organizations"),
    campaignId: v.id("campaigns"),
    groupId: v.id("voterGroups"),
  })
    .index("by_group", ["groupId"])
    .index("by_campaign", ["campaignId"]),
};
