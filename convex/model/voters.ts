/** Building and writing voter documents: derived search/dedupe fields and counters stay in step. */
import type { GenericDatabaseReader, OrderedQuery, WithoutSystemFields } from "convex/server";
import type { DataModel, Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import { voterNameKeys } from "../lib/petitions/names";
import { normalizePhone } from "../lib/sms";
import { VOTER_FIELD_DEFS, VOTER_FIELD_SPECS, type VoterFields, type VoterFilter } from "../tables/voters";
import type { MergeRules } from "./collab";
import { adjustCounter } from "./counters";

/** Lowercased text the search index matches: names, email and phone. */
export function voterSearchText(f: Pick<VoterFields, "first_name" | "last_name" | "email" | "phone">): string {
  return [f.first_name, f.last_name, f.email, f.email?.split("@")[0], f.phone?.replace(/\D/g, "")]
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
    ...voterNameKeys(f.first_name, f.last_name),
  };
}

/**
 * The stored voter: editable fields, derived ones and ownership. Built with Object.assign: V8 makes
 * `{ ...fields, more }` of a ~40-field object 20 times slower (a map transition per added field),
 * which showed in imports of a million rows.
 */
function voterDocument(fields: VoterFields, orgId: Id<"organizations">, importId: Id<"importHistory"> | undefined) {
  const doc: WithoutSystemFields<Doc<"voters">> = Object.assign({}, fields, derivedVoterFields(fields), { orgId, updatedAt: Date.now() });
  if (importId !== undefined) doc.importId = importId;
  return doc;
}

export async function insertVoter(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  fields: VoterFields,
  opts: { importId?: Id<"importHistory">; countLater?: boolean } = {},
): Promise<Id<"voters">> {
  const id = await ctx.db.insert("voters", voterDocument(fields, orgId, opts.importId));
  if (!opts.countLater) await adjustCounter(ctx, orgId, "voters", 1);
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

export async function updateVoter(ctx: MutationCtx, voter: Doc<"voters">, fields: VoterFields) {
  await ctx.db.replace(voter._id, voterDocument(fields, voter.orgId, voter.importId));
}

/** Deletes a voter with its group memberships (keeping group member counts right). */
export async function deleteVoter(ctx: MutationCtx, voter: Doc<"voters">, opts: { countLater?: boolean } = {}) {
  const memberships = await ctx.db
    .query("voterGroupMembers")
    .withIndex("by_voter", (q) => q.eq("voterId", voter._id))
    .collect();
  for (const m of memberships) {
    await ctx.db.delete(m._id);
    const group = await ctx.db.get(m.groupId);
    if (group) await ctx.db.patch(group._id, { memberCount: Math.max(0, group.memberCount - 1) });
  }
  await ctx.db.delete(voter._id);
  if (!opts.countLater) await adjustCounter(ctx, voter.orgId, "voters", -1);
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(email: string): boolean {
  return EMAIL_RE.test(email.trim());
}

/** Trims every text value and drops empty ones (an empty input is "no value", not ""). */
export function cleanVoterFields(fields: VoterFields): VoterFields {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(fields)) {
    if (val === undefined || val === null) continue;
    if (typeof val === "string") {
      const t = val.trim();
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
 * required custom fields ("Missing required fields" / "Please fill in: …"), email format when
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
  if (missing.length > 0) return { title: "Missing required fields", message: `Please fill in: ${missing.join(", ")}` };
  if (fields.email && fields.email.trim() !== "" && !isValidEmail(fields.email)) {
    return { title: "Invalid email", message: "The email address format is invalid. Please use a valid email." };
  }
  const h = fields.state_voter_history;
  if (h !== undefined && (!Number.isInteger(h) || h < 0 || h > 4)) {
    return { title: "Invalid state voter history", message: "State voter history must be a whole number from 0 to 4." };
  }
  return null;
}

/** Largest batch of bulk work (adding matching voters to a group) and rows per export call. */
export const MAX_PAGE = 1000;
/** Largest list page: reading the whole file in bulk is the export's job (voters.export). */
export const MAX_LIST_PAGE = 200;

/**
 * The one query behind the list, the export and "add all matching to a group": full-text search
 * (search index, filter fields party/status) or an index range, newest first. Never a scan.
 */
export function filteredVoters(
  db: GenericDatabaseReader<DataModel>,
  orgId: Id<"organizations">,
  f: VoterFilter,
): OrderedQuery<DataModel["voters"]> {
  const search = f.search?.trim().toLowerCase();
  const party = f.party || undefined;
  const status = f.status || undefined;
  if (search) {
    return db.query("voters").withSearchIndex("search_text", (q) => {
      let s = q.search("searchText", search).eq("orgId", orgId);
      if (party) s = s.eq("party_affiliation", party);
      if (status) s = s.eq("status", status);
      return s;
    });
  }
  if (party && status) {
    return db
      .query("voters")
      .withIndex("by_org_party_status", (q) => q.eq("orgId", orgId).eq("party_affiliation", party).eq("status", status))
      .order("desc");
  }
  if (party) return db.query("voters").withIndex("by_org_party", (q) => q.eq("orgId", orgId).eq("party_affiliation", party)).order("desc");
  if (status) return db.query("voters").withIndex("by_org_status", (q) => q.eq("orgId", orgId).eq("status", status)).order("desc");
  return db.query("voters").withIndex("by_org", (q) => q.eq("orgId", orgId)).order("desc");
}

/** Refuses fields that break the voter rules or the organisation's required custom fields. */
export async function assertValidVoter(db: GenericDatabaseReader<DataModel>, orgId: Id<"organizations">, fields: VoterFields) {
  const defs = await db
    .query("customFieldDefs")
    .withIndex("by_org_key", (q) => q.eq("orgId", orgId))
    .collect();
  const problem = voterValidationProblem(fields, defs);
  if (problem) throw appError("VALIDATION_ERROR", problem.message, problem.title);
}

/** The voter, or NOT_FOUND (the organisation's database hides other organisations' voters). */
export async function loadVoter(db: GenericDatabaseReader<DataModel>, id: Id<"voters">): Promise<Doc<"voters">> {
  const voter = await db.get(id);
  if (!voter) throw appError("NOT_FOUND");
  return voter;
}
