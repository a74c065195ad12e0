/**
 * The voter list offers only what the role may do (spec/1 §6 UI gating), shows the total matching
 * the filter (counting, capped search) and "Select all matching (n)".
 */
import { Theme } from "@radix-ui/themes";
import { getFunctionName } from "convex/server";
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { builtInRole, resolveRoles, type Permission } from "@convex/lib/permissions";

type CountPage = { count: number; capped: boolean };
const state = {
  permissions: new Set<string>(),
  countPages: [{ count: 2, capped: false }] as CountPage[],
  countStatus: "Exhausted" as string,
  loadMore: vi.fn(),
  listArgs: null as unknown,
};
const voters = [
  {
    _id: "v1",
    _creationTime: 2,
    orgId: "o",
    first_name: "Ada",
    last_name: "Lovelace",
    email: "ada@example.org",
    phone: "(919) 555-0142",
    party_affiliation: "Democrat",
    status: "Active",
  },
  {
    _id: "v2",
    _creationTime: 1,
    orgId: "o",
    first_name: "Grace",
    last_name: "Hopper",
    party_affiliation: "Republican",
    status: "Inactive",
    precinct: "P-1",
  },
];

vi.mock("convex/react", () => ({
  useQuery: (ref: unknown) => (getFunctionName(ref as never) === "voters:statusCodes" ? ["A", "R"] : undefined),
  useMutation: () => vi.fn(),
  useConvex: () => ({}),
  usePaginatedQuery: (ref: unknown, args: unknown) => {
    if (getFunctionName(ref as never) === "voters:count")
      return { results: state.countPages, status: state.countStatus, loadMore: state.loadMore, isLoading: false };
    state.listArgs = args;
    return { results: voters, status: "Exhausted", loadMore: vi.fn(), isLoading: false };
  },
}));
vi.mock("@/session/ViewerProvider", () => ({
  MODE_LABELS: { campaign: { name: "Campaign", voters: "Voters", voter: "Voter", dashboard: "Campaign Dashboard" } },
  useViewer: () => ({ mode: "campaign", can: (p: Permission) => state.permissions.has(p) }),
}));

const { VotersPage } = await import("@/features/voters/VotersPage");

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// Radix's checkbox measures itself
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as never;

function rolePermissions(role: string): Set<string> {
  return new Set(resolveRoles([role], undefined, undefined, builtInRole)!.permissions);
}

describe("voter list", () => {
  let container: HTMLDivElement;
  let root: Root;
  beforeEach(() => {
    window.matchMedia = ((query: string) => ({
      matches: false,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })) as never;
    state.countPages = [{ count: 2, capped: false }];
    state.countStatus = "Exhausted";
    state.loadMore.mockReset();
    container = document.createElement("div");
    document.body.appendChild(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });

  const render = (role: string, url = "/voters") => {
    state.permissions = rolePermissions(role);
    act(() =>
      root.render(
        <Theme>
          <MemoryRouter initialEntries={[url]}>
            <VotersPage />
          </MemoryRouter>
        </Theme>,
      ),
    );
  };
  const buttons = () =>
    [...container.querySelectorAll("button")].map((b) => b.getAttribute("aria-label") ?? b.textContent?.trim() ?? "");
  const text = () => container.textContent ?? "";

  test("a volunteer (voters.view, voters.update) gets no Add Voter, Import, Export or Delete; may edit and select", () => {
    render("volunteer");
    expect(state.permissions.has("voters.manage")).toBe(false);
    const b = buttons();
    expect(b.some((x) => /Add Voter/.test(x))).toBe(false);
    expect(b.some((x) => /Import/.test(x))).toBe(false);
    expect(container.querySelector("[data-testid='voters.export']")).toBeNull();
    expect(b.filter((x) => x.startsWith("Delete "))).toEqual([]);
    expect(b).toContain("Edit Ada Lovelace");
    expect(b).toContain("Select Ada Lovelace");
    expect(b).toContain("Select all matching (2)");
  });

  test("a campaign manager gets every action", () => {
    render("campaign_manager");
    const b = buttons();
    expect(b.some((x) => /Add Voter/.test(x))).toBe(true);
    expect(b.some((x) => /Import/.test(x))).toBe(true);
    expect(container.querySelector("[data-testid='voters.export']")).not.toBeNull();
    expect(b).toContain("Delete Grace Hopper");
  });

  test("a district's voters (Districts → View its voters): the filter goes to the server, is named, and clears", () => {
    render("viewer", "/voters?district=precinct%3Ad1&districtName=Springfield+1");
    expect(state.listArgs).toMatchObject({ district: "precinct:d1" });
    const chip = container.querySelector("[data-testid='voters.districtFilter']");
    expect(chip?.textContent).toContain("District: Springfield 1");
    act(() => (chip!.querySelector("button") as HTMLButtonElement).click());
    expect(container.querySelector("[data-testid='voters.districtFilter']")).toBeNull();
    expect(state.listArgs).toMatchObject({ district: undefined });
  });

  test("a viewer only reads: no edit, no selection", () => {
    render("viewer");
    const b = buttons();
    expect(b).toContain("View Ada Lovelace");
    expect(b.some((x) => x.startsWith("Edit ") || x.startsWith("Select") || x.startsWith("Delete "))).toBe(false);
  });

  test("the total matching: exact, while counting, and a capped search", () => {
    state.countPages = [
      { count: 12_000, capped: false },
      { count: 345, capped: false },
    ];
    render("volunteer");
    expect(container.querySelector("[data-testid='voters.total']")?.textContent).toBe("12,345 voters");
    expect(buttons()).toContain("Select all matching (12,345)");

    state.countPages = [{ count: 4_000, capped: false }];
    state.countStatus = "LoadingMore";
    render("volunteer");
    expect(container.querySelector("[data-testid='voters.total']")?.textContent).toBe("Counting… 4,000+");
    const selectAll = [...container.querySelectorAll("button")].find((x) =>
      x.textContent?.startsWith("Select all matching"),
    );
    expect(selectAll?.textContent).toBe("Select all matching (counting…)");
    expect(selectAll?.disabled).toBe(true);

    state.countPages = [
      { count: 1_024, capped: true },
      { count: 0, capped: false },
    ];
    state.countStatus = "Exhausted";
    render("volunteer");
    expect(text()).toContain("1,024+ voters");
    expect(text()).toContain("first 1,024 results");
  });

  test("the count's pages are fetched in turn until the last", () => {
    state.countStatus = "CanLoadMore";
    render("viewer");
    expect(state.loadMore).toHaveBeenCalledWith(1);
  });
});
