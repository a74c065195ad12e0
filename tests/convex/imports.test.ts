/** Import functions: batches, dedupe, idempotent retries, resume, cancel, exact deletion, permissions. */
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { createMember, roleFixture, setupTest, type Member, type TestConvex } from "./setup";

const mapping = [
  { column: "First", target: "first_name" },
  { column: "Last", target: "last_name" },
  { column: "Email", target: "email" },
  { column: "County", target: "county" },
];

async function startImport(
  m: Member,
  extra: Partial<{ newFields: { key: string; label: string; type: "text" }[] }> = {},
) {
  return await m.as.mutation(api.imports.start, {
    filename: "voters.csv",
    totalRecords: null,
    bytesTotal: 1000,
    fieldMapping: mapping,
    newFields: extra.newFields ?? [{ key: "county", label: "County", type: "text" }],
    fieldDetails: mapping.map((f) => ({
      column: f.column,
      target: f.target,
      fieldType: f.target === "county" ? ("new" as const) : ("existing" as const),
      sample: ["a"],
    })),
    errorMode: "ask",
    attestation: { state: "NC", use: "campaign", useOther: null, attested: true },
  });
}

function row(n: number, first: string, last: string, email?: string, county?: string) {
  return {
    row: n,
    fields: {
      first_name: first,
      last_name: last,
      ...(email ? { email } : {}),
      ...(county ? { custom_fields: { county } } : {}),
    },
  };
}

async function votersOf(t: TestConvex, orgId: Id<"organizations">) {
  return await t.run(async (ctx) =>
    ctx.db
      .query("voters")
      .withIndex("by_org", (q) => q.eq("orgId", orgId))
      .collect(),
  );
}
async function voterCounter(t: TestConvex, orgId: Id<"organizations">) {
  return await t.run(
    async (ctx) =>
      (
        await ctx.db
          .query("orgCounters")
          .withIndex("by_org_name", (q) => q.eq("orgId", orgId).eq("name", "voters"))
          .unique()
      )?.value ?? 0,
  );
}
async function handVoter(t: TestConvex, orgId: Id<"organizations">, first: string, last: string, email?: string) {
  return await t.run(async (ctx) =>
    ctx.db.insert("voters", {
      orgId,
      first_name: first,
      last_name: last,
      email,
      searchText: `${first} ${last}`.toLowerCase(),
      emailLower: email?.toLowerCase(),
      firstNameLower: first.toLowerCase(),
      lastNameLower: last.toLowerCase(),
      updatedAt: Date.now(),
    }),
  );
}

