/**
 * The Automated tab (spec/2 §2.2, §5): the client runs the send checks in the spec's order and
 * words before any round trip, saves the touched setup fields with their base before sending,
 * shows a teammate's conflicting change, and shows a scheduled campaign with its actions.
 */
import { getFunctionName } from "convex/server";
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { button, click, expectNoAxeViolations, flush, mount, type, type Mounted } from "../../../support/render";

const state = {
  setup: null as Record<string, unknown> | null,
  estimate: { total: 5, lists: 5, groups: 0, segments: 0, manual: 0 },
};
const mutations = new Map<string, ReturnType<typeof vi.fn>>();
const mutation = (name: string) => {
  if (!mutations.has(name))
    mutations.set(
      name,
      vi.fn(async () => null),
    );
  return mutations.get(name)!;
};
vi.mock("convex/react", () => ({
  useQuery: (ref: unknown, args: unknown) => {
    if (args === "skip") return undefined;
    const name = getFunctionName(ref as never);
    if (name === "emailBlasts:setup") return state.setup;
    if (name === "emailBlasts:setupEditState")
      return { fields: { scheduledAt: { userId: "u2", name: "Grace", at: 1 } }, deleted: null };
    if (name === "emailBlasts:estimate") return state.estimate;
    return undefined;
  },
  useMutation: (ref: unknown) => mutation(getFunctionName(ref as never)),
}));
const toast = vi.hoisted(() => ({
  success: vi.fn(),
  error: vi.fn(),
  info: vi.fn(),
  warning: vi.fn(),
  failure: vi.fn(),
}));
vi.mock("@/ui/toast", () => ({ toast, errorMessage: (e: unknown) => String(e) }));
vi.mock("@/session/ViewerProvider", () => ({ useViewer: () => ({ can: () => true }) }));
vi.mock("@/features/email/blasts/SendProgress", () => ({ SendProgress: () => null }));

const { AutomatedTab } = await import("@/features/email/blasts/AutomatedTab");

const pad = (n: number) => String(n).padStart(2, "0");
const soon = new Date(Date.now() + 10 * 86_400_000);
/** a local date ten days ahead, as a date input holds it */
const SOON = `${soon.getFullYear()}-${pad(soon.getMonth() + 1)}-${pad(soon.getDate())}`;

const baseSetup = {
  listIds: ["l1"],
  groupIds: [],
  segmentIds: [],
  manual: [],
  excludeBounced: true,
  excludeComplained: true,
  sendType: "now",
  scheduledAt: null,
  eventTrigger: "voter_created",
  eventTargetId: null,
  eventRules: [],
  filterRules: [],
  eventRulesJson: "[]",
  filterRulesJson: "[]",
  status: "draft",
  sentAt: null,
};

