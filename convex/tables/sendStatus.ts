/** A queued send's status: text blasts (tables/sms.ts smsSends) and email blasts (tables/emailBlast.ts emailSends) share the life of a send. */
import { v, type Infer } from "convex/values";

export const SEND_STATUSES = ["preparing", "sending", "paused", "completed", "cancelled", "failed"] as const;
export const vSendStatus = v.union(...SEND_STATUSES.map((s) => v.literal(s)));
export type SendStatus = Infer<typeof vSendStatus>;
