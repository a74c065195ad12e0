/**
 * Petition signature verification (spec/3 §2.8): petitions, their pages (images or PDFs in file
 * storage), signer lines entered or imported beside the page, the matching chain's verdicts, the
 * shared review queue (claim, adjudicate, release) and the export. voters.view reads,
 * voters.update enters lines and adjudicates, voters.manage creates and deletes petitions.
 */
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import type { Doc, Id } from "./_generated/dataModel";
import { internal } from "./_generated/api";
import { internalMutation, orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { projectValid, sampleSize } from "./lib/petitions/projection";
import { displayName } from "./model/presence";
import { keepsNameKeys, writeNameKeys } from "./model/voters";
import { CLAIM_TTL_MS, adjudicationValidity, countingLine, emptyCounts, heldByOther, linesEntered, matchStep, moveCount, requireClaim, startMatching } from "./model/petitions";
import { vAdjudicationAction, vCandidate, vLineStatus, vPetitionCounts } from "./tables/petitions";

const MAX_PETITIONS = 200;
const MAX_LINES_PER_CALL = 200;
const MAX_PAGE_BYTES = 15 * 1024 * 1024;
const PAGE_TYPES = /^(image\/(png|jpeg|gif|webp)|application\/pdf)$/;
const DELETE_BATCH = 400;

const vProjection = v.union(v.object({ rate: v.number(), projected: v.number(), low: v.number(), high: v.number(), decided: v.number() }), v.null());
const vPetitionRow = v.object({
  id: v.id("petitions"),
  name: v.string(),
  signaturesNeeded: v.number(),
  deadline: v.union(v.string(), v.null()),
  jurisdiction: v.object({ state: v.union(v.string(), v.null()), county: v.union(v.string(), v.null()) }),
  mode: v.union(v.literal("full"), v.literal("sample")),
  counts: vPetitionCounts,
  sampleTarget: v.number(),
  projection: vProjection,
  pageCount: v.number(),
});

function row(p: Doc<"petitions">, lines: number) {
  const decisions = p.counts;
  const decided = decisions.verified + decisions.failed + decisions.duplicate + decisions.adjudicatedValid + decisions.adjudicatedInvalid;
  const c = { lines, pending: Math.max(0, lines - decided - decisions.review), ...decisions };
  return {
    id: p._id,
    name: p.name,
    signaturesNeeded: p.signaturesNeeded,
    deadline: p.deadline,
    jurisdiction: p.jurisdiction,
    mode: p.mode,
    counts: c,
    sampleTarget: p.mode === "sample" ? sampleSize(c.lines) : c.lines,
    projection: projectValid(c.verified + c.adjudicatedValid, decided, c.lines),
    pageCount: p.pageCount,
  };
}

export const list = orgQuery("voters.view")({
  args: {},
  returns: v.array(vPetitionRow),
  handler: async (ctx) => {
    const rows = await ctx.db.query("petitions").withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId)).order("desc").take(MAX_PETITIONS);
    const out = [];
    for (const p of rows) out.push(row(p, await linesEntered(ctx.db, p._id)));
    return out;
  },
});

function cleanText(s: string | null, max: number, what: string): string | null {
  const t = (s ?? "").trim();
  if (t.length > max) throw appError("VALIDATION_ERROR", `${what} is limited to ${max} characters.`);
  return t === "" ? null : t;
}

