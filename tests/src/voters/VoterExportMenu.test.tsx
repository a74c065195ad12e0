/**
 * The voter export (issue 39): with imports attested for states, choosing an export first shows
 * each state's voter-file use restriction (nothing is read until Export is confirmed; Cancel
 * reads nothing); without attested states it exports at once. Every export is started on the
 * server (the run its pages need) and finished with its row count; accessible.
 */
import { getFunctionName } from "convex/server";
import { act } from "react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  button,
  byTestId,
  click,
  expectNoAxeViolations,
  flush,
  mountRoot,
  type MountedRoot,
} from "../../support/render";

const state = { states: [] as string[], calls: [] as [string, Record<string, unknown>][] };
const client = {
  mutation: vi.fn(async (ref: unknown, args: Record<string, unknown>) => {
    state.calls.push([getFunctionName(ref as never), args]);
    return getFunctionName(ref as never) === "voters:startExport" ? "run1" : null;
  }),
  query: vi.fn(async (ref: unknown, args: Record<string, unknown>) => {
    state.calls.push([getFunctionName(ref as never), args]);
    if (getFunctionName(ref as never) === "customFields:list") return [];
    return { page: [{ _id: "v1", first_name: "Ada", last_name: "Lovelace" }], isDone: true, continueCursor: "" };
  }),
};
vi.mock("convex/react", () => ({
  useConvex: () => client,
  useQuery: (ref: unknown) => (getFunctionName(ref as never) === "voters:exportStates" ? state.states : undefined),
}));
vi.mock("@/lib/download", () => ({ downloadBlob: vi.fn() }));
vi.mock("@/ui/toast", () => ({ toast: { success: vi.fn(), failure: vi.fn() } }));

const { VoterExportMenu } = await import("@/features/voters/components/VoterExportMenu");
const filter = { search: "", party: "", status: "", statusCode: "" } as never;

/** Opens the Export menu (Radix opens it from the keyboard in jsdom) and picks an item. */
function choose(m: MountedRoot, item: string) {
  const trigger = byTestId(m.container, "voters.export")!;
  act(() => void trigger.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true })));
  const menuItem = [...document.querySelectorAll("[role=menuitem]")].find((e) => e.textContent === item);
  click(menuItem);
}

describe("voter export notice", () => {
  let m: MountedRoot;
  beforeEach(() => {
    m = mountRoot();
    state.calls = [];
  });
  afterEach(() => m.unmount());

  test("attested states: their restrictions are shown before anything is exported", async () => {
    state.states = ["NC", "TX"];
    m.render(<VoterExportMenu filter={filter} />);
    choose(m, "Export CSV");
    const notice = byTestId(document.body, "voters.exportNotice")!;
    expect(notice.textContent).toContain(
      "Exports of voter-file data from North Carolina are restricted: Voter file data may be used only for political or election purposes",
    );
    expect(notice.textContent).toContain("Exports of voter-file data from Texas are restricted:");
    expect(notice.textContent).toContain("recorded in the audit log");
    expect(state.calls).toEqual([]);
    await expectNoAxeViolations(document.body);

    click(button(document.body, "Cancel"));
    await flush();
    expect(byTestId(document.body, "voters.exportNotice")).toBeNull();
    expect(state.calls).toEqual([]);

    choose(m, "Export CSV");
    click(button(document.body, "Export CSV"));
    await flush();
    await flush();
    expect(state.calls.map(([name]) => name)).toEqual([
      "customFields:list",
      "voters:startExport",
      "voters:exportPage",
      "exports:finish",
    ]);
    expect(state.calls[1][1]).toMatchObject({ format: "csv" });
    expect(state.calls[2][1]).toMatchObject({ exportId: "run1" });
    expect(state.calls[3][1]).toEqual({ exportId: "run1", rows: 1 });
  });

  test("no attested state: the export starts at once, with the list's filter (its district too) on every call", async () => {
    state.states = [];
    m.render(<VoterExportMenu filter={{ search: "", party: "", status: "", statusCode: "", district: "cd:IL-07" }} />);
    choose(m, "Export Excel (.xlsx)");
    await flush();
    await flush();
    expect(byTestId(document.body, "voters.exportNotice")).toBeNull();
    expect(state.calls.map(([name]) => name)).toContain("exports:finish");
    expect(state.calls.find(([name]) => name === "voters:startExport")![1]).toMatchObject({
      format: "xlsx",
      district: "cd:IL-07",
    });
    expect(state.calls.find(([name]) => name === "voters:exportPage")![1]).toMatchObject({ district: "cd:IL-07" });
  });
});
