/**
 * The email dashboard's side of the send checks: the shared rules (convex/lib/email/sendRules.ts,
 * which the server runs again) over what the form holds, and the send types' labels.
 */
import { sendProblem as sharedSendProblem, type SendProblem, type SendType } from "@convex/lib/email/sendRules";
import type { EmailRule } from "@convex/lib/email/rules";

export { SEND_PROBLEMS, type SendProblem, type SendType } from "@convex/lib/email/sendRules";

export type SendCheckInput = {
  /** null when no saved campaign is selected (?campaign=new) */
  campaignId: string | null;
  /** the estimated recipient total; undefined while it loads (the server decides then) */
  recipients: number | undefined;
  now: number;
  sendType: SendType;
  scheduleDate: string;
  scheduleTime: string;
  eventRules: EmailRule[];
  filterRules: EmailRule[];
};

/** The first check that fails for what the form holds (its date and time read in the browser's zone), or null. */
export function sendProblem(input: SendCheckInput): SendProblem | null {
  const date = input.scheduleDate.trim();
  const time = input.scheduleTime.trim();
  return sharedSendProblem({
    hasCampaign: Boolean(input.campaignId),
    sendType: input.sendType,
    recipients: input.recipients,
    scheduledAt: date && time ? new Date(`${date}T${time}`).getTime() : null,
    now: input.now,
    eventRules: input.eventRules,
    filterRules: input.filterRules,
  });
}

export const SEND_TYPE_LABELS: Record<SendType, string> = {
  now: "Send now",
  schedule: "Schedule",
  event: "Event-based",
  filter: "Filter-based",
};

/** The primary button's text for each send type. */
export const SEND_BUTTON: Record<SendType, string> = {
  now: "Send now",
  schedule: "Schedule send",
  event: "Activate automation",
  filter: "Activate automation",
};
