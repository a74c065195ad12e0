/**
 * Canvassing on the voter's record: each attempt in the contact history (result, list, canvasser,
 * time, the whole household, do-not-contact and wrong-address marks, answers, notes), the empty
 * state, and the flags canvassers set as badges with who, when and which list; live; axe.
 */
import { getFunctionName } from "convex/server";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { formatDateTime } from "@/lib/dateTime";
import { allByTestId, axeViolations, byTestId, mountRoot, type MountedRoot } from "../../support/render";

const state = {
  history: undefined as unknown[] | undefined,
  flags: undefined as unknown[] | undefined,
  args: {} as Record<string, unknown>,
};

vi.mock("convex/react", () => ({
  useQuery: (ref: unknown, args: unknown) => {
    const name = getFunctionName(ref as never);
    state.args[name] = args;
    if (name === "canvass:voterHistory") return state.history;
    if (name === "canvassDashboard:voterFlags") return state.flags;
    return undefined;
  },
}));

const { VoterCanvassHistory } = await import("@/features/voters/components/VoterCanvassHistory");
const { VoterCanvassFlags } = await import("@/features/voters/components/VoterCanvassFlags");

const AT = Date.UTC(2026, 5, 3, 16, 5);
const attempt = (id: string, extra: Record<string, unknown>) => ({
  id,
  at: AT,
  result: "not_home",
  resultLabel: "Not Home",
  listId: "wl1",
  listName: "North loop",
  canvasserName: "Val Volunteer",
  door: false,
  notes: null,
  answers: null,
  doNotContact: false,
  wrongAddress: false,
  ...extra,
});
const HISTORY = [
  attempt("e3", { at: AT + 2_000, result: "come_back", resultLabel: "Come Back", door: true }),
  attempt("e2", {
    at: AT + 1_000,
    result: "contacted",
    resultLabel: "Contacted",
    answers: { support: "Yes", issues: ["Schools", "Roads"] },
    notes: "Wants a yard sign",
    doNotContact: true,
  }),
  attempt("e1", { listName: null, wrongAddress: true }),
];
const text = (el: Element | null | undefined) => el?.textContent ?? "";

describe("the voter's canvassing", () => {
  let m: MountedRoot;
  beforeEach(() => {
    m = mountRoot();
    state.history = HISTORY;
    state.flags = [];
  });
  afterEach(() => m.unmount());

  test("each attempt: result, list, canvasser and time, the whole household, marks, answers and notes", async () => {
    m.render(<VoterCanvassHistory voterId={"v1" as never} />);
    expect(state.args["canvass:voterHistory"]).toEqual({ voterId: "v1" });
    const card = byTestId(m.container, "voters.canvassHistory")!;
    expect(card.querySelector("h2")?.textContent).toBe("Canvassing");
    const rows = allByTestId(card, "voters.canvassHistory.row");
    expect(rows).toHaveLength(3);
    expect(text(rows[0])).toBe(
      `North loop${formatDateTime(AT + 2_000)} · Val Volunteer · for the whole householdCome Back`,
    );
    expect(text(rows[1])).toContain("Contacted");
    expect(text(rows[1])).toContain("Do not contact");
    expect(text(rows[1])).toContain("Answers: Yes; Schools, Roads");
    expect(text(rows[1])).toContain("Wants a yard sign");
    expect(text(rows[1])).not.toContain("whole household");
    expect(text(rows[2])).toContain("A deleted walk list");
    expect(text(rows[2])).toContain("Wrong address");
    expect(await axeViolations(m.container)).toEqual([]);
  });

  test("no attempts yet; a new attempt shows when the live query answers again", () => {
    state.history = [];
    m.render(<VoterCanvassHistory voterId={"v1" as never} />);
    expect(text(byTestId(m.container, "voters.canvassHistory"))).toContain("No doors knocked for this voter yet.");
    state.history = [HISTORY[1]];
    m.rerender(<VoterCanvassHistory voterId={"v1" as never} />);
    expect(allByTestId(m.container, "voters.canvassHistory.row")).toHaveLength(1);
  });

  test("flags as badges with who, when and which list; nothing without flags", async () => {
    m.render(<VoterCanvassFlags voterId={"v1" as never} />);
    expect(byTestId(m.container, "voters.canvassFlags")).toBeNull();
    state.flags = [
      { id: "f2", kind: "do_not_contact", at: AT + 60_000, byName: "Val Volunteer", listName: "North loop" },
      { id: "f1", kind: "moved", at: AT, byName: "Cam Manager", listName: null },
      { id: "f0", kind: "canvass_added", at: AT, byName: "Cam Manager", listName: "North loop" },
    ];
    m.rerender(<VoterCanvassFlags voterId={"v2" as never} />);
    expect(state.args["canvassDashboard:voterFlags"]).toEqual({ voterId: "v2" });
    const items = allByTestId(m.container, "voters.canvassFlag");
    expect(items.map((i) => text(i))).toEqual([
      `Do not contactVal Volunteer · ${formatDateTime(AT + 60_000)} · North loop`,
      `MovedCam Manager · ${formatDateTime(AT)}`,
      `Added at the doorCam Manager · ${formatDateTime(AT)} · North loop`,
    ]);
    expect(await axeViolations(m.container)).toEqual([]);
  });
});
