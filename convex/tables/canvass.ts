/**
 * Canvassing (issue 38): what canvassers record at the doors of a walk list, and what the
 * organiser's dashboard reads. Events are append-only, one per attempt, recorded once by the
 * outbox's client id; the dashboard reads tallies kept in the same mutation (per list and door,
 * per list and canvasser, per list), never the events. Claims hand a canvasser doors for a while.
 */
import { defineTable } from "convex/server";
import { v } from "convex/values";
import { RESULT_CODES } from "../lib/canvass";
import { vFieldEdit } from "./collab";
import { vAnswer } from "./surveys";

export const vResultCode = v.union(...RESULT_CODES.map((r) => v.literal(r)));
export const vGps = v.object({ lat: v.number(), lng: v.number(), accuracy: v.number() });
/** Choice answers counted: one row per question and option. */
export const vAnswerCounts = v.array(v.object({ field: v.string(), option: v.string(), n: v.number() }));
/** Attempts per result code. */
export const vResultCounts = v.object({
  not_home: v.number(),
  contacted: v.number(),
  refused: v.number(),
  moved: v.number(),
  deceased: v.number(),
  inaccessible: v.number(),
  come_back: v.number(),
});
export const VOTER_FLAG_KINDS = ["moved", "wrong_address", "deceased", "do_not_contact", "canvass_added"] as const;
export const vVoterFlagKind = v.union(...VOTER_FLAG_KINDS.map((k) => v.literal(k)));
export const vFlagKind = v.union(v.literal("far"), v.literal("fast"));

/** One action from the canvasser's outbox (canvass.sync). */
export const vCanvassEvent = v.object({
  /** the outbox's id for the action (a replay carries the same) */
  clientId: v.string(),
  /** the outbox's order */
  seq: v.number(),
  doorId: v.id("doors"),
  /** the voter talked to; null: the door as a whole */
  voterId: v.union(v.id("voters"), v.null()),
  result: vResultCode,
  /** the script survey's answers (question id → answer) */
  answers: v.union(v.record(v.string(), vAnswer), v.null()),
  notes: v.union(v.string(), v.null()),
  /** do not contact (the voter, or everyone at the door) */
  doNotContact: v.optional(v.boolean()),
  /** the voter (or everyone at the door) is not at this address */
  wrongAddress: v.optional(v.boolean()),
  /** a person met at the door, added as a voter (their answers and edits then concern them) */
  addPerson: v.optional(
    v.union(
      v.object({
        firstName: v.string(),
        lastName: v.string(),
        phone: v.union(v.string(), v.null()),
        email: v.union(v.string(), v.null()),
      }),
      v.null(),
    ),
  ),
  /** corrections of the voter's phone or email, each with the value the canvasser started from */
  edits: v.optional(v.array(vFieldEdit)),
  /** the canvasser's clock (ms) */
  at: v.number(),
  /** optional GPS stamp (with consent), for the organiser's data-quality flags only */
  gps: v.optional(vGps),
});

