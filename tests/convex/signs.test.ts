import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { MAP_CENTER, quadkey } from "@convex/lib/signs/geo";
import { setEnv } from "../security/functions/harness";
import { roleFixture, setupTest, type TestConvex } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;
const CAN_VIEW = new Set(["super_admin", "campaign_manager", "viewer"]);
const CAN_MANAGE = new Set(["super_admin", "campaign_manager"]);
const DAY = 24 * 3600_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  const campaignId = await f.campaign_manager.as.mutation(api.signs.createCampaign, { name: "Yes on 12" });
  return { t, f, campaignId };
}

function input(campaignId: Id<"campaigns">, extra: Record<string, unknown> = {}) {
  const now = Date.now();
  return {
    campaignId,
    address: "1120 SW 5th Ave, Portland, OR 97204",
    latitude: MAP_CENTER.lat,
    longitude: MAP_CENTER.lng,
    datePlaced: now - DAY,
    // Within 24.8 days: convex-test schedules with setTimeout, which fires a longer delay after
    // 1 ms (Node's TimeoutOverflowWarning), so the signs timer re-armed itself in a busy loop
    // that slowed every later test of the file (the timer test's sleeps, the geocoder's server).
    dateRemoval: now + 20 * DAY,
    notes: "",
    voterId: null,
    responsibleUserId: null,
    assignedById: null,
    ...extra,
  };
}

const VIEW = { south: 45.4, west: -122.8, north: 45.6, east: -122.5, zoom: 12, status: "All" as const };

async function cells(t: TestConvex) {
  return await t.run(async (ctx) => ctx.db.query("signCells").collect());
}

describe("signs: reads (campaigns.view)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f, campaignId } = await fixture();
    const id = await f.campaign_manager.as.mutation(api.signs.create, input(campaignId, { notes: "By the porch" }));
    const as = f[role].as;
    if (CAN_VIEW.has(role)) {
      const view = await as.query(api.signs.mapView, VIEW);
      expect(view.totals).toEqual({ All: 1, Active: 1, Scheduled: 0, Removed: 0 });
      expect(view.points).toMatchObject([{ id, status: "Active", campaignName: "Yes on 12" }]);
      const page = await as.query(api.signs.list, { paginationOpts: { numItems: 10, cursor: null }, status: "All" });
      expect(page.page).toMatchObject([{ id, notes: "By the porch", campaignName: "Yes on 12" }]);
      expect(await as.query(api.signs.get, { id })).toMatchObject({ id, address: input(campaignId).address });
      const opts = await as.query(api.signs.options, {});
      expect(opts.campaigns).toEqual([{ id: campaignId, name: "Yes on 12" }]);
      expect(opts.members.length).toBe(6);
      expect(await as.query(api.signs.pickups, {})).toEqual([]);
    } else {
      await expect(as.query(api.signs.mapView, VIEW)).rejects.toThrow(/permission/);
      await expect(
        as.query(api.signs.list, { paginationOpts: { numItems: 10, cursor: null }, status: "All" }),
      ).rejects.toThrow(/permission/);
      await expect(as.query(api.signs.get, { id })).rejects.toThrow(/permission/);
      await expect(as.query(api.signs.options, {})).rejects.toThrow(/permission/);
      await expect(as.query(api.signs.pickups, {})).rejects.toThrow(/permission/);
    }
  });
  test("another organisation sees none of it; signed out is refused", async () => {
    const { t, f, campaignId } = await fixture();
    const id = await f.campaign_manager.as.mutation(api.signs.create, input(campaignId));
    const other = await f.outsider.as.query(api.signs.mapView, VIEW);
    expect(other.totals.All).toBe(0);
    expect(other.points).toEqual([]);
    expect(await f.outsider.as.query(api.signs.get, { id })).toBeNull();
    expect((await f.outsider.as.query(api.signs.options, {})).campaigns).toEqual([]);
    await expect(t.query(api.signs.mapView, VIEW)).rejects.toThrow(/log in/);
  });
});