export const create = orgMutation("voters.manage")({
  args: {
    name: v.string(),
    signaturesNeeded: v.number(),
    deadline: v.union(v.string(), v.null()),
    state: v.union(v.string(), v.null()),
    county: v.union(v.string(), v.null()),
    mode: v.union(v.literal("full"), v.literal("sample")),
  },
  returns: v.id("petitions"),
  handler: async (ctx, args) => {
    const name = cleanText(args.name, 200, "A petition name");
    if (!name) throw appError("VALIDATION_ERROR", "Please enter a petition name.", "Petition name required");
    if (!Number.isInteger(args.signaturesNeeded) || args.signaturesNeeded < 1 || args.signaturesNeeded > 10_000_000) {
      throw appError("VALIDATION_ERROR", "Signatures needed must be a whole number from 1 to 10,000,000.");
    }
    if (args.deadline !== null && !/^\d{4}-\d{2}-\d{2}$/.test(args.deadline)) throw appError("VALIDATION_ERROR", "Please enter the deadline as a date.");
    const id = await ctx.db.insert("petitions", {
      orgId: ctx.viewer.orgId,
      name,
      signaturesNeeded: args.signaturesNeeded,
      deadline: args.deadline,
      jurisdiction: { state: cleanText(args.state, 40, "A state"), county: cleanText(args.county, 100, "A county") },
      mode: args.mode,
      counts: emptyCounts(),
      pageCount: 0,
      createdBy: ctx.viewer.userId,
      updatedAt: Date.now(),
    });
    await ctx.db.insert("petitionIntake", { orgId: ctx.viewer.orgId, petitionId: id, lines: 0 });
    if (!(await keepsNameKeys(ctx.db, ctx.viewer.orgId))) {
      await ctx.db.insert("voterNameKeyState", { orgId: ctx.viewer.orgId, backfilled: false, cursor: null });
      await ctx.scheduler.runAfter(0, internal.petitions.backfillNameKeys, { orgId: ctx.viewer.orgId });
    }
    return id;
  },
});

export const remove = orgMutation("voters.manage")({
  args: { id: v.id("petitions") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const p = await ctx.db.get(id);
    if (!p) throw appError("NOT_FOUND");
    await ctx.db.delete(id);
    await ctx.scheduler.runAfter(0, internal.petitions.deleteStep, { petitionId: id });
    return null;
  },
});

const vPage = v.object({
  id: v.id("petitionPages"),
  pageNumber: v.number(),
  fileName: v.string(),
  contentType: v.string(),
  status: v.union(v.literal("processing"), v.literal("completed")),
  lineCount: v.number(),
  url: v.union(v.string(), v.null()),
});

export const pages = orgQuery("voters.view")({
  args: { petitionId: v.id("petitions") },
  returns: v.array(vPage),
  handler: async (ctx, { petitionId }) => {
    const rows = await ctx.db.query("petitionPages").withIndex("by_petition_number", (q) => q.eq("petitionId", petitionId)).take(2_000);
    const out = [];
    for (const p of rows) {
      out.push({ id: p._id, pageNumber: p.pageNumber, fileName: p.fileName, contentType: p.contentType, status: p.status, lineCount: p.lineCount, url: p.fileId ? await ctx.storage.getUrl(p.fileId) : null });
    }
    return out;
  },
});

export const generateUploadUrl = orgMutation("voters.update")({
  args: {},
  returns: v.string(),
  handler: async (ctx) => await ctx.storage.generateUploadUrl(),
});

/** A page of the petition: an uploaded image or PDF (checked: type and size), or none (lines only). */
export const addPage = orgMutation("voters.update")({
  args: { petitionId: v.id("petitions"), fileId: v.union(v.id("_storage"), v.null()), fileName: v.string() },
  returns: v.id("petitionPages"),
  handler: async (ctx, { petitionId, fileId, fileName }) => {
    const petition = await ctx.db.get(petitionId);
    if (!petition) throw appError("NOT_FOUND");
    let contentType = "";
    if (fileId) {
      const meta = await ctx.db.system.get(fileId);
      if (!meta) throw appError("VALIDATION_ERROR", "The upload did not arrive. Please try again.");
      contentType = meta.contentType ?? "";
      if (!PAGE_TYPES.test(contentType)) {
        await ctx.storage.delete(fileId);
        throw appError("VALIDATION_ERROR", "Please upload petition pages as images (PNG, JPEG, GIF, WebP) or PDF files.", "Invalid file type");
      }
      if (meta.size > MAX_PAGE_BYTES) {
        await ctx.storage.delete(fileId);
        throw appError("VALIDATION_ERROR", "A page file must be smaller than 15 MB.", "File too large");
      }
    }
    const pageNumber = petition.pageCount + 1;
    await ctx.db.patch(petitionId, { pageCount: pageNumber, updatedAt: Date.now() });
    return await ctx.db.insert("petitionPages", {
      orgId: ctx.viewer.orgId,
      petitionId,
      pageNumber,
      fileId,
      fileName: cleanText(fileName, 200, "A file name") ?? `Page ${pageNumber}`,
      contentType,
      status: "completed",
      lineCount: 0,
      pendingCount: 0,
    });
  },
});

