/** Pure display helpers of the SMS center: progress of a send, durations, colours of statuses (spec/2 §4). */
import type { Infer } from "convex/values";
import { clockTime } from "@convex/lib/sms/rules";
import type { SmsStatus, vSendProgress } from "@convex/tables/sms";
import { countOf } from "@/lib/plural";
import { TEXTS } from "@convex/lib/texts";

export type SendProgress = Infer<typeof vSendProgress>;

/** Message status colours (spec/2 §4), plus cancelled in gray. */
export const MESSAGE_STATUS_COLORS: Record<
  SmsStatus,
  "yellow" | "blue" | "green" | "red" | "orange" | "purple" | "gray"
> = {
  queued: "yellow",
  sending: "yellow",
  sent: "blue",
  delivered: "green",
  failed: "red",
  undelivered: "orange",
  demo: "purple",
  cancelled: "gray",
};

/** Campaign status colours (spec/2 §4: draft, active, completed, cancelled → green, blue, gray, red). */
export const CAMPAIGN_STATUS_COLORS: Record<string, "green" | "blue" | "gray" | "red"> = {
  draft: "green",
  active: "blue",
  completed: "gray",
  cancelled: "red",
};

export { SEND_STATUS_COLORS } from "@/lib/sendStatus";

/** Messages of a send, and how many of them are settled (left the queue one way or another). */
export function sendTotals(p: SendProgress) {
  const c = p.counts;
  const settled = c.sent + c.delivered + c.failed + c.undelivered + c.cancelled;
  const total = settled + c.queued;
  const percent = total === 0 ? (p.preparing ? 0 : 100) : Math.floor((settled / total) * 100);
  return { total, settled, ok: c.sent + c.delivered, failed: c.failed + c.undelivered, percent };
}

/** "about 3 min 20 s", "12 s", "under a second". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return "under a second";
  if (seconds < 1) return "under a second";
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}

/** Where a number's SMS opt-out came from, in words (the voter's Text Messages card). */
export function optOutSource(source: string): string {
  switch (source) {
    case "inbound":
      return "replied STOP";
    case "provider":
      return "reported by Twilio";
    case "canvass":
      return "marked do not contact at the door by a canvasser";
    case "other_channel":
      return "opted out of email; the organization applies opt-outs to every channel";
    default:
      return "set by a teammate";
  }
}

export function formatTime(at: number | null | undefined): string {
  if (!at) return "—";
  return new Date(at).toLocaleString(undefined, {
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
  });
}

/** Sorted JSON of ids: how a list field of a campaign lives in the edit form (one string per field). */
export function idsToForm(ids: readonly string[]): string {
  return JSON.stringify([...new Set(ids)].sort());
}

export function idsFromForm<T extends string>(value: string | undefined): T[] {
  if (!value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? (parsed.filter((x) => typeof x === "string") as T[]) : [];
  } catch {
    return [];
  }
}

/** The footer that satisfies the opt-out preflight: the organisation's name and "Reply STOP to opt out". */
export function optOutFooter(orgName: string): string {
  return `${orgName}: ${TEXTS.sms.replyStop}`;
}

/** "1 segment/s", "10 segments/s". */
function paceLabel(segmentsPerSecond: number): string {
  return `${countOf(segmentsPerSecond, "segment")}/s`;
}

/**
 * What a running send is waiting for, as its progress card says it: held by quiet hours (until
 * the time in the organisation's time zone, as its sending hours are set), paused (with the
 * reason when the provider or a lack of funds paused it), or the time left at the pace.
 */
export function sendWaitLine(p: SendProgress, orgTimeZone: string | undefined): string {
  if (p.status === "paused") return p.error ? `Paused: ${p.error}` : "Paused";
  if (p.heldUntil !== null && p.heldUntil > 0) {
    let at: string;
    try {
      at = clockTime(p.heldUntil, orgTimeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
    } catch {
      at = clockTime(p.heldUntil, Intl.DateTimeFormat().resolvedOptions().timeZone);
    }
    return `held until ${at} (quiet hours)`;
  }
  if (p.remaining > 0) return `about ${formatDuration(p.etaSeconds)} left at ${paceLabel(p.segmentsPerSecond)}`;
  return "";
}
