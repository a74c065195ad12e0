/**
 * Who an email blast can go to besides groups and typed addresses (spec/2 §3 email_lists,
 * list_contacts, email_segments, segment_members): mailing lists with their contacts, and saved
 * segments (rules over the voter file, lib/email/rules.ts) with the members of their latest refresh.
 */
import { defineTable } from "convex/server";
import { v, type Infer } from "convex/values";
import { DISTRICT_FIELD, RULE_FIELDS, RULE_OPERATORS, TIME_UNITS } from "../lib/email/rules";

export const vListSubscriptionType = v.union(v.literal("all_voters"), v.literal("manual"));
export type ListSubscriptionType = Infer<typeof vListSubscriptionType>;

/** An event or filter rule as functions return it (lib/email/rules.ts EmailRule). */
export const vEmailRule = v.object({
  id: v.string(),
  field: v.union(v.literal(""), ...RULE_FIELDS.map((f) => v.literal(f)), v.literal(DISTRICT_FIELD)),
  operator: v.union(...RULE_OPERATORS.map((o) => v.literal(o))),
  value: v.string(),
  timeDelay: v.optional(v.number()),
  timeUnit: v.optional(v.union(...TIME_UNITS.map((u) => v.literal(u)))),
});

export const vListContactStatus = v.union(v.literal("active"), v.literal("removed"));

export const emailAudienceTables = {
  /**
   * "all_voters" (All Contacts) stands for every voter of the organisation with an email and has
   * no contact rows; "manual" lists hold their contacts in emailListContacts.
   */
  emailLists: defineTable({
    orgId: v.id("organizations"),
    name: v.string(),
    description: v.union(v.string(), v.null()),
    subscriptionType: vListSubscriptionType,
    isActive: v.boolean(),
    /** active contacts of a manual list (0 for all_voters: its count is the voter counter's) */
    contactCount: v.number(),
    createdBy: v.id("users"),
    createdAt: v.number(),
    updatedAt: v.number(),
  }).index("by_org_name", ["orgId", "name"]),

  /** A voter on a manual list, with the address it had when added (lowercased). */
  emailListContacts: defineTable({
    orgId: v.id("organizations"),
    listId: v.id("emailLists"),
    voterId: v.id("voters"),
    email: v.string(),
    status: vListContactStatus,
    addedAt: v.number(),
  })
    .index("by_list_status", ["listId", "status"])
    .index("by_list_voter", ["listId", "voterId"])
    .index("by_voter", ["voterId"]),

  /**
   * A saved filter of the voter file. Its members are materialised by a refresh: a chain of steps
   * writes generation `refreshGen`'s members, then makes it the current `gen` (cachedCount,
   * lastRefreshedAt) and deletes older generations. A newer refresh abandons an older one.
   */
  emailSegments: defineTable({
    orgId: v.id("organizations"),
    name: v.string(),
    description: v.union(v.string(), v.null()),
    /** JSON text of EmailRule[] (lib/email/rules.ts serializeRules) */
    rules: v.string(),
    cachedCount: v.number(),
    lastRefreshedAt: v.union(v.number(), v.null()),
    /** the generation of emailSegmentMembers that is current */
    gen: v.number(),
    refreshing: v.boolean(),
    /** null: a refresh carries its cursor from step to step (writing the segment per step would re-run its readers) */
    refreshCursor: v.optional(v.union(v.string(), v.null())),
    /** the generation the running refresh writes */
    refreshGen: v.optional(v.number()),
    /** members of refreshGen removed since it started (their voters were deleted): taken off its count */
    refreshDropped: v.optional(v.number()),
    createdBy: v.id("users"),
    createdAt: v.number(),
    updatedAt: v.number(),
  }).index("by_org_name", ["orgId", "name"]),

  /** A voter (with an email) matching a segment's rules, in one refresh generation. */
  emailSegmentMembers: defineTable({
    orgId: v.id("organizations"),
    segmentId: v.id("emailSegments"),
    voterId: v.id("voters"),
    gen: v.number(),
  })
    .index("by_segment_gen", ["segmentId", "gen"])
    .index("by_voter", ["voterId"]),
};
