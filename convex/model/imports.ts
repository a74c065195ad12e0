/** Contact import domain logic: batches (atomic, idempotent by row range), dedupe, outcomes, exact deletion. */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import type { BatchResult, ImportAttestation, ImportFieldsDoc, RowOutcome, StartImportArgs } from "../tables/imports";
import { ATTESTATION_TEXTS, attestationProblem } from "../lib/voters/fileUse";
import {
  BATCH_LOOKUP_BUDGET,
  cleanImportRow,
  electionKey,
  mergeElections,
  plannedLookups,
  recentParticipation,
} from "../lib/import/rows";
import { voterFieldLabel, type ElectionRecord, type VoterFields } from "../tables/voters";
import { adjustCounter } from "./counters";
import { AudienceDrops } from "./emailAudience";
import { findExisting, knownByVoterId, lookupKeys, rowKeys, votersByVoterId } from "./importMatch";
import { transactionNearLimits } from "./txBudget";
import {
  deleteVoter,
  editableVoterFields,
  insertVoter,
  keepsNameKeys,
  updateVoter,
  VoterCounts,
  voterChanges,
} from "./voters";
import { TEXTS } from "../lib/texts";

/** Per-row detail rows kept per kind (duplicates, errors); the counts stay exact beyond it. */
export const OUTCOME_DETAIL_CAP = 10_000;
/**
 * Rows one appendBatch may carry. What bounds a batch is what its rows plan to read: their
 * lookups (lib/import/rows.ts plannedLookups) stay within BATCH_LOOKUP_BUDGET of Convex's 4,096
 * index ranges a transaction, and a batch past it is refused before any work. 4,000 new voters
 * also stay within Convex's 16,000 writes (a row writes up to three documents); the browser sizes
 * batches by the server's time as well (src/lib/import/batchSizer.ts), and by their bytes. Rows
 * whose saves read more (a voter each updates: its districts row, place, door and name keys; an
 * email automation each matches) can still bring a batch past a limit: such a batch is refused
 * whole, and the client sends it again in halves.
 */
export const MAX_BATCH_ROWS = 4_000;
/** Voters deleted per mutation at most (each reads six index ranges or more: see DELETE_BUDGET). */
export const DELETE_CHUNK = 500;
/**
 * A deletion step stops after the voter that brings any of the transaction's limits to this
 * share (each delete also reads an index range, of 4,096): a voter on many groups, lists or
 * segments, or with a long history, costs dozens. The rest (counts, the import) fits in what is left.
 */
export const DELETE_BUDGET = 0.75;
/** An in_progress import without a batch for this long counts as interrupted (same as the UI). */
export const STALE_IMPORT_MS = 2 * 60 * 1000;

export { ROW_ERROR_MISSING_NAMES } from "../lib/import/rows";

export async function loadImport(ctx: QueryCtx, importId: Id<"importHistory">): Promise<Doc<"importHistory">> {
  const doc = await ctx.db.get("importHistory", importId);
  if (!doc) throw appError("NOT_FOUND", "Import not found");
  return doc;
}

export function isStale(doc: Doc<"importHistory">, now: number): boolean {
  return doc.status === "in_progress" && now - doc.updatedAt > STALE_IMPORT_MS;
}

type Base = { row: number; line: number; base: { first_name: string; last_name: string; email: string } };
type Planned = Base &
  (
    | { kind: "error"; message: string }
    | { kind: "duplicate"; existing?: Id<"voters">; key: string; message?: string }
    | { kind: "insert"; voter: VoterFields; keys: string[] }
    | { kind: "update"; voter: VoterFields; existing: Doc<"voters"> }
  );

/** A matched voter with the row's values laid over it (a value the row leaves empty is kept). */
function updatedFields(existing: Doc<"voters">, row: VoterFields): VoterFields {
  const next: Record<string, unknown> = { ...editableVoterFields(existing) };
  for (const k of Object.keys(row) as (keyof VoterFields)[]) {
    if (k === "custom_fields") next.custom_fields = { ...(existing.custom_fields ?? {}), ...row.custom_fields };
    else if (k === "vote_history") next.vote_history = mergeElections(existing.vote_history, row.vote_history ?? []);
    else next[k] = row[k];
  }
  return next as VoterFields;
}

