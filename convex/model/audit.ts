/**
 * The audit log (issue 39). `audit()` records an entry in the same mutation as the action, as a
 * pending (unchained) row; the organisation's sealer appends pending rows to auditLog in creation
 * order, each with its seq and the hash of the entry before it.
 *
 * Why a sealer: chaining in the acting mutation means reading the organisation's last entry, so
 * every audited mutation of an organisation would conflict with every other one (optimistic
 * concurrency: one commits, the rest run again). The pending insert reads nothing that others
 * write (only the sealer mark, written when a chain starts or ends), and the one sealer per
 * organisation is the chain's only writer. The log is live within about a second (SEAL_MS buckets).
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import type { AuditAction, AuditChange } from "../tables/audit";
import { displayName } from "./presence";
import { sha256Hex } from "./strings";
import type { Viewer } from "./viewer";

/**
 * Who acted: a member (the viewer), or someone named who is not acting as a member: a user joining
 * (accepting an invitation), the system, a webhook, a signed-out caller (userId null or absent).
 */
export type AuditActor =
  | Pick<Viewer, "userId" | "user" | "orgId" | "roles">
  | { orgId: Id<"organizations">; name: string; userId?: Id<"users"> | null; impersonatedRole?: string | null };

export type AuditInput = {
  action: AuditAction;
  target: { table: string; id: string; label: string };
  summary: string;
  changes?: AuditChange[];
};

/** Caps of an entry's field-level changes: fields listed, characters per value. */
export const MAX_AUDIT_CHANGES = 60;
export const MAX_AUDIT_VALUE = 500;
/** The first entry's prevHash. */
export const GENESIS_HASH = "0".repeat(64);
/** The sealer's bucket: an entry is in the chain at most about this long after its mutation (twice at a chain's start). */
export const SEAL_MS = 250;
/** Pending entries the sealer chains per run. */
export const SEAL_STEP = 200;

function cut(value: string | null): string | null {
  return value !== null && value.length > MAX_AUDIT_VALUE ? `${value.slice(0, MAX_AUDIT_VALUE - 1)}…` : value;
}

/** At most MAX_AUDIT_CHANGES fields (then one line saying how many more), each value at most MAX_AUDIT_VALUE characters. */
export function capChanges(changes: AuditChange[]): AuditChange[] {
  const kept = changes.slice(0, MAX_AUDIT_CHANGES).map((c) => ({ field: c.field, from: cut(c.from), to: cut(c.to) }));
  if (changes.length > MAX_AUDIT_CHANGES)
    kept.push({ field: "…", from: null, to: `${changes.length - MAX_AUDIT_CHANGES} more fields` });
  return kept;
}

/** A value as an entry's changes show it: text as is, anything else as JSON, absent as null. */
function asText(value: unknown): string | null {
  return value === undefined || value === null ? null : typeof value === "string" ? value : JSON.stringify(value);
}

/** The listed fields that differ between `before` and `after` (null: the document did not exist / no longer exists). */
export function fieldChanges<K extends string>(
  before: Partial<Record<K, unknown>> | null,
  after: Partial<Record<K, unknown>> | null,
  keys: readonly K[],
): AuditChange[] {
  const out: AuditChange[] = [];
  for (const field of keys) {
    const from = asText(before?.[field]);
    const to = asText(after?.[field]);
    if (from !== to) out.push({ field, from, to });
  }
  return out;
}

/** One id per function execution (the ctx object a handler receives): the entries one call writes share it. */
const requestIds = new WeakMap<object, string>();
function requestIdOf(ctx: object): string {
  let id = requestIds.get(ctx);
  if (id === undefined) {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    id = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    requestIds.set(ctx, id);
  }
  return id;
}

/**
 * Records one audit entry for the action this mutation performs. Call it once per call of a
 * public function (a bulk path writes one entry for the whole call, never one per row).
 */
export async function audit(ctx: MutationCtx, actor: AuditActor, input: AuditInput): Promise<void> {
  const member = "roles" in actor;
  await ctx.db.insert("auditPending", {
    orgId: actor.orgId,
    at: Date.now(),
    actorId: actor.userId ?? null,
    actorName: member ? displayName(actor.user) : actor.name,
    impersonatedRole: member ? (actor.roles.impersonating?.id ?? null) : (actor.impersonatedRole ?? null),
    requestId: requestIdOf(ctx),
    action: input.action,
    target: input.target,
    summary: input.summary,
    changes: capChanges(input.changes ?? []),
  });
  await startSealer(ctx, actor.orgId);
}

/** Sign-in and password events, recorded in the log of the account's organisation. */
export const ACCOUNT_EVENTS = ["signin.success", "signin.failure", "password.reset"] as const;
export type AccountEvent = (typeof ACCOUNT_EVENTS)[number];

