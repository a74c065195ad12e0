/**
 * Petition signature verification (spec/3 §2.8): petitions, their pages (images or PDFs in file
 * storage), signer lines entered or imported beside the page, the matching chain's verdicts, the
 * shared review queue (claim, adjudicate, release) and the export. voters.view reads,
 * voters.update enters lines and adjudicates, voters.manage creates and deletes petitions.
 */
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";
import type { Doc } from "./_generated/dataModel";
import { internal } from "./_generated/api";
import { internalMutation, orgAction, orgMutation, orgQuery } from "./functions";
import { appError } from "./lib/errors";
import { ADDRESS_MATCH } from "./lib/petitions/match";
import { NAME_KEYS_VERSION } from "./lib/petitions/names";
import { projectValid, sampleSize } from "./lib/petitions/projection";
import { acceptUpload, attachFile, deleteOwnedFile, issueUploadUrl } from "./model/files";
import { openExportRun, quoted, requireExportRun } from "./model/exports";
import { displayName } from "./model/presence";
import { keepsNameKeys, writeNameKeys } from "./model/voters";
import {
  CLAIM_TTL_MS,
  adjudicationValidity,
  countingLine,
  emptyCounts,
  heldByOther,
  linesEntered,
  matchStep,
  moveCount,
  requireClaim,
  searchVotersFor,
  startMatching,
} from "./model/petitions";
import { petitionTables, vAdjudicationAction, vLineStatus, vPetitionCounts } from "./tables/petitions";
import { TEXTS } from "./lib/texts";
import {
  insertLines,
  intakeOf,
  lastSigner,
  lineRow,
  vLineInput,
  vLineRow,
  voterBrief,
  type LineInput,
} from "./model/petitionLines";

const MAX_PETITIONS = 200;
const MAX_LINES_PER_CALL = 200;
const DELETE_BATCH = 400;

const vProjection = v.union(
  v.object({ rate: v.number(), projected: v.number(), low: v.number(), high: v.number(), decided: v.number() }),
  v.null(),
);
const vPetitionRow = petitionTables.petitions.validator
  .pick("name", "signaturesNeeded", "deadline", "jurisdiction", "mode", "pageCount")
  .extend({
    id: v.id("petitions"),
    counts: vPetitionCounts,
    sampleTarget: v.number(),
    projection: vProjection,
    /** the county check could not be made for some lines (the voter file has no county for their voters) */
    countyNotice: v.union(v.string(), v.null()),
  });

/** What the petition says when it names a county the voter file does not hold for some voters. */
export function countyNotice(
  p: Pick<Doc<"petitions">, "jurisdiction" | "countyUnknown">,
  decided: number,
): string | null {
  const n = p.countyUnknown ?? 0;
  if (!p.jurisdiction.county || n === 0) return null;
  const lines = `${n.toLocaleString("en-US")} ${n === 1 ? "line" : "lines"}`;
  if (n * 2 >= decided) {
    return `The voter file has no counties: ${lines} could not be checked against ${p.jurisdiction.county} and went to review. Import the voter file's county column (as the custom field "county"), or add a COUNTY boundary layer under Account Settings → Map data, to check it automatically.`;
  }
  return `${lines} went to review: the voter file has no county for ${n === 1 ? "that voter" : "those voters"}, so ${p.jurisdiction.county} could not be checked.`;
}

function row(p: Doc<"petitions">, lines: number) {
  const decisions = p.counts;
  const decided =
    decisions.verified +
    decisions.failed +
    decisions.duplicate +
    decisions.adjudicatedValid +
    decisions.adjudicatedInvalid;
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
    countyNotice: countyNotice(p, decided + decisions.review),
  };
}

