/**
 * The voter list's total (voters.count: tally, status-code index pages, capped search) and its
 * status-code filter (voters.statusCodes, list with statusCode), on both backends.
 */
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { COUNT_PAGE, SEARCH_RESULT_LIMIT } from "@convex/model/voterSearch";
import type { VoterFields } from "@convex/tables/voters";
import { roleFixture, setupTest, type TestConvex } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;
const CAN_VIEW = new Set(["super_admin", "campaign_manager", "volunteer", "viewer"]);

type Filter = { search?: string; party?: string; status?: string; statusCode?: string };
type Caller = { query: TestConvex["query"] };

/** Follows the count's pages to the end as the browser does: the total, whether capped, and the calls made. */
async function countAll(as: Caller, filter: Filter = {}) {
  let cursor: string | null = null;
  let count = 0;
  let capped = false;
  let calls = 0;
  for (;;) {
    const r: { page: { count: number; capped: boolean }[]; isDone: boolean; continueCursor: string } = await as.query(
      api.voters.count,
      { ...filter, paginationOpts: { numItems: 1, cursor } },
    );
    calls += 1;
    expect(r.page).toHaveLength(1);
    count += r.page[0].count;
    capped ||= r.page[0].capped;
    if (r.isDone) break;
    cursor = r.continueCursor;
    if (calls > 100) throw new Error("count does not end");
  }
  return { count, capped, calls };
}

async function seed(t: TestConvex, orgId: Id<"organizations">, voters: VoterFields[]) {
  for (let i = 0; i < voters.length; i += 500)
    await t.mutation(internal.seed.insertVoters, { orgId, voters: voters.slice(i, i + 500) });
}

const names = (page: { first_name: string; last_name: string }[]) => page.map((v) => `${v.first_name} ${v.last_name}`);

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  await seed(t, f.orgId, [
    { first_name: "Ann", last_name: "Dem", party_affiliation: "Democrat", status: "Active", status_code: "A" },
    { first_name: "Bob", last_name: "Dem", party_affiliation: "Democrat", status: "Active", status_code: "A" },
    { first_name: "Cid", last_name: "Dem", party_affiliation: "Democrat", status: "Inactive", status_code: "R" },
    {
      first_name: "Dee",
      last_name: "Rep",
      party_affiliation: "Republican",
      status: "Active",
      status_code: "CONFIRMATION",
    },
    { first_name: "Eve", last_name: "Rep", party_affiliation: "Republican", status: "Inactive", status_code: "R" },
    { first_name: "Fay", last_name: "None" },
  ]);
  await seed(t, f.outsider.orgId, [
    { first_name: "Mal", last_name: "Other", party_affiliation: "Democrat", status: "Active", status_code: "A" },
  ]);
  return { t, f };
}

