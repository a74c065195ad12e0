/**
 * Yard signs (spec/3 §2.6): the map's viewport, the table, one sign, the pickup list, a voter's
 * signs; add, edit (no lost updates), schedule, mark removed, delete. campaigns.view reads,
 * campaigns.manage writes. Statuses follow time on the server (model/signs.ts advanceSigns).
 * A sign's own address is the sign's data; the voter in whose yard it stands (id and name) is
 * personal data, sent only to holders of voters.view (model/personalData.ts).
 */
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import { api } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import type { QueryCtx } from "./_generated/server";
import { internalMutation, orgAction, orgMutation, orgQuery } from "./functions";
import { geocodeAddress } from "./integrations/geocoder";
import { appError } from "./lib/errors";
import {
  CELL_DETAIL,
  coveringTiles,
  inBounds,
  keyRangeEnd,
  MAX_CELL_LEVEL,
  POINTS_LIMIT,
  tileKey,
  validBounds,
} from "./lib/signs/geo";
import { adjustCounter } from "./model/counters";
import { loadEditState, markDeleted, markEdited, mergeEdits, missingRecord, withEdits } from "./model/collab";
import { readyLayer } from "./model/mapData";
import { canSeeVoters } from "./model/personalData";
import { displayName } from "./model/presence";
import {
  advanceSigns,
  checkCampaign,
  checkDates,
  checkMember,
  checkPoint,
  cleanAddress,
  cleanNotes,
  deleteSign,
  writeSigns,
  type SignFields,
} from "./model/signs";
import { vEditState, vFieldEdit } from "./tables/collab";
import { SIGN_FIELD_LABELS, signTables, vPerStatus, vSignStatus, type SignStatus } from "./tables/signs";
import { TEXTS } from "./lib/texts";

const MAX_TABLE_PAGE = 100;
const MAX_PICKUPS = 500;
const MAX_VOTER_SIGNS = 50;
const MAX_CAMPAIGN_OPTIONS = 500;

const vStatusFilter = v.union(v.literal("All"), vSignStatus);
type StatusFilter = "All" | SignStatus;

const signFields = signTables.signs.validator;

/** A sign as the table, the side list and the dialogs show it: the stored fields with the names behind its ids. */
const vSignRow = signFields
  .pick(
    "campaignId",
    "address",
    "latitude",
    "longitude",
    "datePlaced",
    "dateRemoval",
    "status",
    "pickupDue",
    "notes",
    "scheduledDate",
    "scheduledTime",
    "responsibleUserId",
    "assignedById",
    "actualRemovalDate",
    "voterId",
    "updatedAt",
  )
  .extend({
    id: v.id("signs"),
    campaignName: v.string(),
    responsibleName: v.union(v.string(), v.null()),
    assignedByName: v.union(v.string(), v.null()),
    voterName: v.union(v.string(), v.null()),
    createdAt: v.number(),
  });

const vPoint = v.object({
  id: v.id("signs"),
  lat: v.number(),
  lng: v.number(),
  status: vSignStatus,
  pickupDue: v.boolean(),
  address: v.string(),
  campaignName: v.string(),
});
const vCell = v.object({ key: v.string(), lat: v.number(), lng: v.number(), count: v.number() });
const vTotals = vPerStatus.extend({ All: v.number() });

/**
 * Resolves campaign, member and voter names once per query. `voters`: whether the caller may see
 * the voter linked to a sign (voters.view); without it the rows carry no voter id or name.
 */
function namer(db: QueryCtx["db"], voters: boolean) {
  const cache = new Map<string, string | null>();
  const of = async (id: string | null, load: () => Promise<string | null>) => {
    if (id === null) return null;
    if (!cache.has(id)) cache.set(id, await load());
    return cache.get(id)!;
  };
  return {
    voters,
    campaign: async (id: Id<"campaigns">) =>
      (await of(id, async () => (await db.get("campaigns", id))?.name ?? null)) ?? "Deleted campaign",
    user: (id: Id<"users"> | null) =>
      of(id, async () => {
        const u = id && (await db.get("users", id));
        return u ? displayName(u) : "A former member";
      }),
    voter: (id: Id<"voters"> | null) =>
      of(id, async () => {
        const x = id && (await db.get("voters", id));
        return x ? [x.first_name, x.last_name].filter(Boolean).join(" ") || "Unnamed voter" : null;
      }),
  };
}

