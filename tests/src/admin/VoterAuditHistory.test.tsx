/**
 * A voter's audit history on their page (issue 39): only for audit.view (nothing asked for
 * otherwise); the voter's entries newest first with time, actor, action and summary; more on
 * demand; a link to the full log filtered to them; the empty state; axe.
 */
import { getFunctionName } from "convex/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { setDisplayTimeZone } from "@/lib/dateTime";
import {
  allByTestId,
  button,
  byTestId,
  click,
  expectNoAxeViolations,
  mountRoot,
  type MountedRoot,
} from "../../support/render";

const state = {
  permissions: new Set<string>(),
  entries: [] as Record<string, unknown>[],
  status: "Exhausted",
  args: undefined as unknown,
  loadMore: vi.fn(),
};

vi.mock("convex/react", () => ({
  usePaginatedQuery: (ref: unknown, args: unknown) => {
    if (getFunctionName(ref as never) === "audit:forVoter") state.args = args;
    if (args === "skip") return { results: [], status: "LoadingFirstPage", loadMore: state.loadMore, isLoading: true };
    return { results: state.entries, status: state.status, loadMore: state.loadMore, isLoading: false };
  },
}));
vi.mock("@/session/ViewerProvider", () => ({ useViewer: () => ({ can: (p: string) => state.permissions.has(p) }) }));

const { VoterAuditHistory } = await import("@/features/admin");

const AT = Date.UTC(2026, 5, 3, 21, 5, 9);
const entry = (seq: number, over: Record<string, unknown>) => ({
  _id: `e${seq}`,
  _creationTime: AT,
  orgId: "o1",
  seq,
  at: AT,
  actorId: "u1",
  actorName: "Ada Lovelace",
  impersonatedRole: null,
  requestId: "r",
  action: "voter.update",
  target: { table: "voters", id: "v1", label: "Grace Hopper" },
  summary: "",
  changes: [],
  prevHash: "0".repeat(64),
  hash: "1".repeat(64),
  ...over,
});

const text = (el: Element | null | undefined) => el?.textContent ?? "";

describe("VoterAuditHistory", () => {
  let r: MountedRoot;
  beforeAll(() => setDisplayTimeZone("America/Chicago"));
  afterAll(() => setDisplayTimeZone(null));
  beforeEach(() => {
    r = mountRoot();
    state.permissions = new Set(["audit.view"]);
    state.status = "Exhausted";
    state.args = undefined;
    state.loadMore.mockClear();
    state.entries = [
      entry(3, { action: "export", actorName: "Bea Admin", summary: "Exported 1 voter as CSV." }),
      entry(2, { summary: "Changed 1 field of voter Grace Hopper.", impersonatedRole: "viewer" }),
      entry(1, { action: "voter.create", at: AT - 86_400_000, summary: "Added voter Grace Hopper." }),
    ];
  });
  afterEach(() => r.unmount());
  const show = () => r.render(<VoterAuditHistory voterId={"v1" as never} voterName="Grace Hopper" />, "/voters/v1");

  test("without audit.view: nothing shown, nothing asked for", () => {
    state.permissions = new Set(["voters.view", "voters.manage"]);
    show();
    expect(byTestId(r.container, "voters.auditHistory")).toBeNull();
    expect(state.args).toBe("skip");
  });

  test("who saw, changed, exported this person: newest first, with when, who, what", () => {
    show();
    expect(state.args).toEqual({ voterId: "v1" });
    const card = byTestId(r.container, "voters.auditHistory")!;
    expect(text(card)).toContain("Who saw, changed, exported this person.");
    const rows = allByTestId(card, "voters.auditHistory.row").map(text);
    expect(rows).toEqual([
      "Jun 3, 2026, 4:05:09 PM · Bea Admin · ExportExported 1 voter as CSV.",
      "Jun 3, 2026, 4:05:09 PM · Ada Lovelace as Viewer · Voter changedChanged 1 field of voter Grace Hopper.",
      "Jun 2, 2026, 4:05:09 PM · Ada Lovelace · Voter createdAdded voter Grace Hopper.",
    ]);
    expect(card.querySelector("a")?.getAttribute("href")).toBe("/audit-log?target=v1&targetName=Grace+Hopper");
    expect(button(card, "Show more")).toBeUndefined();
  });

  test("more on demand; the empty state", () => {
    state.status = "CanLoadMore";
    show();
    click(button(r.container, "Show more"));
    expect(state.loadMore).toHaveBeenCalledWith(20);
    state.entries = [];
    state.status = "Exhausted";
    show();
    expect(text(byTestId(r.container, "voters.auditHistory"))).toContain(
      "The audit log has no entries about this person.",
    );
  });

  test("axe finds no violations", async () => {
    state.status = "CanLoadMore";
    show();
    await expectNoAxeViolations(r.container);
    state.entries = [];
    show();
    await expectNoAxeViolations(r.container);
  });
});
