/**
 * Calls to action (spec/3 §3.3): each organisation's saved designs, the platform-wide custom
 * templates (saved by super admins, visible to everyone: functions.ts GLOBAL_TABLES) and click
 * counts of embedded CTAs. A design is stored as JSON text of lib/cta/design.ts `CtaDesign`
 * (validated by `normalizeDesign`); the live, co-edited draft is the Yjs document "cta:<id>".
 */
import { defineTable } from "convex/server";
import { v } from "convex/values";

/** Click counts are spread over shards so that many visitors clicking at once do not conflict. */
export const CTA_CLICK_SHARDS = 8;

export const ctaTables = {
  ctas: defineTable({
    orgId: v.id("organizations"),
    name: v.string(),
    description: v.string(),
    width: v.number(),
    height: v.number(),
    elementCount: v.number(),
    /** the whole CtaDesign as JSON text */
    design: v.string(),
    version: v.number(),
    createdBy: v.id("users"),
    createdAt: v.number(),
    updatedBy: v.id("users"),
    updatedByName: v.string(),
    updatedAt: v.number(),
  })
    .index("by_org_created", ["orgId", "createdAt"])
    .index("by_org_name", ["orgId", "name"]),

  /** Custom templates, platform-wide: created, edited and deleted by super administrators only. */
  ctaTemplates: defineTable({
    name: v.string(),
    category: v.string(),
    design: v.string(),
    createdBy: v.id("users"),
    createdAt: v.number(),
    updatedByName: v.string(),
    updatedAt: v.number(),
  }).index("by_name", ["name"]),

  ctaClickShards: defineTable({
    orgId: v.id("organizations"),
    ctaId: v.id("ctas"),
    shard: v.number(),
    clicks: v.number(),
  }).index("by_cta_shard", ["ctaId", "shard"]),
};
