/**
 * What comes back from the provider and from recipients: delivery statuses (forward only; the
 * provider's "unsubscribed" opts the number out through the consent ledger, model/consent.ts),
 * which organisations an inbound reply concerns, and which webhook requests were already taken
 * (a replayed one is ignored).
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import type { SmsStatus } from "../tables/sms";
import { recordOptOut } from "./consent";
import { log, moveCounts, providerErrorMessage, STATUS_RANK, type Db } from "./smsShared";

const DAY_MS = 86_400_000;
/**
 * How long a webhook request is remembered. Inbound texts (a replayed STOP or START would change
 * consent) are few and kept long; status callbacks are many and, statuses moving only forward,
 * harmless to replay once forgotten.
 */
export const INBOUND_REMEMBERED_MS = 90 * DAY_MS;
export const STATUS_REMEMBERED_MS = 7 * DAY_MS;

/**
 * Whether this webhook request is new, remembering it (in the same transaction as its effect, so
 * a concurrent copy conflicts and retries into a replay); false when it was already taken.
 */
export async function firstTime(ctx: MutationCtx, key: string, keepMs: number): Promise<boolean> {
  const seen = await ctx.db
    .query("twilioWebhookRequests")
    .withIndex("by_key", (q) => q.eq("key", key))
    .first();
  if (seen) return false;
  await ctx.db.insert("twilioWebhookRequests", { key, expiresAt: Date.now() + keepMs });
  return true;
}

/** A delivery status from the provider: applied only forward (never back to an earlier state). */
export async function applyStatus(
  ctx: MutationCtx,
  messageId: Id<"smsMessages"> | null,
  sid: string,
  status: SmsStatus,
  errorCode: string | null,
) {
  const m =
    (messageId ? await ctx.db.get("smsMessages", messageId) : null) ??
    (await ctx.db
      .query("smsMessages")
      .withIndex("by_sid", (q) => q.eq("providerSid", sid))
      .first());
  if (!m || (m.providerSid && m.providerSid !== sid)) return false;
  if (STATUS_RANK[status] <= STATUS_RANK[m.status]) return true;
  const send = await ctx.db.get("smsSends", m.sendId);
  const now = Date.now();
  const patch: Partial<Doc<"smsMessages">> = { status, updatedAt: now, providerSid: sid };
  if (status === "delivered") patch.deliveredAt = now;
  if (status === "sent" && !m.sentAt) patch.sentAt = now;
  if (errorCode) {
    patch.errorCode = errorCode;
    patch.error = providerErrorMessage(errorCode);
  }
  await ctx.db.patch("smsMessages", m._id, patch);
  if (send)
    await ctx.db.patch("smsSends", send._id, { counts: moveCounts(send.counts, m.status, status), updatedAt: now });
  if (status === "failed" || status === "undelivered") {
    const what = `${status}${errorCode ? ` (${providerErrorMessage(errorCode)})` : ""}`;
    await log(ctx, m.orgId, "error", `${m.recipientName} (${m.phone}): ${what}`, m.sendId, `A recipient: ${what}`);
  }
  if (errorCode === "21610")
    await recordOptOut(ctx, {
      orgId: m.orgId,
      channel: "sms",
      contact: m.phone,
      ...(m.voterId ? { voterId: m.voterId } : {}),
      provenance: { source: "provider", sourceId: sid, keyword: "21610", address: m.phone },
    });
  return true;
}

/** The organisations that texted a number (an inbound reply concerns them). */
export async function orgsThatTexted(db: Db, phone: string): Promise<Id<"organizations">[]> {
  const rows = await db
    .query("smsMessages")
    .withIndex("by_phone_status", (q) => q.eq("phone", phone))
    .take(500);
  return [...new Set(rows.map((r) => r.orgId))];
}
