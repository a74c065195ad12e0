/**
 * The progress card of a running SMS send: a send held by quiet hours says until when (in the
 * organisation's time zone), not "about 1 s left"; a paused send says why; the pace is "1
 * segment/s", not "1 segments/s".
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { byTestId, expectNoAxeViolations, mount, type Mounted } from "../../support/render";

vi.mock("@/features/sms/hooks/useSendControls", () => ({
  useSendControls: () => ({ pause: vi.fn(), resume: vi.fn(), cancel: vi.fn() }),
}));
const { ActiveSends } = await import("@/features/sms/components/ActiveSends");

const counts = {
  queued: 40,
  sent: 0,
  delivered: 0,
  failed: 0,
  undelivered: 0,
  cancelled: 0,
  optedOut: 0,
  noPhone: 0,
  invalid: 0,
  duplicates: 0,
  segmentsSent: 0,
};
const base = {
  id: "s1",
  campaignId: null,
  kind: "quick",
  status: "sending",
  demo: false,
  body: "Hi",
  segments: 1,
  encoding: "GSM-7",
  preparing: false,
  counts,
  remaining: 40,
  etaSeconds: 1,
  segmentsPerSecond: 1,
  error: null,
  startedAt: 0,
  finishedAt: null,
  createdByName: "Ada",
  heldUntil: null,
};
// 2026-11-28 14:00 UTC is 9:00 in New York
const NINE_NY = Date.UTC(2026, 10, 28, 14, 0);

describe("ActiveSends", () => {
  let m: Mounted;
  afterEach(() => m.unmount());
  const render = (over: Record<string, unknown>) =>
    (m = mount(
      <ActiveSends sends={[{ ...base, ...over } as never]} names={new Map()} canSend timeZone="America/New_York" />,
    ));

  test("held by quiet hours: until when, in the organisation's time zone; no time-left estimate", async () => {
    render({ heldUntil: NINE_NY });
    const card = byTestId(m.container, "sms.activeSend")!;
    expect(card.textContent).toContain("Held until 9:00 (quiet hours)");
    expect(card.textContent).not.toContain("left at");
    expect(card.textContent).toContain("held");
    await expectNoAxeViolations(m.container);
  });

  test("running: the time left at the pace, singular for one segment", () => {
    render({});
    const text = byTestId(m.container, "sms.activeSend")!.textContent;
    expect(text).toContain("about 1 s left at 1 segment/s");
    expect(text).not.toContain("segments/s");
  });

  test("paused by the provider: the reason is on the card", () => {
    render({ status: "paused", error: "Your Twilio account has insufficient funds to send this message." });
    expect(byTestId(m.container, "sms.activeSend.wait")!.textContent).toBe(
      "Paused: Your Twilio account has insufficient funds to send this message.",
    );
  });
});
