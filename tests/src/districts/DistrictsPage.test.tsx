/**
 * /districts with its data hooks mocked (the map too: Leaflet needs a real browser, see
 * tests/e2e/districts.spec.ts): members without voters.view get the refusal; no districts says how
 * to add boundaries (a link to Map data); the list by kind with voters, the chosen measure and
 * code/map disagreements; the map's shading follows the measure; a district's page shows counts by
 * party and status, turnout history and the disagreement report (the disagreeing voters both
 * ways on request, a page at a time), links to its voters and makes a group for those who manage
 * voters; accessible.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
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
  overview: undefined as unknown,
  list: undefined as unknown,
  outlines: undefined as unknown,
  open: undefined as unknown,
  lastArgs: null as unknown,
  makeGroup: vi.fn(async (_args: unknown) => "g1"),
  makeEmailSegment: vi.fn(async (_args: unknown) => "s1"),
  shading: null as Map<string, { fill: string; value: string }> | null,
  /** the disagreeing voters per direction, and the calls their hook got */
  disagreeing: {} as Record<string, { results: unknown[]; status: string }>,
  disagreementArgs: [] as unknown[],
  loadMore: vi.fn((_n: number) => {}),
};

vi.mock("@/session/ViewerProvider", () => ({
  useViewer: () => ({ me: {}, can: (p: string) => state.permissions.has(p) }),
}));
vi.mock("@/lib/map/useOrgMap", () => ({ useOrgMap: () => ({ streets: null, basemapUrl: null, tiles: null }) }));
vi.mock("@/features/districts/hooks/useDistricts", () => ({
  useDistrictOverview: (enabled: boolean) => (enabled ? state.overview : undefined),
  useDistricts: (kind: string | null, openId: string | null) => {
    state.lastArgs = { kind, openId };
    return {
      list: kind ? state.list : undefined,
      outlines: kind ? state.outlines : undefined,
      open: openId ? state.open : undefined,
    };
  },
  useDistrictActions: () => ({ makeGroup: state.makeGroup, makeEmailSegment: state.makeEmailSegment }),
  useDistrictDisagreements: (id: string, direction: string, pageSize: number) => {
    state.disagreementArgs.push({ id, direction, pageSize });
    return { ...(state.disagreeing[direction] ?? { results: [], status: "Exhausted" }), loadMore: state.loadMore };
  },
}));
vi.mock("@/features/districts/components/DistrictMap", () => ({
  DistrictMap: (p: { outlines: { id: string }[]; shading: Map<string, { fill: string; value: string }> }) => {
    state.shading = p.shading;
    return <div data-testid="districts.map">{p.outlines.length} outlines</div>;
  },
}));
vi.mock("@/ui/toast", () => ({
  toast: { success: vi.fn(), failure: vi.fn() },
  errorMessage: () => "An unexpected error occurred.",
}));

const { DistrictsPage } = await import("@/features/districts/DistrictsPage");

const row = (id: string, name: string, voters: number, extra: Record<string, unknown> = {}) => ({
  id,
  kind: "precinct",
  key: id,
  name,
  code: null,
  filter: `precinct:${id}`,
  voters,
  mappedElsewhere: 0,
  codedElsewhere: 0,
  hasOutline: true,
  bbox: [0, 0, 1, 1],
  parties: [],
  turnout: [],
  ...extra,
});
const P1 = row("d1", "Springfield 1", 200, {
  parties: [
    { party: "Democrat", count: 120 },
    { party: "Republican", count: 80 },
  ],
  turnout: [{ election: "2024 General", voted: 150 }],
  mappedElsewhere: 3,
});
const P2 = row("d2", "Springfield 2", 100, {
  parties: [
    { party: "Republican", count: 70 },
    { party: "Democrat", count: 30 },
  ],
  turnout: [{ election: "2024 General", voted: 25 }],
});
const text = (el: Element | null | undefined) => el?.textContent ?? "";