async function toRow(names: ReturnType<typeof namer>, s: Doc<"signs">) {
  return {
    id: s._id,
    campaignId: s.campaignId,
    campaignName: await names.campaign(s.campaignId),
    address: s.address,
    latitude: s.latitude,
    longitude: s.longitude,
    datePlaced: s.datePlaced,
    dateRemoval: s.dateRemoval,
    status: s.status,
    pickupDue: s.pickupDue,
    notes: s.notes,
    scheduledDate: s.scheduledDate,
    scheduledTime: s.scheduledTime,
    responsibleUserId: s.responsibleUserId,
    responsibleName: await names.user(s.responsibleUserId),
    assignedById: s.assignedById,
    assignedByName: await names.user(s.assignedById),
    actualRemovalDate: s.actualRemovalDate,
    voterId: names.voters ? s.voterId : null,
    voterName: names.voters ? await names.voter(s.voterId) : null,
    createdAt: s._creationTime,
    updatedAt: s.updatedAt,
  };
}

const countOf = (cell: Doc<"signCells"> | null, status: StatusFilter) =>
  !cell ? 0 : status === "All" ? cell.count.Active + cell.count.Scheduled + cell.count.Removed : cell.count[status];

/**
 * What the map shows of a viewport: its signs one by one when there are at most POINTS_LIMIT,
 * else per-tile counts a few levels finer than the zoom (clusters), so a viewport over 100,000
 * signs reads a few hundred documents. Also the organisation's totals per status (filter buttons).
 */
export const mapView = orgQuery("campaigns.view")({
  args: {
    south: v.number(),
    west: v.number(),
    north: v.number(),
    east: v.number(),
    zoom: v.number(),
    status: vStatusFilter,
  },
  returns: v.object({
    totals: vTotals,
    inView: v.number(),
    points: v.array(vPoint),
    cells: v.array(vCell),
  }),
  handler: async (ctx, { zoom, status, ...bounds }) => {
    if (!validBounds(bounds) || !Number.isFinite(zoom)) throw appError("VALIDATION_ERROR", "Invalid map bounds.");
    const orgId = ctx.viewer.orgId;
    const cellAt = (level: number, key: string) =>
      ctx.db
        .query("signCells")
        .withIndex("by_org_level_key", (q) => q.eq("orgId", orgId).eq("level", level).eq("key", key))
        .unique();
    const root = await cellAt(0, "");
    const totals = {
      All: countOf(root, "All"),
      Active: countOf(root, "Active"),
      Scheduled: countOf(root, "Scheduled"),
      Removed: countOf(root, "Removed"),
    };
    const tiles = coveringTiles(bounds, zoom).map(tileKey);
    let covered = 0;
    for (const key of tiles) covered += countOf(await cellAt(key.length, key), status);
    const names = namer(ctx.db, canSeeVoters(ctx.viewer));
    if (covered <= POINTS_LIMIT) {
      const points = [];
      for (const prefix of tiles) {
        const rows =
          status === "All"
            ? ctx.db
                .query("signs")
                .withIndex("by_org_quad", (q) =>
                  q.eq("orgId", orgId).gte("quadkey", prefix).lt("quadkey", keyRangeEnd(prefix)),
                )
            : ctx.db
                .query("signs")
                .withIndex("by_org_status_quad", (q) =>
                  q.eq("orgId", orgId).eq("status", status).gte("quadkey", prefix).lt("quadkey", keyRangeEnd(prefix)),
                );
        for await (const s of rows) {
          if (!inBounds(bounds, s.latitude, s.longitude)) continue;
          points.push({
            id: s._id,
            lat: s.latitude,
            lng: s.longitude,
            status: s.status,
            pickupDue: s.pickupDue,
            address: s.address,
            campaignName: await names.campaign(s.campaignId),
          });
        }
      }
      return { totals, inView: points.length, points, cells: [] };
    }
    const level = Math.min(MAX_CELL_LEVEL, tiles[0].length + CELL_DETAIL);
    const cells = [];
    let inView = 0;
    for (const prefix of tiles) {
      const rows = ctx.db
        .query("signCells")
        .withIndex("by_org_level_key", (q) =>
          q.eq("orgId", orgId).eq("level", level).gte("key", prefix).lt("key", keyRangeEnd(prefix)),
        );
      for await (const c of rows) {
        const count = countOf(c, status);
        if (count === 0) continue;
        const sums: SignStatus[] = status === "All" ? ["Active", "Scheduled", "Removed"] : [status];
        const lat = sums.reduce((a, s) => a + c.latSum[s], 0) / count;
        const lng = sums.reduce((a, s) => a + c.lngSum[s], 0) / count;
        if (!inBounds(bounds, lat, lng)) continue;
        inView += count;
        cells.push({ key: c.key, lat, lng, count });
      }
    }
    return { totals, inView, points: [], cells };
  },
});

