/**
 * The audit log (issue 39): entries written by audited mutations, sealed into one hash chain per
 * organisation, verified, readable only with audit.view, changeable by no public function.
 */
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import type { Doc, Id } from "@convex/_generated/dataModel";
import * as auditFunctions from "@convex/audit";
import { canonicalJson, capChanges, entryHash, MAX_AUDIT_CHANGES, MAX_AUDIT_VALUE } from "@convex/model/audit";
import { sha256Hex } from "@convex/model/strings";
import { roleFixture, setupTest, type TestConvex } from "./setup";

const page = { paginationOpts: { numItems: 100, cursor: null } };
const ADA = { first_name: "Ada", last_name: "Lovelace", email: "ada@example.org", status: "Active" };

/** Seals what is pending now (as the scheduled sealer would) and returns the organisation's log in chain order. */
async function sealed(t: TestConvex, orgId: Id<"organizations">): Promise<Doc<"auditLog">[]> {
  for (let i = 0; i < 20; i++) {
    const left = await t.run(async (ctx) =>
      (await ctx.db.query("auditPending").collect()).filter((p) => p.orgId === orgId),
    );
    if (left.length === 0) break;
    // the sealer takes entries created before it started: let the clock move on
    await new Promise((r) => setTimeout(r, 5));
    await t.mutation(internal.audit.seal, { orgId });
  }
  return await t.run(async (ctx) =>
    ctx.db
      .query("auditLog")
      .withIndex("by_org_seq", (q) => q.eq("orgId", orgId))
      .collect(),
  );
}