export const list = orgQuery("voters.view")({
  args: {},
  returns: v.array(vPetitionRow),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("petitions")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(MAX_PETITIONS);
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
    if (!name) throw appError("VALIDATION_ERROR", TEXTS.required.petitionName, "Petition name required");
    if (!Number.isInteger(args.signaturesNeeded) || args.signaturesNeeded < 1 || args.signaturesNeeded > 10_000_000) {
      throw appError("VALIDATION_ERROR", "Signatures needed must be a whole number from 1 to 10,000,000.");
    }
    if (args.deadline !== null && !/^\d{4}-\d{2}-\d{2}$/.test(args.deadline))
      throw appError("VALIDATION_ERROR", "Please enter the deadline as a date.");
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
      await ctx.db.insert("voterNameKeyState", {
        orgId: ctx.viewer.orgId,
        backfilled: false,
        cursor: null,
        version: NAME_KEYS_VERSION,
      });
      await ctx.scheduler.runAfter(0, internal.petitions.backfillNameKeys, { orgId: ctx.viewer.orgId });
    }
    return id;
  },
});

export const remove = orgMutation("voters.manage")({
  args: { id: v.id("petitions") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const p = await ctx.db.get("petitions", id);
    if (!p) throw appError("NOT_FOUND");
    await ctx.db.delete("petitions", id);
    // no line can be entered any more (entry checks the intake row)
    const intake = await ctx.db
      .query("petitionIntake")
      .withIndex("by_petition", (q) => q.eq("petitionId", id))
      .unique();
    if (intake) await ctx.db.delete("petitionIntake", intake._id);
    await ctx.scheduler.runAfter(0, internal.petitions.deleteStep, { petitionId: id });
    return null;
  },
});

const vPage = petitionTables.petitionPages.validator
  .pick("pageNumber", "fileName", "contentType", "status", "lineCount")
  .extend({
    id: v.id("petitionPages"),
    /** the number the next typed line gets */
    nextLine: v.number(),
    url: v.union(v.string(), v.null()),
  });

export const pages = orgQuery("voters.view")({
  args: { petitionId: v.id("petitions") },
  returns: v.array(vPage),
  handler: async (ctx, { petitionId }) => {
    const rows = await ctx.db
      .query("petitionPages")
      .withIndex("by_petition_number", (q) => q.eq("petitionId", petitionId))
      .take(2_000);
    const out = [];
    for (const p of rows) {
      out.push({
        id: p._id,
        pageNumber: p.pageNumber,
        fileName: p.fileName,
        contentType: p.contentType,
        status: p.status,
        lineCount: p.lineCount,
        nextLine: lastSigner(p) + 1,
        url: p.fileId ? await ctx.storage.getUrl(p.fileId) : null,
      });
    }
    return out;
  },
});

export const generateUploadUrl = orgAction("voters.update")({
  args: {},
  returns: v.string(),
  handler: async (ctx): Promise<string> => await issueUploadUrl(ctx, ctx.viewer),
});

/**
 * Hands in an uploaded page scan: its bytes must show an image (PNG, JPEG, GIF, WebP) or a PDF
 * under 15 MB (a refused file is deleted). Then `addPage` attaches it.
 */
export const acceptPageFile = orgAction("voters.update")({
  args: { fileId: v.id("_storage") },
  returns: v.null(),
  handler: async (ctx, { fileId }) => {
    await acceptUpload(ctx, ctx.viewer, fileId, "petitionPage");
    return null;
  },
});