/**
 * Applies one batch atomically. A batch whose first row is below the import's nextRow was already
 * applied (a retry after a lost response, or a resumed upload) and is skipped; a gap is refused.
 * Rows are matched to existing voters by the import's rule (model/importMatch.ts); a match is a
 * duplicate, or with "update existing records" its changed fields are applied and recorded in
 * the voter's history. A vote-history import attaches each row's election to its voter instead.
 */
export async function applyBatch(
  ctx: MutationCtx,
  doc: Doc<"importHistory">,
  startRow: number,
  rows: { row: number; line?: number; fields: ImportFieldsDoc }[],
  progress: { bytesDone?: number },
): Promise<BatchResult> {
  const counts = () => ({
    nextRow: doc.nextRow ?? 1,
    processed: doc.processed_records,
    imported: doc.imported_records,
    duplicates: doc.duplicate_records,
    failed: doc.failed_records,
    updated: doc.updated_records ?? 0,
  });
  if (doc.status !== "in_progress" || doc.deleting)
    throw appError("VALIDATION_ERROR", "This import is no longer running.");
  const expected = doc.nextRow ?? 1;
  if (startRow < expected) return { applied: false, ...counts(), errors: [] };
  if (startRow > expected)
    throw appError("VALIDATION_ERROR", `Rows ${expected} to ${startRow - 1} have not been imported yet.`);
  if (rows.length > MAX_BATCH_ROWS) throw appError("VALIDATION_ERROR", `At most ${MAX_BATCH_ROWS} rows per batch.`);
  const history = doc.kind === "history";
  const rule = doc.match_rule ?? "name";
  let last = startRow - 1;
  let lookups = 0;
  for (const r of rows) {
    if (r.row <= last) throw appError("VALIDATION_ERROR", "Batch rows must be in increasing order.");
    last = r.row;
    lookups += plannedLookups(r.fields, rule, history);
  }
  if (lookups > BATCH_LOOKUP_BUDGET)
    throw appError(
      "VALIDATION_ERROR",
      `This batch would look up ${lookups.toLocaleString("en-US")} voters; one batch may look up ${BATCH_LOOKUP_BUDGET.toLocaleString("en-US")}. Send fewer rows at a time.`,
    );
  if (rows.length > 0 && rows[0].row !== startRow)
    throw appError("VALIDATION_ERROR", "The batch must begin at its start row.");

  const orgId = doc.orgId;
  // Phase 1 does every lookup before any write of this batch, so the lookups never have to look
  // through the transaction's own pending inserts; phase 2 writes.
  const plan: Planned[] = [];
  const seen = new Map<string, Id<"voters"> | null>();
  const touched = new Set<Id<"voters">>();
  const cleaned = rows.map(({ row, line, fields }) => {
    const base = {
      first_name: fields.first_name.trim(),
      last_name: fields.last_name.trim(),
      email: (fields.email ?? "").trim(),
    };
    const voter = cleanImportRow(fields, { historyOnly: history });
    const keys = typeof voter === "string" || history ? null : rowKeys(voter, rule);
    return { at: { row, line: line ?? row, base }, voter, keys };
  });
  // the voter IDs rows are looked up by, all at once
  const ids = new Set<string>();
  for (const c of cleaned) if (c.keys?.[0].startsWith("i:")) ids.add(c.keys[0].slice(2));
  const byVoterId = { ids, found: await votersByVoterId(ctx.db, orgId, ids) };
  for (const { at, voter, keys } of cleaned) {
    if (typeof voter === "string") {
      plan.push({ ...at, kind: "error", message: voter });
      continue;
    }
    if (history) {
      plan.push({ ...at, kind: "insert", voter, keys: [`i:${voter.voter_id}`] });
      continue;
    }
    const lookup = keys ? lookupKeys(keys) : [];
    const dupKey = lookup.find((k) => seen.has(k));
    if (dupKey) {
      plan.push({ ...at, kind: "duplicate", key: dupKey, existing: seen.get(dupKey) ?? undefined });
      continue;
    }
    let existing: Doc<"voters"> | null = null;
    for (const k of lookup) {
      // a voter ID the batch looked up already is settled without a call (an await a row)
      const known = knownByVoterId(voter, k, byVoterId);
      if ((existing = known !== undefined ? known : await findExisting(ctx.db, orgId, voter, k, byVoterId))) break;
    }
    if (existing && (touched.has(existing._id) || !doc.update_existing)) {
      plan.push({ ...at, kind: "duplicate", existing: existing._id, key: lookup[0] });
      continue;
    }
    for (const k of keys ?? []) seen.set(k, existing?._id ?? null);
    if (existing) {
      touched.add(existing._id);
      plan.push({ ...at, kind: "update", voter, existing });
    } else plan.push({ ...at, kind: "insert", voter, keys: keys ?? [] });
  }
  if (history) return await applyHistoryPlan(ctx, doc, plan, last, progress);

  const nameKeys = await keepsNameKeys(ctx.db, orgId);
  const voterCounts = new VoterCounts();
  const insertedBy = new Map<string, Id<"voters">>();
  let imported = 0;
  let duplicates = 0;
  let failed = 0;
  let updated = 0;
  const errors: RowOutcome[] = [];
  const outcome = async (
    p: Base,
    kind: "duplicate" | "error" | "updated",
    message: string,
    existingVoterId?: Id<"voters">,
  ) => {
    const held =
      kind === "error"
        ? doc.failed_records + failed
        : kind === "duplicate"
          ? doc.duplicate_records + duplicates
          : (doc.updated_records ?? 0) + updated;
    if (held > OUTCOME_DETAIL_CAP) return;
    await ctx.db.insert("importRowOutcomes", {
      orgId,
      importId: doc._id,
      row: p.line,
      outcome: kind,
      ...p.base,
      message,
      ...(existingVoterId ? { existingVoterId } : {}),
    });
  };
  const now = Date.now();
  for (const p of plan) {
    if (p.kind === "insert") {
      const id = await insertVoter(ctx, orgId, p.voter, { importId: doc._id, counts: voterCounts, nameKeys });
      imported++;
      for (const k of p.keys) insertedBy.set(k, id);
    } else if (p.kind === "update") {
      const next = updatedFields(p.existing, p.voter);
      const changes = voterChanges(editableVoterFields(p.existing), next);
      if (changes.length === 0) {
        duplicates++;
        await outcome(p, "duplicate", "duplicate found (nothing changed)", p.existing._id);
        continue;
      }
      await updateVoter(ctx, p.existing, next, { counts: voterCounts, nameKeys });
      await ctx.db.insert("voterChanges", {
        orgId,
        voterId: p.existing._id,
        at: now,
        importId: doc._id,
        userId: doc.createdBy,
        changes,
      });
      updated++;
      await outcome(p, "updated", changedFieldsText(changes), p.existing._id);
    } else if (p.kind === "error") {
      failed++;
      if (errors.length < 100) errors.push({ row: p.line, ...p.base, message: p.message });
      await outcome(p, "error", p.message);
    } else {
      duplicates++;
      await outcome(p, "duplicate", p.message ?? "duplicate found", p.existing ?? insertedBy.get(p.key));
    }
  }
  await voterCounts.flush(ctx, orgId);
  return await recordProgress(ctx, doc, {
    last,
    rows: rows.length,
    imported,
    duplicates,
    failed,
    updated,
    errors,
    bytesDone: progress.bytesDone,
  });
}

