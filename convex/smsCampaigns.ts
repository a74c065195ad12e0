/**
 * SMS campaigns (spec/2 §2.1, §3): list with the SMS center's tile figures, create, edit (no lost
 * updates: per-field merge, conflicts name the teammate), delete. campaigns.view reads,
 * campaigns.manage writes. Sending a campaign: sms.start.
 */
import { v } from "convex/values";
import type { Doc, Id } from "./_generated/dataModel";
import { orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { loadEditState, markDeleted, markEdited, mergeEdits, missingRecord, withEdits } from "./model/collab";
import { adjustCounter, readCounters } from "./model/counters";
import { messagesToday, progressOf } from "./model/smsShared";
import { vEditState, vFieldEdit } from "./tables/collab";
import { MAX_SMS_BODY, vSendProgress } from "./tables/sms";
import { TEXTS } from "./lib/texts";

export const SMS_HISTORY_LIMIT = 100;
export const MAX_TARGET_GROUPS = 100;
export const MAX_TARGET_VOTERS = 5_000;

const vSmsCampaign = v.object({
  id: v.id("campaigns"),
  name: v.string(),
  description: v.union(v.string(), v.null()),
  status: v.string(),
  createdAt: v.number(),
  updatedAt: v.number(),
  body: v.string(),
  voterGroups: v.array(v.id("voterGroups")),
  individualVoters: v.array(v.id("voters")),
  lastSend: v.union(vSendProgress, v.null()),
});

/** The organisation's SMS campaigns, newest first, with the SMS center's tile figures. */
export const list = orgQuery("campaigns.view")({
  args: {},
  returns: v.object({
    total: v.number(),
    messagesSent: v.number(),
    sentToday: v.number(),
    campaigns: v.array(vSmsCampaign),
  }),
  handler: async (ctx) => {
    const orgId = ctx.viewer.orgId;
    const rows = await ctx.db
      .query("campaigns")
      .withIndex("by_org_type", (q) => q.eq("orgId", orgId).eq("campaign_type", "sms"))
      .order("desc")
      .take(SMS_HISTORY_LIMIT);
    const counters = await readCounters(ctx, orgId);
    const campaigns = [];
    for (const c of rows) {
      const last = await ctx.db
        .query("smsSends")
        .withIndex("by_campaign", (q) => q.eq("campaignId", c._id))
        .order("desc")
        .first();
      campaigns.push({
        id: c._id,
        name: c.name,
        description: c.description,
        status: c.status,
        createdAt: c._creationTime,
        updatedAt: c.updatedAt,
        body: c.body ?? "",
        voterGroups: c.voter_groups ?? [],
        individualVoters: c.individual_voters ?? [],
        lastSend: last ? progressOf(last) : null,
      });
    }
    const smsTotal = await ctx.db
      .query("campaigns")
      .withIndex("by_org_type", (q) => q.eq("orgId", orgId).eq("campaign_type", "sms"))
      .take(10_000);
    return {
      total: smsTotal.length,
      messagesSent: counters.messagesSent,
      sentToday: await messagesToday(ctx.db, orgId),
      campaigns,
    };
  },
});

function cleanName(name: string): string {
  const n = name.trim();
  if (!n) throw appError("VALIDATION_ERROR", TEXTS.required.campaignName, TEXTS.titles.campaignNameRequired);
  if (n.length > 200) throw appError("VALIDATION_ERROR", "A campaign name is limited to 200 characters.");
  return n;
}

function cleanText(text: string | null | undefined, max: number, what: string): string | null {
  const t = (text ?? "").trim();
  if (t.length > max)
    throw appError("VALIDATION_ERROR", `${what} is limited to ${max.toLocaleString("en-US")} characters.`);
  return t === "" ? null : t;
}

/** Targeting lists: known ids of this organisation, sorted, capped. */
async function cleanTargets(
  ctx: { db: { get(table: "voterGroups" | "voters", id: Id<"voterGroups"> | Id<"voters">): Promise<unknown> } },
  groups: Id<"voterGroups">[],
  voters: Id<"voters">[],
) {
  if (groups.length > MAX_TARGET_GROUPS || voters.length > MAX_TARGET_VOTERS)
    throw appError("VALIDATION_ERROR", "Too many recipients selected for one campaign.");
  for (const id of groups) if (!(await ctx.db.get("voterGroups", id))) throw appError("NOT_FOUND");
  for (const id of voters) if (!(await ctx.db.get("voters", id))) throw appError("NOT_FOUND");
  return { voter_groups: [...new Set(groups)].sort(), individual_voters: [...new Set(voters)].sort() };
}

export const create = orgMutation("campaigns.manage")({
  args: {
    name: v.string(),
    description: v.union(v.string(), v.null()),
    body: v.string(),
    voterGroups: v.array(v.id("voterGroups")),
    individualVoters: v.array(v.id("voters")),
  },
  returns: v.id("campaigns"),
  handler: async (ctx, args) => {
    const targets = await cleanTargets(ctx, args.voterGroups, args.individualVoters);
    const id = await ctx.db.insert("campaigns", {
      orgId: ctx.viewer.orgId,
      name: cleanName(args.name),
      description: cleanText(args.description, 2000, "A description"),
      campaign_type: "sms",
      status: "draft",
      body: cleanText(args.body, MAX_SMS_BODY, "A text message") ?? "",
      ...targets,
      createdBy: ctx.viewer.userId,
      updatedAt: Date.now(),
    });
    await adjustCounter(ctx, ctx.viewer.orgId, "campaigns", 1);
    return id;
  },
});

const LABELS: Record<string, string> = {
  name: "name",
  description: "description",
  body: "message",
  voter_groups: "voter groups",
  individual_voters: "individual voters",
};

/** Saves the changed fields of a campaign, each with its base (no lost updates). */
export const update = orgMutation("campaigns.manage")({
  args: { id: v.id("campaigns"), edits: v.array(vFieldEdit) },
  returns: v.null(),
  handler: async (ctx, { id, edits }) => {
    const campaign = await ctx.db.get("campaigns", id);
    if (!campaign || campaign.campaign_type !== "sms") throw await missingRecord(ctx, ctx.viewer, id, "campaign");
    const current = {
      name: campaign.name,
      description: campaign.description,
      body: campaign.body ?? "",
      voter_groups: campaign.voter_groups ?? [],
      individual_voters: campaign.individual_voters ?? [],
    };
    const apply = await mergeEdits(ctx, ctx.viewer, id, current, edits, {
      title: `The campaign "${campaign.name}"`,
      editable: (f) => Object.hasOwn(LABELS, f),
      label: (f) => LABELS[f] ?? f,
    });
    if (apply.length === 0) return null;
    const next = withEdits(current, apply);
    const str = (x: unknown) =>
      x === null || x === undefined
        ? null
        : typeof x === "string"
          ? x
          : (() => {
              throw appError("VALIDATION_ERROR");
            })();
    const list = (x: unknown) =>
      x === null || x === undefined
        ? []
        : Array.isArray(x)
          ? (x as string[])
          : (() => {
              throw appError("VALIDATION_ERROR");
            })();
    const groups = list(next.voter_groups).map((g) => ctx.db.normalizeId("voterGroups", g));
    const voters = list(next.individual_voters).map((x) => ctx.db.normalizeId("voters", x));
    if (groups.some((g) => g === null) || voters.some((x) => x === null)) throw appError("VALIDATION_ERROR");
    const targets = await cleanTargets(ctx, groups as Id<"voterGroups">[], voters as Id<"voters">[]);
    const patch: Partial<Doc<"campaigns">> = {
      name: cleanName(str(next.name) ?? ""),
      description: cleanText(str(next.description), 2000, "A description"),
      body: cleanText(str(next.body), MAX_SMS_BODY, "A text message") ?? "",
      ...targets,
      updatedAt: Date.now(),
    };
    await ctx.db.patch("campaigns", id, patch);
    await markEdited(
      ctx,
      ctx.viewer,
      id,
      apply.map((e) => e.field),
    );
    return null;
  },
});

/** Who last saved each field of the campaign, and who deleted it. */
export const editState = orgQuery("campaigns.view")({
  args: { id: v.string() },
  returns: vEditState,
  handler: async (ctx, { id }) => {
    const campaignId = ctx.db.normalizeId("campaigns", id);
    return campaignId ? await loadEditState(ctx, campaignId) : { fields: {}, deleted: null };
  },
});

/** Deletes a campaign that is not being sent (its messages stay in the history). */
export const remove = orgMutation("campaigns.manage")({
  args: { id: v.id("campaigns") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const campaign = await ctx.db.get("campaigns", id);
    if (!campaign || campaign.campaign_type !== "sms") throw appError("NOT_FOUND");
    const last = await ctx.db
      .query("smsSends")
      .withIndex("by_campaign", (q) => q.eq("campaignId", id))
      .order("desc")
      .first();
    if (last && (last.status === "sending" || last.status === "preparing" || last.status === "paused")) {
      throw appError(
        "VALIDATION_ERROR",
        "This campaign is being sent. Cancel the send before deleting the campaign.",
        "Campaign is sending",
      );
    }
    const targets = await ctx.db
      .query("campaignTargets")
      .withIndex("by_campaign", (q) => q.eq("campaignId", id))
      .take(500);
    for (const t of targets) await ctx.db.delete("campaignTargets", t._id);
    await ctx.db.delete("campaigns", id);
    await adjustCounter(ctx, ctx.viewer.orgId, "campaigns", -1);
    await markDeleted(ctx, ctx.viewer, id);
    return null;
  },
});
