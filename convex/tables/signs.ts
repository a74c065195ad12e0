/**
 * Yard signs (spec/3 §2.6, §3.1, §4): each sign of the organisation with its campaign, place,
 * dates and people; per-tile counts that let the map show 100,000 signs without loading them; one
 * timer per organisation that moves signs along in time (placement → Active, removal date → due
 * for pickup).
 */
import { defineTable } from "convex/server";
import { v } from "convex/values";

export const SIGN_STATUSES = ["Active", "Scheduled", "Removed"] as const;
export type SignStatus = (typeof SIGN_STATUSES)[number];
export const vSignStatus = v.union(v.literal("Active"), v.literal("Scheduled"), v.literal("Removed"));
/** Counts (or coordinate sums) per status. */
/** The fields of a sign people edit, with their labels (the sign form and the server's conflict messages). */
export const SIGN_FIELD_LABELS: Record<string, string> = {
  campaignId: "Campaign",
  address: "Address",
  latitude: "Latitude",
  longitude: "Longitude",
  datePlaced: "Date Placed",
  dateRemoval: "Removal Date",
  notes: "Notes",
  voterId: "Voter",
  responsibleUserId: "Responsible",
  assignedById: "Assigned By",
};

export const vPerStatus = v.object({ Active: v.number(), Scheduled: v.number(), Removed: v.number() });

export const signTables = {
  signs: defineTable({
    orgId: v.id("organizations"),
    campaignId: v.id("campaigns"),
    address: v.string(),
    latitude: v.number(),
    longitude: v.number(),
    /** lib/signs/geo.ts quadkey at SIGN_QUAD_LEVEL: the map's viewport ranges */
    quadkey: v.string(),
    /** when the sign goes (or went) up, and when it is due to come down (ms) */
    datePlaced: v.number(),
    dateRemoval: v.number(),
    status: vSignStatus,
    /** an Active sign past its removal date, waiting to be picked up */
    pickupDue: v.boolean(),
    notes: v.string(),
    /** set by Schedule Sign Placement: the chosen day (yyyy-mm-dd) and time (HH:mm) */
    scheduledDate: v.union(v.string(), v.null()),
    scheduledTime: v.union(v.string(), v.null()),
    responsibleUserId: v.union(v.id("users"), v.null()),
    assignedById: v.union(v.id("users"), v.null()),
    /** set by Mark as removed */
    actualRemovalDate: v.union(v.number(), v.null()),
    /** the voter whose yard it is in */
    voterId: v.union(v.id("voters"), v.null()),
    createdBy: v.id("users"),
    updatedAt: v.number(),
  })
    // by_org lists newest first (the table's "All"); the others answer the map, the status
    // filters, the timer and the pickup list
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_org", ["orgId"])
    .index("by_org_quad", ["orgId", "quadkey"])
    .index("by_org_status_quad", ["orgId", "status", "quadkey"])
    .index("by_org_status_placed", ["orgId", "status", "datePlaced"])
    .index("by_org_pickup", ["orgId", "pickupDue", "status", "dateRemoval"])
    .index("by_voter", ["voterId"])
    .index("by_campaign", ["campaignId"]),

  /** Signs per tile and status at levels 0..MAX_CELL_LEVEL, with coordinate sums for centroids. */
  signCells: defineTable({
    orgId: v.id("organizations"),
    level: v.number(),
    key: v.string(),
    count: vPerStatus,
    latSum: vPerStatus,
    lngSum: vPerStatus,
  }).index("by_org_level_key", ["orgId", "level", "key"]),

  /** The organisation's next sign transition and the scheduled job that makes it. */
  signTimers: defineTable({
    orgId: v.id("organizations"),
    nextAt: v.number(),
    jobId: v.id("_scheduled_functions"),
  }).index("by_org", ["orgId"]),
};
