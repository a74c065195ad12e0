import { describe, expect, test } from "vitest";
import { api } from "../../convex/_generated/api";
import type { Id } from "../../convex/_generated/dataModel";
import { insertVoter } from "../../convex/model/voters";
import { projectValid, sampleSize } from "../../convex/lib/petitions/projection";
import { roleFixture, setupTest, type TestConvex } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;
const CAN_VIEW = new Set(["super_admin", "campaign_manager", "volunteer", "viewer"]);
const CAN_ENTER = new Set(["super_admin", "campaign_manager", "volunteer"]);
const CAN_MANAGE = new Set(["super_admin", "campaign_manager"]);
const PAGE = { numItems: 100, cursor: null };

const VOTERS = [
  { first_name: "William", last_name: "Smith", address: "42 Oak Road, Portland, OR 97205", state: "OR", status: "Active", registration_date: "2010-01-01" },
  { first_name: "Margaret", last_name: "O'Connor", address: "7 N Main St Apt 3, Portland, OR 97209", state: "OR", status: "Active", registration_date: "2011-01-01" },
  { first_name: "Dana", last_name: "Whitfield", address: "3 Pine Lane, Portland, OR 97212", state: "OR", status: "Inactive", registration_date: "2011-01-01" },
  { first_name: "Alex", last_name: "Brown", address: "10 Cedar St, Portland, OR 97203", state: "OR", status: "Active", registration_date: "2011-01-01" },
  { first_name: "Alexandra", last_name: "Brown", address: "10 Cedar St, Portland, OR 97203", state: "OR", status: "Active", registration_date: "2011-01-01" },
];

async function fixture(mode: "full" | "sample" = "full") {
  const t = setupTest();
  const f = await roleFixture(t);
  const voterIds = await t.run(async (ctx) => {
    const ids: Id<"voters">[] = [];
    for (const v of VOTERS) ids.push(await insertVoter(ctx, f.orgId, v));
    return ids;
  });
  const cm = f.campaign_manager.as;
  const petitionId = await cm.mutation(api.petitions.create, { name: "Measure 12", signaturesNeeded: 100, deadline: "2026-07-01", state: "OR", county: null, mode });
  const pageId = await cm.mutation(api.petitions.addPage, { petitionId, fileId: null, fileName: "Sheet 1" });
  return { t, f, cm, petitionId, pageId, voterIds };
}

async function settle(t: TestConvex) {
  await t.finishAllScheduledFunctions(() => {});
}

const LINES = [
  { name: "Bill Smith", address: "42 Oak Rd, Portland, OR 97205", signedOn: "2026-05-01" },
  { name: "PEGGY OCONNOR", address: "7 North Main Street #3, Portland, OR 97209", signedOn: "2026-05-01" },
  { name: "Dana Whitfield", address: "3 Pine Ln, Portland, OR 97212", signedOn: "2026-05-01" },
  { name: "A. Brown", address: "10 Cedar St, Portland, OR 97203", signedOn: "2026-05-01" },
  { name: "Zed Nobody", address: "1 Nowhere Rd, Portland, OR 97201", signedOn: "2026-05-01" },
  { name: "William Smith", address: "42 Oak Road, Portland, OR 97205", signedOn: "2026-05-02" },
];

