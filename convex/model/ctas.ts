/**
 * Calls to action (tables/cta.ts): the save rules, the co-edited draft's seed, click counting.
 */
import { defineRateLimits } from "convex-helpers/server/rateLimit";
import type { Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { DesignError, normalizeDesign, type CtaDesign } from "../lib/cta/design";
import { writeCtaDoc } from "../lib/cta/draft";
import { appError } from "../lib/errors";
import { CTA_CLICK_SHARDS } from "../tables/cta";
import type { Viewer } from "./viewer";
import { seedDocument } from "./yjs";
import { TEXTS } from "../lib/texts";

export const CTA_MAX_JSON = 200_000;
export const CTA_LIST_LIMIT = 300;
export const CTA_MAX_TEMPLATES = 300;

const MINUTE = 60_000;
/** Clicks on embedded CTAs: per visitor address, per CTA, and overall. */
export const { rateLimit: ctaRateLimit } = defineRateLimits({
  ctaClicksPerAddress: { kind: "token bucket", rate: 30, period: MINUTE, capacity: 30 },
  ctaClicksPerCta: { kind: "token bucket", rate: 600, period: MINUTE, capacity: 600, shards: 4 },
  ctaClicksGlobal: { kind: "token bucket", rate: 6_000, period: MINUTE, capacity: 6_000, shards: 8 },
});

export function ctaRoom(id: Id<"ctas">): string {
  return `cta:${id}`;
}

/** A submitted design, parsed and brought within bounds; the spec's words for what cannot be saved. */
export function parseDesign(json: string, title = "Save failed"): CtaDesign {
  if (json.length > CTA_MAX_JSON)
    throw appError("VALIDATION_ERROR", "This CTA is too large to save. Remove some elements.", title);
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw appError("VALIDATION_ERROR", "The design could not be read.", title);
  }
  try {
    return normalizeDesign(raw);
  } catch (e) {
    if (e instanceof DesignError) throw appError("VALIDATION_ERROR", e.message, title);
    throw e;
  }
}

/** Save CTA / Update CTA: a name is needed. */
export function checkCta(json: string): CtaDesign {
  const design = parseDesign(json);
  if (!design.name) throw appError("VALIDATION_ERROR", "Please enter a name for the CTA.", "CTA Name Required");
  return design;
}

/** Save as Template: a name and at least one element (spec/3 §5). */
export function checkTemplate(name: string, json: string): { name: string; design: CtaDesign } {
  const n = name.trim().slice(0, 120);
  if (!n) throw appError("VALIDATION_ERROR", TEXTS.required.templateName, "Template Name Required");
  const design = parseDesign(json, "Template Save Failed");
  if (design.elements.length === 0)
    throw appError("VALIDATION_ERROR", "Add at least one element before saving a template.", "Template Save Failed");
  return { name: n, design };
}

/** The stored fields of a design. */
export function storedFields(design: CtaDesign) {
  return {
    name: design.name,
    description: design.description,
    width: design.width,
    height: design.height,
    elementCount: design.elements.length,
    design: JSON.stringify(design),
  };
}

/** Seeds the co-edited draft from the server, so no two browsers seed it twice. */
export async function seedCtaDoc(
  ctx: MutationCtx,
  viewer: Pick<Viewer, "userId" | "orgId">,
  id: Id<"ctas">,
  design: CtaDesign,
) {
  await seedDocument(ctx, viewer, ctaRoom(id), id, (doc) => writeCtaDoc(doc, design));
}

/** Clicks counted for a CTA (the sum of its shards). */
export async function clickCount(db: QueryCtx["db"], ctaId: Id<"ctas">): Promise<number> {
  const shards = await db
    .query("ctaClickShards")
    .withIndex("by_cta_shard", (q) => q.eq("ctaId", ctaId))
    .take(CTA_CLICK_SHARDS);
  return shards.reduce((n, s) => n + s.clicks, 0);
}

/** Counts one click on one shard (chosen at random, so concurrent clicks rarely touch one row). */
export async function countClick(ctx: MutationCtx, orgId: Id<"organizations">, ctaId: Id<"ctas">) {
  const shard = Math.floor(Math.random() * CTA_CLICK_SHARDS);
  const row = await ctx.db
    .query("ctaClickShards")
    .withIndex("by_cta_shard", (q) => q.eq("ctaId", ctaId).eq("shard", shard))
    .unique();
  if (row) await ctx.db.patch("ctaClickShards", row._id, { clicks: row.clicks + 1 });
  else await ctx.db.insert("ctaClickShards", { orgId, ctaId, shard, clicks: 1 });
}
