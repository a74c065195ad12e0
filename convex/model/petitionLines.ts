/**
 * Petition lines (convex/petitions.ts): storing entered or imported lines on a page (numbered,
 * cleaned, matching started) and the rows the review screens read (a line with its voter's brief).
 */
import { v, type Infer } from "convex/values";
import type { Doc, Id } from "../_generated/dataModel";
import { appError } from "../lib/errors";
import type { MutationCtx } from "../_generated/server";
import { CLAIM_TTL_MS } from "./petitions";
import { petitionTables, vAdjudication } from "../tables/petitions";

export const vLineInput = petitionTables.petitionLines.validator.pick("name", "address", "signedOn");

export type LineInput = Infer<typeof vLineInput> & { signerNumber?: number };

/** The highest line number on a page so far (typed lines continue after it). */
export function lastSigner(page: Doc<"petitionPages">): number {
  return Math.max(page.lineCount, page.lastSigner ?? 0);
}

/** Cleans and stores lines on one page (numbered as given, else after the page's last line), then starts matching. */
export async function insertLines(
  ctx: Pick<MutationCtx, "db">,
  page: Doc<"petitionPages">,
  lines: LineInput[],
): Promise<number> {
  const next = lastSigner(page);
  const clean = lines.map((l, i) => {
    const signerNumber = l.signerNumber ?? next + i + 1;
    const where =
      l.signerNumber !== undefined ? `Page ${page.pageNumber}, line ${signerNumber}` : `Line ${signerNumber}`;
    const name = l.name.trim().replace(/\s+/g, " ");
    const address = l.address.trim().replace(/\s+/g, " ");
    if (!name) throw appError("VALIDATION_ERROR", `${where}: the signer's name is required.`, "Name required");
    if (name.length > 200 || address.length > 300) throw appError("VALIDATION_ERROR", `${where} is too long.`);
    const signedOn = l.signedOn?.trim() || null;
    if (signedOn !== null && !/^\d{4}-\d{2}-\d{2}$/.test(signedOn))
      throw appError("VALIDATION_ERROR", `${where}: the date must be a date (yyyy-mm-dd).`);
    return { name, address, signedOn, signerNumber };
  });
  // a line number the page already holds (a file imported twice) is refused, never doubled
  const given = clean.filter((_, i) => lines[i].signerNumber !== undefined).map((l) => l.signerNumber);
  if (new Set(given).size !== given.length)
    throw appError("VALIDATION_ERROR", `Page ${page.pageNumber} has a line number twice in the file.`);
  for (const n of given) {
    const held = await ctx.db
      .query("petitionLines")
      .withIndex("by_petition_page_signer", (q) =>
        q.eq("petitionId", page.petitionId).eq("pageNumber", page.pageNumber).eq("signerNumber", n),
      )
      .first();
    if (held)
      throw appError("CONFLICT", `Page ${page.pageNumber}, line ${n} is already entered.`, "Line already entered");
  }
  for (const l of clean) {
    await ctx.db.insert("petitionLines", {
      orgId: page.orgId,
      petitionId: page.petitionId,
      pageId: page._id,
      pageNumber: page.pageNumber,
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
  const highest = clean.reduce((m, l) => Math.max(m, l.signerNumber), next);
  await ctx.db.patch("petitionPages", page._id, {
    lineCount: page.lineCount + clean.length,
    pendingCount: page.pendingCount + clean.length,
    status: "processing",
    lastSigner: highest,
  });
  return clean.length;
}

/**
 * The petition's intake row (lines entered, whether a matching chain runs), or NOT_FOUND for a
 * deleted petition. Entering lines reads this row, never the petition the matcher writes with every
 * link, so entry does not conflict with matching.
 */
export async function intakeOf(
  ctx: Pick<MutationCtx, "db">,
  petitionId: Id<"petitions">,
): Promise<Doc<"petitionIntake">> {
  const intake = await ctx.db
    .query("petitionIntake")
    .withIndex("by_petition", (q) => q.eq("petitionId", petitionId))
    .unique();
  if (intake) return intake;
  // a petition made before intake rows existed gets one
  const petition = await ctx.db.get("petitions", petitionId);
  if (!petition) throw appError("NOT_FOUND");
  const id = await ctx.db.insert("petitionIntake", { orgId: petition.orgId, petitionId, lines: 0 });
  return (await ctx.db.get("petitionIntake", id))!;
}

export const vLineRow = petitionTables.petitionLines.validator
  .pick(
    "pageId",
    "pageNumber",
    "signerNumber",
    "name",
    "address",
    "signedOn",
    "status",
    "inSample",
    "reason",
    "confidence",
    "evidence",
    "voterId",
    "candidates",
    "duplicateOf",
  )
  .extend({
    id: v.id("petitionLines"),
    voterName: v.union(v.string(), v.null()),
    /** the matched voter's ID in the state's file (voter_id) */
    voterFileId: v.union(v.string(), v.null()),
    /** who reviews it now (a live claim) */
    claimedBy: v.union(v.string(), v.null()),
    adjudication: v.union(vAdjudication.omit("by"), v.null()),
  });

/** A voter's name as the file holds it, middle name and suffix included. */
export function fullName(x: Pick<Doc<"voters">, "first_name" | "middle_name" | "last_name" | "name_suffix">): string {
  return [x.first_name, x.middle_name, x.last_name, x.name_suffix].filter(Boolean).join(" ");
}

export function voterBrief(x: Doc<"voters">) {
  return {
    id: x._id,
    name: fullName(x),
    address: x.address ?? [x.street, x.city, x.state, x.zip].filter(Boolean).join(", "),
    status:
      x.status_code && x.status_code !== x.status ? `${x.status ?? ""} (${x.status_code})`.trim() : (x.status ?? ""),
    registered: x.registration_date ?? "",
    voterFileId: x.voter_id ?? null,
  };
}

export async function lineRow(
  ctx: { db: { get(table: "voters", id: Id<"voters">): Promise<Doc<"voters"> | null> } },
  l: Doc<"petitionLines">,
  now: number,
) {
  const voter = l.voterId ? await ctx.db.get("voters", l.voterId) : null;
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
    voterName: voter ? fullName(voter) : null,
    voterFileId: voter?.voter_id ?? null,
    candidates: l.candidates,
    duplicateOf: l.duplicateOf,
    claimedBy: l.claim && now - l.claim.at < CLAIM_TTL_MS ? l.claim.name : null,
    adjudication: l.adjudication
      ? {
          action: l.adjudication.action,
          valid: l.adjudication.valid,
          notes: l.adjudication.notes,
          at: l.adjudication.at,
          byName: l.adjudication.byName,
        }
      : null,
  };
}