const vLineInput = v.object({ name: v.string(), address: v.string(), signedOn: v.union(v.string(), v.null()) });

/** Signer lines of a page (typed beside its preview, or imported from a CSV), matched right after. */
export const addLines = orgMutation("voters.update")({
  args: { pageId: v.id("petitionPages"), lines: v.array(vLineInput) },
  returns: v.number(),
  handler: async (ctx, { pageId, lines }) => {
    const page = await ctx.db.get(pageId);
    if (!page) throw appError("NOT_FOUND");
    const petition = (await ctx.db.get(page.petitionId))!;
    if (lines.length > MAX_LINES_PER_CALL) throw appError("VALIDATION_ERROR", `At most ${MAX_LINES_PER_CALL} lines at a time.`);
    const clean = lines.map((l, i) => {
      const name = l.name.trim().replace(/\s+/g, " ");
      const address = l.address.trim().replace(/\s+/g, " ");
      if (!name) throw appError("VALIDATION_ERROR", `Line ${page.lineCount + i + 1}: the signer's name is required.`, "Name required");
      if (name.length > 200 || address.length > 300) throw appError("VALIDATION_ERROR", `Line ${page.lineCount + i + 1} is too long.`);
      const signedOn = l.signedOn?.trim() || null;
      if (signedOn !== null && !/^\d{4}-\d{2}-\d{2}$/.test(signedOn)) throw appError("VALIDATION_ERROR", `Line ${page.lineCount + i + 1}: the date must be a date (yyyy-mm-dd).`);
      return { name, address, signedOn };
    });
    for (const [i, l] of clean.entries()) {
      await ctx.db.insert("petitionLines", {
        orgId: ctx.viewer.orgId,
        petitionId: petition._id,
        pageId,
        pageNumber: page.pageNumber,
        signerNumber: page.lineCount + i + 1,
        ...l,
        status: "pending",
        inSample: false,
        sampleKey: Math.random(),
        reason: null,
        confidence: null,
        evidence: null,
        voterId: null,
        candidates: [],
        duplicateOf: null,
        autoStatus: null,
        claim: null,
        adjudication: null,
        countsFor: null,
      });
    }
    await ctx.db.patch(pageId, { lineCount: page.lineCount + clean.length, pendingCount: page.pendingCount + clean.length, status: "processing" });
    const intake = await ctx.db.query("petitionIntake").withIndex("by_petition", (q) => q.eq("petitionId", petition._id)).unique();
    if (intake) await ctx.db.patch(intake._id, { lines: intake.lines + clean.length });
    else await ctx.db.insert("petitionIntake", { orgId: ctx.viewer.orgId, petitionId: petition._id, lines: clean.length });
    await startMatching(ctx, petition);
    return clean.length;
  },
});

const vLineRow = v.object({
  id: v.id("petitionLines"),
  pageId: v.id("petitionPages"),
  pageNumber: v.number(),
  signerNumber: v.number(),
  name: v.string(),
  address: v.string(),
  signedOn: v.union(v.string(), v.null()),
  status: vLineStatus,
  inSample: v.boolean(),
  reason: v.union(v.string(), v.null()),
  confidence: v.union(v.number(), v.null()),
  evidence: v.union(v.object({ name: v.string(), address: v.string(), registration: v.string() }), v.null()),
  voterId: v.union(v.id("voters"), v.null()),
  voterName: v.union(v.string(), v.null()),
  candidates: v.array(vCandidate),
  duplicateOf: v.union(v.id("petitionLines"), v.null()),
  claimedBy: v.union(v.string(), v.null()),
  adjudication: v.union(v.object({ action: v.string(), valid: v.boolean(), notes: v.string(), at: v.number(), byName: v.string() }), v.null()),
});