/** The Table View: a page of the organisation's signs, newest first (a status: by placement date). */
export const list = orgQuery("campaigns.view")({
  args: { paginationOpts: paginationOptsValidator, status: vStatusFilter },
  returns: paginationResultValidator(vSignRow),
  handler: async (ctx, { paginationOpts, status }) => {
    const opts = {
      ...paginationOpts,
      numItems: Math.max(1, Math.min(MAX_TABLE_PAGE, Math.floor(paginationOpts.numItems))),
    };
    const orgId = ctx.viewer.orgId;
    const page =
      status === "All"
        ? await ctx.db
            .query("signs")
            .withIndex("by_org", (q) => q.eq("orgId", orgId))
            .order("desc")
            .paginate(opts)
        : await ctx.db
            .query("signs")
            .withIndex("by_org_status_placed", (q) => q.eq("orgId", orgId).eq("status", status))
            .order("desc")
            .paginate(opts);
    const names = namer(ctx.db, canSeeVoters(ctx.viewer));
    const rows = [];
    for (const s of page.page) rows.push(await toRow(names, s));
    return { ...page, page: rows };
  },
});

/** One sign, or null when the id is malformed, unknown or of another organisation. */
export const get = orgQuery("campaigns.view")({
  args: { id: v.string() },
  returns: v.union(vSignRow, v.null()),
  handler: async (ctx, { id }) => {
    const signId = ctx.db.normalizeId("signs", id);
    const s = signId && (await ctx.db.get("signs", signId));
    return s ? await toRow(namer(ctx.db, canSeeVoters(ctx.viewer)), s) : null;
  },
});

/** Who last saved each field of the sign, and who deleted it. */
export const editState = orgQuery("campaigns.view")({
  args: { id: v.string() },
  returns: vEditState,
  handler: async (ctx, { id }) => {
    const signId = ctx.db.normalizeId("signs", id);
    return signId ? await loadEditState(ctx, signId) : { fields: {}, deleted: null };
  },
});

/** The organisation's campaigns (a sign's campaign) and active members (responsible, assigned by). */
export const options = orgQuery("campaigns.view")({
  args: {},
  returns: v.object({
    campaigns: v.array(v.object({ id: v.id("campaigns"), name: v.string() })),
    members: v.array(v.object({ id: v.id("users"), name: v.string() })),
    /** an address lookup is there: the organisation's streets (Map data) or GEOCODER_URL */
    geocoder: v.boolean(),
  }),
  handler: async (ctx) => {
    const orgId = ctx.viewer.orgId;
    const rows = await ctx.db
      .query("campaigns")
      .withIndex("by_org_type", (q) => q.eq("orgId", orgId))
      .take(MAX_CAMPAIGN_OPTIONS);
    const campaigns = rows.map((c) => ({ id: c._id, name: c.name })).sort((a, b) => a.name.localeCompare(b.name));
    const members = [];
    for await (const m of ctx.db.query("memberships").withIndex("by_org_user", (q) => q.eq("orgId", orgId))) {
      if (m.status !== "active") continue;
      const u = await ctx.db.get("users", m.userId);
      if (u) members.push({ id: u._id, name: displayName(u) });
    }
    members.sort((a, b) => a.name.localeCompare(b.name));
    const streets = await readyLayer(ctx.db, orgId, "streets");
    return { campaigns, members, geocoder: streets !== null || Boolean(process.env.GEOCODER_URL) };
  },
});

