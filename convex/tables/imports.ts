/** Contact imports: history (with live progress and resume state), per-column details and per-row outcomes. */
import { defineTable } from "convex/server";
import { v, type Infer, type ObjectType } from "convex/values";
import { IMPORTABLE_VOTER_FIELDS, vElectionRecord, vVoterFields } from "./voters";

export const vImportStatus = v.union(
  v.literal("in_progress"),
  v.literal("completed"),
  v.literal("failed"),
  v.literal("cancelled"),
  v.literal("deleted"),
);

/** A column of the file and where it goes: a voter field key, a custom field key, or "__ignore__". */
export const vColumnMapping = v.object({ column: v.string(), target: v.string() });

export const vImportFieldType = v.union(v.literal("existing"), v.literal("new"), v.literal("ignored"));

/** The voter fields one imported row may carry (already normalised by the browser-side reader). */
export const vImportFields = vVoterFields.pick(...IMPORTABLE_VOTER_FIELDS, "custom_fields", "vote_history");
export type ImportFieldsDoc = Infer<typeof vImportFields>;

/** A data row: its place among the file's data rows (batches resume by it) and its line in the file (messages). */
export const vImportRow = v.object({ row: v.number(), line: v.optional(v.number()), fields: vImportFields });

/** "Match existing records by" (lib/import/rows.ts MatchRule). */
export const vMatchRule = v.union(v.literal("standard"), v.literal("name"));
/** A voter file (rows are voters) or a vote-history file (rows attach elections to voters by voter ID). */
export const vImportKind = v.union(v.literal("voters"), v.literal("history"));

/** A row the server did not import, or skipped as a duplicate (import history outcomes, the error dialog). */
export const vRowOutcome = v.object({
  row: v.number(),
  first_name: v.string(),
  last_name: v.string(),
  email: v.string(),
  message: v.string(),
});
export type RowOutcome = Infer<typeof vRowOutcome>;

/** What one batch did (imports.appendBatch). */
export const vBatchResult = v.object({
  applied: v.boolean(),
  nextRow: v.number(),
  processed: v.number(),
  imported: v.number(),
  duplicates: v.number(),
  failed: v.number(),
  updated: v.number(),
  /** this batch's row errors (first 100), for the Import Error dialog in ask mode */
  errors: v.array(vRowOutcome),
});
export type BatchResult = Infer<typeof vBatchResult>;

/** A custom field the import creates (of the types a column's values can be checked as). */
export const vImportCustomFieldType = v.union(
  v.literal("text"),
  v.literal("email"),
  v.literal("phone"),
  v.literal("date"),
  v.literal("number"),
);
export type ImportCustomFieldType = Infer<typeof vImportCustomFieldType>;
export const vNewImportField = v.object({ key: v.string(), label: v.string(), type: vImportCustomFieldType });
export type NewImportField = Infer<typeof vNewImportField>;

/** The voter-file use the admin picks when starting an import (lib/voters/fileUse.ts PERMITTED_USES). */
export const vPermittedUse = v.union(
  v.literal("campaign"),
  v.literal("party"),
  v.literal("election_administration"),
  v.literal("research"),
  v.literal("other"),
);

/**
 * What the admin attests before an import starts (issue 39): the state the file comes from (USPS
 * code), the use the data is put to ("other": described), and that they ticked the attestation.
 */
export const vImportAttestation = v.object({
  state: v.string(),
  use: vPermittedUse,
  useOther: v.union(v.string(), v.null()),
  attested: v.boolean(),
});
export type ImportAttestation = Infer<typeof vImportAttestation>;

