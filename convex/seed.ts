/** Demo and benchmark data (`npm run seed:demo`, bench/voters.ts): internal only, run with the admin key. */
import { v } from "convex/values";
import { internalMutation } from "./functions";
import { adjustCounter } from "./model/counters";
import { writeSigns } from "./model/signs";
import { insertVoter, keepsNameKeys, VoterCounts } from "./model/voters";
import { vVoterFields } from "./tables/voters";

export const insertVoters = internalMutation({
  args: { orgId: v.id("organizations"), voters: v.array(vVoterFields) },
  handler: async (ctx, { orgId, voters }) => {
    const ids = [];
    const counts = new VoterCounts();
    const nameKeys = await keepsNameKeys(ctx.db, orgId);
    for (const fields of voters) ids.push(await insertVoter(ctx, orgId, fields, { counts, nameKeys }));
    await counts.flush(ctx, orgId);
    return ids;
  },
});

export const createGroup = internalMutation({
  args: {
    orgId: v.id("organizations"),
    name: v.string(),
    description: v.union(v.string(), v.null()),
    voterIds: v.array(v.id("voters")),
  },
  handler: async (ctx, { orgId, name, description, voterIds }) => {
    const groupId = await ctx.db.insert("voterGroups", {
      orgId,
      name,
      description,
      memberCount: voterIds.length,
      updatedAt: Date.now(),
    });
    for (const voterId of voterIds) await ctx.db.insert("voterGroupMembers", { orgId, groupId, voterId });
    await adjustCounter(ctx, orgId, "voterGroups", 1);
    return groupId;
  },
});

export const createCampaign = internalMutation({
  args: {
    orgId: v.id("organizations"),
    name: v.string(),
    description: v.union(v.string(), v.null()),
    campaign_type: v.union(v.literal("sms"), v.literal("email")),
    status: v.string(),
    groupIds: v.array(v.id("voterGroups")),
  },
  handler: async (ctx, { orgId, groupIds, ...campaign }) => {
    const campaignId = await ctx.db.insert("campaigns", {
      orgId,
      ...campaign,
      voter_groups: groupIds,
      updatedAt: Date.now(),
    });
    for (const groupId of groupIds) await ctx.db.insert("campaignTargets", { orgId, campaignId, groupId });
    await adjustCounter(ctx, orgId, "campaigns", 1);
    return campaignId;
  },
});

export const orgOfUser = internalMutation({
  args: { email: v.string() },
  handler: async (ctx, { email }) => {
    const user = await ctx.db
      .query("users")
      .withIndex("email", (q) => q.eq("email", email))
      .unique();
    return user?.activeOrgId ?? null;
  },
});

/** The demo organisation runs on the Professional plan so its voters fit the plan's limits. */
export const setTier = internalMutation({
  args: { orgId: v.id("organizations"), tier: v.string() },
  handler: async (ctx, { orgId, tier }) => {
    const org = await ctx.db.get(orgId);
    if (org) await ctx.db.patch(orgId, { subscription: { ...org.subscription, tier } });
  },
});

/** Benchmark signs (bench/signs.ts): inserted through the same bookkeeping as the app's (counts, timer). */
export const insertSigns = internalMutation({
  args: {
    orgId: v.id("organizations"),
    createdBy: v.id("users"),
    campaignId: v.id("campaigns"),
    signs: v.array(
      v.object({
        address: v.string(),
        latitude: v.number(),
        longitude: v.number(),
        datePlaced: v.number(),
        dateRemoval: v.number(),
        removed: v.boolean(),
      }),
    ),
  },
  handler: async (ctx, { orgId, createdBy, campaignId, signs }) => {
    const writes = signs.map(({ removed, ...s }) => ({
      id: null,
      removed,
      fields: {
        ...s,
        campaignId,
        notes: "",
        scheduledDate: null,
        scheduledTime: null,
        responsibleUserId: null,
        assignedById: null,
        actualRemovalDate: removed ? s.dateRemoval : null,
        voterId: null,
        createdBy,
      },
    }));
    return (await writeSigns(ctx, orgId, writes)).length;
  },
});

/** Voters already placed on the map (bench/turfDistricts.ts): each voter with its place, as the geocoder writes it. */
export const insertPlacedVoters = internalMutation({
  args: {
    orgId: v.id("organizations"),
    voters: v.array(v.object({ fields: vVoterFields, lat: v.number(), lng: v.number() })),
  },
  handler: async (ctx, { orgId, voters }) => {
    const counts = new VoterCounts();
    const nameKeys = await keepsNameKeys(ctx.db, orgId);
    for (const { fields, lat, lng } of voters) {
      const id = await insertVoter(ctx, orgId, fields, { counts, nameKeys });
      const voter = (await ctx.db.get(id))!;
      await ctx.db.insert("voterPlaces", {
        orgId,
        voterId: id,
        voterAt: voter._creationTime,
        address: fields.address ?? "",
        quality: "exact range",
        lat,
        lng,
        layerId: null,
        at: Date.now(),
      });
    }
    await counts.flush(ctx, orgId);
    return null;
  },
});