/** "Address, Status changed": the updated fields by their labels. */
export function changedFieldsText(changes: { field: string }[]): string {
  const labels = changes.map((c) => voterFieldLabel(c.field));
  return `${labels.join(", ")} changed`;
}

async function recordProgress(
  ctx: MutationCtx,
  doc: Doc<"importHistory">,
  r: {
    last: number;
    rows: number;
    imported: number;
    duplicates: number;
    failed: number;
    updated: number;
    errors: RowOutcome[];
    bytesDone?: number;
  },
): Promise<BatchResult> {
  const now = Date.now();
  const next = {
    nextRow: r.last + 1,
    processed_records: doc.processed_records + r.rows,
    imported_records: doc.imported_records + r.imported,
    duplicate_records: doc.duplicate_records + r.duplicates,
    failed_records: doc.failed_records + r.failed,
    updated_records: (doc.updated_records ?? 0) + r.updated,
    updatedAt: now,
    import_duration_ms: now - doc.import_date,
    ...(r.bytesDone !== undefined ? { bytes_done: r.bytesDone } : {}),
  };
  await ctx.db.patch("importHistory", doc._id, next);
  return {
    applied: true,
    nextRow: next.nextRow,
    processed: next.processed_records,
    imported: next.imported_records,
    duplicates: next.duplicate_records,
    failed: next.failed_records,
    updated: next.updated_records,
    errors: r.errors,
  };
}

