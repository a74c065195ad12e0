/**
 * /walk-lists with its data hooks mocked: the live list (status badges, progress, canvassers);
 * a Volunteer sees their lists without the turf tools; the turf screen's empty state says how to get
 * doors (Map data link); the live count while drawing; creating a list from a turf; a list's doors
 * in walking order; accessible.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { act } from "react";
import {
  allByTestId,
  button,
  byTestId,
  click,
  expectNoAxeViolations,
  flush,
  mountRoot,
  type MountedRoot,
} from "../../support/render";

const state = {
  permissions: new Set<string>(),
  lists: undefined as unknown,
  detail: undefined as unknown,
  overview: undefined as unknown,
  turfs: undefined as unknown,
  count: null as unknown,
  countFilters: undefined as unknown,
  drawn: null as null | ((ring: number[][]) => void),
  create: vi.fn(async (_args: unknown) => ({ id: "wl9", doors: 40, leftOut: 0 })),
  update: vi.fn(async (_args: unknown) => null),
};

vi.mock("@/session/ViewerProvider", () => ({ useViewer: () => ({ can: (p: string) => state.permissions.has(p) }) }));
vi.mock("@/lib/map/useOrgMap", () => ({ useOrgMap: () => ({ streets: null, basemapUrl: null, tiles: null }) }));
vi.mock("@/features/walkLists/components/TurfMap", () => ({
  TurfMap: (p: { onDrawn(r: number[][]): void }) => {
    state.drawn = p.onDrawn;
    return <div data-testid="turf.map" />;
  },
}));
vi.mock("@/features/walkLists/hooks/useWalkLists", () => ({
  useWalkLists: () => state.lists,
  useWalkList: () => state.detail,
  useTurfData: (enabled: boolean) =>
    enabled
      ? {
          overview: state.overview,
          turfs: state.turfs,
          runs: [],
          options: {
            members: [
              { id: "u1", name: "Val Volunteer", roles: ["volunteer"] },
              { id: "u2", name: "Cam Manager", roles: ["campaign_manager"] },
            ],
            surveys: [{ id: "s1", name: "Door script" }],
            layers: [],
            groups: [],
            segments: [],
          },
        }
      : { overview: undefined, turfs: undefined, options: undefined, runs: undefined },
  useBoundaries: () => undefined,
  useAreaCount: (_points: unknown, _boundary: unknown, filters: unknown) => {
    state.countFilters = filters;
    return state.count;
  },
  useDoorsInView: () => undefined,
  useTurfDoors: () => undefined,
  useTurfActions: () => ({
    cut: vi.fn(),
    split: vi.fn(),
    merge: vi.fn(),
    undo: vi.fn(),
    autoCut: vi.fn(),
    buildDoors: vi.fn(),
  }),
  useWalkListActions: () => ({ create: state.create, update: state.update, remove: vi.fn() }),
}));
vi.mock("@/ui/toast", () => ({
  toast: { success: vi.fn(), failure: vi.fn() },
  errorMessage: (e: { data?: { message?: string } }) => e.data?.message ?? "An unexpected error occurred.",
}));

const { WalkListsPage } = await import("@/features/walkLists/WalkListsPage");

const ROW = {
  turfId: "t1",
  surveyId: null,
  surveyName: null,
  expiresAt: Date.UTC(2027, 0, 5),
  expired: false,
  holds: true,
  voters: 90,
  contacts: 0,
  createdAt: 1,
  updatedAt: 1,
};
const LISTS = [
  {
    ...ROW,
    id: "wl1",
    name: "North loop",
    turfName: "North",
    status: "Active",
    assignees: [{ id: "u1", name: "Val Volunteer" }],
    doors: 60,
    knocked: 12,
  },
  {
    ...ROW,
    id: "wl2",
    name: "Riverside",
    turfName: "River",
    status: "Completed",
    assignees: [],
    doors: 40,
    knocked: 40,
  },
  { ...ROW, id: "wl3", name: "Hillcrest", turfName: "Hill", status: "Scheduled", assignees: [], doors: 30, knocked: 0 },
  {
    ...ROW,
    id: "wl4",
    name: "Lofts",
    turfName: "Lofts",
    status: "Paused",
    assignees: [],
    doors: 20,
    knocked: 5,
    expired: true,
  },
];
const TURF = {
  id: "t9",
  name: "Oak loop",
  doors: 40,
  voters: 70,
  source: "drawn",
  sourceLabel: "Drawn on the map",
  area: null,
  bbox: [],
  createdByName: "Cam",
  createdAt: 1,
  list: null,
};
const text = (el: Element | null | undefined) => el?.textContent ?? "";

describe("WalkListsPage", () => {
  let r: MountedRoot;
  beforeEach(() => {
    r = mountRoot();
    state.permissions = new Set(["campaigns.manage", "walk_lists.view", "voters.view"]);
    state.lists = LISTS;
    state.overview = { hasDoors: true, center: null, build: null, lastOp: null };
    state.turfs = [TURF];
    state.count = null;
    state.create.mockClear();
  });
  afterEach(() => r.unmount());

  test("the lists with status badges, progress (knocked / doors, contacts) and canvassers", async () => {
    r.render(<WalkListsPage />, "/walk-lists");
    expect(r.container.querySelector("h1")?.textContent).toBe("Walk Lists");
    const rows = allByTestId(r.container, "walkList.row");
    expect(rows.map((x) => text(byTestId(x, "walkList.status")))).toEqual([
      "Active",
      "Completed",
      "Scheduled",
      "Paused",
    ]);
    expect(text(byTestId(rows[0], "walkList.progress"))).toContain("12 / 60");
    expect(text(byTestId(rows[0], "walkList.progress"))).toContain("0 contacts");
    expect(text(byTestId(rows[0], "walkList.assignees"))).toBe("Val Volunteer");
    expect(text(rows[3])).toContain("Expired");
    expect(text(r.container)).not.toContain("sample");
    await expectNoAxeViolations(r.container);
  });

  test("a Volunteer sees their lists and no turf tools; a member without walk_lists.view is refused", () => {
    state.permissions = new Set(["walk_lists.view", "voters.view"]);
    state.lists = [LISTS[0]];
    r.render(<WalkListsPage />, "/walk-lists?tab=turf");
    expect(allByTestId(r.container, "walkList.row")).toHaveLength(1);
    expect(button(r.container, "Cut turf")).toBeUndefined();
    expect(byTestId(r.container, "turf.map")).toBeNull();
    r.unmount();
    r = mountRoot();
    state.permissions = new Set(["voters.view"]);
    r.render(<WalkListsPage />, "/walk-lists");
    expect(byTestId(r.container, "noPermission")).not.toBeNull();
  });

  test("no lists: the empty state for organisers and for volunteers", () => {
    state.lists = [];
    r.render(<WalkListsPage />, "/walk-lists");
    expect(text(byTestId(r.container, "walkLists.empty"))).toMatch(/^No walk lists yet\. Cut turf on the map/);
  });

  test("the turf screen without geocoded voters says how to get them, linking to Map data", async () => {
    state.overview = { hasDoors: false, center: null, build: null, lastOp: null };
    state.turfs = [];
    r.render(<WalkListsPage />, "/walk-lists?tab=turf");
    const notice = byTestId(r.container, "walkLists.noDoors");
    expect(text(notice)).toContain("No doors to cut turf from yet");
    expect(notice?.querySelector("a")?.getAttribute("href")).toBe("/account-settings/map-data");
    await expectNoAxeViolations(r.container);
  });

  test("the live count while drawing, and a walk list created from a turf (expiry in 30 days, canvassers)", async () => {
    r.render(<WalkListsPage />, "/walk-lists?tab=turf");
    expect(text(byTestId(r.container, "turf.liveCount"))).toMatch(/Draw an area/);
    state.count = { doors: 1234, voters: 2345, held: 0 };
    await act(async () =>
      state.drawn!([
        [0, 0],
        [1, 0],
        [1, 1],
      ]),
    );
    expect(text(byTestId(r.container, "turf.liveCount"))).toBe("1,234 doors · 2,345 voters");
    // the live count follows the filters, and says how many doors open lists already hold
    expect(state.countFilters).toEqual({});
    state.count = { doors: 600, voters: 700, held: 12 };
    click(byTestId(r.container, "turf.filters")!.querySelector("button[role='checkbox']"));
    await flush();
    expect((state.countFilters as { parties?: string[] }).parties).toHaveLength(1);
    expect(text(byTestId(r.container, "turf.liveCount"))).toBe(
      "600 doors · 700 voters12 doors already in open walk lists (auto-cut leaves them out)",
    );
    // an area too tall to read (drawn zoomed out across the country): said so, the page stays
    state.count = { doors: 0, voters: 0, held: 0, tooLarge: true };
    await act(async () =>
      state.drawn!([
        [-120, 0],
        [-70, 0],
        [-70, 36],
      ]),
    );
    expect(text(byTestId(r.container, "turf.liveCount"))).toBe(
      "This area is too large to count its doors. Draw a smaller area, or choose a district or precinct.",
    );
    const row = allByTestId(r.container, "turf.row")[0];
    expect(text(byTestId(row, "turf.row.counts"))).toBe("40 doors · 70 voters · Drawn on the map");
    click(button(row, "Create walk list"));
    await flush();
    const dialog = document.body.querySelector("[role='dialog']")!;
    expect(text(dialog)).toContain("From the turf Oak loop: 40 doors, 70 voters.");
    const expiry = dialog.querySelector<HTMLInputElement>("input[type='date']")!;
    const days = (Date.parse(expiry.value) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(28.9);
    expect(days).toBeLessThan(30.1);
    click(dialog.querySelectorAll("button[role='checkbox']")[0]);
    click(button(dialog, "Create Walk List"));
    await flush();
    expect(state.create).toHaveBeenCalledWith(
      expect.objectContaining({ name: "Oak loop", turfId: "t9", status: "Active", assignees: ["u1"], surveyId: null }),
    );
  });

  test("a list opens with its doors in walking order", async () => {
    state.detail = {
      list: LISTS[0],
      doors: [
        {
          order: 1,
          id: "d1",
          lat: 0,
          lng: 0,
          address: "101 Oak St",
          voters: [{ id: "v1", name: "Ann Lee", party: null, age: null }],
          voterCount: 1,
        },
        {
          order: 2,
          id: "d2",
          lat: 0,
          lng: 0,
          address: "103 Oak St",
          voters: [{ id: "v2", name: "Bo Lee", party: null, age: null }],
          voterCount: 1,
        },
      ],
    };
    r.render(<WalkListsPage />, "/walk-lists");
    click(button(r.container, "Open North loop"));
    await flush();
    const doors = allByTestId(document.body, "walkList.door");
    expect(doors.map((d) => text(d))).toEqual(["1101 Oak StAnn Lee", "2103 Oak StBo Lee"]);
    expect(button(document.body, "Print walk sheet")).toBeDefined();
  });

  test("organisers open a list's live dashboard (from its row and its detail); canvassers open it in the canvass app", async () => {
    state.detail = { list: LISTS[0], doors: [] };
    r.render(<WalkListsPage />, "/walk-lists");
    const live = r.container.querySelector<HTMLAnchorElement>("a[aria-label='Live dashboard: North loop']");
    expect(live?.getAttribute("href")).toBe("/walk-lists/wl1/live");
    click(button(r.container, "Open North loop"));
    await flush();
    const detail = byTestId(document.body, "walkList.detail")!;
    expect(text(byTestId(detail, "walkList.live"))).toBe("Live dashboard");
    expect(byTestId(detail, "walkList.live")!.getAttribute("href")).toBe("/walk-lists/wl1/live");
    expect(text(byTestId(detail, "walkList.canvass"))).toBe("Open in canvass app");
    expect(byTestId(detail, "walkList.canvass")!.getAttribute("href")).toBe("/canvass/wl1");
    await expectNoAxeViolations(detail);
    r.unmount();
    // a Volunteer: the canvass app, no dashboard
    r = mountRoot();
    state.permissions = new Set(["walk_lists.view", "voters.view"]);
    r.render(<WalkListsPage />, "/walk-lists");
    expect(r.container.querySelector("a[aria-label='Live dashboard: North loop']")).toBeNull();
    click(button(r.container, "Open North loop"));
    await flush();
    expect(byTestId(document.body, "walkList.live")).toBeNull();
    expect(byTestId(document.body, "walkList.canvass")!.getAttribute("href")).toBe("/canvass/wl1");
  });
});
