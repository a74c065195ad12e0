/**
 * The Statistics tab's figures (spec/2 §2.2, §3, §9): rates, the threshold judgement of each,
 * the fallback estimates shown while no delivery event has arrived, and the click heat map.
 * Pure: no React, tested headless.
 */
import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";

/** What api.emailBlasts.statistics returns. */
export type BlastStatistics = NonNullable<FunctionReturnType<typeof api.emailBlasts.statistics>>;

export type RateKey = "delivery" | "open" | "click" | "bounce";

/** Spec §9: delivery above 95 counts as up; open rate above 25; click rate above 10; bounce rate below 5 shows green. */
export const THRESHOLDS: Record<RateKey, { limit: number; good: "above" | "below" }> = {
  delivery: { limit: 95, good: "above" },
  open: { limit: 25, good: "above" },
  click: { limit: 10, good: "above" },
  bounce: { limit: 5, good: "below" },
};

/** Spec §9: fallback estimates (percent) while the provider has reported nothing. */
export const ESTIMATES: Record<RateKey, number> = { delivery: 95, open: 35, click: 12, bounce: 5 };

export const ESTIMATE_LABEL = "Estimated — no delivery events received yet";
export const DEMO_LABEL = "DEMO MODE — no emails left the server";
const HEAT_MAP_SIZE = 5;

/** part of whole in percent, one decimal; 0 when there is no whole. */
export function percent(part: number, whole: number): number {
  if (!(whole > 0)) return 0;
  return Math.round((part / whole) * 1000) / 10;
}

/** Whether a rate meets its target (green) or not (red). */
export function isGood(key: RateKey, rate: number): boolean {
  const t = THRESHOLDS[key];
  return t.good === "above" ? rate > t.limit : rate < t.limit;
}

export type RateFigure = { key: RateKey; rate: number; good: boolean };

/** The four measured rates: delivery and bounce of sent, open and click of delivered. */
export function measuredRates(
  s: Pick<BlastStatistics, "sent" | "delivered" | "opened" | "clicked" | "bounced">,
): Record<RateKey, RateFigure> {
  const fig = (key: RateKey, rate: number): RateFigure => ({ key, rate, good: isGood(key, rate) });
  return {
    delivery: fig("delivery", percent(s.delivered, s.sent)),
    open: fig("open", percent(s.opened, s.delivered)),
    click: fig("click", percent(s.clicked, s.delivered)),
    bounce: fig("bounce", percent(s.bounced, s.sent)),
  };
}

/** The estimated counts for `sent` messages, on the same bases as the measured rates. */
export function estimatedCounts(sent: number): { delivered: number; opened: number; clicked: number; bounced: number } {
  const delivered = Math.round((sent * ESTIMATES.delivery) / 100);
  return {
    delivered,
    opened: Math.round((delivered * ESTIMATES.open) / 100),
    clicked: Math.round((delivered * ESTIMATES.click) / 100),
    bounced: Math.round((sent * ESTIMATES.bounce) / 100),
  };
}

export type HeatRow = { url: string; clicks: number; barPercent: number; share: number };

/** The top click targets, most clicked first (ties by url), at most 5; bars relative to the top one, share of their clicks. */
export function heatMap(links: { url: string; clicks: number }[]): HeatRow[] {
  const top = [...links]
    .filter((l) => l.clicks > 0)
    .sort((a, b) => b.clicks - a.clicks || a.url.localeCompare(b.url))
    .slice(0, HEAT_MAP_SIZE);
  const max = top[0]?.clicks ?? 0;
  const total = top.reduce((n, l) => n + l.clicks, 0);
  return top.map((l) => ({
    url: l.url,
    clicks: l.clicks,
    barPercent: percent(l.clicks, max),
    share: percent(l.clicks, total),
  }));
}

const RATE_WORDS: Record<RateKey, string> = {
  delivery: "delivered",
  open: "opened",
  click: "clicked",
  bounce: "bounced",
};

/** One or two sentences on how the campaign did, for the summary card. */
export function summarize(s: BlastStatistics): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const head = s.sent === 1 ? "Sent to 1 recipient." : `Sent to ${n(s.sent)} recipients.`;
  if (s.sent === 0) return s.demo ? `No emails were sent. ${DEMO_LABEL}.` : "No emails have been sent yet.";
  if (!s.hasEvents) {
    const demo = s.demo ? ` ${DEMO_LABEL}.` : "";
    return `${head} No delivery events have been received yet, so delivery, opens, clicks and bounces are estimates.${demo}`;
  }
  const r = measuredRates(s);
  const part = (k: RateKey) => {
    const t = THRESHOLDS[k];
    const side = r[k].rate > t.limit ? "above" : r[k].rate < t.limit ? "below" : "at";
    return `${r[k].rate}% ${RATE_WORDS[k]} (${side} the ${t.limit}% mark)`;
  };
  const good = (["delivery", "open", "click", "bounce"] as RateKey[]).filter((k) => r[k].good).length;
  const verdict =
    good === 4
      ? "It performed well on every measure."
      : good === 0
        ? "It missed every target."
        : `It met ${good} of 4 targets.`;
  return `${head} ${part("delivery")}, ${part("open")}, ${part("click")} and ${part("bounce")}. ${verdict}`;
}