describe("Automated tab", () => {
  let m: Mounted;
  beforeEach(() => {
    mutations.clear();
    Object.values(toast).forEach((f) => f.mockReset());
    state.setup = { ...baseSetup };
    state.estimate = { total: 5, lists: 5, groups: 0, segments: 0, manual: 0 };
  });
  afterEach(() => m.unmount());
  const render = () => (m = mount(<AutomatedTab campaignId={"c1" as never} canManage />));
  const send = () => mutations.get("emailBlasts:send");

  test("no recipients comes before an incomplete schedule; nothing is sent", async () => {
    state.setup = { ...baseSetup, sendType: "schedule" };
    state.estimate = { ...state.estimate, total: 0 };
    render();
    click(button(m.container, "Schedule send"));
    await flush();
    expect(toast.error).toHaveBeenCalledWith("No recipients selected", {
      description: "Please select recipients in the Send To tab",
    });
    expect(send()?.mock.calls ?? []).toEqual([]);
  });

  test("a schedule needs both date and time; the browser's time zone is shown", async () => {
    state.setup = { ...baseSetup, sendType: "schedule" };
    render();
    expect(m.container.textContent).toContain(`Time zone: ${Intl.DateTimeFormat().resolvedOptions().timeZone}`);
    type(m.container.querySelector<HTMLInputElement>("input[type=date]")!, "2099-05-01");
    click(button(m.container, "Schedule send"));
    await flush();
    expect(toast.error).toHaveBeenCalledWith("Schedule incomplete", {
      description: "Please select both date and time for scheduled send",
    });
    expect(send()?.mock.calls ?? []).toEqual([]);
  });

  test("event rules: the blank first rule is incomplete", async () => {
    state.setup = { ...baseSetup, sendType: "event" };
    render();
    expect(m.container.textContent).toContain("Trigger");
    click(button(m.container, "Activate automation"));
    await flush();
    expect(toast.error).toHaveBeenCalledWith("Event rules incomplete", {
      description: "Please complete all event trigger rules",
    });
  });

  test("each send type's controls have accessible names (axe)", async () => {
    for (const sendType of ["now", "schedule", "event", "filter"]) {
      state.setup = {
        ...baseSetup,
        sendType,
        eventRulesJson: JSON.stringify([
          { id: "a", field: "city", operator: "equals", value: "Cary", timeDelay: 1, timeUnit: "hours" },
          { id: "b", field: "", operator: "is_empty", value: "" },
        ]),
      };
      render();
      await expectNoAxeViolations(m.container);
      m.unmount();
    }
    render();
  });

  test("filter rules: a rule without its value is incomplete", async () => {
    state.setup = {
      ...baseSetup,
      sendType: "filter",
      filterRulesJson: JSON.stringify([{ id: "a", field: "city", operator: "equals", value: "" }]),
    };
    render();
    click(button(m.container, "Activate automation"));
    await flush();
    expect(toast.error).toHaveBeenCalledWith("Filter rules incomplete", {
      description: "Please complete all filter conditions",
    });
  });

  /** Send now, then the confirmation's Send now (the dialog is in a portal on the body) */
  const sendNow = async () => {
    click(button(m.container, "Send now"));
    await flush();
    click(button(document.querySelector("[role=alertdialog]")!, "Send now"));
    await flush();
  };

  test("Send now asks first, naming the recipient count; Cancel sends nothing", async () => {
    state.estimate = { ...state.estimate, total: 1 };
    render();
    click(button(m.container, "Send now"));
    await flush();
    const dialog = document.querySelector("[role=alertdialog]")!;
    expect(dialog.textContent).toContain("Send this campaign to 1 recipient now?");
    await expectNoAxeViolations(document.body);
    click(button(dialog, "Cancel"));
    await flush();
    expect(send()?.mock.calls ?? []).toEqual([]);
    expect(document.querySelector("[role=alertdialog]")).toBeNull();
    state.estimate = { ...state.estimate, total: 1200 };
    render();
    click(button(m.container, "Send now"));
    await flush();
    expect(document.querySelector("[role=alertdialog]")!.textContent).toContain("to 1,200 recipients now?");
  });

  test("Send now with nothing changed sends with the browser's time zone", async () => {
    mutation("emailBlasts:send").mockResolvedValue({ status: "sent", sendId: "s1" });
    render();
    await sendNow();
    expect(mutations.get("emailBlasts:updateSetup")?.mock.calls ?? []).toEqual([]);
    expect(send()).toHaveBeenCalledWith({ id: "c1", timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone });
    expect(toast.success).toHaveBeenCalledWith("Campaign sent", expect.anything());
  });

  test("the server's refusal is shown with its title", async () => {
    const refusal = new ConvexError({
      code: "VALIDATION_ERROR",
      message:
        'No recipients selected. Please go to the "Send To" tab and select at least one list, group, segment, or add manual recipients.',
      title: "No recipients selected",
    });
    mutation("emailBlasts:send").mockRejectedValue(refusal);
    render();
    await sendNow();
    expect(toast.failure).toHaveBeenCalledWith("No recipients selected", refusal, {});
  });

  test("the schedule is saved with its base before scheduling; a teammate's conflicting change is shown, not overwritten", async () => {
    state.setup = { ...baseSetup, sendType: "schedule" };
    const conflict = new ConvexError({
      code: "CONFLICT",
      message: 'The campaign "X" was changed by Grace while you were editing: scheduled time',
      title: "Edit conflict",
      conflicts: [{ field: "scheduledAt", theirs: new Date("2099-06-01T10:00").getTime(), by: "Grace" }],
    });
    mutation("emailBlasts:updateSetup").mockRejectedValueOnce(conflict);
    render();
    type(m.container.querySelector<HTMLInputElement>("input[type=date]")!, SOON);
    type(m.container.querySelector<HTMLInputElement>("input[type=time]")!, "09:30");
    click(button(m.container, "Schedule send"));
    await flush();
    expect(toast.error.mock.calls).toEqual([]);
    expect(mutations.get("emailBlasts:updateSetup")).toHaveBeenCalledWith({
      id: "c1",
      edits: [{ field: "scheduledAt", base: null, value: new Date(`${SOON}T09:30`).getTime() }],
    });
    expect(toast.failure).toHaveBeenCalledWith("Edit conflict", conflict, {
      description:
        "Grace changed the schedule while you were editing. Keep yours or take theirs under each field, then save.",
    });
    expect(send()?.mock.calls ?? []).toEqual([]);
    expect(m.container.querySelector("[data-testid='field-conflict']")!.textContent).toContain(
      "Grace changed the schedule",
    );
  });

  test("a scheduled campaign shows its time, Reschedule and Cancel schedule", async () => {
    const at = new Date("2099-05-01T09:30").getTime();
    state.setup = { ...baseSetup, sendType: "schedule", scheduledAt: at, status: "scheduled" };
    render();
    expect(m.container.textContent).toContain("Scheduled for");
    expect(button(m.container, "Schedule send")).toBeUndefined();
    click(button(m.container, "Cancel schedule"));
    await flush();
    expect(mutations.get("emailBlasts:cancelSchedule")).toHaveBeenCalledWith({ id: "c1" });
    click(button(m.container, "Reschedule"));
    expect(button(m.container, "Schedule send")).toBeDefined();
  });

  test("an active automation can be stopped", async () => {
    state.setup = { ...baseSetup, sendType: "event", status: "automated" };
    render();
    expect(m.container.textContent).toContain("Automation active");
    click(button(m.container, "Stop automation"));
    await flush();
    expect(mutations.get("emailBlasts:stopAutomation")).toHaveBeenCalledWith({ id: "c1" });
  });
});