describe("DistrictsPage", () => {
  let r: MountedRoot;
  beforeEach(() => {
    r = mountRoot();
    state.permissions = new Set(["voters.view"]);
    state.overview = {
      kinds: [
        { kind: "precinct", outlines: true },
        { kind: "congress", outlines: false },
      ],
      boundaryLayers: 1,
      run: null,
    };
    state.list = { districts: [P1, P2], truncated: false };
    state.outlines = {
      outlines: [
        { id: "d1", geometry: "{}" },
        { id: "d2", geometry: "{}" },
      ],
      truncated: false,
    };
    state.open = undefined;
    state.makeGroup.mockClear();
    state.makeEmailSegment.mockClear();
    state.disagreeing = {};
    state.disagreementArgs = [];
    state.loadMore.mockClear();
  });
  afterEach(() => r.unmount());

  test("members without voters.view get the refusal", () => {
    state.permissions = new Set();
    r.render(<DistrictsPage />, "/districts");
    expect(r.container.querySelector("h1")?.textContent).toBe("Districts");
    expect(byTestId(r.container, "noPermission")).not.toBeNull();
  });

  test("no boundaries and no codes: how to add them, with a link to Map data", async () => {
    state.overview = { kinds: [], boundaryLayers: 0, run: null };
    r.render(<DistrictsPage />, "/districts");
    const empty = byTestId(r.container, "districts.empty");
    expect(text(empty)).toContain("No districts yet");
    expect(empty!.querySelector("a")?.getAttribute("href")).toBe("/account-settings/map-data");
    await expectNoAxeViolations(r.container);
  });

  test("the first kind's districts with voters and disagreements; the map shaded by voters, then by party share", async () => {
    r.render(<DistrictsPage />, "/districts");
    expect(state.lastArgs).toEqual({ kind: "precinct", openId: null });
    const rows = allByTestId(r.container, "districts.row");
    expect(rows.map((x) => [...x.querySelectorAll("th, td")].map((c) => text(c)))).toEqual([
      ["Springfield 1", "200", "3"],
      ["Springfield 2", "100", "0"],
    ]);
    expect(text(byTestId(r.container, "districts.map"))).toBe("2 outlines");
    expect(state.shading!.get("d1")!.fill).not.toBe(state.shading!.get("d2")!.fill);
    await expectNoAxeViolations(r.container);
    r.unmount();
    r = mountRoot();
    r.render(<DistrictsPage />, "/districts?measure=party&party=Republican");
    expect(allByTestId(r.container, "districts.row").map((x) => text(x.querySelectorAll("td")[1]))).toEqual([
      "40.0%",
      "70.0%",
    ]);
    expect(state.shading!.get("d2")!.value).toBe("70.0%");
    r.unmount();
    r = mountRoot();
    r.render(<DistrictsPage />, "/districts?measure=turnout");
    expect(allByTestId(r.container, "districts.row").map((x) => text(x.querySelectorAll("td")[1]))).toEqual([
      "75.0%",
      "25.0%",
    ]);
  });

  test("a district's page: counts by party and status, turnout, disagreements, its voters, a group", async () => {
    state.permissions = new Set(["voters.view", "voters.manage"]);
    state.open = {
      ...P1,
      code: "17167000010",
      layerName: "Precincts 2020",
      cells: [
        { party: "Democrat", status: "Active", count: 100 },
        { party: "Democrat", status: "Inactive", count: 20 },
        { party: "Republican", status: "Active", count: 80 },
      ],
    };
    r.render(<DistrictsPage />, "/districts");
    click(button(r.container, "Springfield 1"));
    await flush();
    expect(state.lastArgs).toEqual({ kind: "precinct", openId: "d1" });
    const panel = byTestId(document.body, "districts.panel")!;
    expect(text(panel)).toContain("outline from Precincts 2020");
    expect(text(byTestId(panel, "districts.panel.voters"))).toBe("200");
    expect(text(panel)).toContain("Democrat12060.0%");
    expect(text(panel)).toContain("Inactive2010.0%");
    expect(text(panel)).toContain("2024 General15075.0%");
    expect(text(byTestId(panel, "districts.panel.disagreement"))).toContain(
      "3 voters coded to this district are placed in another one on the map.",
    );
    const link = [...panel.querySelectorAll("a")].find((a) => text(a) === "View its voters")!;
    expect(link.getAttribute("href")).toBe("/voters?district=precinct%3Ad1&districtName=Springfield+1");
    click(button(panel, "Make a group"));
    await flush();
    click(button(panel, "Create group"));
    await flush();
    expect(state.makeGroup).toHaveBeenCalledWith({ id: "d1", name: "Springfield 1" });
    // campaigns.manage would also offer a segment; voters.manage alone does not
    expect(button(panel, "Make an email segment")).toBeUndefined();
    await expectNoAxeViolations(panel);
  });

  test("an email segment of the district, for those who manage campaigns", async () => {
    state.permissions = new Set(["voters.view", "campaigns.manage"]);
    state.open = { ...P1, layerName: null, cells: [] };
    r.render(<DistrictsPage />, "/districts?district=d1");
    await flush();
    const panel = byTestId(document.body, "districts.panel")!;
    expect(button(panel, "Make a group")).toBeUndefined();
    click(button(panel, "Make an email segment"));
    await flush();
    click(button(panel, "Create segment"));
    await flush();
    expect(state.makeEmailSegment).toHaveBeenCalledWith({ id: "d1", name: "Springfield 1" });
  });

  test("which voters disagree: shown on request, both ways, each linking to the voter, a page at a time", async () => {
    state.open = { ...P1, codedElsewhere: 1, layerName: "Precincts 2020", cells: [] };
    state.disagreeing = {
      mappedElsewhere: {
        results: [
          {
            voterId: "v1",
            name: "Pat Doe",
            address: "1 Main St, Springfield",
            codedName: "Springfield 1",
            mappedName: "Springfield 2",
          },
          { voterId: "v2", name: "Sam Roe", address: "", codedName: "Springfield 1", mappedName: "Springfield 3" },
        ],
        status: "CanLoadMore",
      },
      codedElsewhere: {
        results: [
          {
            voterId: "v3",
            name: "Lee Poe",
            address: "9 Elm St",
            codedName: "Springfield 4",
            mappedName: "Springfield 1",
          },
        ],
        status: "Exhausted",
      },
    };
    r.render(<DistrictsPage />, "/districts?district=d1");
    await flush();
    const panel = byTestId(document.body, "districts.panel")!;
    const report = byTestId(panel, "districts.panel.disagreement")!;
    // nothing is read until asked
    expect(state.disagreementArgs).toEqual([]);
    expect(allByTestId(panel, "districts.panel.disagreeingVoter")).toEqual([]);
    click(button(report, "Show voters"));
    await flush();
    expect(state.disagreementArgs).toEqual(
      expect.arrayContaining([
        { id: "d1", direction: "mappedElsewhere", pageSize: 25 },
        { id: "d1", direction: "codedElsewhere", pageSize: 25 },
      ]),
    );
    const coded = byTestId(panel, "districts.panel.disagreeing.mappedElsewhere")!;
    expect(text(coded.querySelector("h3"))).toBe("Coded to this district, placed in another on the map");
    const items = allByTestId(coded, "districts.panel.disagreeingVoter");
    expect(items.map((li) => text(li))).toEqual([
      "Pat Doe1 Main St, SpringfieldCode: Springfield 1 · Map: Springfield 2",
      "Sam RoeCode: Springfield 1 · Map: Springfield 3",
    ]);
    expect(items[0].querySelector("a")?.getAttribute("href")).toBe("/voters/v1");
    click(button(coded, "Load more"));
    expect(state.loadMore).toHaveBeenCalledWith(25);
    const mapped = byTestId(panel, "districts.panel.disagreeing.codedElsewhere")!;
    expect(text(mapped.querySelector("h3"))).toBe("Placed in this district on the map, coded to another");
    expect(allByTestId(mapped, "districts.panel.disagreeingVoter").map((li) => text(li))).toEqual([
      "Lee Poe9 Elm StCode: Springfield 4 · Map: Springfield 1",
    ]);
    // every page loaded: no button
    expect(button(mapped, "Load more")).toBeUndefined();
    await expectNoAxeViolations(panel);
    click(button(report, "Hide voters"));
    await flush();
    expect(allByTestId(panel, "districts.panel.disagreeingVoter")).toEqual([]);
  });

  test("no disagreement: nothing to show", async () => {
    state.open = { ...P2, layerName: null, cells: [] };
    r.render(<DistrictsPage />, "/districts?district=d2");
    await flush();
    const report = byTestId(byTestId(document.body, "districts.panel")!, "districts.panel.disagreement")!;
    expect(text(report)).toContain("No disagreement");
    expect(button(report, "Show voters")).toBeUndefined();
  });

  test("members who only view voters get no group action", async () => {
    state.open = { ...P1, layerName: null, cells: [] };
    r.render(<DistrictsPage />, "/districts?district=d1");
    await flush();
    const panel = byTestId(document.body, "districts.panel")!;
    expect(button(panel, "Make a group")).toBeUndefined();
    expect(button(panel, "Make an email segment")).toBeUndefined();
    expect(text(panel)).toContain("View its voters");
  });
});
