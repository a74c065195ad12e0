/** Contact imports: history (with live progress), per-column details and per-row outcomes. */
import { defineTable } from "convex/server";
import { v } from "convex/values";

export const vImportStatus = v.union(
  v.literal("in_progress"),
  v.literal("completed"),
  v.literal("failed"),
  v.literal("cancelled"),
  v.literal("deleted"),
);

export const importTables = {
  importHistory: defineTable({
    orgId: v.id("organizations"),
    filename: v.string(),
    total_records: v.number(),
    imported_records: v.number(),
    failed_records: v.number(),
    duplicate_records: v.number(),
    processed_records: v.number(),
    import_date: v.number(),
    import_duration_ms: v.number(),
    status: vImportStatus,
    field_mapping: v.record(v.string(), v.string()),
    new_fields_created: v.array(v.string()),
    summary_stats: v.optional(v.any()),
    error_details: v.optional(v.string()),
    createdBy: v.id("users"),
    updatedAt: v.number(),
  }).index("by_org_date", ["orgId", "import_date"]),

  importFieldDetails: defineTable({
    orgId: v.id("organizations"),
    importId: v.id("importHistory"),
    csv_field_name: v.string(),
    mapped_to_field: v.string(),
    field_type: v.union(v.literal("existing"), v.literal("new"), v.literal("ignored")),
    records_processed: v.number(),
    validation_errors: v.number(),
    sample_data: v.array(v.string()),
  }).index("by_import", ["importId", "csv_field_name"]),

  /** Rows that were not imported (duplicates and errors), for the summary's detail tables. */
  importRowOutcomes: defineTable({
    orgId: v.id("organizations"),
    importId: v.id("importHistory"),
    row: v.number(),
    outcome: v.union(v.literal("duplicate"), v.literal("error")),
    first_name: v.string(),
    last_name: v.string(),
    email: v.string(),
    message: v.string(),
    existingVoterId: v.optional(v.id("voters")),
  }).index("by_import_outcome", ["importId", "outcome", "row"]),
};
