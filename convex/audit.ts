/**
 * The audit log's functions (issue 39): reading it (audit.view: Account Administrators and above),
 * exporting it (itself audited), proving its hash chain, and the sealer that appends written
 * entries to the chain (model/audit.ts). Nothing here, or anywhere public, edits or deletes an entry.
 */
import { filter } from "convex-helpers/server/filter";
import { paginationOptsValidator, paginationResultValidator, type GenericDatabaseReader } from "convex/server";
import { v, type Infer, type ObjectType } from "convex/values";
import { internal } from "./_generated/api";
import type { DataModel, Id } from "./_generated/dataModel";
import { appError, internalMutation, internalQuery, orgAction, orgMutation, orgQuery } from "./functions";
import {
  audit,
  chainStart,
  expireEntries,
  fieldChanges,
  hasExpired,
  MIN_RETENTION_DAYS,
  retentionDays,
  seal as sealPending,
  verifyPage,
  type VerifyPage,
} from "./model/audit";
import schema from "./schema";
import { vAuditAction } from "./tables/audit";

const vAuditPage = paginationResultValidator(schema.doc("auditLog"));

const vFilters = {
  /** null: entries no member wrote (the system, webhooks, failed sign-ins) */
  actorId: v.optional(v.union(v.id("users"), v.null())),
  action: v.optional(vAuditAction),
  targetId: v.optional(v.string()),
  from: v.optional(v.number()),
  to: v.optional(v.number()),
};
type Filters = ObjectType<typeof vFilters>;

/** The organisation's entries matching the filters, newest first (the most selective index; the others filter what it yields). */
function filtered(db: GenericDatabaseReader<DataModel>, orgId: Id<"organizations">, f: Filters) {
  const { actorId, action, targetId } = f;
  const lo = f.from ?? 0;
  const hi = f.to ?? Number.MAX_SAFE_INTEGER;
  const q =
    actorId !== undefined
      ? db
          .query("auditLog")
          .withIndex("by_org_actor", (r) => r.eq("orgId", orgId).eq("actorId", actorId).gte("at", lo).lt("at", hi))
      : action !== undefined
        ? db
            .query("auditLog")
            .withIndex("by_org_action", (r) => r.eq("orgId", orgId).eq("action", action).gte("at", lo).lt("at", hi))
        : targetId !== undefined
          ? db
              .query("auditLog")
              .withIndex("by_org_target", (r) =>
                r.eq("orgId", orgId).eq("target.id", targetId).gte("at", lo).lt("at", hi),
              )
          : db.query("auditLog").withIndex("by_org_at", (r) => r.eq("orgId", orgId).gte("at", lo).lt("at", hi));
  // the filters the index did not take (only with an actor and an action or target together)
  return filter(
    q.order("desc"),
    (e) => (action === undefined || e.action === action) && (targetId === undefined || e.target.id === targetId),
  );
}

/**
 * The log, newest first, one page a call; filters: who acted, which action, which target (a
 * document id), a date range (at ≥ from, at < to).
 */
export const list = orgQuery("audit.view")({
  args: { paginationOpts: paginationOptsValidator, ...vFilters },
  returns: vAuditPage,
  handler: async (ctx, { paginationOpts, ...filters }) =>
    await filtered(ctx.db, ctx.viewer.orgId, filters).paginate(paginationOpts),
});

/** A filter's value as the export's entry names it: dates as ISO, a null actor as the system. */
function describeFilter(key: string, value: string | number | null | undefined): string {
  if (key === "from" || key === "to") return new Date(value as number).toISOString();
  return value === null ? "none (system)" : String(value);
}

/** Actors the filter's list names at most. */
export const MAX_ACTORS = 200;

/**
 * Everyone who has an entry in the organisation's log, once each (the page's actor filter), named
 * as their latest entry names them, by name; id null: entries no member wrote (the system,
 * webhooks, failed sign-ins). Two index reads per actor, at most MAX_ACTORS actors.
 */
