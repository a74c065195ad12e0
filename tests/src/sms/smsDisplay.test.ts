import { describe, expect, test } from "vitest";
import {
  formatDuration,
  idsFromForm,
  idsToForm,
  optOutFooter,
  optOutSource,
  sendTotals,
  type SendProgress,
} from "@/features/sms/utils/smsDisplay";

const counts = {
  queued: 0,
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
const progress = (c: Partial<typeof counts>, preparing = false) =>
  ({ counts: { ...counts, ...c }, preparing }) as unknown as SendProgress;

describe("SMS center display helpers", () => {
  test("a send's percent counts every message that left the queue, of all its messages", () => {
    expect(sendTotals(progress({ queued: 3, sent: 1 })).percent).toBe(25);
    expect(sendTotals(progress({ sent: 2, delivered: 1, failed: 1 }))).toMatchObject({
      total: 4,
      settled: 4,
      ok: 3,
      failed: 1,
      percent: 100,
    });
    expect(sendTotals(progress({ queued: 1, cancelled: 1, undelivered: 1 }))).toMatchObject({ failed: 1, percent: 66 });
    // nothing queued yet: 0 while preparing, 100 once there was nobody to send to
    expect(sendTotals(progress({}, true)).percent).toBe(0);
    expect(sendTotals(progress({})).percent).toBe(100);
  });

  test("durations read as a person would say them", () => {
    expect(formatDuration(0.4)).toBe("under a second");
    expect(formatDuration(12.2)).toBe("13 s");
    expect(formatDuration(200)).toBe("3 min 20 s");
    expect(formatDuration(3600 * 2 + 60 * 5)).toBe("2 h 5 min");
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe("under a second");
  });

  test("a campaign's id lists live in the edit form as sorted JSON, so the same set is the same string", () => {
    expect(idsToForm(["b", "a", "b"])).toBe('["a","b"]');
    expect(idsToForm(["a", "b"])).toBe(idsToForm(["b", "a"]));
    expect(idsFromForm('["a","b"]')).toEqual(["a", "b"]);
    expect(idsFromForm("")).toEqual([]);
    expect(idsFromForm("not json")).toEqual([]);
  });

  test("the opt-out line names the organisation and says how to stop", () => {
    expect(optOutFooter("Friends of Ada")).toBe("Friends of Ada: Reply STOP to opt out");
  });

  test("an opt-out's source in words, a canvasser's at the door among them", () => {
    expect(optOutSource("inbound")).toBe("replied STOP");
    expect(optOutSource("provider")).toBe("reported by Twilio");
    expect(optOutSource("canvass")).toBe("marked do not contact at the door by a canvasser");
    expect(optOutSource("manual")).toBe("set by a teammate");
  });
});