describe("audit log", () => {
  test("Web Crypto's SHA-256 runs in this backend's mutations (the sealer) and queries (verify)", async () => {
    const t = setupTest();
    // the SHA-256 of "abc" (FIPS 180-2, appendix B.1)
    expect(await t.run(async () => await sha256Hex("abc"))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    const f = await roleFixture(t);
    expect(await t.query(internal.audit.verifyStep, { orgId: f.orgId, from: null })).toEqual({
      status: "done",
      seq: 0,
      hash: "0".repeat(64),
      checked: 0,
    });
    await f.campaign_manager.as.mutation(api.voters.create, { fields: ADA });
    // the sealer (a mutation of the app's modules) hashes; verifyStep (a query) hashes again
    const [entry] = await sealed(t, f.orgId);
    expect(entry.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(entry.hash).toBe(await entryHash(entry));
    expect(await t.query(internal.audit.verifyStep, { orgId: f.orgId, from: null })).toEqual({
      status: "done",
      seq: 1,
      hash: entry.hash,
      checked: 1,
    });
  });

  test("voter create, update and delete each write exactly one entry, with the fields before and after", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager;
    const voterId = await cm.as.mutation(api.voters.create, { fields: ADA });
    await cm.as.mutation(api.voters.update, {
      id: voterId,
      edits: [{ field: "email", base: "ada@example.org", value: "ada@analytical.org" }],
    });
    // an update that changes nothing is no action
    await cm.as.mutation(api.voters.update, { id: voterId, edits: [] });
    await cm.as.mutation(api.voters.remove, { id: voterId });
    const log = await sealed(t, f.orgId);
    expect(log.map((e) => [e.seq, e.action])).toEqual([
      [1, "voter.create"],
      [2, "voter.update"],
      [3, "voter.delete"],
    ]);
    for (const e of log) {
      expect(e.target).toEqual({ table: "voters", id: voterId, label: "Ada Lovelace" });
      expect(e.actorId).toBe(cm.userId);
      expect(e.actorName).toMatch(/^First\d+ Last\d+$/);
      expect(e.impersonatedRole).toBeNull();
      expect(e.requestId).toMatch(/^[0-9a-f]{24}$/);
    }
    expect(new Set(log.map((e) => e.requestId)).size).toBe(3);
    expect(log[0].changes).toContainEqual({ field: "email", from: null, to: "ada@example.org" });
    expect(log[0].changes).toContainEqual({ field: "first_name", from: null, to: "Ada" });
    expect(log[1].changes).toEqual([{ field: "email", from: "ada@example.org", to: "ada@analytical.org" }]);
    expect(log[1].summary).toBe("Changed 1 field of voter Ada Lovelace.");
    expect(log[2].changes).toContainEqual({ field: "last_name", from: "Lovelace", to: null });
    // the voter's history, newest first
    const history = await f.account_admin.as.query(api.audit.forVoter, { voterId, ...page });
    expect(history.page.map((e) => e.action)).toEqual(["voter.delete", "voter.update", "voter.create"]);
  });

  test("an impersonating member's entry names the role tried on", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await t.run(async (ctx) => {
      const m = await ctx.db
        .query("memberships")
        .withIndex("by_org_user", (q) => q.eq("orgId", f.orgId).eq("userId", f.super_admin.userId))
        .unique();
      await ctx.db.patch("memberships", m!._id, { impersonatedRole: "campaign_manager" });
    });
    await f.super_admin.as.mutation(api.voters.create, { fields: ADA });
    const [entry] = await sealed(t, f.orgId);
    expect(entry.actorId).toBe(f.super_admin.userId);
    expect(entry.impersonatedRole).toBe("campaign_manager");
  });

  test("the chain verifies; an entry altered in the database fails verification at that entry", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    for (const first of ["A", "B", "C", "D"])
      await f.campaign_manager.as.mutation(api.voters.create, { fields: { ...ADA, first_name: first } });
    const log = await sealed(t, f.orgId);
    expect(log.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(log[0].prevHash).toBe("0".repeat(64));
    for (let i = 1; i < log.length; i++) expect(log[i].prevHash).toBe(log[i - 1].hash);
    const admin = f.account_admin.as;
    expect(await admin.action(api.audit.verify, {})).toEqual({ ok: true, entries: 4 });

    await t.run((ctx) => ctx.db.patch("auditLog", log[2]._id, { summary: "Nothing happened." }));
    expect(await admin.action(api.audit.verify, {})).toEqual({
      ok: false,
      seq: 3,
      entryId: log[2]._id,
      reason: "hash",
      checked: 2,
    });
    // re-hashing the altered entry moves the break to the next one
    const altered = (await t.run((ctx) => ctx.db.get("auditLog", log[2]._id)))!;
    const rehashed = await entryHash(altered);
    await t.run((ctx) => ctx.db.patch("auditLog", altered._id, { hash: rehashed }));
    expect(await admin.action(api.audit.verify, {})).toMatchObject({ ok: false, seq: 4, reason: "prevHash" });
    // a deleted entry is a gap
    await t.run((ctx) => ctx.db.delete("auditLog", log[1]._id));
    expect(await admin.action(api.audit.verify, {})).toMatchObject({
      ok: false,
      seq: 2,
      entryId: null,
      reason: "missing",
    });
  });

  test("20 concurrent audited mutations: the sealer chain makes one gap-free chain, live within seconds", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        f.campaign_manager.as.mutation(api.voters.create, { fields: { ...ADA, first_name: `V${i}` } }),
      ),
    );
    const running = async () =>
      (await t.run((ctx) => ctx.db.query("auditSealMarks").collect())).find((m) => m.orgId === f.orgId)?.running ??
      false;
    expect(await running()).toBe(true);
    // the sealer's runs are a bucket (250 ms) apart: wait for them in real time
    for (let i = 0; i < 60 && (await running()); i++) {
      await new Promise((r) => setTimeout(r, 100));
      await t.finishAllScheduledFunctions(() => {}, 100);
    }
    expect(await running()).toBe(false);
    const log = await t.run((ctx) =>
      ctx.db
        .query("auditLog")
        .withIndex("by_org_seq", (q) => q.eq("orgId", f.orgId))
        .collect(),
    );
    expect(log.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(log.map((e) => e.target.id))).toEqual(new Set(ids));
    expect(await t.run(async (ctx) => (await ctx.db.query("auditPending").collect()).length)).toBe(0);
    expect(await f.account_admin.as.action(api.audit.verify, {})).toEqual({ ok: true, entries: 20 });
  });

  test("list: newest first, filtered by actor, action, target and date", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const a = await f.campaign_manager.as.mutation(api.voters.create, { fields: ADA });
    const b = await f.super_admin.as.mutation(api.voters.create, { fields: { ...ADA, first_name: "Bea" } });
    await f.campaign_manager.as.mutation(api.voters.remove, { id: a });
    const log = await sealed(t, f.orgId);
    const list = async (args: Record<string, unknown>) =>
      (await f.account_admin.as.query(api.audit.list, { ...page, ...args })).page.map((e) => e.seq);
    expect(await list({})).toEqual([3, 2, 1]);
    expect(await list({ actorId: f.campaign_manager.userId })).toEqual([3, 1]);
    expect(await list({ action: "voter.create" })).toEqual([2, 1]);
    expect(await list({ actorId: f.campaign_manager.userId, action: "voter.create" })).toEqual([1]);
    expect(await list({ targetId: b })).toEqual([2]);
    expect(await list({ from: log[2].at + 1 })).toEqual([]);
    expect(await list({ to: log[0].at })).toEqual([]);
    expect(await list({ from: log[0].at, to: log[2].at + 1 })).toEqual([3, 2, 1]);
  });

  test("actors: everyone with an entry once, named by their latest entry, the system first; the null actor filters", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    expect(await f.account_admin.as.query(api.audit.actors, {})).toEqual([]);
    const a = await f.campaign_manager.as.mutation(api.voters.create, { fields: ADA });
    await f.super_admin.as.mutation(api.voters.create, { fields: { ...ADA, first_name: "Bea" } });
    await f.campaign_manager.as.mutation(api.voters.remove, { id: a });
    // a failed sign-in: an entry nobody signed in wrote
    const email = (await t.run((ctx) => ctx.db.get("users", f.volunteer.userId)))!.email!;
    await t.mutation(internal.authThrottle.failed, { email, address: "203.0.113.7", audit: "signin.failure" });
    // the campaign manager renamed since: the latest entry's name is the one listed
    const log = await sealed(t, f.orgId);
    await t.run(async (ctx) => {
      await ctx.db.patch("auditLog", log[0]._id, { actorName: "Old Name" });
    });
    const names = await t.run(async (ctx) =>
      Object.fromEntries(
        await Promise.all(
          (["campaign_manager", "super_admin"] as const).map(async (r) => {
            const u = await ctx.db.get("users", f[r].userId);
            return [r, `${u!.firstName} ${u!.lastName}`];
          }),
        ),
      ),
    );
    const actors = await f.account_admin.as.query(api.audit.actors, {});
    expect(actors[0]).toMatchObject({ id: null });
    expect(actors.slice(1)).toEqual(
      [
        { id: f.campaign_manager.userId, name: names.campaign_manager },
        { id: f.super_admin.userId, name: names.super_admin },
      ].sort((x, y) => x.name.localeCompare(y.name)),
    );
    // the system's entries, by the null actor
    const system = await f.account_admin.as.query(api.audit.list, { ...page, actorId: null });
    expect(system.page.map((e) => e.action)).toEqual(["signin.failure"]);
    // audit.view only; another organisation sees none of these actors
    for (const role of ["campaign_manager", "volunteer", "viewer"] as const)
      await expect(f[role].as.query(api.audit.actors, {})).rejects.toThrow(/permission/);
    expect(await f.outsider.as.query(api.audit.actors, {})).toEqual([]);
    await expect(t.query(api.audit.actors, {})).rejects.toThrow(/log in/);
  });

  test("only audit.view reads the log (account and super administrators); other organisations and signed-out callers see nothing", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const voterId = await f.campaign_manager.as.mutation(api.voters.create, { fields: ADA });
    await sealed(t, f.orgId);
    const calls = (as: typeof f.viewer.as) => [
      () => as.query(api.audit.list, page),
      () => as.query(api.audit.forVoter, { voterId, ...page }),
      () => as.action(api.audit.verify, {}),
    ];
    for (const role of ["campaign_manager", "volunteer", "viewer"] as const)
      for (const call of calls(f[role].as)) await expect(call()).rejects.toThrow(/permission/);
    for (const role of ["account_admin", "super_admin"] as const) {
      expect((await f[role].as.query(api.audit.list, page)).page).toHaveLength(1);
      expect(await f[role].as.action(api.audit.verify, {})).toEqual({ ok: true, entries: 1 });
    }
    expect((await f.outsider.as.query(api.audit.list, page)).page).toEqual([]);
    expect((await f.outsider.as.query(api.audit.forVoter, { voterId, ...page })).page).toEqual([]);
    expect(await f.outsider.as.action(api.audit.verify, {})).toEqual({ ok: true, entries: 0 });
    await expect(t.query(api.audit.list, page)).rejects.toThrow(/log in/);
    await expect(t.action(api.audit.verify, {})).rejects.toThrow(/log in/);
  });

  test("no public function can write the log: only the model's sealer and audit() touch its tables", () => {
    const sources = import.meta.glob<string>("../../convex/**/*.ts", { query: "?raw", import: "default", eager: true });
    const writers = Object.entries(sources)
      .filter(([file]) => !file.includes("/_generated/"))
      .filter(([, text]) => /\.(insert|patch|replace|delete)\(\s*"audit(Log|Pending|SealMarks|Anchors)"/.test(text))
      .map(([file]) => file.replace(/^.*\/convex\//, ""));
    expect(writers).toEqual(["model/audit.ts"]);
    // the sealer is internal; the audit module's public functions only read
    const exported = Object.entries(
      auditFunctions as unknown as Record<string, { isPublic?: boolean; isMutation?: boolean }>,
    );
    expect(
      exported
        .filter(([, fn]) => fn.isPublic)
        .map(([name]) => name)
        .sort(),
    ).toEqual(["actors", "exportCsv", "forVoter", "list", "setRetention", "settings", "verify"]);
    // its public mutations write entries only through audit() (the scan above) and settings
    expect(
      exported
        .filter(([, fn]) => fn.isPublic && fn.isMutation)
        .map(([name]) => name)
        .sort(),
    ).toEqual(["exportCsv", "setRetention"]);
  });

  test("changes are capped in count and length; the canonical form does not depend on key order", () => {
    const many = Array.from({ length: MAX_AUDIT_CHANGES + 5 }, (_, i) => ({ field: `f${i}`, from: null, to: "x" }));
    const capped = capChanges(many);
    expect(capped).toHaveLength(MAX_AUDIT_CHANGES + 1);
    expect(capped.at(-1)).toEqual({ field: "…", from: null, to: "5 more fields" });
    const [long] = capChanges([{ field: "notes", from: "y".repeat(5000), to: null }]);
    expect(long.from).toHaveLength(MAX_AUDIT_VALUE);
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { e: 3, f: 2 }] }, b: 1 }),
    );
  });
});
