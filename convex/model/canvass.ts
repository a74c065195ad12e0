/**
 * Canvassing (issue 38): recording the outbox's results exactly once, their effects on the voter
 * file in the same mutation, the dashboard's tallies and flags (claims of doors: canvassClaims.ts).
 *
 * Choices (the design is silent on these):
 * - Only recorded events are remembered by client id: a refused one is checked again when sent
 *   again (the canvasser may have fixed it, or the list reopened).
 * - Results are applied in the order of the outbox (seq) within a call; the outbox sends its oldest
 *   first, so a door's last result is the last one recorded. A canvasser's clock ahead of the
 *   server is capped at the time received (it orders the flags' "seconds apart", nothing else).
 * - A result without a voter concerns the whole door: Moved, wrong address and do-not-contact flag
 *   every voter registered there; Deceased needs the voter.
 * - "Knocked": doors with at least one result; a canvasser is credited with each door they recorded
 *   at once. Contacts count Contacted results; the contact rate is contacts per attempt.
 * - A voter edit at the door (phone, email) goes through the collaboration layer with the event's
 *   base values: a teammate's change to the same field keeps theirs, and the event is still
 *   recorded, its outcome naming them.
 * - Results are refused on a Completed list, and after the expiry of an expired list (results
 *   recorded before it expired still sync).
 */
