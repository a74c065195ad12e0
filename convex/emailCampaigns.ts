/**
 * The email builder's campaigns (spec/2 §2.3, §5): list, create (also Duplicate: a copy of the
 * current design), save (every save keeps a version), versions and restore, delete. The live
 * design is the co-edited Yjs document "emailCampaign:<id>" (lib/email/draft.ts); Save publishes
 * it here. Viewing needs campaigns.view; everything else campaigns.manage.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { appError, internalMutation, orgMutation, orgQuery } from "./functions";
import { adjustCounter } from "./model/counters";
import { checkCampaign, EMAIL_MAX_VERSIONS, recordVersion, seedEmailDraft } from "./model/emailCampaigns";
import { displayName } from "./model/orgs";
import { emailTables, vEmailSettings } from "./tables/email";

const DELETE_BATCH = 200;

const campaignRow = emailTables.emailCampaigns.validator;
const versionRow = emailTables.emailCampaignVersions.validator;
const SETTINGS = Object.keys(vEmailSettings) as (keyof typeof vEmailSettings)[];

const vListRow = campaignRow.pick("name", "subject", "status", "version", "updatedAt", "updatedByName").extend({
  id: v.id("emailCampaigns"),
  sentAt: v.union(v.number(), v.null()),
  scheduledAt: v.union(v.number(), v.null()),
});

/** The organisation's email campaigns, most recently changed first (the campaign list panel filters and searches them). */
export const list = orgQuery("campaigns.view")({
  args: {},
  returns: v.array(vListRow),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("emailCampaigns")
      .withIndex("by_org_updated", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(500);
    return rows.map((c) => ({
      id: c._id,
      name: c.name,
      subject: c.subject,
      status: c.status,
      version: c.version,
      updatedAt: c.updatedAt,
      updatedByName: c.updatedByName,
      sentAt: c.sentAt ?? null,
      scheduledAt: c.scheduledAt ?? null,
    }));
  },
});

/** One campaign as last saved (blocks as JSON text), or null when it is gone. */
export const get = orgQuery("campaigns.view")({
  args: { id: v.id("emailCampaigns") },
  returns: v.union(
    campaignRow
      .pick(...SETTINGS, "blocks", "status", "version", "updatedAt", "updatedByName")
      .extend({ id: v.id("emailCampaigns"), templateId: v.union(v.string(), v.null()) }),
    v.null(),
  ),
  handler: async (ctx, { id }) => {
    const c = await ctx.db.get("emailCampaigns", id);
    if (!c) return null;
    return {
      id: c._id,
      ...pickSettings(c),
      blocks: c.blocks,
      status: c.status,
      version: c.version,
      templateId: c.templateId ?? null,
      updatedAt: c.updatedAt,
      updatedByName: c.updatedByName,
    };
  },
});

function pickSettings(c: {
  name: string;
  subject: string;
  fromName: string;
  fromEmail: string;
  replyTo: string;
  previewText: string;
}) {
  return {
    name: c.name,
    subject: c.subject,
    fromName: c.fromName,
    fromEmail: c.fromEmail,
    replyTo: c.replyTo,
    previewText: c.previewText,
  };
}

/** Creates a draft campaign from a design (New Campaign's first Save, or Duplicate) and seeds its shared draft. */
export const create = orgMutation("campaigns.manage")({
  args: { ...vEmailSettings, blocks: v.string(), templateId: v.optional(v.string()) },
  returns: v.id("emailCampaigns"),
  handler: async (ctx, { blocks: blocksJson, templateId, ...given }) => {
    const { settings, blocks } = checkCampaign(given, blocksJson);
    const json = JSON.stringify(blocks);
    const now = Date.now();
    const id = await ctx.db.insert("emailCampaigns", {
      orgId: ctx.viewer.orgId,
      ...settings,
      blocks: json,
      templateId: templateId?.slice(0, 100),
      status: "draft",
      version: 1,
      createdBy: ctx.viewer.userId,
      createdAt: now,
      updatedBy: ctx.viewer.userId,
      updatedByName: displayName(ctx.viewer.user),
      updatedAt: now,
    });
    await recordVersion(ctx, ctx.viewer, { _id: id }, 1, settings, json);
    await seedEmailDraft(ctx, ctx.viewer, id, { meta: settings, blocks });
    await adjustCounter(ctx, ctx.viewer.orgId, "campaigns", 1);
    return id;
  },
});

