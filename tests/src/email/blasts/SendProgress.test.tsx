/**
 * The email send progress card: nothing without a send, the percent of settled messages, counts,
 * demo badge, the provider's error, and Pause / Resume / Cancel (confirmed) only for campaigns.manage; axe.
 */
import type { Id } from "@convex/_generated/dataModel";
import { getFunctionName } from "convex/server";
import { act } from "react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { BlastProgress } from "@/features/email/blasts/stats/progressModel";
import { axeViolations, button, byTestId, mountRoot, type MountedRoot } from "../../../support/render";

const state = {
  progress: undefined as BlastProgress | null | undefined,
  permissions: new Set<string>(),
  args: {} as Record<string, unknown>,
};
const control = vi.fn(async (_: unknown) => null);

vi.mock("convex/react", () => ({
  useQuery: (ref: unknown, args: unknown) => {
    state.args[getFunctionName(ref as never)] = args;
    return getFunctionName(ref as never) === "emailBlasts:progress" ? state.progress : undefined;
  },
  useMutation: (ref: unknown) => (getFunctionName(ref as never) === "emailBlasts:control" ? control : vi.fn()),
}));
vi.mock("@/session/ViewerProvider", () => ({ useViewer: () => ({ can: (p: string) => state.permissions.has(p) }) }));
vi.mock("@/ui/toast", () => ({ toast: { success: vi.fn(), failure: vi.fn() } }));

const { SendProgress } = await import("@/features/email/blasts/SendProgress");

const sending: BlastProgress = {
  sendId: "s1" as Id<"emailSends">,
  status: "sending",
  demo: false,
  kind: "blast",
  counts: { queued: 450, sent: 500, failed: 20, suppressed: 30, duplicates: 7, noEmail: 12, cancelled: 0 },
  recipients: 970,
  error: null,
  startedAt: 1,
  finishedAt: null,
  createdByName: "Ada",
};

describe("SendProgress", () => {
  let m: MountedRoot;
  beforeEach(() => {
    m = mountRoot();
    control.mockClear();
    state.permissions = new Set(["campaigns.view", "campaigns.manage"]);
  });
  afterEach(() => m.unmount());
  const show = (p: BlastProgress | null) => {
    state.progress = p;
    m.render(<SendProgress campaignId={"c1" as never} />);
  };

  test("nothing when the campaign has no send", () => {
    show(null);
    expect(m.container.textContent).toBe("");
    expect(state.args["emailBlasts:progress"]).toEqual({ id: "c1" });
  });

  test("percent of sent + failed + suppressed + cancelled over those and the queued, and the counts", () => {
    show(sending);
    expect(byTestId(m.container, "email.sendProgress.percent")!.textContent).toBe("55%");
    expect(m.container.querySelector("[role='progressbar']")?.getAttribute("aria-valuenow")).toBe("55");
    expect(byTestId(m.container, "email.sendProgress.queued")!.textContent).toBe("450");
    expect(byTestId(m.container, "email.sendProgress.suppressed")!.textContent).toBe("30");
    expect(byTestId(m.container, "email.sendProgress.duplicates")!.textContent).toBe("7");
    expect(byTestId(m.container, "email.sendProgress.noEmail")!.textContent).toBe("12");
    expect(byTestId(m.container, "email.sendProgress.status")!.textContent).toBe("sending");
    expect(byTestId(m.container, "email.sendProgress.demo")).toBeNull();
  });

  test("demo badge, and the provider's error when it paused the send", () => {
    show({ ...sending, status: "paused", demo: true, error: "Rate limit exceeded" });
    expect(byTestId(m.container, "email.sendProgress.demo")!.textContent).toBe("DEMO MODE");
    expect(byTestId(m.container, "email.sendProgress.error")!.textContent).toBe(
      "Paused by the provider: Rate limit exceeded",
    );
  });

  test("a manager pauses a running send", async () => {
    show(sending);
    expect(button(m.container, "Resume")).toBeUndefined();
    await act(async () => button(m.container, "Pause")!.click());
    expect(control).toHaveBeenCalledWith({ sendId: "s1", action: "pause" });
  });

  test("a manager resumes a paused send", async () => {
    show({ ...sending, status: "paused" });
    expect(button(m.container, "Pause")).toBeUndefined();
    await act(async () => button(m.container, "Resume")!.click());
    expect(control).toHaveBeenCalledWith({ sendId: "s1", action: "resume" });
  });

  test("Cancel asks first; confirming cancels", async () => {
    show(sending);
    act(() => button(m.container, "Cancel")!.click());
    expect(control).not.toHaveBeenCalled();
    const dialog = document.querySelector("[role='alertdialog']")!;
    expect(dialog.textContent).toContain("Cancel this send?");
    await act(async () => button(dialog, "Cancel Send")!.click());
    expect(control).toHaveBeenCalledWith({ sendId: "s1", action: "cancel" });
  });

  test("without campaigns.manage there are no controls", () => {
    state.permissions = new Set(["campaigns.view"]);
    show(sending);
    expect(m.container.querySelectorAll("button")).toHaveLength(0);
    expect(byTestId(m.container, "email.sendProgress.percent")!.textContent).toBe("55%");
  });

  test("a finished send has no controls", () => {
    show({ ...sending, status: "completed", finishedAt: 2 });
    expect(m.container.querySelectorAll("button")).toHaveLength(0);
  });

  test("axe finds no violations", async () => {
    show({ ...sending, status: "paused", demo: true, error: "Rate limit exceeded" });
    expect(await axeViolations(m.container)).toEqual([]);
  });
});
