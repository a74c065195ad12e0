/**
 * Doors kept in step with the voter file (issue 37). A voter's door follows their place on the map
 * (model/geocode.ts placeVoter writes it, model/voters.ts deleteVoter removes it): a voter joins the
 * door of their address (made when it is the first), leaves it when they move or go, and a door
 * without voters goes. Each door is also listed, packed, in its grid cell's doorCells document, so
 * counting a polygon's doors reads a few hundred documents. Voters placed before doors existed are
 * gathered by a chain of steps (buildDoorsStep), idempotent.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { doorAddress } from "../lib/turf/doorAddress";
import { cellOf } from "../lib/turf/geometry";
import type { GeocodeQualityValue } from "../tables/geo";

type Db = MutationCtx["db"];

/** Places precise enough to knock on: a ZIP's centre or a failure is no door. */
const DOOR_QUALITIES = new Set<GeocodeQualityValue>(["exact range", "interpolated", "street only"]);
/** Doors per doorCells document (each of its arrays stays under Convex's 8,192 elements). */
export const CELL_DOORS = 2_000;
/** Voter places per step of a build. */
const BUILD_STEP = 400;

export type PlaceLike = Pick<Doc<"voterPlaces">, "address" | "lat" | "lng" | "quality">;

/** A doorCells document of the cell with room for one more door (a new one when all are full). */
async function cellWithRoom(db: Db, orgId: Id<"organizations">, cell: number): Promise<Doc<"doorCells">> {
  const docs = await db
    .query("doorCells")
    .withIndex("by_org_cell", (q) => q.eq("orgId", orgId).eq("cell", cell))
    .collect();
  const room = docs.find((d) => d.ids.length < CELL_DOORS);
  if (room) return room;
  const id = await db.insert("doorCells", {
    orgId,
    cell,
    ids: [],
    lat: [],
    lng: [],
    voters: [],
    streets: [],
    numbers: [],
  });
  return (await db.get(id))!;
}

async function updateCell(db: Db, door: Doc<"doors">, voters: number | null) {
  const cell = await db.get(door.cellDoc);
  if (!cell) return;
  const i = cell.ids.indexOf(door._id);
  if (i < 0) return;
  if (voters !== null) {
    const next = cell.voters.slice();
    next[i] = voters;
    await db.patch(cell._id, { voters: next });
    return;
  }
  if (cell.ids.length === 1) {
    await db.delete(cell._id);
    return;
  }
  const drop = <T>(xs: T[]) => xs.filter((_, k) => k !== i);
  await db.patch(cell._id, {
    ids: drop(cell.ids),
    lat: drop(cell.lat),
    lng: drop(cell.lng),
    voters: drop(cell.voters),
    streets: drop(cell.streets),
    numbers: drop(cell.numbers),
  });
}

/** Takes a voter off the door of a place (the door goes with its last voter). */
async function leaveDoor(db: Db, orgId: Id<"organizations">, voterId: Id<"voters">, place: PlaceLike) {
  const address = doorAddress(place.address);
  if (!address) return;
  const door = await db
    .query("doors")
    .withIndex("by_org_key", (q) => q.eq("orgId", orgId).eq("key", address.key))
    .unique();
  if (!door || !door.voterIds.includes(voterId)) return;
  const voterIds = door.voterIds.filter((id) => id !== voterId);
  if (voterIds.length === 0) {
    await updateCell(db, door, null);
    await db.delete(door._id);
    return;
  }
  await db.patch(door._id, { voterIds });
  await updateCell(db, door, voterIds.length);
}

/** Puts a voter on the door of a place (made when they are its first voter). */
async function joinDoor(db: Db, orgId: Id<"organizations">, voterId: Id<"voters">, place: PlaceLike) {
  if (!DOOR_QUALITIES.has(place.quality) || place.lat === null || place.lng === null) return;
  const address = doorAddress(place.address);
  if (!address) return;
  const door = await db
    .query("doors")
    .withIndex("by_org_key", (q) => q.eq("orgId", orgId).eq("key", address.key))
    .unique();
  if (door) {
    if (door.voterIds.includes(voterId)) return;
    const voterIds = [...door.voterIds, voterId];
    await db.patch(door._id, { voterIds });
    await updateCell(db, door, voterIds.length);
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
  const cell = await cellWithRoom(db, orgId, fields.cell);
  const id = await db.insert("doors", { ...fields, cellDoc: cell._id });
  await db.patch(cell._id, {
    ids: [...cell.ids, id],
    lat: [...cell.lat, fields.lat],
    lng: [...cell.lng, fields.lng],
    voters: [...cell.voters, 1],
    streets: [...cell.streets, fields.streetKey],
    numbers: [...cell.numbers, fields.number],
  });
}

/**
 * After a voter's place changed (`before`: the place it had, null when new; `after`: null when the
 * place goes): the voter leaves their old door and joins the new one.
 */
export async function syncVoterDoor(
  ctx: Pick<MutationCtx, "db">,
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
  if (before) await leaveDoor(ctx.db, orgId, voterId, before);
  if (after) await joinDoor(ctx.db, orgId, voterId, after);
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
  await ctx.scheduler.runAfter(0, internal.walkLists.buildDoorsStep, { buildId: id });
  return id;
}

/** One step of a build: a page of places, each voter put on their door (a voter already there is left). */
export async function buildDoorsStep(ctx: MutationCtx, buildId: Id<"doorBuilds">): Promise<void> {
  const build = await ctx.db.get(buildId);
  if (!build || build.status !== "running") return;
  const page = await ctx.db
    .query("voterPlaces")
    .withIndex("by_org_voter_at", (q) => q.eq("orgId", build.orgId))
    .paginate({ cursor: build.cursor, numItems: BUILD_STEP });
  for (const place of page.page) await joinDoor(ctx.db, build.orgId, place.voterId, place);
  const processed = build.processed + page.page.length;
  if (page.isDone) {
    await ctx.db.patch(buildId, { status: "done", cursor: null, processed });
    return;
  }
  await ctx.db.patch(buildId, { cursor: page.continueCursor, processed });
  await ctx.scheduler.runAfter(0, internal.walkLists.buildDoorsStep, { buildId });
}
