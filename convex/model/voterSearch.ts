/**
 * The voter list's query: filter and search over the organisation's voters (list, export, bulk add
 * to a group: every match, past Convex's search limit too) and the count of what it matches.
 */
import { filter } from "convex-helpers/server/filter";
import { stream } from "convex-helpers/server/stream";
import type { GenericDatabaseReader, OrderedQuery, PaginationOptions, PaginationResult } from "convex/server";
import type { DataModel, Doc, Id } from "../_generated/dataModel";
import { parseDistrictFilter, type DistrictKind } from "../lib/districts";
import { appError } from "../lib/errors";
import schema from "../schema";
import type { VoterFilter } from "../tables/voters";
import { tallyCount } from "./voters";

/** Largest batch of bulk work (adding matching voters to a group) and rows per export call. */
export const MAX_PAGE = 1000;
/** Largest list page: reading the whole file in bulk is the export's job (voters.export). */
export const MAX_LIST_PAGE = 200;
/** Voters one count call reads at most; the browser calls again with the cursor until the end. */
export const COUNT_PAGE = 4000;
/**
 * Convex returns at most 1,024 documents for one full-text search, across all its pages (the
 * embedded backend enforces the same: local-backend/src/query.ts MAX_SEARCH_RESULTS). A search
 * reaching it may match more voters than it can list or count.
 */
export const SEARCH_RESULT_LIMIT = 1024;

type VoterQuery = OrderedQuery<DataModel["voters"]>;
type Voter = Doc<"voters">;

const WORD_CHAR = /[\p{L}\p{N}]/u;
const PHONE_CHARS = /^[\d\s().+-]+$/;

/**
 * The search's terms: lower-cased, whitespace-separated, quotes and commas around a word dropped.
 * A phone number typed with its punctuation ("(919) 555-0142", "+1 919 555 0142", "555-0142")
 * becomes one term of its digits (without the country code 1), as the search text stores it.
 */
