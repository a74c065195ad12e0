/**
 * Contact import: start, append batches, finish / fail / cancel, history, details, outcomes and exact
 * deletion. Importing and deleting need voters.manage; reading history and outcomes needs voters.view.
 */
import { startDistrictRun } from "./model/districts";
import { startGeocodeRun } from "./model/geocode";
import { readyLayer } from "./model/mapData";
import { v, type Infer } from "convex/values";
import { internal } from "./_generated/api";
import type { Doc, Id } from "./_generated/dataModel";
import type { MutationCtx } from "./_generated/server";
import { appError, internalMutation, orgMutation, orgQuery, publicQuery } from "./functions";
import {
  applyBatch,
  deleteImportChunk,
  DELETE_CHUNK,
  isStale,
  loadImport,
  startImport,
  summaryStats,
} from "./model/imports";
import { loadViewer, type Viewer } from "./model/viewer";
import { audit } from "./model/audit";
import { permittedUseText, stateFileUse } from "./lib/voters/fileUse";
import {
  importTables,
  vBatchResult,
  vImportKind,
  vImportRow,
  vMatchRule,
  vRowOutcome,
  vStartImport,
} from "./tables/imports";
import { voterTables } from "./tables/voters";

const history = importTables.importHistory.validator;

/** An import as history, details and the resume screen show it: the importHistory row with every optional field filled in. */
const vImportView = history
  .pick(
    "filename",
    "total_records",
    "imported_records",
    "failed_records",
    "duplicate_records",
    "processed_records",
    "import_date",
    "import_duration_ms",
    "status",
    "field_mapping",
    "new_fields_created",
    "updatedAt",
  )
  .extend({
    _id: v.id("importHistory"),
    _creationTime: v.number(),
    summary_stats: v.record(v.string(), v.any()),
    error_details: v.union(v.string(), v.null()),
    nextRow: v.number(),
    bytes_total: v.union(v.number(), v.null()),
    bytes_done: v.union(v.number(), v.null()),
    error_mode: v.union(v.literal("ask"), v.literal("ignore")),
    deleting: v.boolean(),
    deleted_so_far: v.number(),
    kind: vImportKind,
    match_rule: vMatchRule,
    update_existing: v.boolean(),
    updated_records: v.number(),
  });

/** What the admin attested for the import, as its audit entry states it ("" for imports from before). */
function attestationText(doc: Doc<"importHistory">): string {
  const a = doc.attestation;
  if (!a) return "";
  const state = stateFileUse(a.state)?.name ?? a.state;
  return ` Voter file from ${state}; permitted use attested: ${permittedUseText(a.use, a.useOther)}.`;
}

/**
 * The audit log's one entry for an import, at its end (completed, failed or cancelled): the file
 * and its counts, never a row each.
 */
async function auditImportEnd(
  ctx: MutationCtx & { viewer: Viewer },
  doc: Doc<"importHistory">,
  outcome: string,
  total: number,
) {
  const updated = doc.updated_records ?? 0;
  await audit(ctx, ctx.viewer, {
    action: "import.finish",
    target: { table: "importHistory", id: doc._id, label: doc.filename },
    summary:
      `Import of ${doc.filename} ${outcome}: ${total} rows, ${doc.imported_records} voters added, ` +
      `${updated} updated, ${doc.duplicate_records} duplicates, ${doc.failed_records} failed.` +
      attestationText(doc),
  });
}

/** Creates the import (status in_progress) with its mapping, field details and new custom fields. */
export const start = orgMutation("voters.manage")({
  args: vStartImport,
  returns: v.id("importHistory"),
  handler: async (ctx, args) => await startImport(ctx, ctx.viewer, args),
});

/**
 * The state the wizard proposes for a voter file's attestation (USPS code): the state of the
 * organisation's address when it names one, else null.
 */
export const defaultState = orgQuery("voters.manage")({
  args: {},
  returns: v.union(v.string(), v.null()),
  handler: async (ctx) => {
    const state = ctx.viewer.org.address?.state;
    return state ? (stateFileUse(state)?.code ?? null) : null;
  },
});