/** Signs past their removal date and still up, per responsible member (the pickup list). */
export const pickups = orgQuery("campaigns.view")({
  args: {},
  returns: v.array(
    v.object({ responsibleUserId: v.union(v.id("users"), v.null()), name: v.string(), signs: v.array(vSignRow) }),
  ),
  handler: async (ctx) => {
    const due = await ctx.db
      .query("signs")
      .withIndex("by_org_pickup", (q) => q.eq("orgId", ctx.viewer.orgId).eq("pickupDue", true).eq("status", "Active"))
      .take(MAX_PICKUPS);
    const names = namer(ctx.db, canSeeVoters(ctx.viewer));
    const groups = new Map<
      string,
      { responsibleUserId: Id<"users"> | null; name: string; signs: Awaited<ReturnType<typeof toRow>>[] }
    >();
    for (const s of due) {
      const key = s.responsibleUserId ?? "";
      const g = groups.get(key) ?? {
        responsibleUserId: s.responsibleUserId,
        name: (await names.user(s.responsibleUserId)) ?? "Unassigned",
        signs: [],
      };
      g.signs.push(await toRow(names, s));
      groups.set(key, g);
    }
    return [...groups.values()].sort((a, b) =>
      a.responsibleUserId === null ? 1 : b.responsibleUserId === null ? -1 : a.name.localeCompare(b.name),
    );
  },
});

/** The signs in a voter's yard (the voter's detail page). */
export const forVoter = orgQuery("campaigns.view")({
  args: { voterId: v.id("voters") },
  returns: v.array(vSignRow),
  handler: async (ctx, { voterId }) => {
    const rows = await ctx.db
      .query("signs")
      .withIndex("by_voter", (q) => q.eq("voterId", voterId))
      .order("desc")
      .take(MAX_VOTER_SIGNS);
    const names = namer(ctx.db, canSeeVoters(ctx.viewer));
    const out = [];
    for (const s of rows) out.push(await toRow(names, s));
    return out;
  },
});

const vSignInput = signFields.pick(
  "campaignId",
  "address",
  "latitude",
  "longitude",
  "datePlaced",
  "dateRemoval",
  "notes",
  "voterId",
  "responsibleUserId",
  "assignedById",
).fields;

function requiredFields(campaignId: string | null, address: string) {
  if (!campaignId || address === "")
    throw appError("VALIDATION_ERROR", TEXTS.required.fields, TEXTS.titles.requiredMissing);
}

async function checkVoter(db: QueryCtx["db"], voterId: Id<"voters"> | null) {
  if (voterId !== null && !(await db.get("voters", voterId)))
    throw appError("VALIDATION_ERROR", "That voter is not in your organization's records.");
}

/** A campaign made from the sign dialog (an organisation without campaigns can still place signs). */
export const createCampaign = orgMutation("campaigns.manage")({
  args: { name: v.string() },
  returns: v.id("campaigns"),
  handler: async (ctx, { name }) => {
    const n = name.trim();
    if (!n) throw appError("VALIDATION_ERROR", TEXTS.required.campaignName, TEXTS.titles.campaignNameRequired);
    if (n.length > 200) throw appError("VALIDATION_ERROR", "A campaign name is limited to 200 characters.");
    const id = await ctx.db.insert("campaigns", {
      orgId: ctx.viewer.orgId,
      name: n,
      description: null,
      campaign_type: "signs",
      status: "active",
      createdBy: ctx.viewer.userId,
      updatedAt: Date.now(),
    });
    await adjustCounter(ctx, ctx.viewer.orgId, "campaigns", 1);
    return id;
  },
});

/** Add Sign Location: Scheduled when the placement date is ahead, else Active. */
export const create = orgMutation("campaigns.manage")({
  args: vSignInput,
  returns: v.id("signs"),
  handler: async (ctx, args) => {
    const address = cleanAddress(args.address);
    requiredFields(args.campaignId, address);
    await checkCampaign(ctx.db, args.campaignId);
    checkPoint(args.latitude, args.longitude);
    checkDates(args.datePlaced, args.dateRemoval);
    await checkVoter(ctx.db, args.voterId);
    await checkMember(ctx.db, ctx.viewer.orgId, args.responsibleUserId);
    await checkMember(ctx.db, ctx.viewer.orgId, args.assignedById);
    const fields: SignFields = {
      ...args,
      address,
      notes: cleanNotes(args.notes),
      scheduledDate: null,
      scheduledTime: null,
      actualRemovalDate: null,
      createdBy: ctx.viewer.userId,
    };
    const [id] = await writeSigns(ctx, ctx.viewer.orgId, [{ id: null, fields, removed: false }]);
    return id;
  },
});