/**
 * A vote-history batch: each row's elections join its voter's (found by voter ID); a record the
 * voter already holds counts as a duplicate, a voter ID nobody holds is the row's error. Each
 * voter is written once per batch, with state_voter_history recomputed from the organisation's
 * four most recent elections.
 */
async function applyHistoryPlan(
  ctx: MutationCtx,
  doc: Doc<"importHistory">,
  plan: Planned[],
  last: number,
  progress: { bytesDone?: number },
): Promise<BatchResult> {
  const orgId = doc.orgId;
  const byVoter = new Map<string, Planned[]>();
  for (const p of plan)
    if (p.kind === "insert") byVoter.set(p.voter.voter_id!, [...(byVoter.get(p.voter.voter_id!) ?? []), p]);
  await addToCatalog(
    ctx,
    orgId,
    plan.flatMap((p) => (p.kind === "insert" ? (p.voter.vote_history ?? []) : [])),
  );
  const recent = await recentElections(ctx, orgId);
  let imported = 0;
  let duplicates = 0;
  let failed = 0;
  let updated = 0;
  const errors: RowOutcome[] = [];
  const fail = async (p: Base, message: string) => {
    failed++;
    if (errors.length < 100) errors.push({ row: p.line, ...p.base, message });
    if (doc.failed_records + failed <= OUTCOME_DETAIL_CAP)
      await ctx.db.insert("importRowOutcomes", {
        orgId,
        importId: doc._id,
        row: p.line,
        outcome: "error",
        ...p.base,
        message,
      });
  };
  for (const p of plan) if (p.kind === "error") await fail(p, p.message);
  const now = Date.now();
  for (const [voterId, group] of byVoter) {
    const voter = await ctx.db
      .query("voters")
      .withIndex("by_org_voterid", (q) => q.eq("orgId", orgId).eq("voter_id", voterId))
      .first();
    if (!voter) {
      for (const p of group) await fail(p, `No voter with voter ID ${voterId}`);
      continue;
    }
    const held = new Set((voter.vote_history ?? []).map(electionKey));
    const added = group.flatMap((p) => (p.kind === "insert" ? (p.voter.vote_history ?? []) : []));
    const fresh = added.filter((r) => !held.has(electionKey(r)));
    duplicates += group.length - new Set(fresh.map(electionKey)).size;
    if (fresh.length === 0) continue;
    const vote_history = mergeElections(voter.vote_history, fresh);
    const state_voter_history = recentParticipation(vote_history, recent);
    await ctx.db.patch("voters", voter._id, { vote_history, state_voter_history, updatedAt: now });
    await ctx.db.insert("voterChanges", {
      orgId,
      voterId: voter._id,
      at: now,
      importId: doc._id,
      userId: doc.createdBy,
      changes: [
        {
          field: "vote_history",
          from: `${voter.vote_history?.length ?? 0} elections`,
          to: `${vote_history.length} elections`,
        },
      ],
    });
    imported += new Set(fresh.map(electionKey)).size;
    updated++;
  }
  return await recordProgress(ctx, doc, {
    last,
    rows: plan.length,
    imported,
    duplicates,
    failed,
    updated,
    errors,
    bytesDone: progress.bytesDone,
  });
}

