import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { adjustCounter } from "@convex/model/counters";
import { roleFixture, setupTest, type TestConvex } from "./setup";

async function addVoter(t: TestConvex, orgId: Id<"organizations">, first: string) {
  await t.run(async (ctx) => {
    await ctx.db.insert("voters", {
      orgId,
      first_name: first,
      last_name: "Tester",
      searchText: `${first} tester`.toLowerCase(),
      firstNameLower: first.toLowerCase(),
      lastNameLower: "tester",
      updatedAt: Date.now(),
    });
    await adjustCounter(ctx, orgId, "voters", 1);
  });
}

describe("dashboard.stats", () => {
  test("live counts and recent voters of the caller's organisation only", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await addVoter(t, f.orgId, "Ada");
    await addVoter(t, f.orgId, "Grace");
    await addVoter(t, f.outsider.orgId, "Mallory");
    await t.run(async (ctx) => {
      await adjustCounter(ctx, f.orgId, "voterGroups", 3);
      await adjustCounter(ctx, f.orgId, "formSubmissions", 7);
    });
    const s = await f.campaign_manager.as.query(api.dashboard.stats, {});
    expect(s.counts.voters).toBe(2);
    expect(s.counts.groups).toBe(3);
    expect(s.counts.submissions).toBe(7);
    expect(s.counts.campaigns).toBe(0);
    // creator + five roles in the fixture's organisation
    expect(s.counts.members).toBe(6);
    expect(s.recentVoters?.map((v) => v.firstName)).toEqual(["Grace", "Ada"]);
    expect(s.recentImports).toEqual([]);

    const other = await f.outsider.as.query(api.dashboard.stats, {});
    expect(other.counts.voters).toBe(1);
    expect(other.counts.members).toBe(1);
    expect(other.recentVoters?.map((v) => v.firstName)).toEqual(["Mallory"]);
  });

  test("every member sees counts; lists only with the permission to read them", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await addVoter(t, f.orgId, "Ada");
    const admin = await f.account_admin.as.query(api.dashboard.stats, {});
    expect(admin.counts.voters).toBe(1);
    expect(admin.recentVoters).toBeNull();
    expect(admin.recentImports).toBeNull();
    const volunteer = await f.volunteer.as.query(api.dashboard.stats, {});
    expect(volunteer.recentVoters).toHaveLength(1);
    expect(volunteer.recentImports).toBeNull();
    for (const role of ["super_admin", "viewer"] as const) {
      const s = await f[role].as.query(api.dashboard.stats, {});
      expect(s.counts.voters).toBe(1);
    }
  });

  test("an import without a batch for over two minutes is interrupted, as Import History shows it", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const now = Date.now();
    const add = (filename: string, status: "in_progress" | "completed", updatedAt: number, orgId = f.orgId) =>
      t.run((ctx) =>
        ctx.db.insert("importHistory", {
          orgId,
          filename,
          total_records: 10,
          imported_records: 4,
          failed_records: 0,
          duplicate_records: 0,
          processed_records: 4,
          import_date: updatedAt - 1000,
          import_duration_ms: 0,
          status,
          field_mapping: [],
          new_fields_created: [],
          createdBy: f.creator.userId,
          updatedAt,
        }),
      );
    await add("stalled.csv", "in_progress", now - 3 * 60_000);
    await add("running.csv", "in_progress", now - 5_000);
    await add("done.csv", "completed", now - 10 * 60_000);
    await add("other.csv", "in_progress", now - 3 * 60_000, f.outsider.orgId);
    const s = await f.campaign_manager.as.query(api.dashboard.stats, {});
    const byFile = Object.fromEntries((s.recentImports ?? []).map((i) => [i.filename, i.status]));
    expect(byFile).toEqual({ "stalled.csv": "interrupted", "running.csv": "in_progress", "done.csv": "completed" });
    expect(s.recentImports?.find((i) => i.filename === "running.csv")?.updatedAt).toBe(now - 5_000);
    // roles without voters.manage get no import list at all
    expect((await f.volunteer.as.query(api.dashboard.stats, {})).recentImports).toBeNull();
  });

  test("signed-out callers and users without an organisation are refused", async () => {
    const t = setupTest();
    await expect(t.query(api.dashboard.stats, {})).rejects.toThrow(/log in/);
    const userId = await t.run((ctx) => ctx.db.insert("users", { email: "lonely@example.org" }));
    const sessionId = await t.run((ctx) =>
      ctx.db.insert("authSessions", { userId, expirationTime: Date.now() + 60_000 }),
    );
    const lonely = t.withIdentity({ subject: `${userId}|${sessionId}`, issuer: "https://convex.test" });
    await expect(lonely.query(api.dashboard.stats, {})).rejects.toThrow(/not a member/);
  });
});

describe("smsCampaigns.list", () => {
  test("lists the organisation's SMS campaigns only, newest first", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await t.run(async (ctx) => {
      const base = { description: null, status: "draft", updatedAt: Date.now() };
      await ctx.db.insert("campaigns", { ...base, orgId: f.orgId, name: "First blast", campaign_type: "sms" });
      await ctx.db.insert("campaigns", { ...base, orgId: f.orgId, name: "Newsletter", campaign_type: "email" });
      await ctx.db.insert("campaigns", { ...base, orgId: f.orgId, name: "Second blast", campaign_type: "sms" });
      await ctx.db.insert("campaigns", { ...base, orgId: f.outsider.orgId, name: "Other org", campaign_type: "sms" });
    });
    const list = await f.campaign_manager.as.query(api.smsCampaigns.list, {});
    expect(list.total).toBe(2);
    expect(list.campaigns.map((c) => c.name)).toEqual(["Second blast", "First blast"]);
    const viewer = await f.viewer.as.query(api.smsCampaigns.list, {});
    expect(viewer.total).toBe(2);
    const outsider = await f.outsider.as.query(api.smsCampaigns.list, {});
    expect(outsider.campaigns.map((c) => c.name)).toEqual(["Other org"]);
  });

  test("roles without campaigns.view and signed-out callers are refused", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await expect(f.volunteer.as.query(api.smsCampaigns.list, {})).rejects.toThrow(/permission/);
    await expect(f.account_admin.as.query(api.smsCampaigns.list, {})).rejects.toThrow(/permission/);
    await expect(t.query(api.smsCampaigns.list, {})).rejects.toThrow(/log in/);
  });
});
