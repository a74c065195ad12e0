/**
 * Calls to action (spec/3 §2.9–2.10, §3.3): the CTA database (list, duplicate, delete), the
 * creator's Save CTA / Update CTA (the live design is the co-edited Yjs document "cta:<id>",
 * lib/cta/draft.ts; Save publishes it here), the public embed (`publicCta`, unguarded: the saved
 * design only) and its click counter (`/api/cta/click`, an http action that redirects to the
 * clicked element's stored link). Viewing needs campaigns.view; changes campaigns.manage.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { appError, httpAction, internalMutation, orgMutation, orgQuery, publicQuery } from "./functions";
import { normalizeDesign, vCtaElement, type CtaDesign } from "./lib/cta/design";
import { clientAddress } from "./model/clientAddress";
import { checkCta, clickCount, countClick, CTA_LIST_LIMIT, ctaRateLimit, seedCtaDoc, storedFields } from "./model/ctas";
import { displayName } from "./model/orgs";
import type { Viewer } from "./model/viewer";
import { ctaTables } from "./tables/cta";

const ctaRow = ctaTables.ctas.validator;

const DELETE_BATCH = 100;

/** The organisation's CTAs with their saved design (for previews), newest first. */
export const list = orgQuery("campaigns.view")({
  args: {},
  returns: v.array(
    ctaRow
      .pick(
        "name",
        "description",
        "width",
        "height",
        "elementCount",
        "design",
        "version",
        "createdAt",
        "updatedAt",
        "updatedByName",
      )
      .extend({ id: v.id("ctas"), clicks: v.number() }),
  ),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("ctas")
      .withIndex("by_org_created", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(CTA_LIST_LIMIT);
    return await Promise.all(
      rows.map(async (c) => ({
        id: c._id,
        name: c.name,
        description: c.description,
        width: c.width,
        height: c.height,
        elementCount: c.elementCount,
        design: c.design,
        version: c.version,
        createdAt: c.createdAt,
        updatedAt: c.updatedAt,
        updatedByName: c.updatedByName,
        clicks: await clickCount(ctx.db, c._id),
      })),
    );
  },
});

/** One CTA as last saved, or null when it is gone. */
export const get = orgQuery("campaigns.view")({
  args: { id: v.id("ctas") },
  returns: v.union(
    ctaRow.pick("design", "version", "updatedAt", "updatedByName").extend({ id: v.id("ctas") }),
    v.null(),
  ),
  handler: async (ctx, { id }) => {
    const c = await ctx.db.get("ctas", id);
    if (!c) return null;
    return { id: c._id, design: c.design, version: c.version, updatedAt: c.updatedAt, updatedByName: c.updatedByName };
  },
});

async function insertCta(ctx: MutationCtx & { viewer: Viewer }, design: CtaDesign): Promise<Id<"ctas">> {
  const now = Date.now();
  const id = await ctx.db.insert("ctas", {
    orgId: ctx.viewer.orgId,
    ...storedFields(design),
    version: 1,
    createdBy: ctx.viewer.userId,
    createdAt: now,
    updatedBy: ctx.viewer.userId,
    updatedByName: displayName(ctx.viewer.user),
    updatedAt: now,
  });
  await seedCtaDoc(ctx, ctx.viewer, id, design);
  return id;
}

/** Save CTA: a new CTA from the creator's design (and its shared draft). */
export const create = orgMutation("campaigns.manage")({
  args: { design: v.string() },
  returns: v.id("ctas"),
  handler: async (ctx, { design }) => await insertCta(ctx, checkCta(design)),
});

/** Update CTA: publishes the design (the embed shows it from now on). */
export const save = orgMutation("campaigns.manage")({
  args: { id: v.id("ctas"), design: v.string() },
  returns: v.object({ version: v.number() }),
  handler: async (ctx, { id, design }) => {
    const cta = await ctx.db.get("ctas", id);
    if (!cta) throw appError("NOT_FOUND", "This CTA no longer exists. It may have been deleted by a teammate.");
    const version = cta.version + 1;
    await ctx.db.patch("ctas", id, {
      ...storedFields(checkCta(design)),
      version,
      updatedBy: ctx.viewer.userId,
      updatedByName: displayName(ctx.viewer.user),
      updatedAt: Date.now(),
    });
    return { version };
  },
});

