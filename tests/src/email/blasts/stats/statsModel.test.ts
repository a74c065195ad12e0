/** The Statistics tab's arithmetic (spec/2 §9): thresholds at their boundaries, estimates, heat map. */
import { describe, expect, test } from "vitest";
import {
  ESTIMATES,
  estimatedCounts,
  heatMap,
  isGood,
  measuredRates,
  percent,
  summarize,
  type BlastStatistics,
} from "@/features/email/blasts/stats/statsModel";
import { progressPercent } from "@/features/email/blasts/stats/progressModel";

const base: BlastStatistics = {
  recipients: 1000,
  sent: 1000,
  delivered: 960,
  opened: 300,
  clicked: 120,
  bounced: 20,
  unsubscribed: 3,
  complained: 1,
  failed: 0,
  hasEvents: true,
  demo: false,
  topLinks: [],
  sentAt: 1,
};

describe("thresholds (spec §9)", () => {
  test("delivery above 95 is up; exactly 95 is not", () => {
    expect(isGood("delivery", 95.1)).toBe(true);
    expect(isGood("delivery", 95)).toBe(false);
    expect(isGood("delivery", 94.9)).toBe(false);
  });
  test("open rate above 25, click rate above 10", () => {
    expect([isGood("open", 25), isGood("open", 25.1)]).toEqual([false, true]);
    expect([isGood("click", 10), isGood("click", 10.1)]).toEqual([false, true]);
  });
  test("bounce rate below 5 is green; exactly 5 is not", () => {
    expect([isGood("bounce", 4.9), isGood("bounce", 5), isGood("bounce", 5.1)]).toEqual([true, false, false]);
  });
  test("rates: delivery and bounce of sent, open and click of delivered", () => {
    const r = measuredRates({ sent: 200, delivered: 190, opened: 95, clicked: 19, bounced: 10 });
    expect([r.delivery.rate, r.open.rate, r.click.rate, r.bounce.rate]).toEqual([95, 50, 10, 5]);
    expect([r.delivery.good, r.open.good, r.click.good, r.bounce.good]).toEqual([false, true, false, false]);
  });
  test("no sends, no division by zero", () => {
    expect(percent(3, 0)).toBe(0);
    const r = measuredRates({ sent: 0, delivered: 0, opened: 0, clicked: 0, bounced: 0 });
    expect(r.bounce.rate).toBe(0);
  });
});

describe("estimates", () => {
  test("95 % delivered, 35 % and 12 % of those opened and clicked, 5 % bounced", () => {
    expect(ESTIMATES).toEqual({ delivery: 95, open: 35, click: 12, bounce: 5 });
    expect(estimatedCounts(1000)).toEqual({ delivered: 950, opened: 333, clicked: 114, bounced: 50 });
  });
  test("the summary says the figures are estimates until events arrive, and names demo mode", () => {
    expect(summarize({ ...base, hasEvents: false })).toMatch(/estimates/);
    expect(summarize({ ...base, hasEvents: false, demo: true })).toContain("DEMO MODE — no emails left the server");
    expect(summarize(base)).toContain("96% delivered (above the 95% mark)");
    expect(summarize(base)).toContain("It performed well on every measure.");
  });
});

describe("heat map", () => {
  test("most clicked first, top 5 only, bars relative to the top, share of their clicks", () => {
    const rows = heatMap([
      { url: "https://a.example", clicks: 5 },
      { url: "https://b.example", clicks: 40 },
      { url: "https://c.example", clicks: 20 },
      { url: "https://d.example", clicks: 10 },
      { url: "https://e.example", clicks: 1 },
      { url: "https://f.example", clicks: 4 },
      { url: "https://g.example", clicks: 0 },
    ]);
    expect(rows.map((r) => r.url)).toEqual([
      "https://b.example",
      "https://c.example",
      "https://d.example",
      "https://a.example",
      "https://f.example",
    ]);
    expect(rows.map((r) => r.barPercent)).toEqual([100, 50, 25, 12.5, 10]);
    expect(rows[0].share).toBe(50.6);
  });
});

describe("send progress", () => {
  const counts = { queued: 450, sent: 450, failed: 20, suppressed: 30, duplicates: 2, noEmail: 3, cancelled: 50 };
  test("sent, failed, suppressed and cancelled over all handled (those and the queued)", () => {
    expect(progressPercent({ counts, status: "sending" })).toBe(55);
    expect(progressPercent({ counts: { ...counts, queued: 0 }, status: "completed" })).toBe(100);
    const none = { queued: 0, sent: 0, failed: 0, suppressed: 0, duplicates: 4, noEmail: 1, cancelled: 0 };
    expect(progressPercent({ counts: none, status: "completed" })).toBe(100);
    expect(progressPercent({ counts: none, status: "preparing" })).toBe(0);
    expect(progressPercent({ counts: { ...counts, queued: 1, sent: 9_999 }, status: "sending" })).toBe(99);
  });
});