export const canvassTables = {
  /** One attempt at a door (append-only): who, when, which list and door, the result, the answers' submission. */
  canvassEvents: defineTable({
    orgId: v.id("organizations"),
    listId: v.id("walkLists"),
    doorId: v.id("doors"),
    /** the voter talked to (or added at the door); null: the door as a whole */
    voterId: v.union(v.id("voters"), v.null()),
    canvasserId: v.id("users"),
    /** the outbox's id of the action (unique per organisation: a replay finds it) */
    clientId: v.string(),
    /** the outbox's order */
    seq: v.number(),
    result: vResultCode,
    /** the script survey's submission holding the answers */
    submissionId: v.union(v.id("surveySubmissions"), v.null()),
    notes: v.union(v.string(), v.null()),
    doNotContact: v.boolean(),
    wrongAddress: v.boolean(),
    /** a person added at the door (a new voter, flagged canvass_added) */
    addedVoterId: v.union(v.id("voters"), v.null()),
    /** the canvasser's clock */
    at: v.number(),
    receivedAt: v.number(),
    gps: v.optional(vGps),
    /** what recording it said besides "recorded" (a voter edit refused as a teammate changed the field); a replay returns it */
    message: v.union(v.string(), v.null()),
  })
    .index("by_org_client", ["orgId", "clientId"])
    .index("by_voter", ["voterId", "at"])
    .index("by_door", ["doorId", "at"])
    .index("by_list", ["listId", "receivedAt"]),

  /** Per list and door: the last result and attempts ("knocked", the map's colours). */
  canvassDoors: defineTable({
    orgId: v.id("organizations"),
    listId: v.id("walkLists"),
    doorId: v.id("doors"),
    lastResult: vResultCode,
    lastAt: v.number(),
    lastCanvasserId: v.id("users"),
    attempts: v.number(),
    /** canvassers who recorded here (credits each with the door once) */
    canvassers: v.array(v.id("users")),
  }).index("by_list_door", ["listId", "doorId"]),

  /**
   * Per list and canvasser: the dashboard's figures. The list's are their sums (a row per canvasser,
   * written only by that canvasser's syncs, which follow one another: canvassers syncing at once
   * never write the same tally; one row for the whole list made every sync of a list conflict).
   */
  canvassTallies: defineTable({
    orgId: v.id("organizations"),
    listId: v.id("walkLists"),
    canvasserId: v.id("users"),
    attempts: v.number(),
    /** distinct doors with a result by this canvasser */
    doors: v.number(),
    /** doors whose first result on the list was theirs (the list's doors knocked: the sum) */
    firstKnocks: v.number(),
    contacts: v.number(),
    results: vResultCounts,
    answers: vAnswerCounts,
    lastAt: v.union(v.number(), v.null()),
    lastDoorId: v.union(v.id("doors"), v.null()),
    /** data-quality flags raised (far, fast) */
    flags: v.number(),
  }).index("by_list_canvasser", ["listId", "canvasserId"]),

  /** A data-quality flag, raised as the result arrived (a contact rate far above the list's is read from the tallies). */
  canvassFlags: defineTable({
    orgId: v.id("organizations"),
    listId: v.id("walkLists"),
    canvasserId: v.id("users"),
    eventId: v.id("canvassEvents"),
    doorId: v.id("doors"),
    kind: vFlagKind,
    /** metres from the door, or seconds between doors */
    amount: v.number(),
    at: v.number(),
  }).index("by_list", ["listId", "at"]),

  /**
   * A list's progress (doors knocked, contacts) for the walk-list pages, summed from its tallies
   * shortly after its syncs (rollUp). Kept off the walkLists document: every sync reads that
   * document, and writing it several times a second made every sync in flight run again.
   */
  canvassProgress: defineTable({
    orgId: v.id("organizations"),
    listId: v.id("walkLists"),
    knocked: v.number(),
    contacts: v.number(),
  }).index("by_list", ["listId"]),

  /**
   * Whether a list's ("list:<id>") or a survey's ("survey:<id>") chain of rollups is running. A
   * sync that finds it not running starts the chain and writes it; while the chain runs (one
   * rollup a bucket, as long as syncs bring items) nobody writes it, so syncs read it without
   * making each other run again; the rollup that finds nothing to do ends the chain and writes it
   * (a sync that read "running" and commits after runs again, and starts a new chain).
   */
  canvassRollupMarks: defineTable({
    orgId: v.id("organizations"),
    key: v.string(),
    running: v.boolean(),
  }).index("by_key", ["key"]),

  /** The rollups' work: a contacted door (its packed last contact, by list), a canvass submission (its survey's count). */
  canvassRollupItems: defineTable({
    orgId: v.id("organizations"),
    listId: v.union(v.id("walkLists"), v.null()),
    doorId: v.union(v.id("doors"), v.null()),
    surveyId: v.union(v.id("surveys"), v.null()),
    at: v.number(),
  })
    .index("by_list", ["listId"])
    .index("by_survey", ["surveyId"]),

  /** A door handed to a canvasser for a while (one per door; an expired claim is free). */
  canvassClaims: defineTable({
    orgId: v.id("organizations"),
    listId: v.id("walkLists"),
    doorId: v.id("doors"),
    canvasserId: v.id("users"),
    expiresAt: v.number(),
  })
    .index("by_list_door", ["listId", "doorId"])
    .index("by_list_canvasser", ["listId", "canvasserId"]),

  /**
   * What the field learnt about a voter (moved, wrong address, deceased, do not contact, added at a
   * door), with its source. Issue 39's consent ledger will take over the contact parts.
   */
  voterFlags: defineTable({
    orgId: v.id("organizations"),
    voterId: v.id("voters"),
    kind: vVoterFlagKind,
    source: v.literal("canvass"),
    eventId: v.union(v.id("canvassEvents"), v.null()),
    by: v.id("users"),
    at: v.number(),
  })
    .index("by_voter", ["voterId", "kind"])
    .index("by_org_kind", ["orgId", "kind"]),
};