describe("signs: writes (campaigns.manage)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f, campaignId } = await fixture();
    const id = await f.campaign_manager.as.mutation(api.signs.create, input(campaignId));
    const as = f[role].as;
    const tomorrow = Date.now() + DAY;
    const sched = {
      id,
      datePlaced: tomorrow,
      scheduledDate: "2030-01-01",
      scheduledTime: "09:00",
      responsibleUserId: f.volunteer.userId,
      assignedById: f.campaign_manager.userId,
    };
    if (CAN_MANAGE.has(role)) {
      const second = await as.mutation(
        api.signs.create,
        input(campaignId, { address: "2 Elm St, Portland, OR 97205" }),
      );
      await as.mutation(api.signs.update, { id: second, edits: [{ field: "notes", base: "", value: "Corner lot" }] });
      await as.mutation(api.signs.schedule, sched);
      await as.mutation(api.signs.markRemoved, { id: second, date: Date.now() });
      await as.mutation(api.signs.remove, { id: second });
      await as.mutation(api.signs.createCampaign, { name: "Another" });
      expect(await as.query(api.signs.get, { id })).toMatchObject({
        status: "Scheduled",
        responsibleName: expect.any(String),
        scheduledTime: "09:00",
      });
    } else {
      await expect(as.mutation(api.signs.create, input(campaignId))).rejects.toThrow(/permission/);
      await expect(
        as.mutation(api.signs.update, { id, edits: [{ field: "notes", base: "", value: "x" }] }),
      ).rejects.toThrow(/permission/);
      await expect(as.mutation(api.signs.schedule, sched)).rejects.toThrow(/permission/);
      await expect(as.mutation(api.signs.markRemoved, { id, date: Date.now() })).rejects.toThrow(/permission/);
      await expect(as.mutation(api.signs.remove, { id })).rejects.toThrow(/permission/);
      await expect(as.mutation(api.signs.createCampaign, { name: "X" })).rejects.toThrow(/permission/);
    }
  });
  test("another organisation cannot touch a sign nor use its campaign or members; signed out is refused", async () => {
    const { t, f, campaignId } = await fixture();
    const id = await f.campaign_manager.as.mutation(api.signs.create, input(campaignId));
    const out = f.outsider.as;
    await expect(
      out.mutation(api.signs.update, { id, edits: [{ field: "notes", base: "", value: "x" }] }),
    ).rejects.toThrow(/could not be found|deleted/);
    await expect(out.mutation(api.signs.markRemoved, { id, date: Date.now() })).rejects.toThrow(
      /could not be found|deleted/,
    );
    await expect(out.mutation(api.signs.remove, { id })).rejects.toThrow(/could not be found/);
    await expect(out.mutation(api.signs.create, input(campaignId))).rejects.toThrow(/your organization's campaigns/);
    const own = await out.mutation(api.signs.createCampaign, { name: "Theirs" });
    await expect(out.mutation(api.signs.create, input(own, { responsibleUserId: f.volunteer.userId }))).rejects.toThrow(
      /member of your organization/,
    );
    await expect(t.mutation(api.signs.create, input(campaignId))).rejects.toThrow(/log in/);
    expect((await f.viewer.as.query(api.signs.get, { id }))?.status).toBe("Active");
  });
});