describe("petitions: permissions", () => {
  test.each(ROLES)("%s", async (role) => {
    const { t, f, petitionId, pageId } = await fixture();
    const as = f[role].as;
    if (CAN_VIEW.has(role)) {
      expect((await as.query(api.petitions.list, {}))[0]).toMatchObject({ name: "Measure 12", signaturesNeeded: 100 });
      expect(await as.query(api.petitions.pages, { petitionId })).toHaveLength(1);
    } else {
      await expect(as.query(api.petitions.list, {})).rejects.toThrow(/permission/);
      await expect(as.query(api.petitions.pages, { petitionId })).rejects.toThrow(/permission/);
    }
    if (CAN_ENTER.has(role)) {
      expect(await as.mutation(api.petitions.addLines, { pageId, lines: LINES.slice(0, 1) })).toBe(1);
      await settle(t);
      const line = (await as.query(api.petitions.lines, { petitionId, status: null, paginationOpts: PAGE })).page[0];
      expect(line.status).toBe("verified");
    } else {
      await expect(as.mutation(api.petitions.addLines, { pageId, lines: LINES.slice(0, 1) })).rejects.toThrow(/permission/);
      await expect(as.mutation(api.petitions.claimNext, { petitionId })).rejects.toThrow(/permission/);
      await expect(as.mutation(api.petitions.generateUploadUrl, {})).rejects.toThrow(/permission/);
    }
    if (CAN_MANAGE.has(role)) await as.mutation(api.petitions.remove, { id: petitionId });
    else await expect(as.mutation(api.petitions.create, { name: "X", signaturesNeeded: 1, deadline: null, state: null, county: null, mode: "full" })).rejects.toThrow(/permission/);
  });
  test("another organisation sees none of it and cannot touch it; signed out is refused", async () => {
    const { t, f, petitionId, pageId } = await fixture();
    expect(await f.outsider.as.query(api.petitions.list, {})).toEqual([]);
    await expect(f.outsider.as.mutation(api.petitions.addLines, { pageId, lines: LINES.slice(0, 1) })).rejects.toThrow(/could not be found/);
    await expect(f.outsider.as.mutation(api.petitions.remove, { id: petitionId })).rejects.toThrow(/could not be found/);
    await expect(f.outsider.as.mutation(api.petitions.addPage, { petitionId, fileId: null, fileName: "x" })).rejects.toThrow(/could not be found/);
    await expect(t.query(api.petitions.list, {})).rejects.toThrow(/log in/);
  });
});