/**
 * Records a sign-in (success or failure) or a completed password reset of the account with this
 * email, in its organisation's log (its active one, else its first). An email without an account,
 * or an account in no organisation, has no log to go to: the sign-in throttle still counts it.
 * A failure is nobody's action (actorId null): whoever typed the password is not known.
 */
export async function auditAccountEvent(ctx: MutationCtx, email: string, event: AccountEvent, address: string) {
  const user = await ctx.db
    .query("users")
    .withIndex("email", (q) => q.eq("email", email))
    .first();
  if (user === null) return;
  const membership =
    (user.activeOrgId
      ? await ctx.db
          .query("memberships")
          .withIndex("by_org_user", (q) => q.eq("orgId", user.activeOrgId!).eq("userId", user._id))
          .unique()
      : null) ??
    (await ctx.db
      .query("memberships")
      .withIndex("by_user", (q) => q.eq("userId", user._id))
      .first());
  if (membership === null) return;
  const label = user.email ?? email;
  const summary =
    event === "signin.success"
      ? `Signed in from ${address}.`
      : event === "signin.failure"
        ? `A sign-in to ${label} from ${address} failed (wrong password).`
        : `The password of ${label} was reset from ${address}.`;
  await audit(
    ctx,
    {
      orgId: membership.orgId,
      userId: event === "signin.failure" ? null : user._id,
      name: event === "signin.failure" ? "Unknown (signed out)" : displayName(user),
    },
    { action: event, target: { table: "users", id: user._id, label }, summary },
  );
}

/** Makes sure the organisation's sealer chain runs (auditSealMarks), like model/canvass.ts startRollups. */
async function startSealer(ctx: MutationCtx, orgId: Id<"organizations">) {
  const mark = await ctx.db
    .query("auditSealMarks")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .unique();
  if (mark?.running) return;
  if (mark) await ctx.db.patch("auditSealMarks", mark._id, { running: true });
  else await ctx.db.insert("auditSealMarks", { orgId, running: true });
  const now = Date.now();
  await ctx.scheduler.runAt((Math.floor(now / SEAL_MS) + 1) * SEAL_MS, internal.audit.seal, { orgId });
}

type Chained = Omit<Doc<"auditLog">, "_id" | "_creationTime">;

/** JSON with object keys sorted at every level: the same entry always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
    .join(",")}}`;
}

/** The fields an entry's hash covers: every field but hash (and the document's _id/_creationTime), prevHash included. */
const HASHED_FIELDS = [
  "orgId",
  "seq",
  "at",
  "actorId",
  "actorName",
  "impersonatedRole",
  "requestId",
  "action",
  "target",
  "summary",
  "changes",
  "prevHash",
] as const satisfies readonly (keyof Chained)[];

/** SHA-256 (hex) of the canonical entry (HASHED_FIELDS). */
export async function entryHash(entry: Chained | Doc<"auditLog">): Promise<string> {
  return await sha256Hex(canonicalJson(Object.fromEntries(HASHED_FIELDS.map((k) => [k, entry[k]]))));
}

/** Where the organisation's chain starts: after the last entry retention deleted, else at 0 with GENESIS_HASH. */
export async function chainStart(db: QueryCtx["db"], orgId: Id<"organizations">) {
  const anchor = await db
    .query("auditAnchors")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .unique();
  return anchor ? { seq: anchor.seq, hash: anchor.hash } : { seq: 0, hash: GENESIS_HASH };
}

/** The organisation's last sealed entry's seq and hash (the chain's start before the first). */
export async function chainHead(db: QueryCtx["db"], orgId: Id<"organizations">) {
  const last = await db
    .query("auditLog")
    .withIndex("by_org_seq", (q) => q.eq("orgId", orgId))
    .order("desc")
    .first();
  return last ? { seq: last.seq, hash: last.hash } : await chainStart(db, orgId);
}

/**
 * One run of an organisation's sealer: chains up to SEAL_STEP pending entries created before this
 * run started (a bounded range, so entries being written now do not make the run start over),
 * then runs again at once while more remain, a bucket later after it found any. A run that finds
 * none ends the chain (the next audit() starts another) — unless an entry written since is
 * pending: its mutation saw the chain running and started none. Reading the whole pending range
 * then also makes an entry committed meanwhile conflict with this run, which runs again and sees it.
 */