import { ConvexError, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import {
  addAnswerCounts,
  CHOICE_TYPES,
  chosenOptions,
  farFromDoor,
  isContact,
  MAX_CLIENT_ID,
  MAX_NOTES,
  MAX_SYNC_EVENTS,
  tooFast,
  type ResultCode,
} from "../lib/canvass";
import { appError, type AppErrorData } from "../lib/errors";
import { checkResponses } from "../lib/surveys/rules";
import { TEXTS } from "../lib/texts";
import { doorAddress } from "../lib/turf/doorAddress";
import type { vCanvassEvent } from "../tables/canvass";
import type { VoterFields } from "../tables/voters";
import { mergeEdits, markEdited, withEdits } from "./collab";
import { audit } from "./audit";
import { markContacted, syncVoterDoor } from "./doors";
import { recordOptOut } from "./consent";
import { displayName } from "./presence";
import { recordSurveySubmission } from "./surveys";
import {
  cleanVoterFields,
  editableVoterFields,
  insertVoter,
  updateVoter,
  NO_FIELDS,
  voterChanges,
  voterTarget,
  voterValidationProblem,
} from "./voters";
import { canSeeList } from "./walkLists";
import type { Viewer } from "./viewer";

type Db = QueryCtx["db"];
export type CanvassEvent = Infer<typeof vCanvassEvent>;
export type Outcome = {
  clientId: string;
  status: "recorded" | "duplicate" | "refused";
  eventId: Id<"canvassEvents"> | null;
  message: string | null;
};

/** Voter fields a canvasser may correct at the door. */
const DOOR_EDITABLE = new Set(["phone", "email"]);
const DOOR_FIELD_LABELS: Record<string, string> = { phone: "phone", email: "email" };

/** The list, when the viewer may canvass it (managers: any; others: lists they are assigned to). */
export async function visibleList(db: Db, viewer: Pick<Viewer, "userId" | "can">, listId: Id<"walkLists">) {
  const list = await db.get("walkLists", listId);
  // a list the caller is not assigned to does not exist for them
  if (!list || !canSeeList(viewer, list)) throw appError("NOT_FOUND");
  return list;
}

const ZERO_RESULTS: Record<ResultCode, number> = {
  not_home: 0,
  contacted: 0,
  refused: 0,
  moved: 0,
  deceased: 0,
  inaccessible: 0,
  come_back: 0,
};

type Tally = Omit<Doc<"canvassTallies">, "_id" | "_creationTime"> & { _id?: Id<"canvassTallies"> };

async function loadTally(db: Db, list: Doc<"walkLists">, canvasserId: Id<"users">): Promise<Tally> {
  const row = await db
    .query("canvassTallies")
    .withIndex("by_list_canvasser", (q) => q.eq("listId", list._id).eq("canvasserId", canvasserId))
    .unique();
  return (
    row ?? {
      orgId: list.orgId,
      listId: list._id,
      canvasserId,
      attempts: 0,
      doors: 0,
      firstKnocks: 0,
      contacts: 0,
      results: { ...ZERO_RESULTS },
      answers: [],
      lastAt: null,
      lastDoorId: null,
      flags: 0,
    }
  );
}

async function saveTally(ctx: Pick<MutationCtx, "db">, t: Tally) {
  const { _id, ...fields } = t;
  if (_id) await ctx.db.replace("canvassTallies", _id, fields);
  else await ctx.db.insert("canvassTallies", fields);
}

/** Why an event cannot be recorded (a sentence), or null. Reads only. */
function refusal(
  list: Doc<"walkLists">,
  door: Doc<"doors"> | null,
  e: CanvassEvent,
  survey: Doc<"surveys"> | null,
  viewer: Pick<Viewer, "can">,
  now: number,
): string | null {
  if (!e.clientId || e.clientId.length > MAX_CLIENT_ID) return TEXTS.canvass.badClientId;
  if (list.status === "Completed") return TEXTS.canvass.listClosed;
  if (list.expiresAt <= now && e.at > list.expiresAt) return TEXTS.canvass.listExpired;
  if (!door || !list.doorIds.includes(door._id)) return TEXTS.canvass.doorNotOnList;
  if (e.voterId !== null && !door.voterIds.includes(e.voterId)) return TEXTS.canvass.voterNotAtDoor;
  if (e.result === "deceased" && e.voterId === null) return TEXTS.canvass.voterNeeded;
  if (e.notes !== null && e.notes.length > MAX_NOTES) return TEXTS.canvass.notesTooLong(MAX_NOTES);
  if ((e.addPerson || (e.edits?.length ?? 0) > 0) && !viewer.can("voters.update"))
    return TEXTS.canvass.cannotEditVoters;
  if (e.addPerson) {
    const problem = voterValidationProblem(personFields(e.addPerson, door), []);
    if (problem) return problem.title === "Invalid email" ? TEXTS.canvass.badEmail : TEXTS.canvass.personNameRequired;
  }
  if (e.edits && e.edits.length > 0 && e.voterId === null && !e.addPerson) return TEXTS.canvass.voterNeeded;
  if (e.answers && Object.keys(e.answers).length > 0) {
    if (!survey) return TEXTS.canvass.noScript;
    const { errors } = checkResponses(survey.pages, e.answers);
    const labels = new Map(survey.pages.flatMap((p) => p.fields).map((f) => [f.id, f.label]));
    const problems = Object.entries(errors).map(([id, msg]) => `${labels.get(id) ?? id}: ${msg}`);
    if (problems.length > 0) return TEXTS.canvass.badAnswers(problems.join("; "));
  }
  return null;
}

/** A person added at the door: their names and contact, the door's address. */
function personFields(p: NonNullable<CanvassEvent["addPerson"]>, door: Doc<"doors">): VoterFields {
  return cleanVoterFields({
    first_name: p.firstName,
    last_name: p.lastName,
    phone: p.phone ?? undefined,
    email: p.email ?? undefined,
    address: `${door.number} ${door.street}${door.unit ? ` Apt ${door.unit}` : ""}`,
    zip: door.zip || undefined,
  });
}

/** Adds the person met at the door as a voter on that door (flagged canvass_added by the caller). */
async function addPerson(
  ctx: MutationCtx,
  viewer: Viewer,
  door: Doc<"doors">,
  p: NonNullable<CanvassEvent["addPerson"]>,
): Promise<Id<"voters">> {
  const fields = personFields(p, door);
  // the household's city and state, when a neighbour at the door has them
  const neighbour = door.voterIds.length > 0 ? await ctx.db.get("voters", door.voterIds[0]) : null;
  if (neighbour?.address) fields.address = neighbour.address;
  if (neighbour?.city) fields.city = neighbour.city;
  if (neighbour?.state) fields.state = neighbour.state;
  if (neighbour?.zip) fields.zip = neighbour.zip;
  const voterId = await insertVoter(ctx, viewer.orgId, fields);
  const target = voterTarget(voterId, fields);
  await audit(ctx, viewer, {
    action: "voter.create",
    target,
    summary: `Added voter ${target.label} at the door (canvass).`,
    changes: voterChanges(NO_FIELDS, fields),
  });
  // placed where the door is, so the door lists them
  const neighbourPlace = neighbour
    ? await ctx.db
        .query("voterPlaces")
        .withIndex("by_voter", (q) => q.eq("voterId", neighbour._id))
        .unique()
    : null;
  const voter = (await ctx.db.get("voters", voterId))!;
  const place = {
    address: neighbourPlace?.address ?? `${fields.address}, ${door.zip}`,
    quality: neighbourPlace?.quality ?? ("exact range" as const),
    lat: door.lat,
    lng: door.lng,
  };
  await ctx.db.insert("voterPlaces", {
    orgId: viewer.orgId,
    voterId,
    layerId: neighbourPlace?.layerId ?? null,
    at: Date.now(),
    voterAt: voter._creationTime,
    ...place,
  });
  await syncVoterDoor(ctx, viewer.orgId, voterId, null, place);
  return voterId;
}

/** A voter edit at the door through the collaboration layer; returns the conflict sentence, or null when applied. */
async function editVoter(
  ctx: MutationCtx,
  viewer: Viewer,
  voterId: Id<"voters">,
  edits: NonNullable<CanvassEvent["edits"]>,
): Promise<string | null> {
  const voter = await ctx.db.get("voters", voterId);
  if (!voter) return null;
  let apply;
  try {
    apply = await mergeEdits(ctx, viewer, voterId, voter, edits, {
      title: `${voter.first_name} ${voter.last_name}`.trim() || "This voter",
      editable: (f) => DOOR_EDITABLE.has(f),
      label: (f) => DOOR_FIELD_LABELS[f] ?? f,
    });
  } catch (err) {
    if (err instanceof ConvexError) return TEXTS.canvass.editConflict((err.data as AppErrorData).message);
    throw err;
  }
  if (apply.length === 0) return null;
  const fields = cleanVoterFields(withEdits(editableVoterFields(voter), apply));
  const problem = voterValidationProblem(fields, []);
  if (problem) return TEXTS.canvass.editConflict(problem.message);
  await updateVoter(ctx, voter, fields);
  const changes = voterChanges(editableVoterFields(voter), fields);
  if (changes.length > 0) {
    const target = voterTarget(voterId, fields);
    await audit(ctx, viewer, {
      action: "voter.update",
      target,
      summary: `Changed ${changes.length === 1 ? "1 field" : `${changes.length} fields`} of voter ${target.label} at the door (canvass).`,
      changes,
    });
    await ctx.db.insert("voterChanges", {
      orgId: viewer.orgId,
      voterId,
      at: Date.now(),
      userId: viewer.userId,
      changes,
    });
  }
  await markEdited(
    ctx,
    viewer,
    voterId,
    apply.map((e) => e.field),
  );
  return null;
}

/** Flags a voter (once per kind). */
async function flagVoter(
  ctx: Pick<MutationCtx, "db">,
  viewer: Viewer,
  voterId: Id<"voters">,
  kind: Doc<"voterFlags">["kind"],
  eventId: Id<"canvassEvents">,
  at: number,
) {
  const existing = await ctx.db
    .query("voterFlags")
    .withIndex("by_voter", (q) => q.eq("voterId", voterId).eq("kind", kind))
    .first();
  if (existing) return;
  await ctx.db.insert("voterFlags", {
    orgId: viewer.orgId,
    voterId,
    kind,
    source: "canvass",
    eventId,
    by: viewer.userId,
    at,
  });
}

/**
 * Keeps a voter out of all outreach organisation-wide, through the consent ledger the send paths
 * honour: their number opted out of texts (source "canvass"), their email suppressed
 * (do_not_contact); the canvasser and the visit's event are the provenance.
 */
export async function suppressVoter(
  ctx: MutationCtx,
  viewer: Viewer,
  voter: Doc<"voters">,
  eventId: Id<"canvassEvents">,
) {
  const base = { orgId: voter.orgId, voterId: voter._id };
  const provenance = {
    source: "canvass" as const,
    sourceId: eventId,
    actorId: viewer.userId,
    actorName: displayName(viewer.user),
  };
  if (voter.phoneKey) await recordOptOut(ctx, { ...base, channel: "sms", contact: voter.phoneKey, provenance });
  if (voter.emailLower) await recordOptOut(ctx, { ...base, channel: "email", contact: voter.emailLower, provenance });
}

/** Records the outbox's events in seq order, each once by client id; per event what happened. */
export async function syncEvents(
  ctx: MutationCtx,
  viewer: Viewer,
  listId: Id<"walkLists">,
  events: CanvassEvent[],
): Promise<Outcome[]> {
  if (events.length > MAX_SYNC_EVENTS) throw appError("VALIDATION_ERROR", TEXTS.canvass.tooManyEvents(MAX_SYNC_EVENTS));
  const list = await visibleList(ctx.db, viewer, listId);
  const survey = list.surveyId ? await ctx.db.get("surveys", list.surveyId) : null;
  const choiceFields = new Set(
    (survey?.pages ?? [])
      .flatMap((p) => p.fields)
      .filter((f) => CHOICE_TYPES.has(f.type))
      .map((f) => f.id),
  );
  const now = Date.now();
  const order = events.map((e, i) => ({ e, i })).sort((a, b) => a.e.seq - b.e.seq || a.i - b.i);
  const outcomes: Outcome[] = new Array(events.length);
  let myTally: Tally | null = null;
  let recordedAny = false;
  let answered = false;
  let anyClaims: boolean | null = null;
  for (const { e, i } of order) {
    const clientId = e.clientId;
    const seen = clientId
      ? await ctx.db
          .query("canvassEvents")
          .withIndex("by_org_client", (q) => q.eq("orgId", viewer.orgId).eq("clientId", clientId))
          .first()
      : null;
    if (seen) {
      outcomes[i] =
        seen.canvasserId === viewer.userId && seen.listId === listId
          ? { clientId, status: "duplicate", eventId: seen._id, message: seen.message }
          : { clientId, status: "refused", eventId: null, message: TEXTS.canvass.clientIdTaken };
      continue;
    }
    const door = await ctx.db.get("doors", e.doorId);
    const refused = refusal(list, door, e, survey, viewer, now);
    if (refused || !door) {
      outcomes[i] = { clientId, status: "refused", eventId: null, message: refused ?? TEXTS.canvass.doorNotOnList };
      continue;
    }
    const at = Math.min(e.at, now);
    let voterId = e.voterId;
    let addedVoterId: Id<"voters"> | null = null;
    if (e.addPerson) voterId = addedVoterId = await addPerson(ctx, viewer, door, e.addPerson);
    let message: string | null = null;
    if (e.edits && e.edits.length > 0 && voterId) message = await editVoter(ctx, viewer, voterId, e.edits);
    let submissionId: Id<"surveySubmissions"> | null = null;
    const answers = e.answers && Object.keys(e.answers).length > 0 ? e.answers : null;
    if (answers && survey) {
      const r = await recordSurveySubmission(ctx, survey, answers, {
        email: null,
        userAgent: null,
        submitterIp: null,
        source: "canvass",
        voterId,
      });
      if (r.ok) {
        submissionId = r.id;
        // the survey's count follows shortly (rollUp)
        await ctx.db.insert("canvassRollupItems", {
          orgId: viewer.orgId,
          listId: null,
          doorId: null,
          surveyId: survey._id,
          at,
        });
        answered = true;
      }
    }
    const eventId = await ctx.db.insert("canvassEvents", {
      orgId: viewer.orgId,
      listId,
      doorId: door._id,
      voterId,
      canvasserId: viewer.userId,
      clientId,
      seq: e.seq,
      result: e.result,
      submissionId,
      notes: e.notes,
      doNotContact: e.doNotContact ?? false,
      wrongAddress: e.wrongAddress ?? false,
      addedVoterId,
      at,
      receivedAt: now,
      ...(e.gps ? { gps: e.gps } : {}),
      message,
    });

    // effects on the voter file
    if (isContact(e.result)) {
      // (the door as read for this action: an earlier action of the call at the same door is in it)
      if ((door.lastContactAt ?? 0) < at) await ctx.db.patch("doors", door._id, { lastContactAt: at });
      // the turf filters' packed copy, for "not contacted since", follows shortly (rollUp)
      await ctx.db.insert("canvassRollupItems", { orgId: viewer.orgId, listId, doorId: door._id, surveyId: null, at });
    }
    const concerned = voterId ? [voterId] : door.voterIds;
    if (e.result === "moved") for (const v of concerned) await flagVoter(ctx, viewer, v, "moved", eventId, at);
    if (e.wrongAddress) for (const v of concerned) await flagVoter(ctx, viewer, v, "wrong_address", eventId, at);
    if (addedVoterId) await flagVoter(ctx, viewer, addedVoterId, "canvass_added", eventId, at);
    const stop: [Id<"voters">, "deceased" | "do_not_contact"][] = [];
    if (e.result === "deceased" && voterId) stop.push([voterId, "deceased"]);
    if (e.doNotContact) for (const v of concerned) stop.push([v, "do_not_contact"]);
    for (const [v, kind] of stop) {
      await flagVoter(ctx, viewer, v, kind, eventId, at);
      const voter = await ctx.db.get("voters", v);
      if (voter) await suppressVoter(ctx, viewer, voter, eventId);
    }

    // the door's state, the tallies, the flags
    const state = await ctx.db
      .query("canvassDoors")
      .withIndex("by_list_door", (q) => q.eq("listId", listId).eq("doorId", door._id))
      .unique();
    const firstKnock = state === null;
    const firstForMe = !state || !state.canvassers.includes(viewer.userId);
    if (state)
      await ctx.db.patch("canvassDoors", state._id, {
        lastResult: e.result,
        lastAt: at,
        lastCanvasserId: viewer.userId,
        attempts: state.attempts + 1,
        canvassers: firstForMe ? [...state.canvassers, viewer.userId] : state.canvassers,
      });
    else
      await ctx.db.insert("canvassDoors", {
        orgId: viewer.orgId,
        listId,
        doorId: door._id,
        lastResult: e.result,
        lastAt: at,
        lastCanvasserId: viewer.userId,
        attempts: 1,
        canvassers: [viewer.userId],
      });
    // a knocked door's claim has done its work (looked up when the list has claims at all)
    anyClaims ??=
      (await ctx.db
        .query("canvassClaims")
        .withIndex("by_list_door", (q) => q.eq("listId", listId))
        .first()) !== null;
    const claim = anyClaims
      ? await ctx.db
          .query("canvassClaims")
          .withIndex("by_list_door", (q) => q.eq("listId", listId).eq("doorId", door._id))
          .first()
      : null;
    if (claim) await ctx.db.delete("canvassClaims", claim._id);

    myTally ??= await loadTally(ctx.db, list, viewer.userId);
    const flags: { kind: "far" | "fast"; amount: number }[] = [];
    const far = farFromDoor(e.gps, door);
    if (far !== null) flags.push({ kind: "far", amount: far });
    const fast = tooFast(
      myTally.lastAt !== null && myTally.lastDoorId ? { at: myTally.lastAt, doorId: myTally.lastDoorId } : null,
      { at, doorId: door._id },
    );
    if (fast !== null) flags.push({ kind: "fast", amount: fast });
    for (const f of flags)
      await ctx.db.insert("canvassFlags", {
        orgId: viewer.orgId,
        listId,
        canvasserId: viewer.userId,
        eventId,
        doorId: door._id,
        kind: f.kind,
        amount: f.amount,
        at,
      });
    const chosen = answers
      ? Object.entries(answers)
          .filter(([field]) => choiceFields.has(field))
          .map(([field, a]) => ({ field, options: chosenOptions(a) }))
      : [];
    const t = myTally;
    t.attempts += 1;
    if (firstForMe) t.doors += 1;
    if (firstKnock) t.firstKnocks += 1;
    if (isContact(e.result)) t.contacts += 1;
    t.results = { ...t.results, [e.result]: t.results[e.result] + 1 };
    if (chosen.length > 0) t.answers = addAnswerCounts(t.answers, chosen);
    t.flags += flags.length;
    t.lastAt = at;
    t.lastDoorId = door._id;
    recordedAny = true;
    outcomes[i] = { clientId, status: "recorded", eventId, message };
  }
  if (myTally) await saveTally(ctx, myTally);
  if (recordedAny) await startRollups(ctx, viewer.orgId, `list:${listId}`, LIST_ROLLUP_MS, now);
  if (answered && survey) await startRollups(ctx, viewer.orgId, `survey:${survey._id}`, SURVEY_ROLLUP_MS, now);
  return outcomes;
}

/**
 * How soon after a sync its list's figures on the walk-list pages (and its contacted doors' packed
 * copy) follow, and its survey's submission count: the end of the time bucket the sync fell in.
 */
export const LIST_ROLLUP_MS = 250;
export const SURVEY_ROLLUP_MS = 5_000;
/** Work items per rollup step. */
const ROLLUP_STEP = 300;

/**
 * Makes sure the key's chain of rollups runs (canvassRollupMarks): one rollup at the end of the
 * current bucket, then one a bucket while they find work. Scheduling a rollup per sync (or per
 * canvasser and bucket) ran hundreds of rollups a second at a campaign's peak, most finding nothing.
 */
async function startRollups(ctx: MutationCtx, orgId: Id<"organizations">, key: string, every: number, now: number) {
  const mark = await ctx.db
    .query("canvassRollupMarks")
    .withIndex("by_key", (q) => q.eq("key", key))
    .unique();
  if (mark?.running) return;
  if (mark) await ctx.db.patch("canvassRollupMarks", mark._id, { running: true });
  else await ctx.db.insert("canvassRollupMarks", { orgId, key, running: true });
  await ctx.scheduler.runAt((Math.floor(now / every) + 1) * every, internal.canvass.rollUp, { key });
}

/** The list's canvassers' tallies. */
export async function listTallies(db: Db, listId: Id<"walkLists">) {
  return await db
    .query("canvassTallies")
    .withIndex("by_list_canvasser", (q) => q.eq("listId", listId))
    .collect();
}

/** A list's progress (doors knocked, contacts) as the walk-list pages show it. */
export async function listProgress(db: Db, list: Doc<"walkLists">): Promise<{ knocked: number; contacts: number }> {
  const row = await db
    .query("canvassProgress")
    .withIndex("by_list", (q) => q.eq("listId", list._id))
    .unique();
  return row ? { knocked: row.knocked, contacts: row.contacts } : { knocked: list.knocked, contacts: list.contacts };
}

/**
 * A rollup: for a list, its contacted doors' packed last contact and its progress from the
 * tallies; for a survey, its count of canvass submissions. Again at once while items remain.
 */
export async function rollUp(ctx: MutationCtx, key: string) {
  const [kind, id] = key.split(":");
  if (kind === "survey") {
    const surveyId = ctx.db.normalizeId("surveys", id);
    if (!surveyId) return;
    const items = await ctx.db
      .query("canvassRollupItems")
      .withIndex("by_survey", (q) => q.eq("surveyId", surveyId))
      .take(ROLLUP_STEP);
    for (const item of items) await ctx.db.delete("canvassRollupItems", item._id);
    const survey = await ctx.db.get("surveys", surveyId);
    if (survey && items.length > 0)
      await ctx.db.patch("surveys", surveyId, { submissionCount: survey.submissionCount + items.length });
    await again(ctx, key, items.length, SURVEY_ROLLUP_MS);
    return;
  }
  const listId = ctx.db.normalizeId("walkLists", id);
  if (!listId) return;
  const items = await ctx.db
    .query("canvassRollupItems")
    .withIndex("by_list", (q) => q.eq("listId", listId))
    .take(ROLLUP_STEP);
  const doors = new Set<Id<"doors">>();
  for (const item of items) {
    if (item.doorId) doors.add(item.doorId);
    await ctx.db.delete("canvassRollupItems", item._id);
  }
  const contacted = [];
  for (const doorId of doors) {
    const door = await ctx.db.get("doors", doorId);
    if (door) contacted.push(door);
  }
  await markContacted(ctx, contacted);
  const list = await ctx.db.get("walkLists", listId);
  if (list) {
    const tallies = await listTallies(ctx.db, listId);
    const knocked = tallies.reduce((n, r) => n + r.firstKnocks, 0);
    const contacts = tallies.reduce((n, r) => n + r.contacts, 0);
    const row = await ctx.db
      .query("canvassProgress")
      .withIndex("by_list", (q) => q.eq("listId", listId))
      .unique();
    if (!row) await ctx.db.insert("canvassProgress", { orgId: list.orgId, listId, knocked, contacts });
    else if (row.knocked !== knocked || row.contacts !== contacts)
      await ctx.db.patch("canvassProgress", row._id, { knocked, contacts });
  }
  await again(ctx, key, items.length, LIST_ROLLUP_MS);
}

/**
 * The chain goes on: at once while items remain, a bucket later after it took any (syncs keep
 * bringing items). A run that finds nothing ends the chain (startRollups starts the next).
 */
async function again(ctx: MutationCtx, key: string, took: number, every: number) {
  if (took === ROLLUP_STEP) await ctx.scheduler.runAfter(0, internal.canvass.rollUp, { key });
  else if (took > 0) await ctx.scheduler.runAfter(every, internal.canvass.rollUp, { key });
  else {
    const mark = await ctx.db
      .query("canvassRollupMarks")
      .withIndex("by_key", (q) => q.eq("key", key))
      .unique();
    if (mark?.running) await ctx.db.patch("canvassRollupMarks", mark._id, { running: false });
  }
}

/** The viewer's voter's door (through their place), or null. */
export async function voterDoor(db: Db, orgId: Id<"organizations">, voterId: Id<"voters">) {
  const place = await db
    .query("voterPlaces")
    .withIndex("by_voter", (q) => q.eq("voterId", voterId))
    .unique();
  const address = place && doorAddress(place.address);
  if (!address) return null;
  const door = await db
    .query("doors")
    .withIndex("by_org_key", (q) => q.eq("orgId", orgId).eq("key", address.key))
    .unique();
  return door && door.voterIds.includes(voterId) ? door : null;
}
