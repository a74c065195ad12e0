/**
 * Doors kept in step with the voter file (issue 37). A voter's door follows their place on the map
 * (model/geocode.ts placeVoter writes it, model/voters.ts deleteVoter removes it): a voter joins the
 * door of their address (made when it is the first), leaves it when they move or go, and a door
 * without voters goes. Each door is also listed, packed, in its grid cell's doorCells document, so
 * counting a polygon's doors reads a few hundred documents. Voters placed before doors existed are
 * gathered by a chain of steps (buildDoorsStep), idempotent.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { doorAddress } from "../lib/turf/doorAddress";
import { cellOf } from "../lib/turf/geometry";
import { packVoters, TagDictionary, type FilterVoter } from "../lib/turf/packedFilters";
import { ALWAYS_SUPPRESSED } from "../tables/emailBlast";
import type { GeocodeQualityValue } from "../tables/geo";

/** What keeping doors needs of a mutation: its database and scheduler (the app's, or a test's). */
type Ctx = Pick<MutationCtx, "db" | "scheduler">;
type Db = MutationCtx["db"] | QueryCtx["db"];

/** Places precise enough to knock on: a ZIP's centre or a failure is no door. */
const DOOR_QUALITIES = new Set<GeocodeQualityValue>(["exact range", "interpolated", "street only"]);
/** Doors per doorCells document (its arrays stay far under Convex's 8,192 elements; ~150 KB). */
export const CELL_DOORS = 2_000;
/** Voter places per step of a build. */
const BUILD_STEP = 400;

export type PlaceLike = Pick<Doc<"voterPlaces">, "address" | "lat" | "lng" | "quality">;

/** Cells a transaction already marked (a build step puts hundreds of voters in a few cells). */
const markedIn = new WeakMap<object, Set<string>>();

/**
 * Notes that a cell's doors changed: its packed documents are rewritten by one scheduled step
 * (however many of its doors this transaction changes: a geocoding step places hundreds).
 */
export async function markCell(ctx: Ctx, orgId: Id<"organizations">, cell: number) {
  let seen = markedIn.get(ctx.db);
  if (!seen) markedIn.set(ctx.db, (seen = new Set()));
  const key = `${orgId}/${cell}`;
  if (seen.has(key)) return;
  seen.add(key);
  const marked = await ctx.db
    .query("doorCellsDirty")
    .withIndex("by_org_cell", (q) => q.eq("orgId", orgId).eq("cell", cell))
    .first();
  if (marked) return;
  await ctx.db.insert("doorCellsDirty", { orgId, cell });
  await ctx.scheduler.runAfter(0, internal.turfs.refreshCell, { orgId, cell });
}

/**
 * After canvassers talked to someone at these doors (issue 38; their lastContactAt already set):
 * the packed "last contact" the turf filters' "not contacted since" read, patched in place (the
 * doors' entries in their cells' filter documents, each written once). Repacking the whole cell for it (markCell) cost a
 * rewrite of hundreds of documents per contact: under 20 canvassers syncing at once it held the
 * dashboard's updates back by seconds. A door not in its packed documents is packed by a rewrite.
 */
export async function markContacted(ctx: Ctx, doors: Doc<"doors">[]) {
  const byCell = new Map<string, Doc<"doors">[]>();
  for (const door of doors) {
    if (door.lastContactAt === null) continue;
    const key = `${door.orgId}/${door.cell}`;
    byCell.set(key, [...(byCell.get(key) ?? []), door]);
  }
  for (const cellDoors of byCell.values()) {
    const { orgId, cell } = cellDoors[0];
    const left = new Map(cellDoors.map((d) => [d._id, d]));
    const docs = await ctx.db
      .query("doorCells")
      .withIndex("by_org_cell", (q) => q.eq("orgId", orgId).eq("cell", cell))
      .collect();
    for (const doc of docs) {
      const here = doc.ids.flatMap((id, i) => (left.has(id) ? [{ i, door: left.get(id)! }] : []));
      if (here.length === 0) continue;
      const filters = await ctx.db
        .query("doorCellVoters")
        .withIndex("by_cell_doc", (q) => q.eq("cellDoc", doc._id))
        .unique();
      if (!filters) continue;
      const contacted = filters.contacted.slice();
      let changed = false;
      for (const { i, door } of here) {
        left.delete(door._id);
        if (contacted[i] < door.lastContactAt!) {
          contacted[i] = door.lastContactAt!;
          changed = true;
        }
      }
      if (changed) await ctx.db.patch("doorCellVoters", filters._id, { contacted });
    }
    if (left.size > 0) await markCell(ctx, orgId, cell);
  }
}