describe("imports", () => {
  test("imports a batch, dedupes against existing voters and earlier rows, records outcomes", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const m = f.campaign_manager;
    await handVoter(t, f.orgId, "Ann", "Existing", "ann@x.org");
    await handVoter(t, f.orgId, "Bob", "Byname");
    const id = await startImport(m);
    const r1 = await m.as.mutation(api.imports.appendBatch, {
      importId: id,
      startRow: 1,
      rows: [
        row(1, "Ann", "Other", "ANN@x.org"), // duplicate by email (case-insensitive) of an existing voter
        row(2, "Bob", "Byname"), // duplicate by name of an existing voter
        row(3, "Cid", "New", "cid@x.org", "Wake"),
        row(4, "Dee", "Second", "cid@X.org"), // duplicate of row 3 (same batch)
        row(5, "", "NoFirst"), // error
        row(6, "Eve", "Plain"),
      ],
    });
    expect(r1).toMatchObject({ applied: true, nextRow: 7, processed: 6, imported: 2, duplicates: 3, failed: 1 });
    expect(r1.errors[0]).toMatchObject({ row: 5, message: "Missing required fields (first name or last name)" });
    // a later batch: duplicates of rows imported by an earlier batch of the same file
    const r2 = await m.as.mutation(api.imports.appendBatch, {
      importId: id,
      startRow: 7,
      rows: [row(7, "EVE", "plain"), row(8, "Fay", "Last", "fay@x.org")],
    });
    expect(r2).toMatchObject({ imported: 3, duplicates: 4, failed: 1, nextRow: 9 });
    await m.as.mutation(api.imports.finish, {
      importId: id,
      totalRecords: 8,
      columnStats: [{ column: "Email", processed: 5, errors: 0 }],
    });

    const doc = await m.as.query(api.imports.get, { importId: id });
    expect(doc).toMatchObject({
      status: "completed",
      total_records: 8,
      imported_records: 3,
      duplicate_records: 4,
      failed_records: 1,
    });
    const voters = await votersOf(t, f.orgId);
    expect(voters.map((v) => v.first_name).sort()).toEqual(["Ann", "Bob", "Cid", "Eve", "Fay"]);
    expect(voters.find((v) => v.first_name === "Cid")?.custom_fields).toEqual({ county: "Wake" });
    expect(await voterCounter(t, f.orgId)).toBe(3);
    const dups = await m.as.query(api.imports.outcomes, { importId: id, kind: "duplicate" });
    expect(dups.map((d) => d.row)).toEqual([1, 2, 4, 7]);
    expect(dups[0].existing?.email).toBe("ann@x.org");
    const errs = await m.as.query(api.imports.outcomes, { importId: id, kind: "error" });
    expect(errs).toHaveLength(1);
    const details = await m.as.query(api.imports.fieldDetails, { importId: id });
    expect(details.find((d) => d.csv_field_name === "Email")?.records_processed).toBe(5);
    const defs = await m.as.query(api.imports.customFields, {});
    expect(defs).toEqual([{ key: "county", label: "County", type: "text" }]);
  });

  test("a retried batch is skipped (idempotent) and a gap is refused", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    const id = await startImport(m);
    const batch = { importId: id, startRow: 1, rows: [row(1, "A", "One"), row(2, "B", "Two")] };
    await m.as.mutation(api.imports.appendBatch, batch);
    const again = await m.as.mutation(api.imports.appendBatch, batch);
    expect(again).toMatchObject({ applied: false, imported: 2, nextRow: 3 });
    expect(await votersOf(t, m.orgId)).toHaveLength(2);
    await expect(
      m.as.mutation(api.imports.appendBatch, { importId: id, startRow: 5, rows: [row(5, "C", "Three")] }),
    ).rejects.toThrow(/have not been imported yet/);
  });

  test("interrupted import: exact counts stay, resume continues from nextRow, stale import can be deleted", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    const id = await startImport(m);
    await m.as.mutation(api.imports.appendBatch, {
      importId: id,
      startRow: 1,
      rows: [row(1, "A", "One"), row(2, "B", "Two")],
    });
    // the tab closes: nothing else arrives. The history row shows exact counts, still in progress.
    const mid = await m.as.query(api.imports.get, { importId: id });
    expect(mid).toMatchObject({ status: "in_progress", imported_records: 2, processed_records: 2, nextRow: 3 });
    // resume: the client re-reads the file and sends rows from nextRow on (a resent earlier batch is skipped)
    expect(
      (
        await m.as.mutation(api.imports.appendBatch, {
          importId: id,
          startRow: 1,
          rows: [row(1, "A", "One"), row(2, "B", "Two")],
        })
      ).applied,
    ).toBe(false);
    await m.as.mutation(api.imports.appendBatch, { importId: id, startRow: 3, rows: [row(3, "C", "Three")] });
    expect(await votersOf(t, m.orgId)).toHaveLength(3);
    // a running import cannot be deleted without force; once stale it can
    await expect(m.as.mutation(api.imports.remove, { importId: id })).rejects.toThrow(/still running/);
    await t.run(async (ctx) => ctx.db.patch("importHistory", id, { updatedAt: Date.now() - 10 * 60 * 1000 }));
    await m.as.mutation(api.imports.remove, { importId: id });
    expect(await votersOf(t, m.orgId)).toHaveLength(0);
    expect(await m.as.query(api.imports.get, { importId: id })).toMatchObject({
      status: "deleted",
      imported_records: 0,
    });
  });

  test("cancel keeps or deletes what was imported so far", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    const keep = await startImport(m);
    await m.as.mutation(api.imports.appendBatch, { importId: keep, startRow: 1, rows: [row(1, "K", "Eep")] });
    await m.as.mutation(api.imports.cancel, { importId: keep, deleteImported: false });
    const drop = await startImport(m);
    await m.as.mutation(api.imports.appendBatch, {
      importId: drop,
      startRow: 1,
      rows: [row(1, "D", "Rop"), row(2, "D2", "Rop")],
    });
    await m.as.mutation(api.imports.cancel, { importId: drop, deleteImported: true });
    await t.finishAllScheduledFunctions(() => {});
    expect((await votersOf(t, m.orgId)).map((v) => v.first_name)).toEqual(["K"]);
    expect(await m.as.query(api.imports.get, { importId: keep })).toMatchObject({
      status: "cancelled",
      imported_records: 1,
    });
    expect(await m.as.query(api.imports.get, { importId: drop })).toMatchObject({
      status: "deleted",
      imported_records: 0,
    });
    await expect(
      m.as.mutation(api.imports.appendBatch, { importId: keep, startRow: 2, rows: [row(2, "X", "Y")] }),
    ).rejects.toThrow(/no longer running/);
  });

  test("deleting an import removes exactly its voters, in chunks, and survivors stay", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    const before = await handVoter(t, m.orgId, "Hand", "Before");
    const a = await startImport(m);
    const rows = Array.from({ length: 2500 }, (_, i) => row(i + 1, `F${i}`, `L${i}`));
    for (let start = 0; start < 2500; start += 1000) {
      await m.as.mutation(api.imports.appendBatch, {
        importId: a,
        startRow: start + 1,
        rows: rows.slice(start, start + 1000),
      });
    }
    await m.as.mutation(api.imports.finish, { importId: a, totalRecords: 2500, columnStats: [] });
    const b = await startImport(m);
    await m.as.mutation(api.imports.appendBatch, {
      importId: b,
      startRow: 1,
      rows: [row(1, "Other", "Import", "o@x.org")],
    });
    await m.as.mutation(api.imports.finish, { importId: b, totalRecords: 1, columnStats: [] });
    const after = await handVoter(t, m.orgId, "Hand", "After");
    // a voter of import A joins a group: membership and group count follow the deletion
    const groupId = await t.run(async (ctx) => {
      const v = (await ctx.db
        .query("voters")
        .withIndex("by_import", (q) => q.eq("importId", a))
        .first())!;
      const g = await ctx.db.insert("voterGroups", {
        orgId: m.orgId,
        name: "G",
        description: null,
        memberCount: 1,
        updatedAt: 0,
      });
      await ctx.db.insert("voterGroupMembers", { orgId: m.orgId, groupId: g, voterId: v._id });
      return g;
    });
    const res = await m.as.mutation(api.imports.remove, { importId: a });
    expect(res.status).toBe("deleting");
    await t.finishAllScheduledFunctions(() => {});
    const left = await votersOf(t, m.orgId);
    expect(left.map((v) => v._id).sort()).toEqual(
      [before, after, left.find((v) => v.first_name === "Other")!._id].sort(),
    );
    expect(await voterCounter(t, m.orgId)).toBe(1); // counted imports: 2500 + 1 − 2500 (hand-made rows bypass the counter)
    const doc = await m.as.query(api.imports.get, { importId: a });
    expect(doc).toMatchObject({ status: "deleted", imported_records: 0 });
    expect(doc?.summary_stats.deleted_count).toBe(2500);
    expect(await t.run(async (ctx) => (await ctx.db.get("voterGroups", groupId))?.memberCount)).toBe(0);
    await expect(m.as.mutation(api.imports.remove, { importId: a })).rejects.toThrow(/Import has already been deleted/);
  }, 120_000);

  test("a deletion step stops within Convex's read limit; the voters' lists and segments lose them, counts written once", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    const a = await startImport(m);
    const n = 200;
    await m.as.mutation(api.imports.appendBatch, {
      importId: a,
      startRow: 1,
      rows: Array.from({ length: n }, (_, i) => row(i + 1, `F${i}`, `L${i}`, `v${i}@example.org`)),
    });
    await m.as.mutation(api.imports.finish, { importId: a, totalRecords: n, columnStats: [] });
    const ids = (await votersOf(t, m.orgId)).map((v) => v._id);
    // a long history each: deleting 200 voters x 100 entries in one step would read 20,000 index ranges (Convex: 4,096)
    for (let start = 0; start < n; start += 40) {
      await t.run(async (ctx) => {
        for (const voterId of ids.slice(start, start + 40)) {
          for (let k = 0; k < 100; k++)
            await ctx.db.insert("voterChanges", {
              orgId: m.orgId,
              voterId,
              at: k,
              userId: m.userId,
              changes: [{ field: "city", from: null, to: `C${k}` }],
            });
        }
      });
    }
    await m.as.mutation(api.emailLists.ensureDefaults, {});
    const newsletter = (await m.as.query(api.emailLists.list, {})).find((l) => l.name === "Newsletter Subscribers")!.id;
    await m.as.mutation(api.emailLists.addVoters, { listId: newsletter, voterIds: ids });
    const segment = await m.as.mutation(api.emailSegments.create, { name: "Everyone", description: null, rules: "[]" });
    await t.finishAllScheduledFunctions(() => {});
    expect((await m.as.query(api.emailSegments.list, {}))[0].cachedCount).toBe(n);

    const res = await m.as.mutation(api.imports.remove, { importId: a });
    // the first step stopped at its budget, the rest follows in further steps
    expect(res.status).toBe("deleting");
    await t.finishAllScheduledFunctions(() => {});
    expect(await votersOf(t, m.orgId)).toEqual([]);
    expect((await m.as.query(api.imports.get, { importId: a }))?.summary_stats.deleted_count).toBe(n);
    expect((await m.as.query(api.emailLists.list, {})).find((l) => l.id === newsletter)?.contactCount).toBe(0);
    expect((await m.as.query(api.emailSegments.list, {})).find((x) => x.id === segment)?.cachedCount).toBe(0);
    const left = await t.run(async (ctx) => ({
      changes: (await ctx.db.query("voterChanges").collect()).length,
      contacts: (await ctx.db.query("emailListContacts").collect()).length,
      members: (await ctx.db.query("emailSegmentMembers").collect()).length,
    }));
    expect(left).toEqual({ changes: 0, contacts: 0, members: 0 });
  }, 120_000);

  test("zero imported but duplicates: only marked deleted unless forced", async () => {
    const t = setupTest();
    const m = await createMember(t, ["campaign_manager"]);
    await handVoter(t, m.orgId, "Dup", "Licate", "d@x.org");
    const id = await startImport(m);
    await m.as.mutation(api.imports.appendBatch, {
      importId: id,
      startRow: 1,
      rows: [row(1, "Dup", "Licate", "d@x.org")],
    });
    await m.as.mutation(api.imports.finish, { importId: id, totalRecords: 1, columnStats: [] });
    await m.as.mutation(api.imports.remove, { importId: id });
    const doc = await m.as.query(api.imports.get, { importId: id });
    expect(doc).toMatchObject({ status: "deleted" });
    expect(doc?.summary_stats.deleted_count).toBe(0);
    expect(await votersOf(t, m.orgId)).toHaveLength(1); // the pre-existing record is never touched
  });

  test("history, statistics and debug info", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const id = await startImport(f.campaign_manager);
    await f.campaign_manager.as.mutation(api.imports.appendBatch, {
      importId: id,
      startRow: 1,
      rows: [row(1, "A", "B"), row(2, "", "")],
    });
    await f.campaign_manager.as.mutation(api.imports.finish, { importId: id, totalRecords: 2, columnStats: [] });
    const list = await f.viewer.as.query(api.imports.list, {});
    expect(list).toHaveLength(1);
    const stats = await f.volunteer.as.query(api.imports.statistics, {});
    expect(stats).toMatchObject({ total_imports: 1, total_records_processed: 2, avg_success_rate: 50 });
    const dbg = await f.viewer.as.query(api.imports.debugImport, { importId: id });
    expect(dbg).toMatchObject({ found: true, votersToDelete: 1 });
    expect(await f.viewer.as.query(api.imports.debugImport, { importId: "8" })).toMatchObject({
      found: false,
      message: "Import not found",
    });
    expect(await f.viewer.as.query(api.imports.checkPermissions, {})).toMatchObject({
      authenticated: true,
      canRead: true,
      canDelete: false,
    });
    expect(await f.campaign_manager.as.query(api.imports.checkPermissions, {})).toMatchObject({
      canRead: true,
      canDelete: true,
    });
    expect(await t.query(api.imports.checkPermissions, {})).toMatchObject({
      authenticated: false,
      canRead: false,
      canDelete: false,
    });
  });

  describe("permissions", () => {
    test("roles without voters.manage cannot import or delete; without voters.view cannot read", async () => {
      const t = setupTest();
      const f = await roleFixture(t);
      const id = await startImport(f.campaign_manager);
      for (const who of [f.volunteer, f.viewer, f.account_admin]) {
        await expect(startImport(who)).rejects.toThrow(/permission/);
        await expect(
          who.as.mutation(api.imports.appendBatch, { importId: id, startRow: 1, rows: [row(1, "A", "B")] }),
        ).rejects.toThrow(/permission/);
        await expect(who.as.mutation(api.imports.remove, { importId: id, force: true })).rejects.toThrow(/permission/);
        await expect(who.as.mutation(api.imports.cancel, { importId: id, deleteImported: true })).rejects.toThrow(
          /permission/,
        );
      }
      await expect(f.account_admin.as.query(api.imports.list, {})).rejects.toThrow(/permission/);
      await expect(t.query(api.imports.list, {})).rejects.toThrow(/log in/);
      await expect(t.mutation(api.imports.appendBatch, { importId: id, startRow: 1, rows: [] })).rejects.toThrow(
        /log in/,
      );
      // super admin may
      await f.super_admin.as.mutation(api.imports.appendBatch, { importId: id, startRow: 1, rows: [row(1, "A", "B")] });
    });

    test("another organisation cannot see, feed or delete the import", async () => {
      const t = setupTest();
      const f = await roleFixture(t);
      const id = await startImport(f.campaign_manager);
      await f.campaign_manager.as.mutation(api.imports.appendBatch, {
        importId: id,
        startRow: 1,
        rows: [row(1, "A", "B")],
      });
      const o = f.outsider;
      expect(await o.as.query(api.imports.list, {})).toEqual([]);
      expect(await o.as.query(api.imports.get, { importId: id })).toBeNull();
      await expect(
        o.as.mutation(api.imports.appendBatch, { importId: id, startRow: 2, rows: [row(2, "X", "Y")] }),
      ).rejects.toThrow(/Import not found/);
      await expect(o.as.mutation(api.imports.remove, { importId: id, force: true })).rejects.toThrow(
        /Import not found/,
      );
      expect(await o.as.query(api.imports.outcomes, { importId: id, kind: "imported" })).toEqual([]);
      expect(await o.as.query(api.imports.debugImport, { importId: id })).toMatchObject({ found: false });
      expect(await votersOf(t, f.orgId)).toHaveLength(1);
    });

    test("bad input is refused", async () => {
      const t = setupTest();
      const m = await createMember(t, ["campaign_manager"]);
      await expect(
        m.as.mutation(api.imports.start, {
          filename: "x.csv",
          totalRecords: 1,
          fieldMapping: [{ column: "A", target: "first_name" }],
          newFields: [],
          fieldDetails: [],
          errorMode: "ask",
          attestation: { state: "NC", use: "campaign", useOther: null, attested: true },
        }),
      ).rejects.toThrow(/required fields/);
      await expect(startImport(m, { newFields: [{ key: "Bad Key!", label: "x", type: "text" }] })).rejects.toThrow(
        /field name and label/,
      );
      const id = await startImport(m);
      await expect(
        m.as.mutation(api.imports.appendBatch, {
          importId: id,
          startRow: 1,
          // @ts-expect-error missing last_name
          rows: [{ row: 1, fields: { first_name: "A" } }],
        }),
      ).rejects.toThrow();
      await expect(
        m.as.mutation(api.imports.appendBatch, { importId: id, startRow: 1, rows: [row(2, "A", "B")] }),
      ).rejects.toThrow(/start row/);
    });
  });
});