/** One atomic batch of rows; idempotent by its start row (see model/imports.applyBatch). */
export const appendBatch = orgMutation("voters.manage")({
  args: {
    importId: v.id("importHistory"),
    startRow: v.number(),
    rows: v.array(vImportRow),
    bytesDone: v.optional(v.number()),
  },
  returns: vBatchResult,
  handler: async (ctx, args) => {
    const doc = await loadImport(ctx, args.importId);
    return await applyBatch(ctx, doc, args.startRow, args.rows, { bytesDone: args.bytesDone });
  },
});

/** Marks the import completed with its final totals and per-column statistics. */
export const finish = orgMutation("voters.manage")({
  args: {
    importId: v.id("importHistory"),
    totalRecords: v.number(),
    columnStats: v.array(v.object({ column: v.string(), processed: v.number(), errors: v.number() })),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const doc = await loadImport(ctx, args.importId);
    if (doc.status !== "in_progress") throw appError("VALIDATION_ERROR", "This import is no longer running.");
    const details = await ctx.db
      .query("importFieldDetails")
      .withIndex("by_import", (q) => q.eq("importId", doc._id))
      .collect();
    const stats = new Map(args.columnStats.map((s) => [s.column, s]));
    for (const d of details) {
      const s = stats.get(d.csv_field_name);
      if (s)
        await ctx.db.patch("importFieldDetails", d._id, {
          records_processed: s.processed,
          validation_errors: s.errors,
        });
    }
    const now = Date.now();
    const total = Math.max(args.totalRecords, doc.processed_records);
    const updated = { ...doc, total_records: total };
    await ctx.db.patch("importHistory", doc._id, {
      status: "completed",
      total_records: total,
      updatedAt: now,
      import_duration_ms: now - doc.import_date,
      bytes_done: doc.bytes_total,
      summary_stats: summaryStats(updated, details.length, details.filter((d) => d.field_type === "ignored").length),
    });
    // the imported and updated voters go on the map (those already placed from the same address are only counted)
    const streets = await readyLayer(ctx.db, doc.orgId, "streets");
    if (streets && (doc.imported_records > 0 || (doc.updated_records ?? 0) > 0))
      await startGeocodeRun(ctx, doc.orgId, "an import", streets._id);
    // and into their districts, by their codes (by the map once placed: the geocoding run's end assigns them again)
    if (doc.imported_records > 0 || (doc.updated_records ?? 0) > 0) await startDistrictRun(ctx, doc.orgId, "an import");
    await auditImportEnd(ctx, doc, "completed", total);
    return null;
  },
});

/** "Import failed": a history row with status failed and the error. */
export const fail = orgMutation("voters.manage")({
  args: { importId: v.id("importHistory"), error: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    const doc = await loadImport(ctx, args.importId);
    if (doc.status !== "in_progress") return null;
    const now = Date.now();
    await ctx.db.patch("importHistory", doc._id, {
      status: "failed",
      error_details: args.error.slice(0, 2000),
      updatedAt: now,
      import_duration_ms: now - doc.import_date,
      total_records: Math.max(doc.total_records, doc.processed_records),
    });
    await auditImportEnd(ctx, doc, "failed", Math.max(doc.total_records, doc.processed_records));
    return null;
  },
});

async function beginDeletion(ctx: MutationCtx, doc: Doc<"importHistory">, extra: Record<string, unknown>) {
  await ctx.db.patch("importHistory", doc._id, {
    deleting: true,
    summary_stats: { ...(doc.summary_stats ?? {}), ...extra },
  });
  const fresh = (await ctx.db.get("importHistory", doc._id))!;
  const { done } = await deleteImportChunk(ctx, fresh);
  if (!done) await ctx.scheduler.runAfter(0, internal.imports.deleteChunk, { importId: doc._id });
  return done;
}