/** Whether a voter asked not to be contacted: replied STOP to a text, or unsubscribed from email. */
export async function optedOut(db: Db, orgId: Id<"organizations">, voter: Doc<"voters">): Promise<boolean> {
  if (voter.phoneKey) {
    const stop = await db
      .query("smsOptOuts")
      .withIndex("by_org_phone", (q) => q.eq("orgId", orgId).eq("phone", voter.phoneKey!))
      .first();
    if (stop) return true;
  }
  if (voter.emailLower) {
    const rows = await db
      .query("emailSuppressions")
      .withIndex("by_org_email", (q) => q.eq("orgId", orgId).eq("email", voter.emailLower!))
      .take(5);
    if (rows.some((r) => ALWAYS_SUPPRESSED.has(r.reason))) return true;
  }
  return false;
}

/** Whether anyone in the organisation ever opted out (if not, no voter needs looking up). */
async function anyOptOut(db: Db, orgId: Id<"organizations">): Promise<boolean> {
  const sms = await db
    .query("smsOptOuts")
    .withIndex("by_org_phone", (q) => q.eq("orgId", orgId))
    .first();
  if (sms) return true;
  const email = await db
    .query("emailSuppressions")
    .withIndex("by_org_email", (q) => q.eq("orgId", orgId))
    .first();
  return email !== null;
}

/** A door's voters packed for the turf filters (lib/turf/packedFilters.ts). */
async function packDoor(
  db: Db,
  orgId: Id<"organizations">,
  door: Doc<"doors">,
  dict: TagDictionary,
  lookOptOuts: boolean,
): Promise<string> {
  const voters: FilterVoter[] = [];
  for (const id of door.voterIds) {
    const voter = await db.get("voters", id);
    if (!voter) continue;
    voters.push({
      party: voter.party_affiliation ?? "",
      status: voter.status ?? "",
      optedOut: lookOptOuts && (await optedOut(db, orgId, voter)),
      votes: (voter.vote_history ?? []).map((e) => e.election),
    });
  }
  return packVoters(voters, dict);
}

/** Rewrites a cell's packed documents (and their filter fields) from its doors. */
export async function refreshCell(ctx: Ctx, orgId: Id<"organizations">, cell: number) {
  for (const m of await ctx.db
    .query("doorCellsDirty")
    .withIndex("by_org_cell", (q) => q.eq("orgId", orgId).eq("cell", cell))
    .collect())
    await ctx.db.delete("doorCellsDirty", m._id);
  const doors = await ctx.db
    .query("doors")
    .withIndex("by_org_cell", (q) => q.eq("orgId", orgId).eq("cell", cell))
    .collect();
  const docs = await ctx.db
    .query("doorCells")
    .withIndex("by_org_cell", (q) => q.eq("orgId", orgId).eq("cell", cell))
    .collect();
  const lookOptOuts = doors.length > 0 && (await anyOptOut(ctx.db, orgId));
  const chunks = Math.ceil(doors.length / CELL_DOORS);
  for (let k = 0; k < Math.max(chunks, docs.length); k++) {
    const part = doors.slice(k * CELL_DOORS, (k + 1) * CELL_DOORS);
    const filterDoc = docs[k]
      ? await ctx.db
          .query("doorCellVoters")
          .withIndex("by_cell_doc", (q) => q.eq("cellDoc", docs[k]._id))
          .unique()
      : null;
    if (part.length === 0) {
      if (filterDoc) await ctx.db.delete("doorCellVoters", filterDoc._id);
      await ctx.db.delete("doorCells", docs[k]._id);
      continue;
    }
    const packed = {
      orgId,
      cell,
      ids: part.map((d) => d._id),
      lat: part.map((d) => d.lat),
      lng: part.map((d) => d.lng),
      voters: part.map((d) => d.voterIds.length),
      streets: part.map((d) => d.streetKey),
      numbers: part.map((d) => d.number),
      held: part.map((d) => (d.listId === null ? 0 : 1)),
    };
    let cellDoc: Id<"doorCells">;
    if (docs[k]) await ctx.db.replace("doorCells", (cellDoc = docs[k]._id), packed);
    else cellDoc = await ctx.db.insert("doorCells", packed);
    const dict = new TagDictionary();
    const tags: string[] = [];
    for (const d of part) tags.push(await packDoor(ctx.db, orgId, d, dict, lookOptOuts));
    const filters = {
      orgId,
      cellDoc,
      dict: dict.words,
      contacted: part.map((d) => d.lastContactAt ?? 0),
      tags,
    };
    if (filterDoc) await ctx.db.replace("doorCellVoters", filterDoc._id, filters);
    else await ctx.db.insert("doorCellVoters", filters);
  }
}

