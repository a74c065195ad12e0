/**
 * Petition signature verification (spec/3 §2.8, §3.2, §4): petitions of the organisation, the
 * uploaded pages, and one row per signer line with its verdict against the voter file (lib/
 * petitions/match.ts), its reviewer's claim and adjudication.
 */
import { defineTable } from "convex/server";
import { v } from "convex/values";
import { FAILURE_REASONS } from "../lib/petitions/match";

export const LINE_STATUSES = ["pending", "verified", "failed", "duplicate", "review", "adjudicated"] as const;
export const vLineStatus = v.union(...LINE_STATUSES.map((s) => v.literal(s)));
export const vFailureReason = v.union(...FAILURE_REASONS.map((r) => v.literal(r)));
export const ADJUDICATION_ACTIONS = ["accept", "cure", "overrule", "reject"] as const;
export const vAdjudicationAction = v.union(...ADJUDICATION_ACTIONS.map((a) => v.literal(a)));
export const vEvidence = v.object({ name: v.string(), address: v.string(), registration: v.string() });
export const vCandidate = v.object({
  voterId: v.id("voters"),
  score: v.number(),
  nameScore: v.number(),
  addressScore: v.number(),
  evidence: vEvidence,
});
/** Verdict counts kept on the petition by the matcher and reviewers (lines entered are counted apart). */
export const vDecisionCounts = v.object({
  verified: v.number(),
  failed: v.number(),
  duplicate: v.number(),
  review: v.number(),
  adjudicatedValid: v.number(),
  adjudicatedInvalid: v.number(),
  /** lines in the random sample so far (sampling mode) */
  sampled: v.number(),
});
/** A reviewer's decision on a line (who made it: `by`, and their name then). */
export const vAdjudication = v.object({
  action: vAdjudicationAction,
  valid: v.boolean(),
  notes: v.string(),
  at: v.number(),
  by: v.id("users"),
  byName: v.string(),
});
/** The counts a screen shows: lines entered and still pending besides the verdicts. */
export const vPetitionCounts = v.object({ lines: v.number(), pending: v.number(), ...vDecisionCounts.fields });

export const petitionTables = {
  petitions: defineTable({
    orgId: v.id("organizations"),
    name: v.string(),
    signaturesNeeded: v.number(),
    deadline: v.union(v.string(), v.null()),
    jurisdiction: v.object({ state: v.union(v.string(), v.null()), county: v.union(v.string(), v.null()) }),
    /** "full": every line is checked; "sample": a random 3 % or 500 lines, whichever is more */
    mode: v.union(v.literal("full"), v.literal("sample")),
    counts: vDecisionCounts,
    /** pages so far (the next page's number) */
    pageCount: v.number(),
    /** no longer written (before issue 33 the running chain was flagged here; now on petitionIntake) */
    matching: v.optional(v.boolean()),
    /** lines whose voter has no county on the registration while the petition names one (they went to review) */
    countyUnknown: v.optional(v.number()),
    createdBy: v.id("users"),
    updatedAt: v.number(),
  }).index("by_org", ["orgId"]),

  /**
   * Lines entered per petition and whether its matching chain runs, apart from the petition's
   * verdict counts so that entering lines (often while the matcher runs) never conflicts with the
   * matcher's writes.
   */
  petitionIntake: defineTable({
    orgId: v.id("organizations"),
    petitionId: v.id("petitions"),
    lines: v.number(),
    /** a matching chain is running (one per petition; lines added meanwhile join it) */
    matching: v.optional(v.boolean()),
  }).index("by_petition", ["petitionId"]),

  petitionPages: defineTable({
    orgId: v.id("organizations"),
    petitionId: v.id("petitions"),
    pageNumber: v.number(),
    fileId: v.union(v.id("_storage"), v.null()),
    fileName: v.string(),
    contentType: v.string(),
    status: v.union(v.literal("processing"), v.literal("completed")),
    lineCount: v.number(),
    pendingCount: v.number(),
    /** the highest line number entered (an import keeps the file's numbers; typing continues after it) */
    lastSigner: v.optional(v.number()),
  }).index("by_petition_number", ["petitionId", "pageNumber"]),

  petitionLines: defineTable({
    orgId: v.id("organizations"),
    petitionId: v.id("petitions"),
    pageId: v.id("petitionPages"),
    pageNumber: v.number(),
    signerNumber: v.number(),
    name: v.string(),
    address: v.string(),
    /** the date written on the line (yyyy-mm-dd), if legible */
    signedOn: v.union(v.string(), v.null()),
    status: vLineStatus,
    /** in sampling mode, whether this line is in the random sample (only those are checked) */
    inSample: v.boolean(),
    /** a uniform random number: the sample is the lines with the smallest keys */
    sampleKey: v.number(),
    reason: v.union(vFailureReason, v.null()),
    confidence: v.union(v.number(), v.null()),
    evidence: v.union(vEvidence, v.null()),
    voterId: v.union(v.id("voters"), v.null()),
    candidates: v.array(vCandidate),
    duplicateOf: v.union(v.id("petitionLines"), v.null()),
    /** the verdict before adjudication (verified / failed / duplicate / review) */
    autoStatus: v.union(vLineStatus, v.null()),
    claim: v.union(v.object({ userId: v.id("users"), name: v.string(), at: v.number() }), v.null()),
    adjudication: v.union(vAdjudication, v.null()),
    /** the voter whose valid signature this line is (verified, or adjudicated valid): duplicate checks */
    countsFor: v.union(v.id("voters"), v.null()),
  })
    .index("by_petition_page_signer", ["petitionId", "pageNumber", "signerNumber"])
    .index("by_petition_status", ["petitionId", "status"])
    .index("by_petition_sample_key", ["petitionId", "inSample", "sampleKey"])
    .index("by_page", ["pageId"])
    .index("by_org_counts_for", ["orgId", "countsFor"]),
};
