/** Contact import domain logic: batches (atomic, idempotent by row range), dedupe, outcomes, exact deletion. */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import type { BatchResult, ImportFieldsDoc, RowOutcome, StartImportArgs } from "../tables/imports";
import type { VoterFields } from "../tables/voters";
import { adjustCounter } from "./counters";
import { deleteVoter, insertVoter } from "./voters";

/** Per-row detail rows kept per kind (duplicates, errors); the counts stay exact beyond it. */
export const OUTCOME_DETAIL_CAP = 10_000;
/**
 * Rows one appendBatch may carry. Each row makes one duplicate lookup (an index range) and up to
 * two writes, so 4,000 rows stay within Convex's 4,096 index ranges and 16,000 writes per
 * transaction (the browser sends 2,000).
 */
export const MAX_BATCH_ROWS = 4_000;
export const DELETE_CHUNK = 2_000;
/** An in_progress import without a batch for this long counts as interrupted (same as the UI). */
export const STALE_IMPORT_MS = 2 * 60 * 1000;
const MAX_VALUE_LENGTH = 10_000;

export const ROW_ERROR_MISSING_NAMES = "Missing required fields (first name or last name)";

export async function loadImport(ctx: QueryCtx, importId: Id<"importHistory">): Promise<Doc<"importHistory">> {
  const doc = await ctx.db.get(importId);
  if (!doc) throw appError("NOT_FOUND", "Import not found");
  return doc;
}

export function isStale(doc: Doc<"importHistory">, now: number): boolean {
  return doc.status === "in_progress" && now - doc.updatedAt > STALE_IMPORT_MS;
}

function clean(fields: ImportFieldsDoc): VoterFields | string {
  const out: Record<string, unknown> = {};
  const source = fields as Record<string, unknown>;
  // keys + lookups rather than Object.entries: no pair arrays for every field of every row
  for (const k of Object.keys(source)) {
    const value = source[k];
    if (typeof value === "string") {
      const t = value.trim();
      if (t.length > MAX_VALUE_LENGTH) return `Insert failed: value too long for ${k}`;
      if (t !== "" || k === "first_name" || k === "last_name") out[k] = t;
    } else if (k === "custom_fields" && value) {
      const custom: Record<string, string> = {};
      const given = value as Record<string, string>;
      for (const ck of Object.keys(given)) {
        const t = given[ck].trim();
        if (t.length > MAX_VALUE_LENGTH) return `Insert failed: value too long for ${ck}`;
        if (t !== "") custom[ck] = t;
      }
      if (Object.keys(custom).length > 0) out.custom_fields = custom;
    } else if (k === "state_voter_history" && typeof value === "number") {
      if (!Number.isFinite(value)) return "Insert failed: state_voter_history must be a number";
      out.state_voter_history = Math.max(0, Math.min(4, Math.round(value)));
    }
  }
  if (!out.first_name || !out.last_name) return ROW_ERROR_MISSING_NAMES;
  return out as VoterFields;
}

/**
 * Applies one batch atomically. A batch whose first row is below the import's nextRow was already
 * applied (a retry after a lost response, or a resumed upload) and is skipped; a gap is refused.
 */