/**
 * After a change to what the turf filters read of a voter (party, status, vote history, phone,
 * email, an opt-out): their door's cell is packed again.
 */
export async function markVoterDoor(ctx: Ctx, orgId: Id<"organizations">, voterId: Id<"voters">) {
  const place = await ctx.db
    .query("voterPlaces")
    .withIndex("by_voter", (q) => q.eq("voterId", voterId))
    .unique();
  const address = place && doorAddress(place.address);
  if (!address) return;
  const door = await ctx.db
    .query("doors")
    .withIndex("by_org_key", (q) => q.eq("orgId", orgId).eq("key", address.key))
    .unique();
  if (door && door.voterIds.includes(voterId)) await markCell(ctx, orgId, door.cell);
}

/** Voters sharing a phone or email whose doors an opt-out re-packs (a household shares a few). */
const CONTACT_VOTERS = 50;

/** After an opt-out (or back in) of a phone or an email: the doors of its voters are packed again. */
export async function markDoorsOfContact(
  ctx: Ctx,
  orgId: Id<"organizations">,
  contact: { phone: string } | { email: string },
) {
  const voters =
    "phone" in contact
      ? await ctx.db
          .query("voters")
          .withIndex("by_org_phone", (q) => q.eq("orgId", orgId).eq("phoneKey", contact.phone))
          .take(CONTACT_VOTERS)
      : await ctx.db
          .query("voters")
          .withIndex("by_org_email", (q) => q.eq("orgId", orgId).eq("emailLower", contact.email))
          .take(CONTACT_VOTERS);
  for (const voter of voters) await markVoterDoor(ctx, orgId, voter._id);
}

/** Takes a voter off the door of a place (the door goes with its last voter). */
async function leaveDoor(ctx: Ctx, orgId: Id<"organizations">, voterId: Id<"voters">, place: PlaceLike) {
  const db = ctx.db;
  const address = doorAddress(place.address);
  if (!address) return;
  const door = await db
    .query("doors")
    .withIndex("by_org_key", (q) => q.eq("orgId", orgId).eq("key", address.key))
    .unique();
  if (!door || !door.voterIds.includes(voterId)) return;
  const voterIds = door.voterIds.filter((id) => id !== voterId);
  if (voterIds.length === 0) await db.delete("doors", door._id);
  else await db.patch("doors", door._id, { voterIds });
  await markCell(ctx, orgId, door.cell);
}

/**
 * Puts a voter on the door of a place (made when they are its first voter). `mark`: false in a
 * build, which rewrites every cell once at its end (marking cells step by step rewrote each cell
 * in nearly every step: a build of 100,000 voters took 4.5 minutes).
 */
async function joinDoor(ctx: Ctx, orgId: Id<"organizations">, voterId: Id<"voters">, place: PlaceLike, mark = true) {
  const markCellIf = (c: number) => (mark ? markCell(ctx, orgId, c) : Promise.resolve());
  const db = ctx.db;
  if (!DOOR_QUALITIES.has(place.quality) || place.lat === null || place.lng === null) return;
  const address = doorAddress(place.address);
  if (!address) return;
  const door = await db
    .query("doors")
    .withIndex("by_org_key", (q) => q.eq("orgId", orgId).eq("key", address.key))
    .unique();
  if (door) {
    if (door.voterIds.includes(voterId)) {
      // placed again on a new streets layer: the door moves with its place
      if (door.lat !== place.lat || door.lng !== place.lng) {
        const cell = cellOf(place.lat, place.lng);
        await db.patch("doors", door._id, { lat: place.lat, lng: place.lng, cell });
        await markCellIf(door.cell);
        if (cell !== door.cell) await markCellIf(cell);
      }
      return;
    }
    await db.patch("doors", door._id, { voterIds: [...door.voterIds, voterId] });
    await markCellIf(door.cell);
    return;
  }
  const fields = {
    orgId,
    key: address.key,
    streetKey: address.streetKey,
    street: address.street,
    number: address.number,
    unit: address.unit,
    zip: address.zip,
    lat: place.lat,
    lng: place.lng,
    cell: cellOf(place.lat, place.lng),
    voterIds: [voterId],
    listId: null,
    lastContactAt: null,
  };
  await db.insert("doors", fields);
  await markCellIf(fields.cell);
}