/** Cancel Import: keep what was imported (status cancelled) or delete everything imported so far. */
export const cancel = orgMutation("voters.manage")({
  args: { importId: v.id("importHistory"), deleteImported: v.boolean() },
  returns: v.null(),
  handler: async (ctx, args) => {
    const doc = await loadImport(ctx, args.importId);
    if (doc.status !== "in_progress") throw appError("VALIDATION_ERROR", "This import is no longer running.");
    const now = Date.now();
    await ctx.db.patch("importHistory", doc._id, {
      status: "cancelled",
      updatedAt: now,
      import_duration_ms: now - doc.import_date,
      total_records: Math.max(doc.total_records, doc.processed_records),
      summary_stats: {
        ...(doc.summary_stats ?? {}),
        note: args.deleteImported ? "Cancelled; imported records deleted" : "Cancelled; imported records kept",
      },
    });
    if (args.deleteImported) {
      const fresh = (await ctx.db.get("importHistory", doc._id))!;
      await beginDeletion(ctx, fresh, {});
    }
    const total = Math.max(doc.total_records, doc.processed_records);
    await auditImportEnd(ctx, doc, args.deleteImported ? "cancelled (its voters deleted)" : "cancelled", total);
    return null;
  },
});

/**
 * Delete an import and exactly the voters it created. An import with zero imported records but
 * duplicates is only marked deleted unless force is ticked; a running (not stale) import needs force.
 */
export const remove = orgMutation("voters.manage")({
  args: { importId: v.id("importHistory"), force: v.optional(v.boolean()) },
  /** "deleting": the rest of its voters go in scheduled chunks */
  returns: v.object({ status: v.union(v.literal("deleted"), v.literal("deleting")) }),
  handler: async (ctx, args) => {
    const doc = await loadImport(ctx, args.importId);
    const force = args.force ?? false;
    if (doc.status === "deleted") throw appError("VALIDATION_ERROR", "Import has already been deleted");
    if (doc.deleting) return { status: "deleting" as const };
    if (doc.status === "in_progress" && !isStale(doc, Date.now()) && !force) {
      throw appError("VALIDATION_ERROR", "This import is still running. Cancel it first, or tick Force Delete.");
    }
    const extra = force ? { force_deleted: true } : {};
    if (doc.imported_records === 0 && doc.duplicate_records > 0 && !force) {
      await ctx.db.patch("importHistory", doc._id, {
        status: "deleted",
        imported_records: 0,
        updatedAt: Date.now(),
        summary_stats: {
          ...(doc.summary_stats ?? {}),
          deleted_at: Date.now(),
          deleted_count: 0,
          note: "No records were imported (duplicates only); marked deleted",
        },
      });
      await auditImportDelete(ctx, doc, force);
      return { status: "deleted" as const };
    }
    const done = await beginDeletion(ctx, doc, extra);
    await auditImportDelete(ctx, doc, force);
    return { status: done ? ("deleted" as const) : ("deleting" as const) };
  },
});

async function auditImportDelete(ctx: MutationCtx & { viewer: Viewer }, doc: Doc<"importHistory">, force: boolean) {
  await audit(ctx, ctx.viewer, {
    action: "import.delete",
    target: { table: "importHistory", id: doc._id, label: doc.filename },
    summary: `Deleted the import of ${doc.filename} and the ${doc.imported_records} voters it added${force ? " (forced)" : ""}.`,
  });
}

/** Self-scheduling deletion of the next chunk of an import's voters. */
export const deleteChunk = internalMutation({
  args: { importId: v.id("importHistory") },
  handler: async (ctx, { importId }) => {
    const doc = await ctx.db.get("importHistory", importId);
    if (!doc || !doc.deleting) return;
    const { done } = await deleteImportChunk(ctx, doc);
    if (!done) await ctx.scheduler.runAfter(0, internal.imports.deleteChunk, { importId });
  },
});

function publicView(d: Doc<"importHistory">): Infer<typeof vImportView> {
  return {
    _id: d._id,
    _creationTime: d._creationTime,
    filename: d.filename,
    total_records: d.total_records,
    imported_records: d.imported_records,
    failed_records: d.failed_records,
    duplicate_records: d.duplicate_records,
    processed_records: d.processed_records,
    import_date: d.import_date,
    import_duration_ms: d.import_duration_ms,
    status: d.status,
    field_mapping: d.field_mapping,
    new_fields_created: d.new_fields_created,
    summary_stats: (d.summary_stats ?? {}) as Record<string, unknown>,
    error_details: d.error_details ?? null,
    updatedAt: d.updatedAt,
    nextRow: d.nextRow ?? 1,
    bytes_total: d.bytes_total ?? null,
    bytes_done: d.bytes_done ?? null,
    error_mode: d.error_mode ?? "ask",
    deleting: d.deleting ?? false,
    deleted_so_far: d.deleted_so_far ?? 0,
    kind: d.kind ?? "voters",
    match_rule: d.match_rule ?? "name",
    update_existing: d.update_existing ?? false,
    updated_records: d.updated_records ?? 0,
  };
}

