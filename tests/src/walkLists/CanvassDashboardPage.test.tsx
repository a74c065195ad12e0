/**
 * /walk-lists/:listId/live with its data hook mocked (the map too: Leaflet needs a real browser):
 * the list's figures (the knocked count alone in canvass-knocked), a row per canvasser with a high
 * contact rate marked, the flags with canvasser, door and time, the legend's doors per result, the
 * map's doors coloured and flagged; new data from the live queries shows without a reload; members
 * without campaigns.manage are refused and ask nothing; a deleted list says so; accessible.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { Route, Routes } from "react-router-dom";
import { allByTestId, byTestId, expectNoAxeViolations, mountRoot, type MountedRoot } from "../../support/render";

type Door = { id: string; result: string | null; flagged: boolean; label: string; attempts: number };
const state = {
  permissions: new Set<string>(),
  asked: [] as unknown[],
  map: undefined as unknown,
  board: undefined as unknown,
  states: undefined as unknown,
  mapDoors: [] as Door[],
  turfArea: null as string | null,
};

vi.mock("@/session/ViewerProvider", () => ({ useViewer: () => ({ can: (p: string) => state.permissions.has(p) }) }));
vi.mock("@/lib/map/useOrgMap", () => ({ useOrgMap: () => ({ streets: null, basemapUrl: null, tiles: null }) }));
vi.mock("@/features/walkLists/hooks/useCanvassDashboard", () => ({
  useCanvassDashboard: (listId: string | null) => {
    state.asked.push(listId);
    return listId
      ? { map: state.map, board: state.board, states: state.states }
      : { map: undefined, board: undefined, states: undefined };
  },
}));
vi.mock("@/features/walkLists/components/CanvassDashboardMap", () => ({
  CanvassDashboardMap: (p: { doors: Door[]; turfArea: string | null }) => {
    state.mapDoors = p.doors;
    state.turfArea = p.turfArea;
    return <div data-testid="canvass-map">{p.doors.length} doors</div>;
  },
}));

const { CanvassDashboardPage } = await import("@/features/walkLists/CanvassDashboardPage");

const NOW = Date.now();
const ZERO = { not_home: 0, contacted: 0, refused: 0, moved: 0, deceased: 0, inaccessible: 0, come_back: 0 };
const MAP = {
  turfArea: '{"type":"Polygon","coordinates":[]}',
  doors: [
    { id: "d1", order: 1, lat: 40, lng: -89, address: "101 Oak St" },
    { id: "d2", order: 2, lat: 40.001, lng: -89, address: "103 Oak St" },
    { id: "d3", order: 3, lat: 40.002, lng: -89, address: "105 Oak St" },
    { id: "d4", order: 4, lat: 40.003, lng: -89, address: "107 Oak St" },
  ],
};
const figures = (f: Partial<Record<string, unknown>>) => ({
  attempts: 0,
  doors: 0,
  contacts: 0,
  contactRate: 0,
  results: ZERO,
  lastAt: null,
  flags: 0,
  ...f,
});
function board(extra: { knocked?: number; canvassers?: unknown[]; flags?: unknown[] } = {}) {
  return {
    list: {
      ...figures({
        attempts: 24,
        doors: extra.knocked ?? 20,
        contacts: 6,
        contactRate: 0.25,
        results: { ...ZERO, contacted: 6, not_home: 18 },
        lastAt: NOW - 5 * 60_000,
        flags: 2,
      }),
      id: "wl1",
      name: "North loop",
      doorsTotal: 60,
    },
    canvassers: extra.canvassers ?? [
      {
        ...figures({ attempts: 20, doors: 18, contacts: 2, contactRate: 0.1, lastAt: NOW - 5 * 60_000, flags: 2 }),
        id: "u1",
        name: "Val Volunteer",
        rateFlag: false,
        rateTimes: 0.4,
      },
      {
        ...figures({ attempts: 4, doors: 4, contacts: 4, contactRate: 1, lastAt: NOW - 2 * 3_600_000 }),
        id: "u2",
        name: "Cam Manager",
        rateFlag: true,
        rateTimes: 4,
      },
    ],
    questions: [
      {
        field: "support",
        label: "Will you support Lee?",
        options: [
          { option: "Yes", count: 4 },
          { option: "No", count: 2 },
        ],
      },
    ],
    flags: extra.flags ?? [
      {
        kind: "rate",
        canvasserId: "u2",
        doorId: null,
        at: NOW - 2 * 3_600_000,
        message: "Cam Manager's contact rate is 4.0 times the list's.",
      },
      {
        kind: "fast",
        canvasserId: "u1",
        doorId: "d2",
        at: NOW - 6 * 60_000,
        message: "Val Volunteer recorded results at two doors 10 s apart.",
      },
      {
        kind: "far",
        canvasserId: "u1",
        doorId: "d3",
        at: NOW - 5 * 60_000,
        message: "Val Volunteer recorded a result 320 m from its door.",
      },
    ],
    answerCounts: [],
  };
}
const STATES = [
  { doorId: "d1", lastResult: "contacted", lastAt: NOW - 7 * 60_000, attempts: 1 },
  { doorId: "d2", lastResult: "not_home", lastAt: NOW - 6 * 60_000, attempts: 2 },
  { doorId: "d3", lastResult: "not_home", lastAt: NOW - 5 * 60_000, attempts: 1 },
];

const text = (el: Element | null | undefined) => el?.textContent ?? "";
/** The page at its route (a new element each time: a re-render, as a live query's new answer makes one). */
const ui = () => (
  <Routes>
    <Route path="/walk-lists/:listId/live" element={<CanvassDashboardPage />} />
  </Routes>
);