export function searchTerms(search: string | undefined): string[] {
  const s = (search ?? "").trim().toLowerCase();
  if (!s) return [];
  if (PHONE_CHARS.test(s) && /[\s().+-]/.test(s)) {
    const digits = s.replace(/\D/g, "");
    if (digits.length === 7 || digits.length === 10) return [digits];
    if (digits.length === 11 && digits.startsWith("1")) return [digits.slice(1)];
  }
  return s
    .split(/\s+/)
    .map((t) => t.replace(/^[("'`,;:]+|[)"'`,;:]+$/g, ""))
    .filter((t) => t.length > 0);
}

/** Whether `term` occurs in `text` starting a word (and, when `whole`, ending one). */
function occursAsWord(text: string, term: string, whole: boolean): boolean {
  const checkStart = WORD_CHAR.test(term[0]);
  const checkEnd = whole && WORD_CHAR.test(term[term.length - 1]);
  for (let i = text.indexOf(term); i >= 0; i = text.indexOf(term, i + 1)) {
    if (checkStart && i > 0 && WORD_CHAR.test(text[i - 1])) continue;
    const after = text[i + term.length];
    if (checkEnd && after !== undefined && WORD_CHAR.test(after)) continue;
    return true;
  }
  return false;
}

/**
 * Whether a voter's stored search text holds every term: each as a word, the last as the start of
 * one (the user may still be typing it). The search index only proposes candidates: it splits on
 * punctuation and matches any term, so `example.com` would also find `x@example.net`.
 */
export function matchesSearch(searchText: string, terms: string[]): boolean {
  return terms.every((t, i) => occursAsWord(searchText, t, i < terms.length - 1));
}

type Plan = {
  /** the index range or search the rows come from */
  query: VoterQuery;
  /** what every row must also satisfy (null: every row of the query matches) */
  predicate: ((voter: Voter) => boolean) | null;
  /** a full-text search (relevance order, SEARCH_RESULT_LIMIT rows at most) */
  search: boolean;
};

type Check = ((voter: Voter) => boolean) | null;
const both = (a: Check, b: Check): Check => (a && b ? (v) => a(v) && b(v) : (a ?? b));

/**
 * The narrowest index (or the search index) for a filter, and what is checked on each row it
 * gives. `via: "index"` never uses the search index: a search term is then checked on each row of
 * the index range (the same rule, matchesSearch), so nothing caps the matches.
 */
function plan(
  db: GenericDatabaseReader<DataModel>,
  orgId: Id<"organizations">,
  f: VoterFilter,
  via: "search" | "index" = "search",
): Plan {
  const terms = searchTerms(f.search);
  const party = f.party || undefined;
  const status = f.status || undefined;
  const statusCode = f.statusCode?.trim() || undefined;
  const text: Check = terms.length > 0 ? (v) => matchesSearch(v.searchText, terms) : null;
  const district = f.district ? parseDistrictFilter(f.district) : null;
  if (f.district) {
    // a district's voters: its index range of memberships, newest first, each voter checked (never the search index)
    const predicate: Check =
      party || status || statusCode
        ? (v: Voter) =>
            (!party || v.party_affiliation === party) &&
            (!status || v.status === status) &&
            (!statusCode || v.status_code === statusCode)
        : null;
    return { query: districtVoters(db, orgId, district), predicate: both(predicate, text), search: false };
  }
  if (terms.length > 0 && via === "search") {
    const query = db.query("voters").withSearchIndex("search_text", (q) => {
      let s = q.search("searchText", terms.join(" ")).eq("orgId", orgId);
      if (party) s = s.eq("party_affiliation", party);
      if (status) s = s.eq("status", status);
      return s;
    });
    const predicate = (v: Voter) =>
      matchesSearch(v.searchText, terms) && (statusCode === undefined || v.status_code === statusCode);
    return { query, predicate, search: true };
  }
  if (statusCode) {
    const query = db
      .query("voters")
      .withIndex("by_org_statuscode", (q) => q.eq("orgId", orgId).eq("status_code", statusCode))
      .order("desc");
    const predicate =
      party || status
        ? (v: Voter) => (!party || v.party_affiliation === party) && (!status || v.status === status)
        : null;
    return { query, predicate: both(predicate, text), search: false };
  }
  if (party && status) {
    const query = db
      .query("voters")
      .withIndex("by_org_party_status", (q) => q.eq("orgId", orgId).eq("party_affiliation", party).eq("status", status))
      .order("desc");
    return { query, predicate: text, search: false };
  }
  if (party)
    return {
      query: db
        .query("voters")
        .withIndex("by_org_party", (q) => q.eq("orgId", orgId).eq("party_affiliation", party))
        .order("desc"),
      predicate: text,
      search: false,
    };
  if (status)
    return {
      query: db
        .query("voters")
        .withIndex("by_org_status", (q) => q.eq("orgId", orgId).eq("status", status))
        .order("desc"),
      predicate: text,
      search: false,
    };
  return {
    query: db
      .query("voters")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .order("desc"),
    predicate: text,
    search: false,
  };
}

/** The voters of a district (an unknown one: none), as a query of voters (a stream over its memberships' index). */
function districtVoters(
  db: GenericDatabaseReader<DataModel>,
  orgId: Id<"organizations">,
  district: { kind: DistrictKind; key: string } | null,
): VoterQuery {
  const kind = district?.kind ?? "precinct";
  // an unknown filter reads an empty range (no key is "")
  const key = district?.key ?? "";
  const memberships = stream(db, schema)
    .query("voterDistricts")
    .withIndex(`by_org_${kind}`, (q) => q.eq("orgId", orgId).eq(kind, key))
    .order("desc");
  return memberships.map(async (row) => await db.get("voters", row.voterId));
}

/** A plan's rows with its checks applied on each page (helpers' `filter`: a page may hold fewer rows than asked for). */
function checked(p: Plan): VoterQuery {
  const predicate = p.predicate;
  return predicate ? filter(p.query, async (v) => predicate(v)) : p.query;
}

/**
 * The voter list's query (and the quick search's): full-text search (filter fields party/status)
 * or an index range, newest first, with the checks the index cannot make applied to each row
 * (helpers' `filter`, so pages and cursors still work; a page may then hold fewer rows than asked
 * for). Never a scan of the organisation; a search stops at SEARCH_RESULT_LIMIT results, so work
 * that must reach every match (the export, add all matching) pages with `pageAllMatching`.
 */
export function filteredVoters(
  db: GenericDatabaseReader<DataModel>,
  orgId: Id<"organizations">,
  f: VoterFilter,
): VoterQuery {
  return checked(plan(db, orgId, f));
}

/**
 * One page of every voter matching a filter, for work that must reach them all (add all matching
 * to a group, the export). Convex returns at most SEARCH_RESULT_LIMIT results for one search,
 * across all its pages; so a search is paged through the search index only when it is complete
 * (fewer candidates than the limit), and otherwise by walking the organisation's voters in index
 * order, each checked by the same rule (matchesSearch), which no limit cuts short. The cursor says
 * which ("search:…", "index:…"). The first call of a search decides: it reads the search's
 * candidates once and answers the whole match when it fits in the page, else an empty page with
 * the cursor to go on. Without a search this is `filteredVoters`' own paging.
 */
export async function pageAllMatching(
  db: GenericDatabaseReader<DataModel>,
  orgId: Id<"organizations">,
  f: VoterFilter,
  opts: { cursor: string | null; numItems: number },
): Promise<PaginationResult<Voter>> {
  if (searchTerms(f.search).length === 0 || f.district) return await filteredVoters(db, orgId, f).paginate(opts);
  if (opts.cursor === null) {
    const p = plan(db, orgId, f);
    const candidates = await p.query.take(SEARCH_RESULT_LIMIT);
    if (candidates.length >= SEARCH_RESULT_LIMIT) return { page: [], isDone: false, continueCursor: "index:" };
    if (candidates.length <= opts.numItems)
      return { page: candidates.filter((v) => p.predicate?.(v) ?? true), isDone: true, continueCursor: "search:" };
    return { page: [], isDone: false, continueCursor: "search:" };
  }
  const colon = opts.cursor.indexOf(":");
  const via = opts.cursor.slice(0, colon);
  if (colon < 0 || (via !== "search" && via !== "index"))
    throw appError("VALIDATION_ERROR", "This list changed its paging; please start again.");
  const inner = opts.cursor.slice(colon + 1);
  const page = await checked(plan(db, orgId, f, via)).paginate({
    cursor: inner === "" ? null : inner,
    numItems: opts.numItems,
  });
  return { page: page.page, isDone: page.isDone, continueCursor: `${via}:${page.continueCursor}` };
}

/** One page of a count: how many voters of the page match, and whether Convex's search limit cut it short. */
export type CountPage = { count: number; capped: boolean };

/**
 * Counts the voters matching a filter, one bounded page per call (the browser calls again with
 * `continueCursor` until `isDone`, adding the pages up). Party and status alone come from the
 * tally kept by every voter write, in one call; a status code reads its index range, COUNT_PAGE
 * voters a call; a search reads its results (at most SEARCH_RESULT_LIMIT) and says when it hit
 * that limit (`capped`: the true total may be higher).
 */
export async function countMatching(
  db: GenericDatabaseReader<DataModel>,
  orgId: Id<"organizations">,
  f: VoterFilter,
  opts: PaginationOptions,
): Promise<PaginationResult<CountPage>> {
  const p = plan(db, orgId, f);
  const district = f.district ? parseDistrictFilter(f.district) : null;
  if (f.district && searchTerms(f.search).length === 0 && !f.statusCode?.trim()) {
    // a district's party / status counts come from its tally
    const row = district
      ? await db
          .query("districts")
          .withIndex("by_org_kind_key", (q) => q.eq("orgId", orgId).eq("kind", district.kind).eq("key", district.key))
          .unique()
      : null;
    const count = (row?.cells ?? [])
      .filter((c) => (!f.party || c.party === f.party) && (!f.status || c.status === f.status))
      .reduce((n, c) => n + c.count, 0);
    return { page: [{ count: opts.cursor === null ? count : 0, capped: false }], isDone: true, continueCursor: "" };
  }
  if (!p.search && !f.statusCode?.trim() && !f.district) {
    const count = opts.cursor === null ? await tallyCount(db, orgId, f.party || undefined, f.status || undefined) : 0;
    return { page: [{ count, capped: false }], isDone: true, continueCursor: "" };
  }
  const numItems = p.search ? SEARCH_RESULT_LIMIT : COUNT_PAGE;
  const result = await p.query.paginate({ ...opts, numItems });
  const predicate = p.predicate;
  const count = predicate ? result.page.reduce((n, v) => n + (predicate(v) ? 1 : 0), 0) : result.page.length;
  const capped = p.search && opts.cursor === null && result.page.length >= SEARCH_RESULT_LIMIT;
  return { ...result, page: [{ count, capped }] };
}

/** Distinct state status codes a loose index scan visits at most (one index seek each). */
export const MAX_STATUS_CODES = 50;

/** The state status codes present among the organisation's voters, in order (a seek per code). */
export async function statusCodesPresent(
  db: GenericDatabaseReader<DataModel>,
  orgId: Id<"organizations">,
): Promise<string[]> {
  const codes: string[] = [];
  let after: string | null = null;
  while (codes.length < MAX_STATUS_CODES) {
    const prev: string | null = after;
    const next: Voter | null = await db
      .query("voters")
      .withIndex("by_org_statuscode", (q) =>
        prev === null ? q.eq("orgId", orgId).gte("status_code", "") : q.eq("orgId", orgId).gt("status_code", prev),
      )
      .first();
    if (!next || next.status_code === undefined) break;
    codes.push(next.status_code);
    after = next.status_code;
  }
  return codes;
}