async function lineRow(ctx: { db: { get(id: Id<"voters">): Promise<Doc<"voters"> | null> } }, l: Doc<"petitionLines">, now: number) {
  const voter = l.voterId ? await ctx.db.get(l.voterId) : null;
  return {
    id: l._id,
    pageId: l.pageId,
    pageNumber: l.pageNumber,
    signerNumber: l.signerNumber,
    name: l.name,
    address: l.address,
    signedOn: l.signedOn,
    status: l.status,
    inSample: l.inSample,
    reason: l.reason,
    confidence: l.confidence,
    evidence: l.evidence,
    voterId: l.voterId,
    voterName: voter ? `${voter.first_name} ${voter.last_name}` : null,
    candidates: l.candidates,
    duplicateOf: l.duplicateOf,
    claimedBy: l.claim && now - l.claim.at < CLAIM_TTL_MS ? l.claim.name : null,
    adjudication: l.adjudication ? { action: l.adjudication.action, valid: l.adjudication.valid, notes: l.adjudication.notes, at: l.adjudication.at, byName: l.adjudication.byName } : null,
  };
}

/** The results table: a page of lines (one status, or all in page order). */
export const lines = orgQuery("voters.view")({
  args: { petitionId: v.id("petitions"), status: v.union(vLineStatus, v.null()), paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(vLineRow),
  handler: async (ctx, { petitionId, status, paginationOpts }) => {
    const opts = { ...paginationOpts, numItems: Math.max(1, Math.min(200, paginationOpts.numItems)) };
    const page =
      status === null
        ? await ctx.db.query("petitionLines").withIndex("by_petition_page_signer", (q) => q.eq("petitionId", petitionId)).paginate(opts)
        : await ctx.db.query("petitionLines").withIndex("by_petition_status", (q) => q.eq("petitionId", petitionId).eq("status", status)).paginate(opts);
    const now = Date.now();
    const out = [];
    for (const l of page.page) out.push(await lineRow(ctx, l, now));
    return { ...page, page: out };
  },
});

const vVoterBrief = v.object({ id: v.id("voters"), name: v.string(), address: v.string(), status: v.string(), registered: v.string() });

/** One line with its candidates' records (the adjudicate and duplicates dialogs). */
export const line = orgQuery("voters.view")({
  args: { id: v.id("petitionLines") },
  returns: v.union(v.object({ line: vLineRow, voters: v.array(vVoterBrief), duplicate: v.union(vLineRow, v.null()), pageUrl: v.union(v.string(), v.null()), pageType: v.string(), petitionName: v.string() }), v.null()),
  handler: async (ctx, { id }) => {
    const l = await ctx.db.get(id);
    if (!l) return null;
    const now = Date.now();
    const ids = [...new Set([...(l.voterId ? [l.voterId] : []), ...l.candidates.map((c) => c.voterId)])];
    const voters = [];
    for (const vid of ids) {
      const x = await ctx.db.get(vid);
      if (x) voters.push({ id: x._id, name: `${x.first_name} ${x.last_name}`, address: x.address ?? [x.street, x.city, x.state, x.zip].filter(Boolean).join(", "), status: x.status ?? "", registered: x.registration_date ?? "" });
    }
    const dup = l.duplicateOf ? await ctx.db.get(l.duplicateOf) : null;
    const page = await ctx.db.get(l.pageId);
    const dupPetition = dup ? await ctx.db.get(dup.petitionId) : null;
    const petition = await ctx.db.get(l.petitionId);
    return {
      line: await lineRow(ctx, l, now),
      voters,
      duplicate: dup ? await lineRow(ctx, dup, now) : null,
      pageUrl: page?.fileId ? await ctx.storage.getUrl(page.fileId) : null,
      pageType: page?.contentType ?? "",
      petitionName: (dup ? dupPetition?.name : petition?.name) ?? "",
    };
  },
});

/** Claims the next line needing a person (review first, then failures), or null when none is free. */
export const claimNext = orgMutation("voters.update")({
  args: { petitionId: v.id("petitions") },
  returns: v.union(v.id("petitionLines"), v.null()),
  handler: async (ctx, { petitionId }) => {
    const now = Date.now();
    const me = (await ctx.db.get(ctx.viewer.userId))!;
    for (const status of ["review", "failed"] as const) {
      const rows = await ctx.db.query("petitionLines").withIndex("by_petition_status", (q) => q.eq("petitionId", petitionId).eq("status", status)).take(300);
      const free = rows.find((l) => !heldByOther(l, ctx.viewer.userId, now));
      const mine = rows.find((l) => l.claim?.userId === ctx.viewer.userId && now - l.claim.at < CLAIM_TTL_MS);
      const pick = mine ?? free;
      if (pick) {
        await ctx.db.patch(pick._id, { claim: { userId: ctx.viewer.userId, name: displayName(me), at: now } });
        return pick._id;
      }
    }
    return null;
  },
});

/** Claims one line (from the results table); refused while a teammate reviews it. */
export const claim = orgMutation("voters.update")({
  args: { id: v.id("petitionLines") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const l = await ctx.db.get(id);
    if (!l) throw appError("NOT_FOUND");
    const now = Date.now();
    requireClaim(l, ctx.viewer.userId, now);
    const me = (await ctx.db.get(ctx.viewer.userId))!;
    await ctx.db.patch(id, { claim: { userId: ctx.viewer.userId, name: displayName(me), at: now } });
    return null;
  },
});

/** The reviewer is still there (every 30 s while the dialog is open). */
export const heartbeat = orgMutation("voters.update")({
  args: { id: v.id("petitionLines") },
  returns: v.boolean(),
  handler: async (ctx, { id }) => {
    const l = await ctx.db.get(id);
    if (!l || l.claim?.userId !== ctx.viewer.userId) return false;
    await ctx.db.patch(id, { claim: { ...l.claim, at: Date.now() } });
    return true;
  },
});

export const release = orgMutation("voters.update")({
  args: { id: v.id("petitionLines") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const l = await ctx.db.get(id);
    if (l && l.claim?.userId === ctx.viewer.userId) await ctx.db.patch(id, { claim: null });
    return null;
  },
});

/** Accept, cure, overrule or reject a line nobody else is reviewing: it becomes adjudicated. */
export const adjudicate = orgMutation("voters.update")({
  args: { id: v.id("petitionLines"), action: vAdjudicationAction, notes: v.string(), voterId: v.union(v.id("voters"), v.null()) },
  returns: v.null(),
  handler: async (ctx, { id, action, notes, voterId }) => {
    const l = await ctx.db.get(id);
    if (!l) throw appError("NOT_FOUND");
    const now = Date.now();
    // one reviewer per line: a teammate's live claim blocks; a lapsed or missing claim is taken
    requireClaim(l, ctx.viewer.userId, now);
    if (l.status === "pending") throw appError("VALIDATION_ERROR", "This line has not been checked yet.");
    if (action === "overrule" && l.autoStatus !== "verified" && l.autoStatus !== "failed") throw appError("VALIDATION_ERROR", "Only a verified or failed result can be overruled.");
    const text = notes.trim();
    if (text.length > 2_000) throw appError("VALIDATION_ERROR", "Notes are limited to 2,000 characters.");
    const valid = adjudicationValidity(action, l.autoStatus);
    const voter = valid ? (voterId ?? l.voterId) : null;
    if (valid) {
      if (!voter) throw appError("VALIDATION_ERROR", "Choose the voter this signature belongs to.", "Voter required");
      if (!(await ctx.db.get(voter))) throw appError("NOT_FOUND");
      const earlier = await countingLine(ctx.db, l.orgId, voter, l._id);
      if (earlier) throw appError("CONFLICT", `This voter already signed (page ${earlier.pageNumber}, line ${earlier.signerNumber}).`, "Duplicate signature");
    }
    const petition = (await ctx.db.get(l.petitionId))!;
    const before = { status: l.status, valid: l.adjudication?.valid ?? null };
    const me = (await ctx.db.get(ctx.viewer.userId))!;
    await ctx.db.patch(id, {
      status: "adjudicated",
      voterId: voter ?? l.voterId,
      countsFor: valid ? voter : null,
      claim: null,
      adjudication: { action, valid, notes: text, at: now, by: ctx.viewer.userId, byName: displayName(me) },
    });
    await ctx.db.patch(petition._id, { counts: moveCount(petition.counts, before, { status: "adjudicated", valid }), updatedAt: now });
    return null;
  },
});

/** One page of the export (every line in page order). */
export const exportPage = orgQuery("voters.view")({
  args: { petitionId: v.id("petitions"), paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(vLineRow),
  handler: async (ctx, { petitionId, paginationOpts }) => {
    const page = await ctx.db
      .query("petitionLines")
      .withIndex("by_petition_page_signer", (q) => q.eq("petitionId", petitionId))
      .paginate({ ...paginationOpts, numItems: Math.max(1, Math.min(1_000, paginationOpts.numItems)) });
    const now = Date.now();
    const out = [];
    for (const l of page.page) out.push(await lineRow(ctx, l, now));
    return { ...page, page: out };
  },
});

export const match = internalMutation({
  args: { petitionId: v.id("petitions") },
  returns: v.null(),
  handler: async (ctx, { petitionId }) => {
    await matchStep(ctx, petitionId);
    return null;
  },
});

/** Deletes a deleted petition's pages, files and lines, a batch at a time. */
export const deleteStep = internalMutation({
  args: { petitionId: v.id("petitions") },
  returns: v.null(),
  handler: async (ctx, { petitionId }) => {
    const lines = await ctx.db.query("petitionLines").withIndex("by_petition_page_signer", (q) => q.eq("petitionId", petitionId)).take(DELETE_BATCH);
    for (const l of lines) await ctx.db.delete(l._id);
    if (lines.length === DELETE_BATCH) {
      await ctx.scheduler.runAfter(0, internal.petitions.deleteStep, { petitionId });
      return null;
    }
    const pages = await ctx.db.query("petitionPages").withIndex("by_petition_number", (q) => q.eq("petitionId", petitionId)).take(DELETE_BATCH);
    for (const p of pages) {
      if (p.fileId) await ctx.storage.delete(p.fileId);
      await ctx.db.delete(p._id);
    }
    if (pages.length === DELETE_BATCH) await ctx.scheduler.runAfter(0, internal.petitions.deleteStep, { petitionId });
    else {
      const intake = await ctx.db.query("petitionIntake").withIndex("by_petition", (q) => q.eq("petitionId", petitionId)).unique();
      if (intake) await ctx.db.delete(intake._id);
    }
    return null;
  },
});

/**
 * Gives the organisation's voters stored before it verified petitions their name keys, 500 a step
 * along the voters index (cursor in voterNameKeyState); voters written meanwhile get theirs from
 * the write itself (model/voters), so a step skips those already keyed.
 */
export const backfillNameKeys = internalMutation({
  args: { orgId: v.id("organizations") },
  returns: v.null(),
  handler: async (ctx, { orgId }) => {
    const state = await ctx.db.query("voterNameKeyState").withIndex("by_org", (q) => q.eq("orgId", orgId)).first();
    if (!state || state.backfilled) return null;
    const page = await ctx.db
      .query("voters")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .paginate({ numItems: 500, cursor: state.cursor });
    for (const voter of page.page) await writeNameKeys(ctx, orgId, voter._id, voter);
    await ctx.db.patch(state._id, { cursor: page.continueCursor, backfilled: page.isDone });
    if (!page.isDone) await ctx.scheduler.runAfter(0, internal.petitions.backfillNameKeys, { orgId });
    return null;
  },
});