describe("verification", () => {
  test("each line is decided once with its reason, duplicates found, counts and projection live", async () => {
    const { t, cm, petitionId, pageId, voterIds } = await fixture();
    await cm.mutation(api.petitions.addLines, { pageId, lines: LINES });
    await settle(t);
    const rows = (await cm.query(api.petitions.lines, { petitionId, status: null, paginationOpts: PAGE })).page;
    expect(rows.map((r) => [r.signerNumber, r.status, r.reason])).toEqual([
      [1, "verified", null],
      [2, "verified", null],
      [3, "failed", "inactive"],
      [4, "review", null],
      [5, "failed", "not_found"],
      [6, "duplicate", null],
    ]);
    expect(rows[0]).toMatchObject({ voterId: voterIds[0], voterName: "William Smith", evidence: { name: expect.stringMatching(/nickname/) } });
    expect(rows[5].duplicateOf).toBe(rows[0].id);
    expect(rows[3].candidates).toHaveLength(2);
    const p = (await cm.query(api.petitions.list, {}))[0];
    expect(p.counts).toMatchObject({ lines: 6, pending: 0, verified: 2, failed: 2, review: 1, duplicate: 1 });
    expect(p.projection).toMatchObject({ rate: 2 / 5, projected: Math.round(0.4 * 6) });
    expect((await cm.query(api.petitions.pages, { petitionId }))[0]).toMatchObject({ status: "completed", lineCount: 6 });
  });

  test("the review queue: one reviewer per line, adjudication with notes, released claims", async () => {
    const { t, f, cm, petitionId, pageId, voterIds } = await fixture();
    await cm.mutation(api.petitions.addLines, { pageId, lines: LINES });
    await settle(t);
    const vol = f.volunteer.as;
    const first = await cm.mutation(api.petitions.claimNext, { petitionId });
    const second = await vol.mutation(api.petitions.claimNext, { petitionId });
    expect(first).not.toBeNull();
    expect(second).not.toBe(first);
    await expect(vol.mutation(api.petitions.claim, { id: first! })).rejects.toThrow(/is reviewing this line/);
    await expect(vol.mutation(api.petitions.adjudicate, { id: first!, action: "accept", notes: "", voterId: voterIds[3] })).rejects.toThrow(/is reviewing this line/);
    // the review line (A. Brown): accepted as Alex Brown
    const review = (await cm.query(api.petitions.line, { id: first! }))!;
    expect(review.line.status).toBe("review");
    expect(review.voters.map((x) => x.name).sort()).toEqual(["Alex Brown", "Alexandra Brown"]);
    await cm.mutation(api.petitions.adjudicate, { id: first!, action: "accept", notes: "Initial matches Alex; spoke to him", voterId: voterIds[3] });
    const after = (await cm.query(api.petitions.line, { id: first! }))!.line;
    expect(after).toMatchObject({ status: "adjudicated", adjudication: { action: "accept", valid: true, notes: "Initial matches Alex; spoke to him" }, claimedBy: null });
    // releasing lets a teammate take it
    await vol.mutation(api.petitions.release, { id: second! });
    await cm.mutation(api.petitions.claim, { id: second! });
    await cm.mutation(api.petitions.adjudicate, { id: second!, action: "reject", notes: "Not registered", voterId: null });
    const p = (await cm.query(api.petitions.list, {}))[0];
    expect(p.counts).toMatchObject({ adjudicatedValid: 1, adjudicatedInvalid: 1, review: 0 });
    await expect(f.viewer.as.mutation(api.petitions.adjudicate, { id: first!, action: "reject", notes: "", voterId: null })).rejects.toThrow(/permission/);
  });

  test("a voter's second signature is a duplicate across petitions, and refused at adjudication", async () => {
    const { t, cm, petitionId, pageId, voterIds } = await fixture();
    await cm.mutation(api.petitions.addLines, { pageId, lines: LINES.slice(0, 1) });
    const other = await cm.mutation(api.petitions.create, { name: "Measure 12 (second sheet set)", signaturesNeeded: 100, deadline: null, state: "OR", county: null, mode: "full" });
    const otherPage = await cm.mutation(api.petitions.addPage, { petitionId: other, fileId: null, fileName: "Sheet A" });
    await cm.mutation(api.petitions.addLines, { pageId: otherPage, lines: [{ name: "W. Smith", address: "42 Oak Rd, Portland, OR 97205", signedOn: "2026-05-03" }] });
    await cm.mutation(api.petitions.addLines, { pageId: otherPage, lines: [{ name: "Bill Smyth", address: "42 Oak Rd, Portland, OR 97205", signedOn: "2026-05-03" }] });
    await settle(t);
    const first = (await cm.query(api.petitions.lines, { petitionId, status: null, paginationOpts: PAGE })).page[0];
    const [dup, review] = (await cm.query(api.petitions.lines, { petitionId: other, status: null, paginationOpts: PAGE })).page;
    expect(dup).toMatchObject({ status: "duplicate", duplicateOf: first.id, voterId: voterIds[0] });
    const detail = (await cm.query(api.petitions.line, { id: dup.id }))!;
    expect(detail.duplicate).toMatchObject({ pageNumber: 1, signerNumber: 1 });
    expect(detail.petitionName).toBe("Measure 12");
    // a reviewer cannot count the same voter twice either
    await cm.mutation(api.petitions.claim, { id: review.id });
    await expect(cm.mutation(api.petitions.adjudicate, { id: review.id, action: "accept", notes: "", voterId: voterIds[0] })).rejects.toThrow(/already signed \(page 1, line 1\)/);
  });

  test("sampling mode checks a random 3 % or 500 lines and projects the whole", async () => {
    expect(sampleSize(100)).toBe(100);
    expect(sampleSize(10_000)).toBe(500);
    expect(sampleSize(40_000)).toBe(1_200);
    const { t, cm, pageId } = await fixture("sample");
    const many = Array.from({ length: 600 }, (_, i) => LINES[i % 2 === 0 ? 0 : 4]);
    for (let i = 0; i < many.length; i += 200) await cm.mutation(api.petitions.addLines, { pageId, lines: many.slice(i, i + 200) });
    await settle(t);
    const p = (await cm.query(api.petitions.list, {}))[0];
    expect(p.sampleTarget).toBe(500);
    expect(p.counts.sampled).toBe(500);
    expect(p.counts.pending).toBe(100);
    const decided = p.counts.verified + p.counts.failed + p.counts.duplicate;
    expect(decided).toBe(500);
    expect(p.projection!.projected).toBe(Math.round((p.counts.verified / 500) * 600));
  });

  test("projection interval", () => {
    const r = projectValid(80, 100, 10_000)!;
    expect(r.projected).toBe(8_000);
    expect(r.low).toBeLessThan(8_000);
    expect(r.high).toBeGreaterThan(8_000);
    expect(r.low).toBeGreaterThan(7_000);
    expect(projectValid(0, 0, 10)).toBeNull();
  });

  test("page files: images and PDFs only, under 15 MB", async () => {
    const { t, cm, petitionId } = await fixture();
    const bad = await t.run(async (ctx) => ctx.storage.store(new Blob(["<html>"], { type: "text/html" })));
    await expect(cm.mutation(api.petitions.addPage, { petitionId, fileId: bad, fileName: "x.html" })).rejects.toThrow(/images \(PNG, JPEG, GIF, WebP\) or PDF/);
    // convex-test keeps no content type for stored files; the embedded backend does, as Convex does
    if (!("setEnv" in t)) return;
    const png = await t.run(async (ctx) => ctx.storage.store(new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" })));
    await cm.mutation(api.petitions.addPage, { petitionId, fileId: png, fileName: "sheet2.png" });
    const pages = await cm.query(api.petitions.pages, { petitionId });
    expect(pages.map((p) => [p.pageNumber, p.contentType, p.url !== null])).toEqual([
      [1, "", false],
      [2, "image/png", true],
    ]);
  });

  test("bad lines get clear errors and nothing is stored", async () => {
    const { cm, petitionId, pageId } = await fixture();
    await expect(cm.mutation(api.petitions.addLines, { pageId, lines: [LINES[0], { name: " ", address: "x", signedOn: null }] })).rejects.toThrow(/Line 2: the signer's name is required/);
    await expect(cm.mutation(api.petitions.addLines, { pageId, lines: [{ name: "A B", address: "x", signedOn: "May 1" }] })).rejects.toThrow(/must be a date/);
    expect((await cm.query(api.petitions.lines, { petitionId, status: null, paginationOpts: PAGE })).page).toEqual([]);
    await expect(cm.mutation(api.petitions.create, { name: " ", signaturesNeeded: 5, deadline: null, state: null, county: null, mode: "full" })).rejects.toThrow(/Petition name required/);
  });
});

test("an organisation's voters get name keys when its first petition is created (none before), and are matched", async () => {
  const t = setupTest();
  const f = await roleFixture(t);
  await t.run(async (ctx) => {
    await ctx.db.insert("voters", { orgId: f.orgId, first_name: "William", last_name: "Smith", address: "42 Oak Road, Portland, OR 97205", status: "Active", searchText: "william smith", firstNameLower: "william", lastNameLower: "smith", updatedAt: Date.now() });
  });
  const cm = f.campaign_manager.as;
  // an organisation that verifies no petition keeps no name keys (imports write nothing extra)
  await cm.mutation(api.voters.create, { fields: { first_name: "Mary", last_name: "Jones", zip: "97205" } });
  expect(await t.run(async (ctx) => ctx.db.query("voterNameKeys").collect())).toEqual([]);
  const petitionId = await cm.mutation(api.petitions.create, { name: "Old file", signaturesNeeded: 10, deadline: null, state: null, county: null, mode: "full" });
  await t.finishAllScheduledFunctions(() => {});
  const keys = await t.run(async (ctx) => ctx.db.query("voterNameKeys").collect());
  expect(keys.map((k) => k.lastNameKey).sort()).toEqual(["JNS", "SM0"].sort());
  // from now on every voter write keeps its keys: a new voter, a renamed one, a deleted one
  const newId = await cm.mutation(api.voters.create, { fields: { first_name: "Ann", last_name: "Lee" } });
  const keyOf = async (id: string) => await t.run(async (ctx) => ctx.db.query("voterNameKeys").collect().then((all) => all.find((k) => k.voterId === id)));
  expect(await keyOf(newId)).toMatchObject({ lastNameKey: expect.any(String) });
  const before = (await keyOf(newId))!.lastNameKey;
  await cm.mutation(api.voters.update, { id: newId, edits: [{ field: "last_name", base: "Lee", value: "Washington" }] });
  expect((await keyOf(newId))!.lastNameKey).not.toBe(before);
  await cm.mutation(api.voters.remove, { id: newId });
  expect(await keyOf(newId)).toBeFalsy();
  const pageId = await cm.mutation(api.petitions.addPage, { petitionId, fileId: null, fileName: "" });
  await cm.mutation(api.petitions.addLines, { pageId, lines: [{ name: "Bill Smith", address: "42 Oak Rd, Portland, OR 97205", signedOn: null }] });
  await t.finishAllScheduledFunctions(() => {});
  expect((await cm.query(api.petitions.lines, { petitionId, status: null, paginationOpts: PAGE })).page[0].status).toBe("verified");
});
