/** A voter's change history (voters.changes): who or which import, fields, old → new values, newest first. */
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { createMember, roleFixture, setupTest, type TestConvex } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;
const CAN_VIEW = new Set(["super_admin", "campaign_manager", "volunteer", "viewer"]);

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  const voterId = await f.campaign_manager.as.mutation(api.voters.create, {
    fields: {
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.org",
      party_affiliation: "Democrat",
      status: "Active",
    },
  });
  return { t, f, voterId };
}

async function importRow(t: TestConvex, orgId: Id<"organizations">, createdBy: Id<"users">, filename: string) {
  return await t.run((ctx) =>
    ctx.db.insert("importHistory", {
      orgId,
      filename,
      total_records: 1,
      imported_records: 0,
      failed_records: 0,
      duplicate_records: 0,
      processed_records: 1,
      import_date: Date.now(),
      import_duration_ms: 10,
      status: "completed",
      field_mapping: [],
      new_fields_created: [],
      createdBy,
      updatedAt: Date.now(),
    }),
  );
}

describe("voters.changes (voters.view)", () => {
  test("each save is listed newest first with who saved it and each field's old and new value", async () => {
    const { t, f, voterId } = await fixture();
    const vol = await createMember(t, ["volunteer"], { orgId: f.orgId, firstName: "Vera", lastName: "Volunteer" });
    expect(await f.viewer.as.query(api.voters.changes, { voterId })).toEqual([]);
    await vol.as.mutation(api.voters.update, {
      id: voterId,
      edits: [
        { field: "first_name", base: "Ada", value: "Augusta" },
        { field: "phone", base: null, value: "919-555-0142" },
      ],
    });
    await f.campaign_manager.as.mutation(api.voters.update, {
      id: voterId,
      edits: [{ field: "party_affiliation", base: "Democrat", value: null }],
    });
    // a save that changes nothing records nothing
    await vol.as.mutation(api.voters.update, {
      id: voterId,
      edits: [{ field: "first_name", base: "Augusta", value: "Augusta" }],
    });
    const importId = await importRow(t, f.orgId, f.creator.userId, "nc_statewide.csv");
    await t.run((ctx) =>
      ctx.db.insert("voterChanges", {
        orgId: f.orgId,
        voterId,
        at: Date.now() + 1000,
        importId,
        changes: [{ field: "status_code", from: null, to: "A" }],
      }),
    );

    const list = await f.viewer.as.query(api.voters.changes, { voterId });
    expect(list.map((c) => c.by)).toEqual([
      { kind: "import", importId, filename: "nc_statewide.csv" },
      { kind: "user", name: expect.stringMatching(/^First\d+ Last\d+$/) },
      { kind: "user", name: "Vera Volunteer" },
    ]);
    expect(list[0].changes).toEqual([{ field: "status_code", from: null, to: "A" }]);
    expect(list[1].changes).toEqual([{ field: "party_affiliation", from: "Democrat", to: null }]);
    expect(list[2].changes).toEqual([
      { field: "first_name", from: "Ada", to: "Augusta" },
      { field: "phone", from: null, to: "(919) 555-0142" }, // stored as an import stores a phone
    ]);
    expect(list[0].at).toBeGreaterThan(list[1].at);
    expect(list[1].at).toBeGreaterThanOrEqual(list[2].at);
  });

  test("at most 50 entries, the newest; a member who left is named as nobody", async () => {
    const { t, f, voterId } = await fixture();
    const gone = await createMember(t, ["volunteer"], { orgId: f.orgId, firstName: "Gone", lastName: "Member" });
    await t.run(async (ctx) => {
      for (let i = 0; i < 55; i++) {
        await ctx.db.insert("voterChanges", {
          orgId: f.orgId,
          voterId,
          at: 1_000 + i,
          userId: gone.userId,
          changes: [{ field: "notes", from: String(i), to: String(i + 1) }],
        });
      }
      const m = await ctx.db
        .query("memberships")
        .withIndex("by_org_user", (q) => q.eq("orgId", f.orgId).eq("userId", gone.userId))
        .unique();
      await ctx.db.delete("memberships", m!._id);
    });
    const list = await f.volunteer.as.query(api.voters.changes, { voterId });
    expect(list).toHaveLength(50);
    expect(list[0].at).toBe(1_054);
    expect(list[49].at).toBe(1_005);
    expect(list[0].by).toEqual({ kind: "user", name: null });
  });

  test.each(ROLES)("%s", async (role) => {
    const { f, voterId } = await fixture();
    await f.campaign_manager.as.mutation(api.voters.update, {
      id: voterId,
      edits: [{ field: "last_name", base: "Lovelace", value: "King" }],
    });
    const call = f[role].as.query(api.voters.changes, { voterId });
    if (CAN_VIEW.has(role))
      expect((await call).map((c) => c.changes)).toEqual([[{ field: "last_name", from: "Lovelace", to: "King" }]]);
    else await expect(call).rejects.toThrow(/permission/);
  });

  test("other organisation, signed out, bad input", async () => {
    const { t, f, voterId } = await fixture();
    await f.campaign_manager.as.mutation(api.voters.update, {
      id: voterId,
      edits: [{ field: "last_name", base: "Lovelace", value: "King" }],
    });
    expect(await f.outsider.as.query(api.voters.changes, { voterId })).toEqual([]);
    await expect(t.query(api.voters.changes, { voterId })).rejects.toThrow(/log in/);
    await expect(f.viewer.as.query(api.voters.changes, { voterId: "nope" as Id<"voters"> })).rejects.toThrow();
  });
});