/** Saves the changed fields of a sign, each with its base (no lost updates); a removed sign stays removed. */
export const update = orgMutation("campaigns.manage")({
  args: { id: v.id("signs"), edits: v.array(vFieldEdit) },
  returns: v.null(),
  handler: async (ctx, { id, edits }) => {
    const sign = await ctx.db.get("signs", id);
    if (!sign) throw await missingRecord(ctx, ctx.viewer, id, "sign");
    const current = Object.fromEntries(
      Object.keys(SIGN_FIELD_LABELS).map((k) => [k, (sign as Record<string, unknown>)[k] ?? null]),
    ) as Record<string, unknown>;
    const apply = await mergeEdits(ctx, ctx.viewer, id, current, edits, {
      title: `The sign at ${sign.address}`,
      editable: (f) => Object.hasOwn(SIGN_FIELD_LABELS, f),
      label: (f) => SIGN_FIELD_LABELS[f] ?? f,
    });
    if (apply.length === 0) return null;
    const next = withEdits(current, apply);
    const num = (x: unknown) =>
      typeof x === "number" && Number.isFinite(x)
        ? x
        : (() => {
            throw appError("VALIDATION_ERROR", "Please enter valid numbers and dates.");
          })();
    const str = (x: unknown) =>
      typeof x === "string"
        ? x
        : x === null
          ? ""
          : (() => {
              throw appError("VALIDATION_ERROR");
            })();
    const idOf = <T extends "campaigns" | "users" | "voters">(table: T, x: unknown): Id<T> | null => {
      if (x === null || x === "") return null;
      const n = typeof x === "string" ? ctx.db.normalizeId(table, x) : null;
      if (!n) throw appError("VALIDATION_ERROR");
      return n;
    };
    const campaignId = idOf("campaigns", next.campaignId);
    const address = cleanAddress(str(next.address));
    requiredFields(campaignId, address);
    await checkCampaign(ctx.db, campaignId!);
    const latitude = num(next.latitude);
    const longitude = num(next.longitude);
    checkPoint(latitude, longitude);
    const datePlaced = num(next.datePlaced);
    const dateRemoval = num(next.dateRemoval);
    checkDates(datePlaced, dateRemoval);
    const voterId = idOf("voters", next.voterId);
    await checkVoter(ctx.db, voterId);
    const responsibleUserId = idOf("users", next.responsibleUserId);
    const assignedById = idOf("users", next.assignedById);
    await checkMember(ctx.db, ctx.viewer.orgId, responsibleUserId);
    await checkMember(ctx.db, ctx.viewer.orgId, assignedById);
    const { _id, _creationTime, orgId, quadkey, status, pickupDue, updatedAt, ...kept } = sign;
    void [_id, _creationTime, orgId, quadkey, pickupDue, updatedAt];
    const fields: SignFields = {
      ...kept,
      campaignId: campaignId!,
      address,
      latitude,
      longitude,
      datePlaced,
      dateRemoval,
      notes: cleanNotes(str(next.notes)),
      voterId,
      responsibleUserId,
      assignedById,
    };
    await writeSigns(ctx, ctx.viewer.orgId, [{ id, fields, removed: status === "Removed" }]);
    await markEdited(
      ctx,
      ctx.viewer,
      id,
      apply.map((e) => e.field),
    );
    return null;
  },
});