export async function applyBatch(
  ctx: MutationCtx,
  doc: Doc<"importHistory">,
  startRow: number,
  rows: { row: number; fields: ImportFieldsDoc }[],
  progress: { bytesDone?: number },
): Promise<BatchResult> {
  const counts = () => ({
    nextRow: doc.nextRow ?? 1,
    processed: doc.processed_records,
    imported: doc.imported_records,
    duplicates: doc.duplicate_records,
    failed: doc.failed_records,
  });
  if (doc.status !== "in_progress" || doc.deleting) throw appError("VALIDATION_ERROR", "This import is no longer running.");
  const expected = doc.nextRow ?? 1;
  if (startRow < expected) return { applied: false, ...counts(), errors: [] };
  if (startRow > expected) throw appError("VALIDATION_ERROR", `Rows ${expected} to ${startRow - 1} have not been imported yet.`);
  if (rows.length > MAX_BATCH_ROWS) throw appError("VALIDATION_ERROR", `At most ${MAX_BATCH_ROWS} rows per batch.`);
  let last = startRow - 1;
  for (const r of rows) {
    if (r.row <= last) throw appError("VALIDATION_ERROR", "Batch rows must be in increasing order.");
    last = r.row;
  }
  if (rows.length > 0 && rows[0].row !== startRow) throw appError("VALIDATION_ERROR", "The batch must begin at its start row.");

  const orgId = doc.orgId;
  // Phase 1 does every duplicate lookup before any write of this batch, so the lookups never have
  // to look through the transaction's own pending inserts; phase 2 writes.
  type Planned = { row: number; base: { first_name: string; last_name: string; email: string } } & (
    | { kind: "error"; message: string }
    | { kind: "duplicate"; existing?: Id<"voters">; key: string }
    | { kind: "insert"; voter: VoterFields; key: string; emailLower?: string; nameKey: string }
  );
  const plan: Planned[] = [];
  const seen = new Set<string>();
  for (const { row, fields } of rows) {
    const base = { first_name: fields.first_name.trim(), last_name: fields.last_name.trim(), email: (fields.email ?? "").trim() };
    const voter = clean(fields);
    if (typeof voter === "string") {
      plan.push({ row, base, kind: "error", message: voter });
      continue;
    }
    const emailLower = voter.email?.toLowerCase();
    const nameKey = `n:${voter.last_name.toLowerCase()}\u0000${voter.first_name.toLowerCase()}`;
    const key = emailLower ? `e:${emailLower}` : nameKey;
    if (seen.has(key)) {
      plan.push({ row, base, kind: "duplicate", key });
      continue;
    }
    const existing = emailLower
      ? await ctx.db.query("voters").withIndex("by_org_email", (q) => q.eq("orgId", orgId).eq("emailLower", emailLower)).first()
      : await ctx.db
          .query("voters")
          .withIndex("by_org_name", (q) =>
            q.eq("orgId", orgId).eq("lastNameLower", voter.last_name.toLowerCase()).eq("firstNameLower", voter.first_name.toLowerCase()),
          )
          .first();
    if (existing) {
      plan.push({ row, base, kind: "duplicate", existing: existing._id, key });
      continue;
    }
    seen.add(key);
    // a later row without email and the same name is a duplicate of this one too
    seen.add(nameKey);
    plan.push({ row, base, kind: "insert", voter, key, emailLower, nameKey });
  }

  const insertedBy = new Map<string, Id<"voters">>();
  let imported = 0;
  let duplicates = 0;
  let failed = 0;
  const errors: RowOutcome[] = [];
  for (const p of plan) {
    if (p.kind === "insert") {
      const id = await insertVoter(ctx, orgId, p.voter, { importId: doc._id, countLater: true });
      imported++;
      insertedBy.set(p.key, id);
      insertedBy.set(p.nameKey, id);
    } else if (p.kind === "error") {
      failed++;
      if (errors.length < 100) errors.push({ row: p.row, ...p.base, message: p.message });
      if (doc.failed_records + failed <= OUTCOME_DETAIL_CAP) {
        await ctx.db.insert("importRowOutcomes", { orgId, importId: doc._id, row: p.row, outcome: "error", ...p.base, message: p.message });
      }
    } else {
      duplicates++;
      if (doc.duplicate_records + duplicates <= OUTCOME_DETAIL_CAP) {
        await ctx.db.insert("importRowOutcomes", {
          orgId,
          importId: doc._id,
          row: p.row,
          outcome: "duplicate",
          ...p.base,
          message: "duplicate found",
          existingVoterId: p.existing ?? insertedBy.get(p.key),
        });
      }
    }
  }
  await adjustCounter(ctx, orgId, "voters", imported);
  const now = Date.now();
  const next = {
    nextRow: last + 1,
    processed_records: doc.processed_records + rows.length,
    imported_records: doc.imported_records + imported,
    duplicate_records: doc.duplicate_records + duplicates,
    failed_records: doc.failed_records + failed,
    updatedAt: now,
    import_duration_ms: now - doc.import_date,
    ...(progress.bytesDone !== undefined ? { bytes_done: progress.bytesDone } : {}),
  };
  await ctx.db.patch(doc._id, next);
  return {
    applied: true,
    nextRow: next.nextRow,
    processed: next.processed_records,
    imported: next.imported_records,
    duplicates: next.duplicate_records,
    failed: next.failed_records,
    errors,
  };
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
export async function deleteImportChunk(ctx: MutationCtx, doc: Doc<"importHistory">, limit = DELETE_CHUNK): Promise<{ deleted: number; done: boolean }> {
  const voters = await ctx.db
    .query("voters")
    .withIndex("by_import", (q) => q.eq("importId", doc._id))
    .take(limit);
  for (const v of voters) {
    if (v.orgId !== doc.orgId) throw new Error("import voter in another organisation");
    await deleteVoter(ctx, v, { countLater: true });
  }
  await adjustCounter(ctx, doc.orgId, "voters", -voters.length);
  const deletedSoFar = (doc.deleted_so_far ?? 0) + voters.length;
  const done = voters.length < limit;
  if (done) {
    await ctx.db.patch(doc._id, {
      status: "deleted",
      deleting: false,
      deleted_so_far: deletedSoFar,
      imported_records: 0,
      updatedAt: Date.now(),
      summary_stats: { ...(doc.summary_stats ?? {}), deleted_at: Date.now(), deleted_count: deletedSoFar },
    });
  } else {
    await ctx.db.patch(doc._id, { deleting: true, deleted_so_far: deletedSoFar });
  }
  return { deleted: voters.length, done };
}

const CUSTOM_KEY = /^[a-z0-9][a-z0-9_]*$/;
const MAX_COLUMNS = 500;

/** Creates the import (status in_progress) with its mapping, field details and new custom fields. */
export async function startImport(
  ctx: MutationCtx,
  viewer: { orgId: Id<"organizations">; userId: Id<"users"> },
  args: StartImportArgs,
): Promise<Id<"importHistory">> {
  if (args.fieldMapping.length > MAX_COLUMNS || args.fieldDetails.length > MAX_COLUMNS) throw appError("VALIDATION_ERROR", "Too many columns.");
  const targets = new Set(args.fieldMapping.map((m) => m.target));
  if (!targets.has("first_name") || !targets.has("last_name")) {
    throw appError("VALIDATION_ERROR", "Please map all required fields (First Name, Last Name) before importing.", "Missing required fields");
  }
  const orgId = viewer.orgId;
  const now = Date.now();
  const created: string[] = [];
  for (const f of args.newFields) {
    if (!CUSTOM_KEY.test(f.key) || f.label.trim() === "") throw appError("VALIDATION_ERROR", "Please provide both field name and label.", "Missing information");
    const existing = await ctx.db
      .query("customFieldDefs")
      .withIndex("by_org_key", (q) => q.eq("orgId", orgId).eq("key", f.key))
      .unique();
    if (!existing) {
      await ctx.db.insert("customFieldDefs", { orgId, key: f.key, label: f.label.trim(), type: f.type, required: false, createdAt: now });
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
  });
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