describe("sign rules", () => {
  test("campaign and address are required, with the spec's warning; bad places and dates are refused", async () => {
    const { f, campaignId } = await fixture();
    const cm = f.campaign_manager.as;
    await expect(cm.mutation(api.signs.create, input(campaignId, { address: "   " }))).rejects.toThrow(
      /Please fill in all required fields/,
    );
    await expect(cm.mutation(api.signs.create, input(campaignId, { latitude: 91 }))).rejects.toThrow(
      /Latitude must be between/,
    );
    await expect(cm.mutation(api.signs.create, input(campaignId, { longitude: Number.NaN }))).rejects.toThrow();
    const now = Date.now();
    await expect(
      cm.mutation(api.signs.create, input(campaignId, { datePlaced: now, dateRemoval: now - DAY })),
    ).rejects.toThrow(/removal date must be after/);
    await expect(cm.mutation(api.signs.create, input(campaignId, { address: "x".repeat(301) }))).rejects.toThrow(
      /limited to 300/,
    );
    await expect(cm.mutation(api.signs.createCampaign, { name: " " })).rejects.toThrow(/Campaign name required/);
  });

  test("status from the placement date; schedule only Active; mark removed Active and Scheduled; an edited removed sign stays removed", async () => {
    const { f, campaignId } = await fixture();
    const cm = f.campaign_manager.as;
    const future = await cm.mutation(
      api.signs.create,
      input(campaignId, { datePlaced: Date.now() + 3 * DAY, dateRemoval: Date.now() + 9 * DAY }),
    );
    expect((await cm.query(api.signs.get, { id: future }))!.status).toBe("Scheduled");
    const sched = {
      id: future,
      datePlaced: Date.now() + DAY,
      scheduledDate: "2030-01-01",
      scheduledTime: "09:00",
      responsibleUserId: null,
      assignedById: null,
    };
    await expect(cm.mutation(api.signs.schedule, sched)).rejects.toThrow(/Only active signs can be scheduled/);
    await cm.mutation(api.signs.markRemoved, { id: future, date: Date.now() });
    const removed = (await cm.query(api.signs.get, { id: future }))!;
    expect(removed).toMatchObject({ status: "Removed", actualRemovalDate: removed.dateRemoval });
    await expect(cm.mutation(api.signs.markRemoved, { id: future, date: Date.now() })).rejects.toThrow(
      /already marked as removed/,
    );
    await cm.mutation(api.signs.update, {
      id: future,
      edits: [{ field: "datePlaced", base: removed.datePlaced, value: Date.now() - DAY }],
    });
    expect((await cm.query(api.signs.get, { id: future }))!.status).toBe("Removed");
    const active = await cm.mutation(api.signs.create, input(campaignId));
    await expect(
      cm.mutation(api.signs.schedule, { ...sched, id: active, datePlaced: Date.now() - 1000 }),
    ).rejects.toThrow(/in the future/);
    await cm.mutation(api.signs.schedule, {
      ...sched,
      id: active,
      responsibleUserId: f.volunteer.userId,
      assignedById: f.campaign_manager.userId,
    });
    expect(await cm.query(api.signs.get, { id: active })).toMatchObject({
      status: "Scheduled",
      scheduledDate: "2030-01-01",
      scheduledTime: "09:00",
      responsibleUserId: f.volunteer.userId,
    });
  });

  test("edits merge disjoint fields and refuse a same-field conflict naming the teammate", async () => {
    const { t, f, campaignId } = await fixture();
    const cm = f.campaign_manager.as;
    const admin = f.super_admin.as;
    const id = await cm.mutation(api.signs.create, input(campaignId));
    await cm.mutation(api.signs.update, { id, edits: [{ field: "notes", base: "", value: "Mine" }] });
    await admin.mutation(api.signs.update, {
      id,
      edits: [{ field: "address", base: input(campaignId).address, value: "9 Oak St, Portland, OR 97209" }],
    });
    expect(await cm.query(api.signs.get, { id })).toMatchObject({
      notes: "Mine",
      address: "9 Oak St, Portland, OR 97209",
    });
    await expect(
      admin.mutation(api.signs.update, { id, edits: [{ field: "notes", base: "", value: "Theirs" }] }),
    ).rejects.toThrow(/changed/);
    const moved = { lat: 45.52, lng: -122.68 };
    await cm.mutation(api.signs.update, {
      id,
      edits: [
        { field: "latitude", base: MAP_CENTER.lat, value: moved.lat },
        { field: "longitude", base: MAP_CENTER.lng, value: moved.lng },
      ],
    });
    const stored = await t.run(async (ctx) => ctx.db.get("signs", id));
    expect(stored!.quadkey).toBe(quadkey(moved.lat, moved.lng));
  });

  test("per-tile counts follow every write, and the map switches to clusters above the points limit", async () => {
    const { t, f, campaignId } = await fixture();
    const cm = f.campaign_manager.as;
    const a = await cm.mutation(api.signs.create, input(campaignId));
    const b = await cm.mutation(
      api.signs.create,
      input(campaignId, {
        latitude: 45.51,
        longitude: -122.66,
        datePlaced: Date.now() + DAY,
        dateRemoval: Date.now() + 5 * DAY,
      }),
    );
    const root = (await cells(t)).find((c) => c.level === 0)!;
    expect(root.count).toEqual({ Active: 1, Scheduled: 1, Removed: 0 });
    expect((await cells(t)).filter((c) => c.level === 16)).toHaveLength(2);
    await cm.mutation(api.signs.markRemoved, { id: b, date: Date.now() });
    expect((await cm.query(api.signs.mapView, { ...VIEW, status: "Removed" })).points.map((p) => p.id)).toEqual([b]);
    expect((await cm.query(api.signs.mapView, { ...VIEW, status: "Active" })).points.map((p) => p.id)).toEqual([a]);
    await cm.mutation(api.signs.remove, { id: a });
    await cm.mutation(api.signs.remove, { id: b });
    expect(await cells(t)).toEqual([]);

    // 1,600 signs in view (seeded in one go): counts, not points
    await t.run(async (ctx) => {
      const { writeSigns } = await import("@convex/model/signs");
      const writes = Array.from({ length: 1_600 }, (_, i) => ({
        id: null,
        removed: false,
        fields: {
          ...input(campaignId),
          latitude: 45.45 + (i % 40) * 0.003,
          longitude: -122.75 + Math.floor(i / 40) * 0.005,
          scheduledDate: null,
          scheduledTime: null,
          actualRemovalDate: null,
          createdBy: f.campaign_manager.userId,
        },
      }));
      for (let i = 0; i < writes.length; i += 400) await writeSigns(ctx, f.orgId, writes.slice(i, i + 400));
    });
    const view = await cm.query(api.signs.mapView, VIEW);
    expect(view.points).toEqual([]);
    expect(view.cells.length).toBeGreaterThan(10);
    expect(view.inView).toBe(1_600);
    expect(view.cells.reduce((n, c) => n + c.count, 0)).toBe(1_600);
    const zoomed = await cm.query(api.signs.mapView, {
      south: 45.449,
      west: -122.751,
      north: 45.46,
      east: -122.74,
      zoom: 16,
      status: "All",
    });
    expect(zoomed.points.length).toBeGreaterThan(0);
    expect(zoomed.points.every((p) => p.lat <= 45.46 && p.lng <= -122.74)).toBe(true);
  }, 60_000); // 1,600 signs written one by one: the default 5 s is too close on a loaded 2-core machine

  test("time moves signs: a past removal date is due for pickup at once, listed per responsible member", async () => {
    const { f, campaignId } = await fixture();
    const cm = f.campaign_manager.as;
    const id = await cm.mutation(
      api.signs.create,
      input(campaignId, {
        datePlaced: Date.now() - 10 * DAY,
        dateRemoval: Date.now() - DAY,
        responsibleUserId: f.volunteer.userId,
      }),
    );
    const groups = await cm.query(api.signs.pickups, {});
    expect(groups).toMatchObject([{ responsibleUserId: f.volunteer.userId, signs: [{ id, pickupDue: true }] }]);
    await cm.mutation(api.signs.markRemoved, { id, date: Date.now() });
    expect(await cm.query(api.signs.pickups, {})).toEqual([]);
  });

  test("the organisation's timer places a scheduled sign at its time and flags it at its removal time", async () => {
    const { t, f, campaignId } = await fixture();
    const cm = f.campaign_manager.as;
    const start = Date.now();
    const id = await cm.mutation(
      api.signs.create,
      input(campaignId, { datePlaced: start + 1_000, dateRemoval: start + 2_000 }),
    );
    expect((await cm.query(api.signs.get, { id }))!.status).toBe("Scheduled");
    const timer = await t.run(async (ctx) => ctx.db.query("signTimers").unique());
    expect(timer!.nextAt).toBe(start + 1_000);
    await sleep(1_300);
    await t.finishAllScheduledFunctions(() => {});
    expect(await cm.query(api.signs.get, { id })).toMatchObject({ status: "Active", pickupDue: false });
    await sleep(1_000);
    await t.finishAllScheduledFunctions(() => {});
    expect(await cm.query(api.signs.get, { id })).toMatchObject({ status: "Active", pickupDue: true });
    expect(await t.run(async (ctx) => ctx.db.query("signTimers").unique())).toBeNull();
    // a stale run (replaced timer) changes nothing it should not
    await t.mutation(internal.signs.advance, { orgId: f.orgId, at: start });
    expect((await cm.query(api.signs.get, { id }))!.pickupDue).toBe(true);
  });

  test("a voter's signs", async () => {
    const { t, f, campaignId } = await fixture();
    const voterId = await t.run(async (ctx) =>
      ctx.db.insert("voters", {
        orgId: f.orgId,
        first_name: "Ana",
        last_name: "Diaz",
        searchText: "ana diaz",
        firstNameLower: "ana",
        lastNameLower: "diaz",
        updatedAt: Date.now(),
      }),
    );
    const cm = f.campaign_manager.as;
    const id = await cm.mutation(api.signs.create, input(campaignId, { voterId }));
    expect(await f.viewer.as.query(api.signs.forVoter, { voterId })).toMatchObject([{ id, voterName: "Ana Diaz" }]);
    await expect(f.volunteer.as.query(api.signs.forVoter, { voterId })).rejects.toThrow(/permission/);
    expect(await f.outsider.as.query(api.signs.forVoter, { voterId })).toEqual([]);
  });
});

