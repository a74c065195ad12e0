/** Building and writing voter documents: derived search/dedupe fields and counters stay in step. */
import type { GenericDatabaseReader, WithoutSystemFields } from "convex/server";
import type { DataModel, Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import { voterKeys } from "../lib/petitions/names";
import { formatPhone } from "../lib/phone";
import { normalizePhone } from "../lib/sms/rules";
import { VOTER_FIELD_DEFS, VOTER_FIELD_SPECS, type VoterFields } from "../tables/voters";
import type { MergeRules } from "./collab";
import { adjustCounter } from "./counters";
import { markVoterDoor, syncVoterDoor } from "./doors";
import { assignWhenCreated, flushDistrictDeltas, onVoterDeleted, onVoterSaved } from "./districts";
import { DistrictDeltas } from "../lib/districts";
import { AudienceDrops, removeVoterFromAudiences } from "./emailAudience";
import { onVoterEvent } from "./emailAutomation";
import { TEXTS } from "../lib/texts";

/**
 * Lowercased text the search index matches: names, email (whole and its local part), the phone's
 * digits (also without a leading country code 1, and its last seven), city, precinct and voter ID.
 */
export function voterSearchText(
  f: Pick<VoterFields, "first_name" | "last_name" | "email" | "phone" | "city" | "precinct" | "voter_id">,
): string {
  const digits = f.phone?.replace(/\D/g, "");
  const national = digits && digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : undefined;
  // the local number alone ("555-0142"): the index matches a word's beginning, never its middle
  const local = digits && digits.length >= 10 ? digits.slice(-7) : undefined;
  return [
    f.first_name,
    f.last_name,
    f.email,
    f.email?.split("@")[0],
    digits,
    national,
    local,
    f.city,
    f.precinct,
    f.voter_id,
  ]
    .filter((x): x is string => !!x && x.length > 0)
    .join(" ")
    .toLowerCase();
}

/** Derived fields stored beside the editable ones. */
export function derivedVoterFields(f: VoterFields) {
  const email = f.email?.trim();
  return {
    searchText: voterSearchText(f),
    emailLower: email ? email.toLowerCase() : undefined,
    phoneKey: f.phone ? (normalizePhone(f.phone) ?? undefined) : undefined,
    firstNameLower: f.first_name.trim().toLowerCase(),
    lastNameLower: f.last_name.trim().toLowerCase(),
  };
}

/**
 * The stored voter: editable fields, derived ones and ownership. Built with Object.assign: V8 makes
 * `{ ...fields, more }` of a ~40-field object 20 times slower (a map transition per added field),
 * which showed in imports of a million rows.
 */
function voterDocument(fields: VoterFields, orgId: Id<"organizations">, importId: Id<"importHistory"> | undefined) {
  const doc: WithoutSystemFields<Doc<"voters">> = Object.assign({}, fields, derivedVoterFields(fields), {
    orgId,
    updatedAt: Date.now(),
  });
  if (importId !== undefined) doc.importId = importId;
  return doc;
}

/**
 * Counts a bulk write does once at its end rather than per voter: the organisation's voter
 * counter, the (party, status) tally and the districts' tallies. Single writes use a fresh one
 * and flush it at once.
 */
export class VoterCounts {
  total = 0;
  private tally = new Map<string, number>();
  readonly districts = new DistrictDeltas();
  add(voter: Pick<VoterFields, "party_affiliation" | "status">, delta: number) {
    this.total += delta;
    const key = `${voter.party_affiliation ?? ""}\u0000${voter.status ?? ""}`;
    this.tally.set(key, (this.tally.get(key) ?? 0) + delta);
  }
  async flush(ctx: MutationCtx, orgId: Id<"organizations">) {
    await adjustCounter(ctx, orgId, "voters", this.total);
    for (const [key, delta] of this.tally) {
      if (delta === 0) continue;
      const [party, status] = key.split("\u0000");
      const row = await ctx.db
        .query("voterTally")
        .withIndex("by_org_party_status", (q) => q.eq("orgId", orgId).eq("party", party).eq("status", status))
        .unique();
      if (row) await ctx.db.patch("voterTally", row._id, { count: Math.max(0, row.count + delta) });
      else if (delta > 0) await ctx.db.insert("voterTally", { orgId, party, status, count: delta });
    }
    this.total = 0;
    this.tally.clear();
    if (this.districts.size) await flushDistrictDeltas(ctx, orgId, this.districts);
  }
}

/** Voters matching a party / status filter (either may be empty: any), from the tally. */
export async function tallyCount(
  db: GenericDatabaseReader<DataModel>,
  orgId: Id<"organizations">,
  party?: string,
  status?: string,
): Promise<number> {
  const rows = await db
    .query("voterTally")
    .withIndex("by_org_party_status", (q) =>
      party !== undefined ? q.eq("orgId", orgId).eq("party", party) : q.eq("orgId", orgId),
    )
    .collect();
  return rows.filter((r) => status === undefined || r.status === status).reduce((n, r) => n + r.count, 0);
}

/** Whether the organisation keeps phonetic name keys (it verifies petitions). */
export async function keepsNameKeys(
  db: GenericDatabaseReader<DataModel>,
  orgId: Id<"organizations">,
): Promise<boolean> {
  return (
    (await db
      .query("voterNameKeyState")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .first()) !== null
  );
}

/** The voter fields its name keys come from (a change to any rewrites them). */
export type NameKeyFields = Pick<VoterFields, "first_name" | "last_name" | "zip" | "address" | "street">;

/** The name keys row of a voter: phonetic name keys, the ZIP's five digits, the household (lib/petitions/names.ts). */
export function nameKeysOf(
  orgId: Id<"organizations">,
  voterId: Id<"voters">,
  f: NameKeyFields,
): WithoutSystemFields<Doc<"voterNameKeys">> {
  return Object.assign({ orgId, voterId }, voterKeys(f));
}

export function nameKeyFieldsChanged(a: NameKeyFields, b: NameKeyFields): boolean {
  return (
    a.first_name !== b.first_name ||
    a.last_name !== b.last_name ||
    a.zip !== b.zip ||
    a.address !== b.address ||
    a.street !== b.street
  );
}

/** Writes (or rewrites) a voter's name keys row; `fresh`: the voter was just inserted (no row yet). */
export async function writeNameKeys(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  voterId: Id<"voters">,
  f: NameKeyFields,
  fresh = false,
) {
  const keys = nameKeysOf(orgId, voterId, f);
  const row = fresh
    ? null
    : await ctx.db
        .query("voterNameKeys")
        .withIndex("by_voter", (q) => q.eq("voterId", voterId))
        .first();
  if (!row) await ctx.db.insert("voterNameKeys", keys);
  else if (
    row.lastNameKey !== keys.lastNameKey ||
    row.firstNameKey !== keys.firstNameKey ||
    row.zip !== keys.zip ||
    row.house !== keys.house ||
    row.street !== keys.street
  ) {
    await ctx.db.replace("voterNameKeys", row._id, keys);
  }
}

/** History entries deleted with a voter (older ones beyond stay unreachable, and are never shown). */
const MAX_CHANGES_DELETED = 200;

type WriteOpts = { counts?: VoterCounts; nameKeys?: boolean };

/**
 * Inserts a voter. A bulk writer passes its VoterCounts (flushed once at the end) and whether the
 * organisation keeps name keys (read once); a single write looks both up itself.
 */
export async function insertVoter(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  fields: VoterFields,
  opts: WriteOpts & { importId?: Id<"importHistory"> } = {},
): Promise<Id<"voters">> {
  const doc = voterDocument(fields, orgId, opts.importId);
  const id = await ctx.db.insert("voters", doc);
  const counts = opts.counts ?? new VoterCounts();
  counts.add(fields, 1);
  if (!opts.counts) await counts.flush(ctx, orgId);
  if (opts.nameKeys ?? (await keepsNameKeys(ctx.db, orgId))) await writeNameKeys(ctx, orgId, id, fields, true);
  // email automations: "voter created" events and filters the new voter matches
  await onVoterEvent(ctx, { ...doc, _id: id }, { type: "voter_created" });
  // districts: a single new voter is assigned at once; a bulk writer's import assigns them all at its end
  if (!opts.counts) await assignWhenCreated(ctx, orgId, id, fields);
  return id;
}

/** The voter's editable fields (the form's), without derived and ownership fields. */
export function editableVoterFields(voter: Doc<"voters">): VoterFields {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(VOTER_FIELD_SPECS)) {
    const value = (voter as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out as VoterFields;
}

/**
 * What a voter save may change and how messages name it: every built-in field, and one key of
 * custom_fields per organisation custom field or already stored on the voter (imports keep
 * columns without a definition).
 */
export function voterMergeRules(voter: Doc<"voters">, customDefs: { key: string; label: string }[]): MergeRules {
  const custom = new Map<string, string>(customDefs.map((d) => [d.key, d.label]));
  for (const k of Object.keys(voter.custom_fields ?? {})) if (!custom.has(k)) custom.set(k, k);
  const builtIn = new Map<string, string>(VOTER_FIELD_DEFS.map((d) => [d.key, d.label]));
  return {
    title: `${voter.first_name} ${voter.last_name}`.trim() || "This voter",
    editable: (f) => builtIn.has(f) || (f.startsWith("custom_fields.") && custom.has(f.slice("custom_fields.".length))),
    label: (f) => (builtIn.get(f) ?? custom.get(f.slice("custom_fields.".length)) ?? f).toLowerCase(),
  };
}

export async function updateVoter(ctx: MutationCtx, voter: Doc<"voters">, fields: VoterFields, opts: WriteOpts = {}) {
  const doc = voterDocument(fields, voter.orgId, voter.importId);
  await ctx.db.replace("voters", voter._id, doc);
  const counts = opts.counts ?? new VoterCounts();
  if (voter.party_affiliation !== fields.party_affiliation || voter.status !== fields.status) {
    counts.add(voter, -1);
    counts.add(fields, 1);
  }
  // its districts' tallies follow at once; changed codes assign it again (a bulk writer's import: at its end)
  await onVoterSaved(ctx, voter, fields, counts.districts, !opts.counts);
  if (!opts.counts) await counts.flush(ctx, voter.orgId);
  const nameChanged = nameKeyFieldsChanged(voter, fields);
  if (nameChanged && (opts.nameKeys ?? (await keepsNameKeys(ctx.db, voter.orgId))))
    await writeNameKeys(ctx, voter.orgId, voter._id, fields);
  // the turf filters read packed doors: its door is packed again when what they ask changed
  if (
    voter.party_affiliation !== doc.party_affiliation ||
    voter.status !== doc.status ||
    voter.phoneKey !== doc.phoneKey ||
    voter.emailLower !== doc.emailLower ||
    JSON.stringify(voter.vote_history ?? []) !== JSON.stringify(doc.vote_history ?? [])
  )
    await markVoterDoor(ctx, voter.orgId, voter._id);
  // filter automations: a voter who comes to match is sent to (once)
  await onVoterEvent(ctx, { ...doc, _id: voter._id }, { type: "voter_updated" });
}

/** The changed fields between two versions of a voter, as the history shows them. */
export function voterChanges(
  before: VoterFields,
  after: VoterFields,
): { field: string; from: string | null; to: string | null }[] {
  const text = (x: unknown): string | null =>
    x === undefined || x === null ? null : typeof x === "string" ? x : JSON.stringify(x);
  const out: { field: string; from: string | null; to: string | null }[] = [];
  for (const key of Object.keys(VOTER_FIELD_SPECS) as (keyof VoterFields)[]) {
    if (key === "custom_fields") continue;
    const a = text(before[key]);
    const b = text(after[key]);
    if (a !== b) out.push({ field: key, from: a, to: b });
  }
  const ca = before.custom_fields ?? {};
  const cb = after.custom_fields ?? {};
  for (const k of new Set([...Object.keys(ca), ...Object.keys(cb)])) {
    if ((ca[k] ?? null) !== (cb[k] ?? null))
      out.push({ field: `custom_fields.${k}`, from: ca[k] ?? null, to: cb[k] ?? null });
  }
  return out;
}

/**
 * Deletes a voter with its group memberships, list contacts and segment memberships (keeping their
 * counts right) and its change history. A bulk deletion passes its VoterCounts and AudienceDrops
 * (flushed once at the end).
 */
export async function deleteVoter(
  ctx: MutationCtx,
  voter: Doc<"voters">,
  opts: WriteOpts & { drops?: AudienceDrops } = {},
) {
  const memberships = await ctx.db
    .query("voterGroupMembers")
    .withIndex("by_voter", (q) => q.eq("voterId", voter._id))
    .collect();
  for (const m of memberships) {
    await ctx.db.delete("voterGroupMembers", m._id);
    const group = await ctx.db.get("voterGroups", m.groupId);
    if (group) await ctx.db.patch("voterGroups", group._id, { memberCount: Math.max(0, group.memberCount - 1) });
  }
  const drops = opts.drops ?? new AudienceDrops();
  await removeVoterFromAudiences(ctx, voter._id, drops);
  if (!opts.drops) await drops.flush(ctx);
  await ctx.db.delete("voters", voter._id);
  const place = await ctx.db
    .query("voterPlaces")
    .withIndex("by_voter", (q) => q.eq("voterId", voter._id))
    .unique();
  if (place) {
    await ctx.db.delete("voterPlaces", place._id);
    await syncVoterDoor(ctx, voter.orgId, voter._id, place, null);
  }
  // its change history goes with it (a voter rarely has more than a few dozen entries)
  for (const c of await ctx.db
    .query("voterChanges")
    .withIndex("by_voter", (q) => q.eq("voterId", voter._id))
    .take(MAX_CHANGES_DELETED))
    await ctx.db.delete("voterChanges", c._id);
  if (opts.nameKeys ?? (await keepsNameKeys(ctx.db, voter.orgId))) {
    const keys = await ctx.db
      .query("voterNameKeys")
      .withIndex("by_voter", (q) => q.eq("voterId", voter._id))
      .first();
    if (keys) await ctx.db.delete("voterNameKeys", keys._id);
  }
  const counts = opts.counts ?? new VoterCounts();
  counts.add(voter, -1);
  await onVoterDeleted(ctx, voter, counts.districts);
  if (!opts.counts) await counts.flush(ctx, voter.orgId);
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(email: string): boolean {
  return EMAIL_RE.test(email.trim());
}

/** Trims every text value and drops empty ones (an empty input is "no value", not ""); the phone is stored as an import stores it (lib/phone.ts). */
export function cleanVoterFields(fields: VoterFields): VoterFields {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(fields)) {
    if (val === undefined || val === null) continue;
    if (typeof val === "string") {
      const t = k === "phone" ? formatPhone(val) : val.trim();
      if (t !== "" || k === "first_name" || k === "last_name") out[k] = t;
    } else if (k === "custom_fields" && typeof val === "object") {
      const cf: Record<string, string> = {};
      for (const [ck, cv] of Object.entries(val)) {
        const t = String(cv).trim();
        if (t !== "") cf[ck] = t;
      }
      if (Object.keys(cf).length > 0) out.custom_fields = cf;
    } else out[k] = val;
  }
  return out as VoterFields;
}

export type VoterValidationDef = { key: string; label: string; required: boolean };

/**
 * The voter form's rules, enforced on the server too (spec/1 §5): required first/last name and
 * required custom fields (TEXTS.titles.missingRequired / "Please fill in: …"), email format when
 * present, state voter history an integer 0–4. Returns the problem or null.
 */
export function voterValidationProblem(
  fields: VoterFields,
  customDefs: VoterValidationDef[],
): { title: string; message: string } | null {
  const missing: string[] = [];
  if (!fields.first_name?.trim()) missing.push("First Name");
  if (!fields.last_name?.trim()) missing.push("Last Name");
  for (const d of customDefs) {
    if (d.required && !fields.custom_fields?.[d.key]?.trim()) missing.push(d.label);
  }
  if (missing.length > 0)
    return { title: TEXTS.titles.missingRequired, message: `Please fill in: ${missing.join(", ")}` };
  if (fields.email && fields.email.trim() !== "" && !isValidEmail(fields.email)) {
    return { title: "Invalid email", message: "The email address format is invalid. Please use a valid email." };
  }
  const h = fields.state_voter_history;
  if (h !== undefined && (!Number.isInteger(h) || h < 0 || h > 4)) {
    return { title: "Invalid state voter history", message: "State voter history must be a whole number from 0 to 4." };
  }
  return null;
}

/** Refuses fields that break the voter rules or the organisation's required custom fields. */
export async function assertValidVoter(
  db: GenericDatabaseReader<DataModel>,
  orgId: Id<"organizations">,
  fields: VoterFields,
) {
  const defs = await db
    .query("customFieldDefs")
    .withIndex("by_org_key", (q) => q.eq("orgId", orgId))
    .collect();
  const problem = voterValidationProblem(fields, defs);
  if (problem) throw appError("VALIDATION_ERROR", problem.message, problem.title);
}

/** The voter, or NOT_FOUND (the organisation's database hides other organisations' voters). */
export async function loadVoter(db: GenericDatabaseReader<DataModel>, id: Id<"voters">): Promise<Doc<"voters">> {
  const voter = await db.get("voters", id);
  if (!voter) throw appError("NOT_FOUND");
  return voter;
}

/** A voter as the audit log names them. */
export function voterTarget(id: Id<"voters">, fields: Pick<VoterFields, "first_name" | "last_name" | "email">) {
  const name = `${fields.first_name} ${fields.last_name}`.trim();
  return { table: "voters", id, label: name || fields.email || id };
}

/** No fields: the other side of a voter's creation or deletion in its audit entry's changes. */
export const NO_FIELDS = {} as VoterFields;
