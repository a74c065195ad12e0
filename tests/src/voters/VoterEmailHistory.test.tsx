/** A voter's campaign emails on their record: one row per email with status and marks; the empty state; axe. */
import { getFunctionName } from "convex/server";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { allByTestId, axeViolations, byTestId, mountRoot, type MountedRoot } from "../../support/render";

type Row = {
  id: string;
  campaignId: string;
  campaignName: string;
  subject: string;
  status: string;
  opened: boolean;
  clicked: boolean;
  unsubscribed: boolean;
  sentAt: number | null;
  queuedAt: number;
};
const state = { rows: undefined as Row[] | undefined, args: {} as Record<string, unknown> };

vi.mock("convex/react", () => ({
  useQuery: (ref: unknown, args: unknown) => {
    state.args[getFunctionName(ref as never)] = args;
    return getFunctionName(ref as never) === "emailBlasts:voterHistory" ? state.rows : undefined;
  },
}));

const { VoterEmailHistory } = await import("@/features/voters/components/VoterEmailHistory");

const rows: Row[] = [
  {
    id: "r1",
    campaignId: "c1",
    campaignName: "Spring Newsletter",
    subject: "Hello Ada",
    status: "delivered",
    opened: true,
    clicked: true,
    unsubscribed: false,
    sentAt: Date.UTC(2025, 3, 1),
    queuedAt: 1,
  },
  {
    id: "r2",
    campaignId: "c2",
    campaignName: "GOTV",
    subject: "Vote Tuesday",
    status: "bounced",
    opened: false,
    clicked: false,
    unsubscribed: false,
    sentAt: null,
    queuedAt: Date.UTC(2025, 4, 1),
  },
  {
    id: "r3",
    campaignId: "c3",
    campaignName: "Fundraiser",
    subject: "Chip in",
    status: "sent",
    opened: true,
    clicked: false,
    unsubscribed: true,
    sentAt: Date.UTC(2025, 5, 1),
    queuedAt: 1,
  },
];

describe("VoterEmailHistory", () => {
  let m: MountedRoot;
  beforeEach(() => (m = mountRoot()));
  afterEach(() => m.unmount());
  const show = (r: Row[] | undefined) => {
    state.rows = r;
    m.render(<VoterEmailHistory voterId={"v1" as never} />);
  };

  test("one row per email: campaign (linked), subject, status, marks", () => {
    show(rows);
    expect(state.args["emailBlasts:voterHistory"]).toEqual({ voterId: "v1" });
    const r = allByTestId(m.container, "voters.emailHistory.row");
    expect(r).toHaveLength(3);
    expect(r[0].textContent).toContain("Spring Newsletter");
    expect(r[0].textContent).toContain("Hello Ada");
    expect(r[0].querySelector("a")?.getAttribute("href")).toBe("/email?campaign=c1");
    const marks = (row: HTMLElement) => allByTestId(row, "voters.emailHistory.mark").map((x) => x.textContent);
    expect(marks(r[0])).toEqual(["Opened", "Clicked"]);
    expect(marks(r[1])).toEqual([]);
    expect(marks(r[2])).toEqual(["Opened", "Unsubscribed"]);
    expect(r[1].textContent).toContain("bounced");
    // no sentAt: the queued time is shown
    expect(r[1].textContent).toContain(new Date(Date.UTC(2025, 4, 1)).toLocaleString());
  });

  test("empty state", () => {
    show([]);
    expect(byTestId(m.container, "voters.emailHistory")!.textContent).toContain("No emails sent to this voter yet.");
  });

  test("axe finds no violations", async () => {
    show(rows);
    expect(await axeViolations(m.container)).toEqual([]);
    show([]);
    expect(await axeViolations(m.container)).toEqual([]);
  });
});