describe("signs.geocode (campaigns.manage)", () => {
  test("looks an address up with the configured geocoder; refused without one, and for readers", async () => {
    const { t, f } = await fixture();
    const asked: string[] = [];
    const server = http.createServer((req, res) => {
      const q = new URL(req.url!, "http://geo").searchParams.get("q") ?? "";
      asked.push(q);
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(q.includes("Nowhere") ? [] : [{ lat: "45.5152", lon: "-122.6784", display_name: q }]));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const cm = f.campaign_manager.as;
      await expect(cm.action(api.signs.geocode, { address: "1120 SW 5th Ave" })).rejects.toThrow(
        /No geocoder is configured/,
      );
      expect((await cm.query(api.signs.options, {})).geocoder).toBe(false);
      await setEnv(t, { GEOCODER_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/search` });
      expect((await cm.query(api.signs.options, {})).geocoder).toBe(true);
      expect(await cm.action(api.signs.geocode, { address: "1120 SW 5th Ave, Portland" })).toEqual({
        lat: 45.5152,
        lng: -122.6784,
        street: null,
      });
      expect(await cm.action(api.signs.geocode, { address: "Nowhere Lane" })).toBeNull();
      expect(asked).toEqual(["1120 SW 5th Ave, Portland", "Nowhere Lane"]);
      await expect(f.viewer.as.action(api.signs.geocode, { address: "x" })).rejects.toThrow(/permission/);
      await expect(t.action(api.signs.geocode, { address: "x" })).rejects.toThrow(/log in/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
