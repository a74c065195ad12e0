/**
 * SMS rules shared by the server and the SMS center (spec/2 §5, §8): phone normalisation,
 * segment counting (GSM-7 160/153, UCS-2 70/67, via sms-segments-calculator), the provider error
 * mapping and keyword handling.
 */
import { SegmentedMessage } from "sms-segments-calculator";

export const INVALID_PHONE_FORMAT = "Invalid phone number format. Please use a valid phone number.";

/**
 * E.164 from what a user typed or a voter file holds: a number starting with + is kept (digits
 * only after it); otherwise non-digits are stripped and exactly 10 digits get +1. Null: invalid.
 */
export function normalizePhone(raw: string): string | null {
  const t = raw.trim();
  if (t.startsWith("+")) {
    const digits = t.slice(1).replace(/\D/g, "");
    return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null;
  }
  const digits = t.replace(/\D/g, "");
  return digits.length === 10 ? `+1${digits}` : null;
}

export type SegmentInfo = {
  segments: number;
  encoding: "GSM-7" | "UCS-2";
  characters: number;
  /** characters that force UCS-2 (unique, in order of appearance) */
  unicodeCharacters: string[];
  /** characters a segment of this encoding holds when the message has several */
  perSegment: number;
};

export function segmentInfo(body: string): SegmentInfo {
  if (body === "") return { segments: 0, encoding: "GSM-7", characters: 0, unicodeCharacters: [], perSegment: 160 };
  const m = new SegmentedMessage(body);
  const encoding = m.encodingName;
  const segments = m.segmentsCount;
  const perSegment = encoding === "GSM-7" ? (segments > 1 ? 153 : 160) : segments > 1 ? 67 : 70;
  return {
    segments,
    encoding,
    characters: m.numberOfCharacters,
    unicodeCharacters: [...new Set(m.getNonGsmCharacters())],
    perSegment,
  };
}

/** spec/2 §8: the message a provider error shows as. */
export const SMS_ERROR_MESSAGES = {
  invalid_phone: "The phone number format is invalid. Please use a valid number.",
  insufficient_funds: "Your Twilio account has insufficient funds to send this message.",
  suspended: "The SMS service is currently unavailable. Please try again later.",
  rate_limit: "You have sent too many messages. Please try again later.",
  default: "Failed to send message",
} as const;

/** Does the text carry opt-out language ("Reply STOP to opt out")? */
export function hasOptOutText(body: string): boolean {
  return /\bstop\b/i.test(body);
}

/** The keyword an inbound text is, if any: its first word, upper-cased, punctuation dropped. */
export function inboundKeyword(body: string): string {
  return (body.trim().split(/\s+/)[0] ?? "").replace(/[^A-Za-z]/g, "").toUpperCase();
}

/** The local hour and minute in `timeZone`. */
export function localTime(at: number, timeZone: string): { hour: number; minute: number } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hour: "numeric",
    minute: "numeric",
    hourCycle: "h23",
  }).formatToParts(new Date(at));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return { hour: get("hour"), minute: get("minute") };
}

/** "9:00", "13:30": a moment's clock time in `timeZone` (the organisation's, as its sending hours are). */
export function clockTime(at: number, timeZone: string): string {
  const { hour, minute } = localTime(at, timeZone);
  return `${hour}:${String(minute).padStart(2, "0")}`;
}
