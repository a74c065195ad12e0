/** Custom fields: one label per organisation (any case), and the count of voters holding a value before a delete. */
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { DUPLICATE_LABEL } from "@convex/customFields";
import { COUNT_PAGE } from "@convex/model/voterSearch";
import { roleFixture, setupTest, type TestConvex } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;
const CAN_MANAGE = new Set(["super_admin", "campaign_manager"]);

type Caller = { query: TestConvex["query"] };

/** Follows the count's pages to the end, as the delete confirmation does. */
async function countValues(as: Caller, id: Id<"customFieldDefs">) {
  let cursor: string | null = null;
  let count = 0;
  let calls = 0;
  for (;;) {
    const r: { page: { count: number }[]; isDone: boolean; continueCursor: string } = await as.query(
      api.customFields.countValues,
      { id, paginationOpts: { numItems: 1, cursor } },
    );
    calls += 1;
    count += r.page.reduce((n, p) => n + p.count, 0);
    if (r.isDone) return { count, calls };
    cursor = r.continueCursor;
  }
}

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  const key = await f.campaign_manager.as.mutation(api.customFields.create, {
    label: "Shirt Size",
    type: "text",
    required: false,
  });
  const [def] = await f.viewer.as.query(api.customFields.list, {});
  return { t, f, key, defId: def._id };
}

describe("customFields.create: one label per organisation", () => {
  test("the same label again (trimmed, any case) is refused with the dialog's message", async () => {
    const { f } = await fixture();
    const as = f.campaign_manager.as;
    for (const label of ["Shirt Size", "  shirt size ", "SHIRT SIZE"]) {
      await expect(
        as.mutation(api.customFields.create, { label, type: "dropdown", required: false, options: ["S"] }),
      ).rejects.toThrow(DUPLICATE_LABEL);
    }
    expect(DUPLICATE_LABEL).toBe("A field with this label already exists");
    await as.mutation(api.customFields.create, { label: "Shirt Sizes", type: "text", required: false });
    expect((await f.viewer.as.query(api.customFields.list, {})).map((d) => d.label)).toEqual([
      "Shirt Size",
      "Shirt Sizes",
    ]);
    // another organisation has its own labels
    await f.outsider.as.mutation(api.customFields.create, { label: "shirt size", type: "text", required: false });
    expect((await f.outsider.as.query(api.customFields.list, {})).map((d) => d.label)).toEqual(["shirt size"]);
  });
});

describe("customFields.countValues (voters.manage)", () => {
  test("counts the voters holding a non-empty value, exactly, across pages of voters", async () => {
    const { t, f, key, defId } = await fixture();
    const n = COUNT_PAGE + 120;
    const voters = Array.from({ length: n }, (_, i) => ({
      first_name: `V${i}`,
      last_name: "Bulk",
      ...(i % 7 === 0 ? { custom_fields: { [key]: "M" } } : i % 7 === 1 ? { custom_fields: { other: "x" } } : {}),
    }));
    for (let i = 0; i < n; i += 500)
      await t.mutation(internal.seed.insertVoters, { orgId: f.orgId, voters: voters.slice(i, i + 500) });
    const r = await countValues(f.campaign_manager.as, defId);
    expect(r.count).toBe(Math.ceil(n / 7));
    expect(r.calls).toBe(2);
    // the count is live: a value cleared by a teammate is no longer counted
    const [first] = (
      await f.viewer.as.query(api.voters.list, { paginationOpts: { numItems: 200, cursor: null } })
    ).page.filter((v) => v.custom_fields?.[key]);
    await f.volunteer.as.mutation(api.voters.update, {
      id: first._id,
      edits: [{ field: `custom_fields.${key}`, base: "M", value: null }],
    });
    expect((await countValues(f.super_admin.as, defId)).count).toBe(Math.ceil(n / 7) - 1);
  }, 240_000);

  test.each(ROLES)("%s", async (role) => {
    const { f, key, defId } = await fixture();
    await f.campaign_manager.as.mutation(api.voters.create, {
      fields: { first_name: "A", last_name: "B", custom_fields: { [key]: "L" } },
    });
    await f.campaign_manager.as.mutation(api.voters.create, { fields: { first_name: "C", last_name: "D" } });
    const call = countValues(f[role].as, defId);
    if (CAN_MANAGE.has(role)) expect(await call).toEqual({ count: 1, calls: 1 });
    else await expect(call).rejects.toThrow(/permission/);
  });

  test("other organisation, signed out, bad input", async () => {
    const { t, f, defId } = await fixture();
    await expect(countValues(f.outsider.as, defId)).rejects.toThrow(/could not be found/);
    await expect(
      t.query(api.customFields.countValues, { id: defId, paginationOpts: { numItems: 1, cursor: null } }),
    ).rejects.toThrow(/log in/);
    await expect(
      f.campaign_manager.as.query(api.customFields.countValues, {
        id: "nope" as Id<"customFieldDefs">,
        paginationOpts: { numItems: 1, cursor: null },
      }),
    ).rejects.toThrow();
  });
});