describe("voters.count (voters.view)", () => {
  test("party and status come from the tally in one call; exact for every combination", async () => {
    const { f } = await fixture();
    const as = f.viewer.as;
    expect(await countAll(as)).toEqual({ count: 6, capped: false, calls: 1 });
    expect((await countAll(as, { party: "Democrat" })).count).toBe(3);
    expect((await countAll(as, { status: "Active" })).count).toBe(3);
    expect((await countAll(as, { party: "Democrat", status: "Inactive" })).count).toBe(1);
    expect((await countAll(as, { party: "Libertarian" })).count).toBe(0);
    // empty strings are "any", as the list's URL parameters send them
    expect((await countAll(as, { party: "", status: "", search: "  " })).count).toBe(6);
    // the count follows changes: a teammate's new voter, a party change, a delete
    const id = await f.campaign_manager.as.mutation(api.voters.create, {
      fields: { first_name: "Gus", last_name: "New", party_affiliation: "Democrat", status: "Active" },
    });
    expect((await countAll(as, { party: "Democrat", status: "Active" })).count).toBe(3);
    await f.volunteer.as.mutation(api.voters.update, {
      id,
      edits: [{ field: "party_affiliation", base: "Democrat", value: "Republican" }],
    });
    expect((await countAll(as, { party: "Democrat" })).count).toBe(3);
    expect((await countAll(as, { party: "Republican" })).count).toBe(3);
    await f.campaign_manager.as.mutation(api.voters.remove, { id });
    expect((await countAll(as)).count).toBe(6);
  });

  test("status code and search counts match what the list shows", async () => {
    const { f } = await fixture();
    const as = f.volunteer.as;
    expect((await countAll(as, { statusCode: "R" })).count).toBe(2);
    expect((await countAll(as, { statusCode: "R", party: "Democrat" })).count).toBe(1);
    expect((await countAll(as, { statusCode: "R", status: "Active" })).count).toBe(0);
    expect((await countAll(as, { statusCode: "NOPE" })).count).toBe(0);
    expect(await countAll(as, { search: "dem" })).toEqual({ count: 3, capped: false, calls: 1 });
    expect((await countAll(as, { search: "dem", party: "Democrat", status: "Active" })).count).toBe(2);
    expect((await countAll(as, { search: "dem", statusCode: "R" })).count).toBe(1);
    // every term must match: "ann" and "rep" are never the same voter
    expect((await countAll(as, { search: "ann rep" })).count).toBe(0);
    const page = { paginationOpts: { numItems: 50, cursor: null } };
    expect(names((await as.query(api.voters.list, { ...page, statusCode: "R" })).page)).toEqual(["Eve Rep", "Cid Dem"]);
    expect(names((await as.query(api.voters.list, { ...page, statusCode: "R", party: "Republican" })).page)).toEqual([
      "Eve Rep",
    ]);
    expect(names((await as.query(api.voters.list, { ...page, search: "dem", statusCode: "A" })).page).sort()).toEqual([
      "Ann Dem",
      "Bob Dem",
    ]);
  });

  test("a status code is counted in index pages of COUNT_PAGE voters", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const n = COUNT_PAGE + 150;
    await seed(
      t,
      f.orgId,
      Array.from({ length: n }, (_, i) => ({
        first_name: `V${i}`,
        last_name: "Bulk",
        status_code: i % 50 === 0 ? "I" : "A",
        party_affiliation: i % 2 ? "Democrat" : "Republican",
      })),
    );
    const a = await countAll(f.viewer.as, { statusCode: "A" });
    expect(a.count).toBe(n - Math.ceil(n / 50));
    expect(a.count).toBeGreaterThan(COUNT_PAGE);
    expect(a.capped).toBe(false);
    expect(a.calls).toBeGreaterThanOrEqual(2);
    const all = Array.from({ length: n }, (_, i) => i);
    expect((await countAll(f.viewer.as, { statusCode: "A", party: "Democrat" })).count).toBe(
      all.filter((i) => i % 50 !== 0 && i % 2 === 1).length,
    );
    expect((await countAll(f.viewer.as, { statusCode: "I" })).count).toBe(Math.ceil(n / 50));
    expect(await f.viewer.as.query(api.voters.statusCodes, {})).toEqual(["A", "I"]);
  }, 240_000);

  test("a search past Convex's 1,024 results says so (capped) instead of a wrong total", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const n = SEARCH_RESULT_LIMIT + 76;
    await seed(
      t,
      f.orgId,
      Array.from({ length: n }, (_, i) => ({ first_name: `Person${i}`, last_name: "Smith" })),
    );
    await seed(t, f.orgId, [{ first_name: "Jo", last_name: "Jones" }]);
    const r = await countAll(f.viewer.as, { search: "smith" });
    expect(r.capped).toBe(true);
    // the embedded backend stops at 1,024 results as Convex does; convex-test has no such limit
    const embedded = "setEnv" in t;
    expect(r.count).toBe(embedded ? SEARCH_RESULT_LIMIT : n);
    expect(await countAll(f.viewer.as, { search: "jones" })).toEqual({ count: 1, capped: false, calls: 1 });
    // without a search the total is exact
    expect((await countAll(f.viewer.as)).count).toBe(n + 1);
  }, 240_000);

  test.each(ROLES)("%s", async (role) => {
    const { f } = await fixture();
    const call = () => countAll(f[role].as);
    const codes = () => f[role].as.query(api.voters.statusCodes, {});
    if (CAN_VIEW.has(role)) {
      expect((await call()).count).toBe(6);
      expect(await codes()).toEqual(["A", "CONFIRMATION", "R"]);
    } else {
      await expect(call()).rejects.toThrow(/permission/);
      await expect(codes()).rejects.toThrow(/permission/);
    }
  });

  test("other organisation, signed out, bad input", async () => {
    const { t, f } = await fixture();
    expect((await countAll(f.outsider.as)).count).toBe(1);
    expect((await countAll(f.outsider.as, { statusCode: "R" })).count).toBe(0);
    expect((await countAll(f.outsider.as, { search: "dem" })).count).toBe(0);
    expect(await f.outsider.as.query(api.voters.statusCodes, {})).toEqual(["A"]);
    await expect(t.query(api.voters.count, { paginationOpts: { numItems: 1, cursor: null } })).rejects.toThrow(
      /log in/,
    );
    await expect(t.query(api.voters.statusCodes, {})).rejects.toThrow(/log in/);
    await expect(
      f.viewer.as.query(api.voters.count, { paginationOpts: { numItems: 1, cursor: null }, party: 3 } as never),
    ).rejects.toThrow();
  });
});