/** Adds elections the organisation's list lacks. */
export async function addToCatalog(ctx: MutationCtx, orgId: Id<"organizations">, records: ElectionRecord[]) {
  const distinct = new Map(records.map((r) => [electionKey(r), r]));
  for (const [key, r] of distinct) {
    const row = await ctx.db
      .query("electionCatalog")
      .withIndex("by_org_key", (q) => q.eq("orgId", orgId).eq("key", key))
      .first();
    if (!row) await ctx.db.insert("electionCatalog", { orgId, key, election: r.election, date: r.date, type: r.type });
  }
}

/** The organisation's four most recent elections. */
export async function recentElections(ctx: QueryCtx, orgId: Id<"organizations">) {
  return await ctx.db
    .query("electionCatalog")
    .withIndex("by_org_date", (q) => q.eq("orgId", orgId))
    .order("desc")
    .take(4);
}

export function summaryStats(doc: Doc<"importHistory">, fieldCount: number, ignored: number) {
  const total = doc.total_records || doc.processed_records;
  return {
    ...(doc.summary_stats ?? {}),
    success_rate: total > 0 ? Math.round((doc.imported_records / total) * 10000) / 100 : 0,
    field_count: fieldCount,
    ignored_fields: ignored,
    new_fields: doc.new_fields_created.length,
  };
}

/**
 * Deletes up to `limit` voters created by the import (exactly those carrying its importId) and
 * reports whether any remain. Counters and group memberships stay right (deleteVoter).
 */
export async function deleteImportChunk(
  ctx: MutationCtx,
  doc: Doc<"importHistory">,
  limit = DELETE_CHUNK,
): Promise<{ deleted: number; done: boolean }> {
  const voters = await ctx.db
    .query("voters")
    .withIndex("by_import", (q) => q.eq("importId", doc._id))
    .take(limit);
  const counts = new VoterCounts();
  const drops = new AudienceDrops();
  const nameKeys = await keepsNameKeys(ctx.db, doc.orgId);
  let deleted = 0;
  for (const v of voters) {
    if (v.orgId !== doc.orgId) throw new Error("import voter in another organisation");
    await deleteVoter(ctx, v, { counts, nameKeys, drops });
    deleted += 1;
    if (await transactionNearLimits(ctx, DELETE_BUDGET)) break;
  }
  await counts.flush(ctx, doc.orgId);
  await drops.flush(ctx);
  const deletedSoFar = (doc.deleted_so_far ?? 0) + deleted;
  const done = deleted === voters.length && voters.length < limit;
  if (done) {
    await ctx.db.patch("importHistory", doc._id, {
      status: "deleted",
      deleting: false,
      deleted_so_far: deletedSoFar,
      imported_records: 0,
      updatedAt: Date.now(),
      summary_stats: { ...(doc.summary_stats ?? {}), deleted_at: Date.now(), deleted_count: deletedSoFar },
    });
  } else {
    await ctx.db.patch("importHistory", doc._id, { deleting: true, deleted_so_far: deletedSoFar });
  }
  return { deleted, done };
}

const CUSTOM_KEY = /^[a-z0-9][a-z0-9_]*$/;
const MAX_COLUMNS = 500;

/**
 * The voter-file use attestation an import starts with (issue 39): a known state, a permitted use
 * ("other" described), and the box ticked. Returns what the import stores.
 */
export function checkAttestation(a: ImportAttestation): Omit<ImportAttestation, "attested"> {
  const problem = attestationProblem(a);
  if (problem !== null) throw appError("VALIDATION_ERROR", problem, ATTESTATION_TEXTS.title);
  return { state: a.state.trim().toUpperCase(), use: a.use, useOther: a.use === "other" ? a.useOther!.trim() : null };
}

/** The newest imports read for attestedStates (an organisation rarely holds more). */
const ATTESTED_IMPORTS_READ = 500;

/**
 * The states (USPS codes, sorted) whose voter files the organisation imported under an
 * attestation and has not deleted: the voter export shows their restrictions and records them.
 */
