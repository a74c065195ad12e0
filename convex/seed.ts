/** Demo and benchmark data (`npm run seed:demo`, bench/voters.ts): internal only, run with the admin key. */
import { v } from "convex/values";
import { internalMutation, internalQuery } from "./functions";
import { adjustCounter, readCounters } from "./model/counters";
import { writeSigns } from "./model/signs";
import { recordOptOut } from "./model/consent";
import { insertVoter, keepsNameKeys, VoterCounts } from "./model/voters";
import { vVoterFields } from "./tables/voters";
import { syncVoterDoor } from "./model/doors";
import { voterAddress } from "./model/geocode";

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
    const org = await ctx.db.get("organizations", orgId);
    if (org) await ctx.db.patch("organizations", orgId, { subscription: { ...org.subscription, tier } });
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

/**
 * Voters already placed on the map (bench/turf.ts, bench/turfDistricts.ts): inserted through the
 * app's bookkeeping, each placed where its house is (as the geocoder would) and put on its door
 * (model/doors.ts).
 */
export const insertPlacedVoters = internalMutation({
  args: {
    orgId: v.id("organizations"),
    voters: v.array(v.object({ fields: vVoterFields, lat: v.number(), lng: v.number() })),
  },
  handler: async (ctx, { orgId, voters }) => {
    const counts = new VoterCounts();
    const nameKeys = await keepsNameKeys(ctx.db, orgId);
    for (const { fields, lat, lng } of voters) {
      const voterId = await insertVoter(ctx, orgId, fields, { counts, nameKeys });
      const voter = (await ctx.db.get("voters", voterId))!;
      const place = { address: voterAddress(voter), quality: "exact range" as const, lat, lng };
      await ctx.db.insert("voterPlaces", {
        orgId,
        voterId,
        layerId: null,
        at: Date.now(),
        voterAt: voter._creationTime,
        ...place,
      });
      await syncVoterDoor(ctx, orgId, voterId, null, place);
    }
    await counts.flush(ctx, orgId);
    return null;
  },
});

/** Numbers that replied STOP (bench/turf.ts: the opt-out filter has opt-outs to read). */
export const optOutPhones = internalMutation({
  args: { orgId: v.id("organizations"), phones: v.array(v.string()) },
  handler: async (ctx, { orgId, phones }) => {
    for (const phone of phones)
      await recordOptOut(ctx, {
        orgId,
        channel: "sms",
        contact: phone,
        provenance: { source: "keyword", keyword: "STOP" },
      });
    return null;
  },
});

/** The crash test's check (tests/lib/geo/geocodeCrash.test.ts): voters, their places, their doors. */
export const placesAndDoors = internalQuery({
  args: { orgId: v.id("organizations") },
  returns: v.object({
    voters: v.number(),
    places: v.number(),
    placedVoters: v.number(),
    doorVoters: v.number(),
    distinctDoorVoters: v.number(),
    /** doors listed in the grid cells' packed documents (what turf counts read) */
    cellDoors: v.number(),
    doors: v.number(),
    building: v.boolean(),
  }),
  handler: async (ctx, { orgId }) => {
    const places = await ctx.db
      .query("voterPlaces")
      .withIndex("by_org_voter_at", (q) => q.eq("orgId", orgId))
      .collect();
    const doorVoters = [];
    let doors = 0;
    for await (const door of ctx.db.query("doors").withIndex("by_org_key", (q) => q.eq("orgId", orgId))) {
      doorVoters.push(...door.voterIds);
      doors++;
    }
    let cellDoors = 0;
    for await (const cell of ctx.db.query("doorCells").withIndex("by_org_cell", (q) => q.eq("orgId", orgId)))
      cellDoors += cell.ids.length;
    const build = await ctx.db
      .query("doorBuilds")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .order("desc")
      .first();
    return {
      voters: (await readCounters(ctx, orgId)).voters,
      places: places.length,
      placedVoters: new Set(places.map((p) => p.voterId)).size,
      doorVoters: doorVoters.length,
      distinctDoorVoters: new Set(doorVoters).size,
      cellDoors,
      doors,
      building: build?.status === "running",
    };
  },
});