/** Publishes the design: the campaign takes it and a new version keeps it. A saved campaign keeps its status. */
export const save = orgMutation("campaigns.manage")({
  args: { id: v.id("emailCampaigns"), ...vEmailSettings, blocks: v.string() },
  returns: v.object({ version: v.number() }),
  handler: async (ctx, { id, blocks: blocksJson, ...given }) => {
    const campaign = await ctx.db.get("emailCampaigns", id);
    if (!campaign)
      throw appError("NOT_FOUND", "This campaign no longer exists. It may have been deleted by a teammate.");
    const { settings, blocks } = checkCampaign(given, blocksJson);
    const json = JSON.stringify(blocks);
    const version = campaign.version + 1;
    await ctx.db.patch("emailCampaigns", id, {
      ...settings,
      blocks: json,
      version,
      updatedBy: ctx.viewer.userId,
      updatedByName: displayName(ctx.viewer.user),
      updatedAt: Date.now(),
    });
    await recordVersion(ctx, ctx.viewer, campaign, version, settings, json);
    return { version };
  },
});

/** Saved versions, newest first (without their content). */
export const versions = orgQuery("campaigns.view")({
  args: { id: v.id("emailCampaigns") },
  returns: v.array(versionRow.pick("version", "name", "subject", "savedByName", "savedAt")),
  handler: async (ctx, { id }) => {
    const rows = await ctx.db
      .query("emailCampaignVersions")
      .withIndex("by_campaign_version", (q) => q.eq("campaignId", id))
      .order("desc")
      .take(EMAIL_MAX_VERSIONS);
    return rows.map((r) => ({
      version: r.version,
      name: r.name,
      subject: r.subject,
      savedByName: r.savedByName,
      savedAt: r.savedAt,
    }));
  },
});

/** One version's content, to restore into the shared draft. */
export const version = orgQuery("campaigns.view")({
  args: { id: v.id("emailCampaigns"), version: v.number() },
  returns: versionRow.pick("version", ...SETTINGS, "blocks"),
  handler: async (ctx, { id, version: n }) => {
    const r = await ctx.db
      .query("emailCampaignVersions")
      .withIndex("by_campaign_version", (q) => q.eq("campaignId", id).eq("version", n))
      .unique();
    if (!r) throw appError("NOT_FOUND", "That version is no longer kept.");
    return { version: r.version, ...pickSettings(r), blocks: r.blocks };
  },
});

export const remove = orgMutation("campaigns.manage")({
  args: { id: v.id("emailCampaigns") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const campaign = await ctx.db.get("emailCampaigns", id);
    if (!campaign) throw appError("NOT_FOUND");
    await ctx.db.delete("emailCampaigns", id);
    await adjustCounter(ctx, ctx.viewer.orgId, "campaigns", -1);
    await ctx.scheduler.runAfter(0, internal.emailCampaigns.deleteVersionsStep, { campaignId: id });
    return null;
  },
});

/** One step of deleting a deleted campaign's versions; schedules the next while any remain. */
export const deleteVersionsStep = internalMutation({
  args: { campaignId: v.id("emailCampaigns") },
  returns: v.null(),
  handler: async (ctx, { campaignId }) => {
    const batch = await ctx.db
      .query("emailCampaignVersions")
      .withIndex("by_campaign_version", (q) => q.eq("campaignId", campaignId))
      .take(DELETE_BATCH);
    for (const r of batch) await ctx.db.delete("emailCampaignVersions", r._id);
    if (batch.length === DELETE_BATCH)
      await ctx.scheduler.runAfter(0, internal.emailCampaigns.deleteVersionsStep, { campaignId });
    return null;
  },
});