export async function attestedStates(db: QueryCtx["db"], orgId: Id<"organizations">): Promise<string[]> {
  const states = new Set<string>();
  const recent = await db
    .query("importHistory")
    .withIndex("by_org_date", (q) => q.eq("orgId", orgId))
    .order("desc")
    .take(ATTESTED_IMPORTS_READ);
  for (const doc of recent) if (doc.attestation && doc.status !== "deleted") states.add(doc.attestation.state);
  return [...states].sort();
}

/** Creates the import (status in_progress) with its mapping, field details and new custom fields. */
export async function startImport(
  ctx: MutationCtx,
  viewer: { orgId: Id<"organizations">; userId: Id<"users"> },
  args: StartImportArgs,
): Promise<Id<"importHistory">> {
  const attestation = checkAttestation(args.attestation);
  if (args.fieldMapping.length > MAX_COLUMNS || args.fieldDetails.length > MAX_COLUMNS)
    throw appError("VALIDATION_ERROR", "Too many columns.");
  const targets = new Set(args.fieldMapping.map((m) => m.target));
  const kind = args.kind ?? "voters";
  if (kind === "history") {
    if (!targets.has("voter_id"))
      throw appError("VALIDATION_ERROR", TEXTS.import.mapVoterId, TEXTS.titles.missingRequired);
  } else if (!targets.has("first_name") || !targets.has("last_name")) {
    throw appError("VALIDATION_ERROR", TEXTS.import.mapRequired, TEXTS.titles.missingRequired);
  }
  if ((args.elections?.length ?? 0) > MAX_COLUMNS) throw appError("VALIDATION_ERROR", "Too many columns.");
  for (const e of args.elections ?? []) {
    if ([e.election, e.date, e.type, e.method, e.party].some((part) => part !== undefined && part.length > 200)) {
      throw appError("VALIDATION_ERROR", "An election column's name is too long.");
    }
  }
  const orgId = viewer.orgId;
  const now = Date.now();
  const created: string[] = [];
  for (const f of args.newFields) {
    if (!CUSTOM_KEY.test(f.key) || f.label.trim() === "")
      throw appError("VALIDATION_ERROR", TEXTS.import.fieldNameAndLabel, "Missing information");
    const existing = await ctx.db
      .query("customFieldDefs")
      .withIndex("by_org_key", (q) => q.eq("orgId", orgId).eq("key", f.key))
      .unique();
    if (!existing) {
      await ctx.db.insert("customFieldDefs", {
        orgId,
        key: f.key,
        label: f.label.trim(),
        type: f.type,
        required: false,
        createdAt: now,
      });
    }
    created.push(f.key);
  }
  const importId = await ctx.db.insert("importHistory", {
    orgId,
    filename: args.filename.slice(0, 255),
    total_records: args.totalRecords ?? 0,
    imported_records: 0,
    failed_records: 0,
    duplicate_records: 0,
    processed_records: 0,
    import_date: now,
    import_duration_ms: 0,
    status: "in_progress",
    field_mapping: args.fieldMapping,
    new_fields_created: created,
    createdBy: viewer.userId,
    updatedAt: now,
    nextRow: 1,
    bytes_total: args.bytesTotal,
    bytes_done: 0,
    error_mode: args.errorMode,
    summary_stats: { total_known: args.totalRecords !== null },
    kind,
    match_rule: args.matchRule ?? "name",
    update_existing: args.updateExisting ?? false,
    updated_records: 0,
    attestation: { ...attestation, at: now },
  });
  if (args.elections) await addToCatalog(ctx, orgId, args.elections);
  for (const d of args.fieldDetails) {
    await ctx.db.insert("importFieldDetails", {
      orgId,
      importId,
      csv_field_name: d.column,
      mapped_to_field: d.target,
      field_type: d.fieldType,
      records_processed: 0,
      validation_errors: 0,
      sample_data: d.sample.slice(0, 3).map((s) => s.slice(0, 500)),
    });
  }
  await adjustCounter(ctx, orgId, "imports", 1);
  return importId;
}