describe("CanvassDashboardPage", () => {
  let r: MountedRoot;
  beforeEach(() => {
    r = mountRoot();
    state.permissions = new Set(["campaigns.manage", "walk_lists.view", "voters.view"]);
    state.asked = [];
    state.map = MAP;
    state.board = board();
    state.states = STATES;
  });
  afterEach(() => r.unmount());

  test("the list's figures, its canvassers, the answers, the flags with who, where and when, the legend and the map", async () => {
    r.render(ui(), "/walk-lists/wl1/live");
    expect(state.asked.at(-1)).toBe("wl1");
    const root = byTestId(r.container, "canvass-dashboard")!;
    expect(root.querySelector("h1")?.textContent).toBe("Live: North loop");
    expect(byTestId(root, "canvass-knocked")!.textContent).toBe("20");
    expect(text(byTestId(root, "canvass-knocked")!.closest("[role='group']"))).toBe("Doors knocked20 of 60");
    expect(text(byTestId(root, "canvass-contacts"))).toBe("6");
    expect(text(byTestId(root, "canvass-rate"))).toBe("25%");
    expect(text(byTestId(root, "canvass-attempts"))).toBe("24");
    expect(text(byTestId(root, "canvass-canvassers"))).toBe("2");
    expect(text(byTestId(root, "canvass-last"))).toBe("5 min ago");

    const rows = allByTestId(root, "canvass-canvasser-row");
    expect(rows.map((x) => [...x.children].map((c) => text(c)))).toEqual([
      ["Val Volunteer", "18", "20", "2", "10%", "2", "5 min ago"],
      ["Cam Manager", "4", "4", "4", "100%", "1High contact rate", "2 h ago"],
    ]);

    const q = byTestId(root, "canvass-question")!;
    expect(text(q)).toContain("Will you support Lee?");
    expect(text(q)).toContain("6 answers");
    expect([...q.querySelectorAll("li")].map((li) => text(li))).toEqual(["Yes: 4", "No: 2"]);

    // newest first; each with its canvasser and door (the contact rate is about a canvasser, no door)
    const flags = allByTestId(root, "canvass-flag");
    expect(flags.map((f) => f.dataset.kind)).toEqual(["far", "fast", "rate"]);
    expect(flags.map((f) => text(byTestId(f, "canvass-flag-where")))).toEqual([
      "Val Volunteer · 105 Oak St",
      "Val Volunteer · 103 Oak St",
      "Cam Manager",
    ]);
    expect(text(flags[0])).toContain("Far from the door");
    expect(text(flags[0])).toContain("320 m from its door");
    expect(text(flags[2])).toContain("High contact rate");
    expect(text(byTestId(root, "canvass-flagCount"))).toBe("3");

    const legend = Object.fromEntries(
      allByTestId(root, "canvass-legend-item").map((li) => [li.dataset.result, text(li)]),
    );
    expect(legend).toMatchObject({
      contacted: "Contacted: 1",
      not_home: "Not Home: 2",
      refused: "Refused: 0",
      not_knocked: "Not knocked yet: 1",
      flagged: "Flagged door",
    });

    expect(state.turfArea).toBe(MAP.turfArea);
    expect(state.mapDoors.map((d) => [d.id, d.result, d.flagged, d.label])).toEqual([
      ["d1", "contacted", false, "101 Oak St"],
      ["d2", "not_home", true, "103 Oak St"],
      ["d3", "not_home", true, "105 Oak St"],
      ["d4", null, false, "107 Oak St"],
    ]);
    expect(root.querySelector("a[href='/canvass/wl1']")?.textContent).toBe("Open in canvass app");
    await expectNoAxeViolations(r.container);
  });

  test("results arriving from the live queries show at once: figures, rows, flags, legend and map", () => {
    r.render(ui(), "/walk-lists/wl1/live");
    expect(byTestId(r.container, "canvass-knocked")!.textContent).toBe("20");
    const b = board({ knocked: 21 });
    const newcomer = {
      ...figures({ attempts: 1, doors: 1, contacts: 0, contactRate: 0, lastAt: NOW - 10_000 }),
      id: "u3",
      name: "Nia New",
      rateFlag: false,
      rateTimes: 0,
    };
    state.board = {
      ...b,
      canvassers: [newcomer, ...b.canvassers],
      flags: [
        {
          kind: "fast",
          canvasserId: "u3",
          doorId: "d4",
          at: NOW - 10_000,
          message: "Nia New recorded results at two doors 5 s apart.",
        },
        ...b.flags,
      ],
    };
    state.states = [...STATES, { doorId: "d4", lastResult: "refused", lastAt: NOW - 10_000, attempts: 1 }];
    r.rerender(ui());
    expect(byTestId(r.container, "canvass-knocked")!.textContent).toBe("21");
    const rows = allByTestId(r.container, "canvass-canvasser-row");
    expect(rows.map((x) => text(x.firstElementChild))).toEqual(["Nia New", "Val Volunteer", "Cam Manager"]);
    expect(text(byTestId(allByTestId(r.container, "canvass-flag")[0], "canvass-flag-where"))).toBe(
      "Nia New · 107 Oak St",
    );
    const legend = Object.fromEntries(
      allByTestId(r.container, "canvass-legend-item").map((li) => [li.dataset.result, text(li)]),
    );
    expect(legend.refused).toBe("Refused: 1");
    expect(legend.not_knocked).toBe("Not knocked yet: 0");
    expect(state.mapDoors.find((d) => d.id === "d4")).toMatchObject({ result: "refused", flagged: true });
  });

  test("no results yet: zeros and a word on what will appear", async () => {
    state.board = {
      ...board({ knocked: 0, canvassers: [], flags: [] }),
      list: { ...board().list, ...figures({}), doorsTotal: 60 },
    };
    state.states = [];
    r.render(ui(), "/walk-lists/wl1/live");
    expect(byTestId(r.container, "canvass-knocked")!.textContent).toBe("0");
    expect(text(byTestId(r.container, "canvass-last"))).toBe("No activity yet");
    expect(allByTestId(r.container, "canvass-canvasser-row")).toHaveLength(0);
    expect(text(byTestId(r.container, "canvass-noResults"))).toBe(
      "No results yet. Figures appear here as canvassers record doors.",
    );
    expect(text(byTestId(r.container, "canvass-noFlags"))).toBe("No flags so far.");
    await expectNoAxeViolations(r.container);
  });

  test("a member without campaigns.manage (or walk_lists.view) is refused and nothing is asked; a deleted list says so", () => {
    state.permissions = new Set(["walk_lists.view", "voters.view"]);
    r.render(ui(), "/walk-lists/wl1/live");
    expect(byTestId(r.container, "noPermission")).not.toBeNull();
    expect(state.asked).toEqual(state.asked.map(() => null));
    expect(byTestId(r.container, "canvass-knocked")).toBeNull();
    // campaigns.manage without walk_lists.view (a custom role): the doors' states would be refused
    state.permissions = new Set(["campaigns.manage"]);
    r.render(ui(), "/walk-lists/wl1/live");
    expect(byTestId(r.container, "noPermission")).not.toBeNull();
    expect(state.asked).toEqual(state.asked.map(() => null));
    state.permissions = new Set(["campaigns.manage", "walk_lists.view"]);
    state.map = null;
    r.render(ui(), "/walk-lists/wl1/live");
    expect(text(byTestId(r.container, "canvass-gone"))).toContain("This walk list no longer exists.");
    expect(byTestId(r.container, "canvass-gone")!.querySelector("a")?.getAttribute("href")).toBe("/walk-lists");
  });
});