/** What the browser sends to start an import (imports.start). */
export const vStartImport = {
  filename: v.string(),
  totalRecords: v.union(v.number(), v.null()),
  bytesTotal: v.optional(v.number()),
  fieldMapping: v.array(vColumnMapping),
  newFields: v.array(vNewImportField),
  fieldDetails: v.array(
    v.object({ column: v.string(), target: v.string(), fieldType: vImportFieldType, sample: v.array(v.string()) }),
  ),
  errorMode: v.union(v.literal("ask"), v.literal("ignore")),
  matchRule: v.optional(vMatchRule),
  updateExisting: v.optional(v.boolean()),
  kind: v.optional(vImportKind),
  /** the elections the file's per-election columns name (the organisation's election list) */
  elections: v.optional(v.array(vElectionRecord)),
  /** the file's state and permitted use, attested (required: no import starts without it) */
  attestation: vImportAttestation,
};
export type StartImportArgs = ObjectType<typeof vStartImport>;

export const importTables = {
  importHistory: defineTable({
    orgId: v.id("organizations"),
    filename: v.string(),
    /** rows in the file when known (spreadsheets up front, delimited text at the end) */
    total_records: v.number(),
    imported_records: v.number(),
    failed_records: v.number(),
    duplicate_records: v.number(),
    processed_records: v.number(),
    /** start of the import (ms) */
    import_date: v.number(),
    import_duration_ms: v.number(),
    status: vImportStatus,
    field_mapping: v.array(vColumnMapping),
    new_fields_created: v.array(v.string()),
    summary_stats: v.optional(v.any()),
    error_details: v.optional(v.string()),
    createdBy: v.id("users"),
    /** time of the last applied batch: live rate / ETA, and stale detection (interrupted) */
    updatedAt: v.number(),
    /** the next data row (1-based, header excluded) the import expects: batches below it are already applied */
    nextRow: v.optional(v.number()),
    bytes_total: v.optional(v.number()),
    bytes_done: v.optional(v.number()),
    error_mode: v.optional(v.union(v.literal("ask"), v.literal("ignore"))),
    /** set while the voters of this import are being deleted in chunks */
    deleting: v.optional(v.boolean()),
    deleted_so_far: v.optional(v.number()),
    match_rule: v.optional(vMatchRule),
    update_existing: v.optional(v.boolean()),
    /** matched voters whose fields this import changed ("update existing records") */
    updated_records: v.optional(v.number()),
    kind: v.optional(vImportKind),
    /** the state and permitted use the admin attested at the start (absent on imports from before issue 39) */
    attestation: v.optional(
      v.object({ state: v.string(), use: vPermittedUse, useOther: v.union(v.string(), v.null()), at: v.number() }),
    ),
  })
    .index("by_org_date", ["orgId", "import_date"])
    .index("by_org_status", ["orgId", "status"]),

  importFieldDetails: defineTable({
    orgId: v.id("organizations"),
    importId: v.id("importHistory"),
    csv_field_name: v.string(),
    mapped_to_field: v.string(),
    field_type: vImportFieldType,
    records_processed: v.number(),
    validation_errors: v.number(),
    sample_data: v.array(v.string()),
  }).index("by_import", ["importId", "csv_field_name"]),

  /** Rows that were not imported (duplicates and errors), for the summary's detail tables. */
  importRowOutcomes: defineTable({
    orgId: v.id("organizations"),
    importId: v.id("importHistory"),
    row: v.number(),
    outcome: v.union(v.literal("duplicate"), v.literal("error"), v.literal("updated")),
    first_name: v.string(),
    last_name: v.string(),
    email: v.string(),
    message: v.string(),
    existingVoterId: v.optional(v.id("voters")),
  }).index("by_import_outcome", ["importId", "outcome", "row"]),

  /** The elections an organisation's files named, newest first: "the four most recent" for state_voter_history. */
  electionCatalog: defineTable({
    orgId: v.id("organizations"),
    key: v.string(),
    election: v.string(),
    date: v.optional(v.string()),
    type: v.optional(v.string()),
  })
    .index("by_org_key", ["orgId", "key"])
    .index("by_org_date", ["orgId", "date"]),
};