export const actors = orgQuery("audit.view")({
  args: {},
  returns: v.array(v.object({ id: v.union(v.id("users"), v.null()), name: v.string() })),
  handler: async (ctx) => {
    const orgId = ctx.viewer.orgId;
    const out: { id: Id<"users"> | null; name: string }[] = [];
    let next = await ctx.db
      .query("auditLog")
      .withIndex("by_org_actor", (r) => r.eq("orgId", orgId))
      .first();
    while (next !== null && out.length < MAX_ACTORS) {
      const id = next.actorId;
      const latest = await ctx.db
        .query("auditLog")
        .withIndex("by_org_actor", (r) => r.eq("orgId", orgId).eq("actorId", id))
        .order("desc")
        .first();
      out.push({ id, name: (latest ?? next).actorName });
      // the next actor: the first entry past every entry of this one (actors sort null first, then by id)
      next = await ctx.db
        .query("auditLog")
        .withIndex("by_org_actor", (r) => r.eq("orgId", orgId).gt("actorId", id))
        .first();
    }
    return out.sort((a, b) => (a.id === null ? -1 : b.id === null ? 1 : a.name.localeCompare(b.name)));
  },
});

/** The CSV export's columns. */
export const CSV_HEADER = [
  "seq",
  "time",
  "actor",
  "actor id",
  "impersonated role",
  "action",
  "target table",
  "target id",
  "target",
  "summary",
  "changes",
  "request id",
  "hash",
];
/** Entries per export call. */
export const EXPORT_PAGE = 500;

/**
 * The CSV export of the filtered log, a page per call (the browser follows continueCursor until
 * isDone and writes the file). A mutation, so the export is itself audited: its first call
 * records an "export" entry naming the filters.
 */
export const exportCsv = orgMutation("audit.view")({
  args: { cursor: v.union(v.string(), v.null()), ...vFilters },
  returns: v.object({
    header: v.array(v.string()),
    rows: v.array(v.array(v.string())),
    isDone: v.boolean(),
    continueCursor: v.string(),
  }),
  handler: async (ctx, { cursor, ...filters }) => {
    if (cursor === null) {
      const described = Object.entries(filters)
        .filter(([, value]) => value !== undefined)
        .map(([k, value]) => `${k} ${describeFilter(k, value)}`);
      await audit(ctx, ctx.viewer, {
        action: "export",
        target: { table: "auditLog", id: ctx.viewer.orgId, label: "Audit log" },
        summary: `Exported the audit log as CSV${described.length ? ` (${described.join(", ")})` : ""}.`,
      });
    }
    const page = await filtered(ctx.db, ctx.viewer.orgId, filters).paginate({ cursor, numItems: EXPORT_PAGE });
    return {
      header: CSV_HEADER,
      rows: page.page.map((e) => [
        String(e.seq),
        new Date(e.at).toISOString(),
        e.actorName,
        e.actorId ?? "",
        e.impersonatedRole ?? "",
        e.action,
        e.target.table,
        e.target.id,
        e.target.label,
        e.summary,
        e.changes.map((c) => `${c.field}: ${c.from ?? "∅"} → ${c.to ?? "∅"}`).join("; "),
        e.requestId,
        e.hash,
      ]),
      isDone: page.isDone,
      continueCursor: page.continueCursor,
    };
  },
});

/** One voter's entries (what was done to them: created, changed, deleted), newest first. */
export const forVoter = orgQuery("audit.view")({
  args: { voterId: v.id("voters"), paginationOpts: paginationOptsValidator },
  returns: vAuditPage,
  handler: async (ctx, { voterId, paginationOpts }) => {
    return await ctx.db
      .query("auditLog")
      .withIndex("by_org_target", (r) => r.eq("orgId", ctx.viewer.orgId).eq("target.id", voterId))
      .order("desc")
      .paginate(paginationOpts);
  },
});

const vVerifyResult = v.union(
  v.object({ ok: v.literal(true), entries: v.number() }),
  v.object({
    ok: v.literal(false),
    /** the first entry that does not match: its seq, its id (null when it is missing) and why */
    seq: v.number(),
    entryId: v.union(v.id("auditLog"), v.null()),
    reason: v.union(v.literal("missing"), v.literal("prevHash"), v.literal("hash")),
    checked: v.number(),
  }),
);