export async function seal(ctx: MutationCtx, orgId: Id<"organizations">) {
  const started = Date.now();
  const pending = await ctx.db
    .query("auditPending")
    .withIndex("by_org", (q) => q.eq("orgId", orgId).lt("_creationTime", started))
    .take(SEAL_STEP);
  let { seq, hash } = await chainHead(ctx.db, orgId);
  for (const p of pending) {
    const { _id, _creationTime, ...fields } = p;
    void _creationTime;
    const entry: Chained = { ...fields, seq: seq + 1, prevHash: hash, hash: "" };
    entry.hash = await entryHash(entry);
    await ctx.db.insert("auditLog", entry);
    await ctx.db.delete("auditPending", _id);
    seq = entry.seq;
    hash = entry.hash;
  }
  if (pending.length === SEAL_STEP) await ctx.scheduler.runAfter(0, internal.audit.seal, { orgId });
  else if (pending.length > 0) await ctx.scheduler.runAfter(SEAL_MS, internal.audit.seal, { orgId });
  else if (
    (await ctx.db
      .query("auditPending")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .first()) !== null
  )
    await ctx.scheduler.runAfter(SEAL_MS, internal.audit.seal, { orgId });
  else {
    const mark = await ctx.db
      .query("auditSealMarks")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .unique();
    if (mark?.running) await ctx.db.patch("auditSealMarks", mark._id, { running: false });
  }
}

/** Entries verified per page. */
export const VERIFY_PAGE = 500;

export type VerifyPage =
  | {
      status: "bad";
      seq: number;
      entryId: Id<"auditLog"> | null;
      reason: "missing" | "prevHash" | "hash";
      checked: number;
    }
  | { status: "more" | "done"; seq: number; hash: string; checked: number };

/**
 * Checks the entries after `seq` (whose hash was `hash`): each follows the one before without a
 * gap, names that one's hash as prevHash, and hashes to its stored hash.
 */
export async function verifyPage(
  db: QueryCtx["db"],
  orgId: Id<"organizations">,
  from: { seq: number; hash: string },
): Promise<VerifyPage> {
  const rows = await db
    .query("auditLog")
    .withIndex("by_org_seq", (q) => q.eq("orgId", orgId).gt("seq", from.seq))
    .take(VERIFY_PAGE);
  let { seq, hash } = from;
  let checked = 0;
  for (const row of rows) {
    if (row.seq !== seq + 1) return { status: "bad", seq: seq + 1, entryId: null, reason: "missing", checked };
    if (row.prevHash !== hash) return { status: "bad", seq: row.seq, entryId: row._id, reason: "prevHash", checked };
    if ((await entryHash(row)) !== row.hash)
      return { status: "bad", seq: row.seq, entryId: row._id, reason: "hash", checked };
    seq = row.seq;
    hash = row.hash;
    checked += 1;
  }
  return { status: rows.length === VERIFY_PAGE ? "more" : "done", seq, hash, checked: rows.length };
}

/** Retention's floor: four years (with a leap day), the time a sender must be able to prove consent (TCPA). */
export const MIN_RETENTION_DAYS = 4 * 365 + 1;
/** Entries retention deletes per run (then again at once while older ones remain). */
export const RETENTION_STEP = 500;
const DAY_MS = 86_400_000;

/** How many days the organisation keeps its entries (MIN_RETENTION_DAYS unless set longer). */
export async function retentionDays(db: QueryCtx["db"], orgId: Id<"organizations">): Promise<number> {
  const row = await db
    .query("auditSettings")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .unique();
  return Math.max(MIN_RETENTION_DAYS, row?.retentionDays ?? MIN_RETENTION_DAYS);
}

/** Entries before this time are past the organisation's retention. */
export async function retentionCutoff(db: QueryCtx["db"], orgId: Id<"organizations">, now: number) {
  return now - (await retentionDays(db, orgId)) * DAY_MS;
}

/** Whether the organisation's oldest entry is past its retention (two reads: the check the daily sweep makes per organisation). */
export async function hasExpired(db: QueryCtx["db"], orgId: Id<"organizations">, now: number): Promise<boolean> {
  const first = await db
    .query("auditLog")
    .withIndex("by_org_seq", (q) => q.eq("orgId", orgId))
    .first();
  return first !== null && first.at < (await retentionCutoff(db, orgId, now));
}

/**
 * Deletes up to RETENTION_STEP of the organisation's oldest entries past its retention, in chain
 * order and stopping at the first one still kept, so what stays is the chain's unbroken end; the
 * last deleted entry becomes the anchor verify starts from. Whether older entries remain.
 */
export async function expireEntries(ctx: MutationCtx, orgId: Id<"organizations">, now: number): Promise<boolean> {
  const cutoff = await retentionCutoff(ctx.db, orgId, now);
  const oldest = await ctx.db
    .query("auditLog")
    .withIndex("by_org_seq", (q) => q.eq("orgId", orgId))
    .take(RETENTION_STEP);
  let last: Doc<"auditLog"> | null = null;
  for (const entry of oldest) {
    if (entry.at >= cutoff) break;
    await ctx.db.delete("auditLog", entry._id);
    last = entry;
  }
  if (last === null) return false;
  const anchor = await ctx.db
    .query("auditAnchors")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .unique();
  if (anchor) await ctx.db.patch("auditAnchors", anchor._id, { seq: last.seq, hash: last.hash });
  else await ctx.db.insert("auditAnchors", { orgId, seq: last.seq, hash: last.hash });
  return oldest.length === RETENTION_STEP && last === oldest[oldest.length - 1];
}