/** Import history, newest first (live: progress of running imports moves here too). */
export const list = orgQuery("voters.view")({
  args: { limit: v.optional(v.number()) },
  returns: v.array(vImportView),
  handler: async (ctx, { limit }) => {
    const rows = await ctx.db
      .query("importHistory")
      .withIndex("by_org_date", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(Math.min(Math.max(1, limit ?? 200), 500));
    return rows.map(publicView);
  },
});

/** import_statistics: total_imports, total_records_processed, avg_success_rate, last_import_date. */
export const statistics = orgQuery("voters.view")({
  args: {},
  returns: v.object({
    total_imports: v.number(),
    total_records_processed: v.number(),
    avg_success_rate: v.number(),
    last_import_date: v.union(v.number(), v.null()),
  }),
  handler: async (ctx) => {
    const rows = await ctx.db
      .query("importHistory")
      .withIndex("by_org_date", (q) => q.eq("orgId", ctx.viewer.orgId))
      .order("desc")
      .take(1000);
    const rates = rows
      .filter((r) => r.status !== "deleted" && (r.total_records || r.processed_records) > 0)
      .map((r) => (r.imported_records / (r.total_records || r.processed_records)) * 100);
    return {
      total_imports: rows.length,
      total_records_processed: rows.reduce((s, r) => s + r.processed_records, 0),
      avg_success_rate: rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : 0,
      last_import_date: rows[0]?.import_date ?? null,
    };
  },
});

/** One import, or null; the id may come from a link (?resume=), so any string is answered. */
export const get = orgQuery("voters.view")({
  args: { importId: v.string() },
  returns: v.union(vImportView, v.null()),
  handler: async (ctx, { importId }) => {
    const id = ctx.db.normalizeId("importHistory", importId);
    const doc = id ? await ctx.db.get("importHistory", id) : null;
    return doc ? publicView(doc) : null;
  },
});

export const fieldDetails = orgQuery("voters.view")({
  args: { importId: v.id("importHistory") },
  returns: v.array(
    importTables.importFieldDetails.validator.omit("orgId", "importId").extend({ _id: v.id("importFieldDetails") }),
  ),
  handler: async (ctx, { importId }) => {
    const rows = await ctx.db
      .query("importFieldDetails")
      .withIndex("by_import", (q) => q.eq("importId", importId))
      .collect();
    return rows.map((r) => ({
      _id: r._id,
      csv_field_name: r.csv_field_name,
      mapped_to_field: r.mapped_to_field,
      field_type: r.field_type,
      records_processed: r.records_processed,
      validation_errors: r.validation_errors,
      sample_data: r.sample_data,
    }));
  },
});

/** Step 3 detail tables: duplicates / errors (stored outcomes), or the imported voters themselves. */
export const outcomes = orgQuery("voters.view")({
  args: {
    importId: v.id("importHistory"),
    kind: v.union(v.literal("duplicate"), v.literal("error"), v.literal("imported"), v.literal("updated")),
    limit: v.optional(v.number()),
  },
  returns: v.array(
    vRowOutcome.omit("row").extend({
      /** the row in the file (null: an imported voter, listed from the voters themselves) */
      row: v.union(v.number(), v.null()),
      voterId: v.union(v.id("voters"), v.null()),
      /** the voter a duplicate or update matched */
      existing: v.union(v.object({ id: v.id("voters"), name: v.string(), email: v.string() }), v.null()),
    }),
  ),
  handler: async (ctx, { importId, kind, limit }) => {
    const n = Math.min(Math.max(1, limit ?? 100), 1000);
    if (kind === "imported") {
      const voters = await ctx.db
        .query("voters")
        .withIndex("by_import", (q) => q.eq("importId", importId))
        .take(n);
      return voters.map((v) => ({
        row: null,
        voterId: v._id,
        first_name: v.first_name,
        last_name: v.last_name,
        email: v.email ?? "",
        message: "imported",
        existing: null,
      }));
    }
    const rows = await ctx.db
      .query("importRowOutcomes")
      .withIndex("by_import_outcome", (q) => q.eq("importId", importId).eq("outcome", kind))
      .take(n);
    const out = [];
    for (const r of rows) {
      const existing = r.existingVoterId ? await ctx.db.get("voters", r.existingVoterId) : null;
      out.push({
        row: r.row,
        voterId: null,
        first_name: r.first_name,
        last_name: r.last_name,
        email: r.email,
        message: r.message,
        existing: existing
          ? { id: existing._id, name: `${existing.first_name} ${existing.last_name}`, email: existing.email ?? "" }
          : null,
      });
    }
    return out;
  },
});

/** Organisation custom fields, offered as import targets. */
export const customFields = orgQuery("voters.view")({
  args: {},
  returns: v.array(voterTables.customFieldDefs.validator.pick("key", "label", "type")),
  handler: async (ctx) => {
    const defs = await ctx.db
      .query("customFieldDefs")
      .withIndex("by_org_key", (q) => q.eq("orgId", ctx.viewer.orgId))
      .collect();
    return defs.map((d) => ({ key: d.key, label: d.label, type: d.type }));
  },
});

/** Debug Import Deletion: what deleting this import would remove (counts and a sample). */
export const debugImport = orgQuery("voters.view")({
  args: { importId: v.string() },
  returns: v.union(
    v.object({ found: v.literal(false), message: v.string() }),
    v.object({
      found: v.literal(true),
      import: vImportView,
      /** null: more than one deletion chunk (at least votersToDeleteAtLeast) */
      votersToDelete: v.union(v.number(), v.null()),
      votersToDeleteAtLeast: v.number(),
      sample: v.array(
        v.object({
          id: v.id("voters"),
          first_name: v.string(),
          last_name: v.string(),
          email: v.string(),
          createdAt: v.number(),
        }),
      ),
      onlyMarked: v.boolean(),
      running: v.boolean(),
    }),
  ),
  handler: async (ctx, { importId }) => {
    const id = ctx.db.normalizeId("importHistory", importId.trim());
    const doc = id ? await ctx.db.get("importHistory", id) : null;
    if (!doc) return { found: false as const, message: "Import not found" };
    const scan = await ctx.db
      .query("voters")
      .withIndex("by_import", (q) => q.eq("importId", doc._id))
      .take(DELETE_CHUNK + 1);
    return {
      found: true as const,
      import: publicView(doc),
      votersToDelete: scan.length > DELETE_CHUNK ? null : scan.length,
      votersToDeleteAtLeast: scan.length,
      sample: scan.slice(0, 10).map((v) => ({
        id: v._id,
        first_name: v.first_name,
        last_name: v.last_name,
        email: v.email ?? "",
        createdAt: v._creationTime,
      })),
      onlyMarked: doc.imported_records === 0 && doc.duplicate_records > 0,
      running: doc.status === "in_progress" && !isStale(doc, Date.now()),
    };
  },
});

/** Check Permissions: authentication, read and delete, as the server sees the caller. */
export const checkPermissions = publicQuery({
  args: {},
  returns: v.object({
    authenticated: v.boolean(),
    member: v.boolean(),
    canRead: v.boolean(),
    canDelete: v.boolean(),
    organization: v.union(v.string(), v.null()),
  }),
  handler: async (ctx) => {
    const viewer = await loadViewer(ctx);
    if (!viewer) {
      const identity = await ctx.auth.getUserIdentity();
      return { authenticated: identity !== null, member: false, canRead: false, canDelete: false, organization: null };
    }
    return {
      authenticated: true,
      member: true,
      canRead: viewer.can("voters.view"),
      canDelete: viewer.can("voters.manage"),
      organization: viewer.org.name,
    };
  },
});

export type ImportId = Id<"importHistory">;