/** A page of the petition: a handed-in scan of the organisation's (acceptPageFile), or none (lines only). */
export const addPage = orgMutation("voters.update")({
  args: { petitionId: v.id("petitions"), fileId: v.union(v.id("_storage"), v.null()), fileName: v.string() },
  returns: v.id("petitionPages"),
  handler: async (ctx, { petitionId, fileId, fileName }) => {
    const petition = await ctx.db.get("petitions", petitionId);
    if (!petition) throw appError("NOT_FOUND");
    const contentType = fileId ? (await attachFile(ctx.db, fileId, "petitionPage")).contentType : "";
    const pageNumber = petition.pageCount + 1;
    await ctx.db.patch("petitions", petitionId, { pageCount: pageNumber, updatedAt: Date.now() });
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

/** Signer lines of a page (typed beside its preview), matched right after. */
export const addLines = orgMutation("voters.update")({
  args: { pageId: v.id("petitionPages"), lines: v.array(vLineInput) },
  returns: v.number(),
  handler: async (ctx, { pageId, lines }) => {
    const page = await ctx.db.get("petitionPages", pageId);
    if (!page) throw appError("NOT_FOUND");
    const intake = await intakeOf(ctx, page.petitionId);
    if (lines.length > MAX_LINES_PER_CALL)
      throw appError("VALIDATION_ERROR", `At most ${MAX_LINES_PER_CALL} lines at a time.`);
    const added = await insertLines(ctx, page, lines);
    await startMatching(ctx, intake, added);
    return added;
  },
});

const MAX_PAGE_NUMBER = 100_000;

/**
 * Lines imported from a CSV: each to its page (the file's page column; a page the petition lacks is
 * created), keeping its line number; lines without a page go to `pageId`. Matched right after.
 */
export const importLines = orgMutation("voters.update")({
  args: {
    petitionId: v.id("petitions"),
    pageId: v.union(v.id("petitionPages"), v.null()),
    lines: v.array(
      v.object({ ...vLineInput.fields, page: v.union(v.number(), v.null()), line: v.union(v.number(), v.null()) }),
    ),
  },
  returns: v.object({ added: v.number(), pages: v.array(v.number()) }),
  handler: async (ctx, { petitionId, pageId, lines }) => {
    const intake = await intakeOf(ctx, petitionId);
    if (lines.length > MAX_LINES_PER_CALL)
      throw appError("VALIDATION_ERROR", `At most ${MAX_LINES_PER_CALL} lines at a time.`);
    const byPage = new Map<number | null, LineInput[]>();
    for (const l of lines) {
      if (l.page !== null && (!Number.isInteger(l.page) || l.page < 1 || l.page > MAX_PAGE_NUMBER))
        throw appError("VALIDATION_ERROR", `"${l.page}" is not a page number.`);
      if (l.line !== null && (!Number.isInteger(l.line) || l.line < 1 || l.line > MAX_PAGE_NUMBER))
        throw appError("VALIDATION_ERROR", `"${l.line}" is not a line number.`);
      const list = byPage.get(l.page) ?? [];
      list.push({
        name: l.name,
        address: l.address,
        signedOn: l.signedOn,
        ...(l.line !== null ? { signerNumber: l.line } : {}),
      });
      byPage.set(l.page, list);
    }
    let added = 0;
    // the petition is read only when a page must be made (its page count): the matcher writes it with every link
    let petition: Doc<"petitions"> | null = null;
    const touched: number[] = [];
    for (const [number, group] of byPage) {
      let page: Doc<"petitionPages"> | null;
      if (number === null) {
        page = pageId ? await ctx.db.get("petitionPages", pageId) : null;
        if (!page || page.petitionId !== petitionId)
          throw appError(
            "VALIDATION_ERROR",
            "Choose the page these lines belong to, or import a file with a page column.",
            "Page required",
          );
      } else {
        page = await ctx.db
          .query("petitionPages")
          .withIndex("by_petition_number", (q) => q.eq("petitionId", petitionId).eq("pageNumber", number))
          .first();
        if (!page) {
          petition ??= await ctx.db.get("petitions", petitionId);
          if (!petition) throw appError("NOT_FOUND");
          const id = await ctx.db.insert("petitionPages", {
            orgId: ctx.viewer.orgId,
            petitionId,
            pageNumber: number,
            fileId: null,
            fileName: `Page ${number}`,
            contentType: "",
            status: "completed",
            lineCount: 0,
            pendingCount: 0,
          });
          page = (await ctx.db.get("petitionPages", id))!;
          if (number > petition.pageCount) {
            await ctx.db.patch("petitions", petitionId, { pageCount: number, updatedAt: Date.now() });
            petition = { ...petition, pageCount: number };
          }
        }
      }
      added += await insertLines(ctx, page, group);
      touched.push(page.pageNumber);
    }
    await startMatching(ctx, intake, added);
    return { added, pages: [...new Set(touched)].sort((a, b) => a - b) };
  },
});

/** The results table: a page of lines (one status, or all in page order). */
export const lines = orgQuery("voters.view")({
  args: {
    petitionId: v.id("petitions"),
    status: v.union(vLineStatus, v.null()),
    paginationOpts: paginationOptsValidator,
  },
  returns: paginationResultValidator(vLineRow),
  handler: async (ctx, { petitionId, status, paginationOpts }) => {
    const opts = { ...paginationOpts, numItems: Math.max(1, Math.min(200, paginationOpts.numItems)) };
    const page =
      status === null
        ? await ctx.db
            .query("petitionLines")
            .withIndex("by_petition_page_signer", (q) => q.eq("petitionId", petitionId))
            .paginate(opts)
        : await ctx.db
            .query("petitionLines")
            .withIndex("by_petition_status", (q) => q.eq("petitionId", petitionId).eq("status", status))
            .paginate(opts);
    const now = Date.now();
    const out = [];
    for (const l of page.page) out.push(await lineRow(ctx, l, now));
    return { ...page, page: out };
  },
});

const vVoterBrief = v.object({
  id: v.id("voters"),
  name: v.string(),
  address: v.string(),
  status: v.string(),
  registered: v.string(),
  voterFileId: v.union(v.string(), v.null()),
});

/** One line with its candidates' records (the adjudicate and duplicates dialogs). */
export const line = orgQuery("voters.view")({
  args: { id: v.id("petitionLines") },
  returns: v.union(
    v.object({
      line: vLineRow,
      voters: v.array(vVoterBrief),
      duplicate: v.union(vLineRow, v.null()),
      pageUrl: v.union(v.string(), v.null()),
      pageType: v.string(),
      petitionName: v.string(),
    }),
    v.null(),
  ),
  handler: async (ctx, { id }) => {
    const l = await ctx.db.get("petitionLines", id);
    if (!l) return null;
    const now = Date.now();
    const ids = [...new Set([...(l.voterId ? [l.voterId] : []), ...l.candidates.map((c) => c.voterId)])];
    const voters = [];
    for (const vid of ids) {
      const x = await ctx.db.get("voters", vid);
      if (x) voters.push(voterBrief(x));
    }
    const dup = l.duplicateOf ? await ctx.db.get("petitionLines", l.duplicateOf) : null;
    const page = await ctx.db.get("petitionPages", l.pageId);
    const dupPetition = dup ? await ctx.db.get("petitions", dup.petitionId) : null;
    const petition = await ctx.db.get("petitions", l.petitionId);
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

/**
 * The voter search of the adjudicate dialog: a reviewer finds the signer's registration when the
 * matcher found none (or the wrong ones) — by name (the search index, and the name keys for a
 * misspelling), by address (the household at a house number and street) or by the state voter ID.
 * Bounded: at most 20 voters, a few capped index ranges read.
 */
export const searchVoters = orgQuery("voters.view")({
  args: { query: v.string() },
  returns: v.array(vVoterBrief),
  handler: async (ctx, { query }) => (await searchVotersFor(ctx.db, ctx.viewer.orgId, query)).map(voterBrief),
});

/** Claims the next line needing a person (review first, then failures), or null when none is free. */
export const claimNext = orgMutation("voters.update")({
  args: { petitionId: v.id("petitions") },
  returns: v.union(v.id("petitionLines"), v.null()),
  handler: async (ctx, { petitionId }) => {
    const now = Date.now();
    const me = (await ctx.db.get("users", ctx.viewer.userId))!;
    for (const status of ["review", "failed"] as const) {
      const rows = await ctx.db
        .query("petitionLines")
        .withIndex("by_petition_status", (q) => q.eq("petitionId", petitionId).eq("status", status))
        .take(300);
      const free = rows.find((l) => !heldByOther(l, ctx.viewer.userId, now));
      const mine = rows.find((l) => l.claim?.userId === ctx.viewer.userId && now - l.claim.at < CLAIM_TTL_MS);
      const pick = mine ?? free;
      if (pick) {
        await ctx.db.patch("petitionLines", pick._id, {
          claim: { userId: ctx.viewer.userId, name: displayName(me), at: now },
        });
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
    const l = await ctx.db.get("petitionLines", id);
    if (!l) throw appError("NOT_FOUND");
    const now = Date.now();
    requireClaim(l, ctx.viewer.userId, now);
    const me = (await ctx.db.get("users", ctx.viewer.userId))!;
    await ctx.db.patch("petitionLines", id, { claim: { userId: ctx.viewer.userId, name: displayName(me), at: now } });
    return null;
  },
});

/** The reviewer is still there (every 30 s while the dialog is open). */
export const heartbeat = orgMutation("voters.update")({
  args: { id: v.id("petitionLines") },
  returns: v.boolean(),
  handler: async (ctx, { id }) => {
    const l = await ctx.db.get("petitionLines", id);
    if (!l || l.claim?.userId !== ctx.viewer.userId) return false;
    await ctx.db.patch("petitionLines", id, { claim: { ...l.claim, at: Date.now() } });
    return true;
  },
});

export const release = orgMutation("voters.update")({
  args: { id: v.id("petitionLines") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    const l = await ctx.db.get("petitionLines", id);
    if (l && l.claim?.userId === ctx.viewer.userId) await ctx.db.patch("petitionLines", id, { claim: null });
    return null;
  },
});

/** Accept, cure, overrule or reject a line nobody else is reviewing: it becomes adjudicated. */
export const adjudicate = orgMutation("voters.update")({
  args: {
    id: v.id("petitionLines"),
    action: vAdjudicationAction,
    notes: v.string(),
    voterId: v.union(v.id("voters"), v.null()),
  },
  returns: v.null(),
  handler: async (ctx, { id, action, notes, voterId }) => {
    const l = await ctx.db.get("petitionLines", id);
    if (!l) throw appError("NOT_FOUND");
    const now = Date.now();
    // one reviewer per line: a teammate's live claim blocks; a lapsed or missing claim is taken
    requireClaim(l, ctx.viewer.userId, now);
    if (l.status === "pending") throw appError("VALIDATION_ERROR", "This line has not been checked yet.");
    if (action === "overrule" && l.autoStatus !== "verified" && l.autoStatus !== "failed")
      throw appError("VALIDATION_ERROR", "Only a verified or failed result can be overruled.");
    const text = notes.trim();
    if (text.length > 2_000) throw appError("VALIDATION_ERROR", "Notes are limited to 2,000 characters.");
    const valid = adjudicationValidity(action, l.autoStatus);
    // without a choice, the line's own voter, only when the signer's address is theirs (never a namesake elsewhere)
    const lineVoterAtAddress =
      l.voterId !== null && l.candidates.some((c) => c.voterId === l.voterId && c.addressScore >= ADDRESS_MATCH);
    const voter = valid ? (voterId ?? (lineVoterAtAddress ? l.voterId : null)) : null;
    if (valid) {
      if (!voter) throw appError("VALIDATION_ERROR", "Choose the voter this signature belongs to.", "Voter required");
      if (!(await ctx.db.get("voters", voter))) throw appError("NOT_FOUND");
      const earlier = await countingLine(ctx.db, l.orgId, voter, l._id);
      if (earlier)
        throw appError(
          "CONFLICT",
          `This voter already signed (page ${earlier.pageNumber}, line ${earlier.signerNumber}).`,
          "Duplicate signature",
        );
    }
    const petition = (await ctx.db.get("petitions", l.petitionId))!;
    const before = { status: l.status, valid: l.adjudication?.valid ?? null };
    const me = (await ctx.db.get("users", ctx.viewer.userId))!;
    await ctx.db.patch("petitionLines", id, {
      status: "adjudicated",
      voterId: voter ?? l.voterId,
      countsFor: valid ? voter : null,
      claim: null,
      adjudication: { action, valid, notes: text, at: now, by: ctx.viewer.userId, byName: displayName(me) },
    });
    await ctx.db.patch("petitions", petition._id, {
      counts: moveCount(petition.counts, before, { status: "adjudicated", valid }),
      updatedAt: now,
    });
    return null;
  },
});

/** Starts a CSV export of a petition's lines (model/exports.ts); its pages are read with the id returned. */
export const startExport = orgMutation("voters.view")({
  args: { petitionId: v.id("petitions") },
  returns: v.id("exportRuns"),
  handler: async (ctx, { petitionId }) => {
    const petition = await ctx.db.get("petitions", petitionId);
    if (!petition) throw appError("NOT_FOUND");
    return await openExportRun(ctx, ctx.viewer, {
      kind: "petitions",
      filter: { petitionId },
      filterSummary: "all lines",
      format: "csv",
      label: `lines of petition ${quoted(petition.name)}`,
      source: { table: "petitions", id: petitionId },
    });
  },
});

/** One page of the export (every line in page order), for a run started by petitions.startExport. */
export const exportPage = orgQuery("voters.view")({
  args: { exportId: v.id("exportRuns"), petitionId: v.id("petitions"), paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(vLineRow),
  handler: async (ctx, { exportId, petitionId, paginationOpts }) => {
    await requireExportRun(ctx, ctx.viewer, exportId, "petitions", { petitionId });
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
    const lines = await ctx.db
      .query("petitionLines")
      .withIndex("by_petition_page_signer", (q) => q.eq("petitionId", petitionId))
      .take(DELETE_BATCH);
    for (const l of lines) await ctx.db.delete("petitionLines", l._id);
    if (lines.length === DELETE_BATCH) {
      await ctx.scheduler.runAfter(0, internal.petitions.deleteStep, { petitionId });
      return null;
    }
    const pages = await ctx.db
      .query("petitionPages")
      .withIndex("by_petition_number", (q) => q.eq("petitionId", petitionId))
      .take(DELETE_BATCH);
    for (const p of pages) {
      if (p.fileId) await deleteOwnedFile(ctx, p.orgId, p.fileId);
      await ctx.db.delete("petitionPages", p._id);
    }
    if (pages.length === DELETE_BATCH) await ctx.scheduler.runAfter(0, internal.petitions.deleteStep, { petitionId });
    else {
      const intake = await ctx.db
        .query("petitionIntake")
        .withIndex("by_petition", (q) => q.eq("petitionId", petitionId))
        .unique();
      if (intake) await ctx.db.delete("petitionIntake", intake._id);
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
    const state = await ctx.db
      .query("voterNameKeyState")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .first();
    if (!state || state.backfilled) return null;
    const page = await ctx.db
      .query("voters")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .paginate({ numItems: 500, cursor: state.cursor });
    for (const voter of page.page) await writeNameKeys(ctx, orgId, voter._id, voter);
    await ctx.db.patch("voterNameKeyState", state._id, { cursor: page.continueCursor, backfilled: page.isDone });
    if (!page.isDone) await ctx.scheduler.runAfter(0, internal.petitions.backfillNameKeys, { orgId });
    else {
      // the petitions whose matching waited for the keys go on now
      const petitions = await ctx.db
        .query("petitions")
        .withIndex("by_org", (q) => q.eq("orgId", orgId))
        .take(MAX_PETITIONS);
      for (const p of petitions) {
        const intake = await ctx.db
          .query("petitionIntake")
          .withIndex("by_petition", (q) => q.eq("petitionId", p._id))
          .unique();
        if (intake?.matching) await ctx.scheduler.runAfter(0, internal.petitions.match, { petitionId: p._id });
      }
    }
    return null;
  },
});