/** Schedule Sign Placement (Active signs only): Scheduled from the chosen date and time. */
export const schedule = orgMutation("campaigns.manage")({
  args: {
    id: v.id("signs"),
    datePlaced: v.number(),
    scheduledDate: v.string(),
    scheduledTime: v.string(),
    responsibleUserId: v.union(v.id("users"), v.null()),
    assignedById: v.union(v.id("users"), v.null()),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const sign = await ctx.db.get("signs", args.id);
    if (!sign) throw await missingRecord(ctx, ctx.viewer, args.id, "sign");
    if (sign.status !== "Active")
      throw appError("VALIDATION_ERROR", "Only active signs can be scheduled.", "Cannot schedule this sign");
    if (!/^\d{4}-\d{2}-\d{2}$/.test(args.scheduledDate) || !/^\d{2}:\d{2}$/.test(args.scheduledTime))
      throw appError("VALIDATION_ERROR", "Please choose a date and a time.");
    if (args.datePlaced <= Date.now())
      throw appError("VALIDATION_ERROR", "Please choose a date and time in the future.", "Cannot schedule this sign");
    await checkMember(ctx.db, ctx.viewer.orgId, args.responsibleUserId);
    await checkMember(ctx.db, ctx.viewer.orgId, args.assignedById);
    // the sign keeps its display time: a removal date before the new placement moves with it
    const span = sign.dateRemoval - sign.datePlaced;
    const dateRemoval =
      sign.dateRemoval > args.datePlaced ? sign.dateRemoval : args.datePlaced + Math.max(span, 24 * 3600_000);
    const { _id, _creationTime, orgId, quadkey, status, pickupDue, updatedAt, ...kept } = sign;
    void [_id, _creationTime, orgId, quadkey, status, pickupDue, updatedAt];
    const fields: SignFields = {
      ...kept,
      datePlaced: args.datePlaced,
      dateRemoval,
      scheduledDate: args.scheduledDate,
      scheduledTime: args.scheduledTime,
      responsibleUserId: args.responsibleUserId,
      assignedById: args.assignedById,
    };
    await writeSigns(ctx, ctx.viewer.orgId, [{ id: args.id, fields, removed: false }]);
    await markEdited(ctx, ctx.viewer, args.id, ["datePlaced", "dateRemoval", "responsibleUserId", "assignedById"]);
    return null;
  },
});

/** Mark Sign as Removed (Active and Scheduled signs): removal date and actual removal date. */
export const markRemoved = orgMutation("campaigns.manage")({
  args: { id: v.id("signs"), date: v.number() },
  returns: v.null(),
  handler: async (ctx, { id, date }) => {
    const sign = await ctx.db.get("signs", id);
    if (!sign) throw await missingRecord(ctx, ctx.viewer, id, "sign");
    if (sign.status === "Removed")
      throw appError("VALIDATION_ERROR", "This sign is already marked as removed.", "Sign already removed");
    if (!Number.isFinite(date)) throw appError("VALIDATION_ERROR", "Please choose the removal date.");
    const { _id, _creationTime, orgId, quadkey, status, pickupDue, updatedAt, ...kept } = sign;
    void [_id, _creationTime, orgId, quadkey, status, pickupDue, updatedAt];
    const fields: SignFields = { ...kept, dateRemoval: date, actualRemovalDate: date };
    await writeSigns(ctx, ctx.viewer.orgId, [{ id, fields, removed: true }]);
    await markEdited(ctx, ctx.viewer, id, ["dateRemoval"]);
    return null;
  },
});

export const remove = orgMutation("campaigns.manage")({
  args: { id: v.id("signs") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const sign = await ctx.db.get("signs", id);
    if (!sign) throw appError("NOT_FOUND");
    await deleteSign(ctx, sign);
    await markDeleted(ctx, ctx.viewer, id);
    return null;
  },
});

/**
 * Looks an address up: on the organisation's streets first (the offline geocoder, Map data), then
 * with GEOCODER_URL when one is configured (a Nominatim-style search); null when neither finds it.
 * The browser places a sign by its ZIP code without either.
 */
export const geocode = orgAction("campaigns.manage")({
  args: { address: v.string() },
  returns: v.union(v.object({ lat: v.number(), lng: v.number(), street: v.union(v.string(), v.null()) }), v.null()),
  handler: async (ctx, { address }): Promise<{ lat: number; lng: number; street: string | null } | null> => {
    const onStreets = await ctx.runQuery(api.mapData.place, { address });
    if (onStreets.lat !== null && onStreets.lng !== null)
      return { lat: onStreets.lat, lng: onStreets.lng, street: onStreets.street };
    // without a provider: not found on the streets, or (no streets either) "No geocoder is configured."
    if (!process.env.GEOCODER_URL && (await ctx.runQuery(api.geocode.status, {})).hasStreets) return null;
    const hit = await geocodeAddress(address);
    return hit ? { ...hit, street: null } : null;
  },
});

/** The organisation's timer (model/signs.ts armTimer). */
export const advance = internalMutation({
  args: { orgId: v.id("organizations"), at: v.number() },
  returns: v.null(),
  handler: async (ctx, { orgId, at }) => {
    await advanceSigns(ctx, orgId, at);
    return null;
  },
});