/** Duplicate: a copy named "{name} (Copy)", created now. */
export const duplicate = orgMutation("campaigns.manage")({
  args: { id: v.id("ctas") },
  returns: v.id("ctas"),
  handler: async (ctx, { id }) => {
    const cta = await ctx.db.get("ctas", id);
    if (!cta) throw appError("NOT_FOUND", "This CTA no longer exists. It may have been deleted by a teammate.");
    const design = normalizeDesign(JSON.parse(cta.design));
    return await insertCta(ctx, { ...design, name: `${design.name} (Copy)`.slice(0, 120) });
  },
});

export const remove = orgMutation("campaigns.manage")({
  args: { id: v.id("ctas") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    if (!(await ctx.db.get("ctas", id))) throw appError("NOT_FOUND", "This CTA no longer exists.");
    await ctx.db.delete("ctas", id);
    const shards = await ctx.db
      .query("ctaClickShards")
      .withIndex("by_cta_shard", (q) => q.eq("ctaId", id))
      .take(DELETE_BATCH);
    for (const s of shards) await ctx.db.delete("ctaClickShards", s._id);
    return null;
  },
});

/** The embed: a saved CTA's design, for anyone with its id (nothing else about the organisation). */
export const publicCta = publicQuery({
  args: { id: v.string() },
  returns: v.union(
    v.object({
      id: v.id("ctas"),
      name: v.string(),
      width: v.number(),
      height: v.number(),
      backgroundColor: v.string(),
      elements: v.array(vCtaElement),
    }),
    v.null(),
  ),
  handler: async (ctx, { id }) => {
    const ctaId = id.length <= 64 ? ctx.db.normalizeId("ctas", id) : null;
    const cta = ctaId ? await ctx.db.get("ctas", ctaId) : null;
    if (!cta) return null;
    const design = normalizeDesign(JSON.parse(cta.design));
    return {
      id: cta._id,
      name: design.name,
      width: design.width,
      height: design.height,
      backgroundColor: design.backgroundColor,
      elements: design.elements,
    };
  },
});

/** Counts a click on an embedded CTA's element and returns the element's stored link (null: refused or unknown). */
export const recordClick = internalMutation({
  args: { ctaId: v.string(), elementId: v.string(), address: v.string() },
  returns: v.union(v.string(), v.null()),
  handler: async (ctx, { ctaId, elementId, address }) => {
    const id = ctx.db.normalizeId("ctas", ctaId);
    const cta = id ? await ctx.db.get("ctas", id) : null;
    if (!cta) return null;
    const el = normalizeDesign(JSON.parse(cta.design)).elements.find((e) => e.id === elementId);
    if (!el?.link) return null;
    // over the budget the visitor still goes where the link says; the click is just not counted
    const counted =
      (await ctaRateLimit(ctx, { name: "ctaClicksPerAddress", key: address })).ok &&
      (await ctaRateLimit(ctx, { name: "ctaClicksPerCta", key: cta._id })).ok &&
      (await ctaRateLimit(ctx, { name: "ctaClicksGlobal" })).ok;
    if (counted) await countClick(ctx, cta.orgId, cta._id);
    return el.link;
  },
});

/** GET /api/cta/click?c={ctaId}&e={elementId}: counts the click and redirects to that element's stored link (never to an address the request names). */
export const click = httpAction(async (ctx, request) => {
  const url = new URL(request.url);
  const c = url.searchParams.get("c") ?? "";
  const e = url.searchParams.get("e") ?? "";
  if (!c || !e || c.length > 64 || e.length > 64) return new Response("Not found", { status: 404 });
  const link = await ctx.runMutation(internal.ctas.recordClick, {
    ctaId: c,
    elementId: e,
    address: clientAddress(request),
  });
  if (!link) return new Response("Not found", { status: 404 });
  return new Response(null, {
    status: 302,
    headers: { Location: link, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
  });
});