/**
 * After a voter's place changed (`before`: the place it had, null when new; `after`: null when the
 * place goes): the voter leaves their old door and joins the new one.
 */
export async function syncVoterDoor(
  ctx: Ctx,
  orgId: Id<"organizations">,
  voterId: Id<"voters">,
  before: PlaceLike | null,
  after: PlaceLike | null,
) {
  const same =
    before &&
    after &&
    before.address === after.address &&
    before.lat === after.lat &&
    before.lng === after.lng &&
    before.quality === after.quality;
  if (same) return;
  if (before) await leaveDoor(ctx, orgId, voterId, before);
  if (after) await joinDoor(ctx, orgId, voterId, after);
}

/** Starts gathering the organisation's placed voters into doors (a running build is left to finish). */
export async function startDoorBuild(ctx: MutationCtx, orgId: Id<"organizations">): Promise<Id<"doorBuilds">> {
  const existing = await ctx.db
    .query("doorBuilds")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .order("desc")
    .first();
  if (existing?.status === "running") return existing._id;
  const id = await ctx.db.insert("doorBuilds", {
    orgId,
    status: "running",
    cursor: null,
    processed: 0,
    startedAt: Date.now(),
  });
  await ctx.scheduler.runAfter(0, internal.turfs.buildDoorsStep, { buildId: id });
  return id;
}

/** Doors read per step of a build's cell rewrites. */
const CELL_STEP = 1_000;

/**
 * One step of a build: a page of places, each voter put on their door (a voter already there is
 * left); then, a page of doors in cell order at a time, every cell's packed documents rewritten once.
 */
export async function buildDoorsStep(ctx: MutationCtx, buildId: Id<"doorBuilds">): Promise<void> {
  const build = await ctx.db.get("doorBuilds", buildId);
  if (!build || build.status !== "running") return;
  if (build.afterCell !== undefined) {
    await rewriteCellsStep(ctx, build);
    return;
  }
  const page = await ctx.db
    .query("voterPlaces")
    .withIndex("by_org_voter_at", (q) => q.eq("orgId", build.orgId))
    .paginate({ cursor: build.cursor, numItems: BUILD_STEP });
  for (const place of page.page) await joinDoor(ctx, build.orgId, place.voterId, place, false);
  const processed = build.processed + page.page.length;
  if (page.isDone) {
    await ctx.db.patch("doorBuilds", buildId, { cursor: null, processed, afterCell: -1 });
    await ctx.scheduler.runAfter(0, internal.turfs.buildDoorsStep, { buildId });
    return;
  }
  await ctx.db.patch("doorBuilds", buildId, { cursor: page.continueCursor, processed });
  await ctx.scheduler.runAfter(0, internal.turfs.buildDoorsStep, { buildId });
}

/** A build's cell rewrites: the cells wholly within the next CELL_STEP doors (a bigger cell alone). */
async function rewriteCellsStep(ctx: MutationCtx, build: Doc<"doorBuilds">): Promise<void> {
  const after = build.afterCell ?? -1;
  const doors = await ctx.db
    .query("doors")
    .withIndex("by_org_cell", (q) => q.eq("orgId", build.orgId).gt("cell", after))
    .take(CELL_STEP);
  if (doors.length === 0) {
    await ctx.db.patch("doorBuilds", build._id, { status: "done" });
    return;
  }
  const cells = [...new Set(doors.map((d) => d.cell))];
  // the page's last cell may go on past it; unless it is the only one, it is the next step's first
  const complete = doors.length < CELL_STEP || cells.length === 1 ? cells : cells.slice(0, -1);
  for (const cell of complete) await refreshCell(ctx, build.orgId, cell);
  await ctx.db.patch("doorBuilds", build._id, { afterCell: complete[complete.length - 1] });
  await ctx.scheduler.runAfter(0, internal.turfs.buildDoorsStep, { buildId: build._id });
}