/** Walks the organisation's whole chain, a page per query, and returns ok or the first entry that does not match. */
export const verify = orgAction("audit.view")({
  args: {},
  returns: vVerifyResult,
  handler: async (ctx): Promise<Infer<typeof vVerifyResult>> => {
    let from: { seq: number; hash: string } | null = null;
    let checked = 0;
    for (;;) {
      const page: VerifyPage = await ctx.runQuery(internal.audit.verifyStep, { orgId: ctx.viewer.orgId, from });
      if (page.status === "bad") {
        return {
          ok: false as const,
          seq: page.seq,
          entryId: page.entryId,
          reason: page.reason,
          checked: checked + page.checked,
        };
      }
      checked += page.checked;
      if (page.status === "done") return { ok: true as const, entries: checked };
      from = { seq: page.seq, hash: page.hash };
    }
  },
});

/** One page of verify: after `from` (null: from the chain's start, the retention anchor or the genesis hash). */
export const verifyStep = internalQuery({
  args: { orgId: v.id("organizations"), from: v.union(v.object({ seq: v.number(), hash: v.string() }), v.null()) },
  handler: async (ctx, { orgId, from }): Promise<VerifyPage> =>
    await verifyPage(ctx.db, orgId, from ?? (await chainStart(ctx.db, orgId))),
});

/** How long the organisation keeps its audit log, and the least it may choose. */
export const settings = orgQuery("audit.view")({
  args: {},
  returns: v.object({ retentionDays: v.number(), minRetentionDays: v.number() }),
  handler: async (ctx) => ({
    retentionDays: await retentionDays(ctx.db, ctx.viewer.orgId),
    minRetentionDays: MIN_RETENTION_DAYS,
  }),
});

/** Sets how many days entries are kept: at least MIN_RETENTION_DAYS (four years), at most a century. */
export const setRetention = orgMutation("organization.manage")({
  args: { days: v.number() },
  returns: v.null(),
  handler: async (ctx, { days }) => {
    if (!Number.isInteger(days) || days < MIN_RETENTION_DAYS || days > 36_525)
      throw appError(
        "VALIDATION_ERROR",
        `Keep the audit log for at least ${MIN_RETENTION_DAYS} days (four years, the consent record minimum).`,
      );
    const before = await retentionDays(ctx.db, ctx.viewer.orgId);
    const row = await ctx.db
      .query("auditSettings")
      .withIndex("by_org", (q) => q.eq("orgId", ctx.viewer.orgId))
      .unique();
    if (row) await ctx.db.patch("auditSettings", row._id, { retentionDays: days, updatedAt: Date.now() });
    else await ctx.db.insert("auditSettings", { orgId: ctx.viewer.orgId, retentionDays: days, updatedAt: Date.now() });
    await audit(ctx, ctx.viewer, {
      action: "settings.update",
      target: { table: "auditSettings", id: ctx.viewer.orgId, label: "Audit log retention" },
      summary: `Set the audit log's retention to ${days} days.`,
      changes: fieldChanges({ retentionDays: before }, { retentionDays: days }, ["retentionDays"]),
    });
    return null;
  },
});

/** Organisations the daily retention sweep checks per run. */
const SWEEP_ORGS = 100;

/** Daily (crons.ts): finds the organisations with entries past their retention and starts their deletion. */
export const sweepRetention = internalMutation({
  args: { cursor: v.optional(v.union(v.string(), v.null())) },
  returns: v.null(),
  handler: async (ctx, { cursor }) => {
    const now = Date.now();
    const orgs = await ctx.db.query("organizations").paginate({ cursor: cursor ?? null, numItems: SWEEP_ORGS });
    for (const org of orgs.page)
      if (await hasExpired(ctx.db, org._id, now))
        await ctx.scheduler.runAfter(0, internal.audit.expire, { orgId: org._id });
    if (!orgs.isDone) await ctx.scheduler.runAfter(0, internal.audit.sweepRetention, { cursor: orgs.continueCursor });
    return null;
  },
});

/** Deletes one step of an organisation's entries past retention, then the next while older ones remain. */
export const expire = internalMutation({
  args: { orgId: v.id("organizations") },
  returns: v.null(),
  handler: async (ctx, { orgId }) => {
    if (await expireEntries(ctx, orgId, Date.now())) await ctx.scheduler.runAfter(0, internal.audit.expire, { orgId });
    return null;
  },
});

/** The organisation's sealer: appends its pending entries to the chain (model/audit.ts seal). */
export const seal = internalMutation({
  args: { orgId: v.id("organizations") },
  returns: v.null(),
  handler: async (ctx, { orgId }) => {
    await sealPending(ctx, orgId);
    return null;
  },
});
