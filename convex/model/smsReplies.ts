/**
 * What comes back from the provider and from recipients: delivery statuses (forward only),
 * opt-outs (STOP cancels the number's queued messages in the same transaction) and opt-ins,
 * which organisations an inbound reply concerns, and which webhook requests were already taken
 * (a replayed one is ignored).
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import type { SmsStatus } from "../tables/sms";
import { markDoorsOfContact } from "./doors";
import { log, moveCounts, optOutOf, providerErrorMessage, STATUS_RANK, type Db } from "./smsShared";

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
  if (errorCode === "21610") await optOut(ctx, m.orgId, m.phone, "provider");
  return true;
}

/**
 * Opts a number out in an organisation: recorded once, and its queued messages are cancelled in
 * the same transaction, so the next send tick never picks them. Whether it was opted in before.
 */
export async function optOut(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  phone: string,
  source: Doc<"smsOptOuts">["source"],
): Promise<boolean> {
  const changed = !(await optOutOf(ctx.db, orgId, phone));
  if (changed) {
    await ctx.db.insert("smsOptOuts", { orgId, phone, at: Date.now(), source });
    // the turf filters' "opted out" reads packed doors
    await markDoorsOfContact(ctx, orgId, { phone });
    await log(
      ctx,
      orgId,
      "warning",
      `${phone} opted out of text messages`,
      undefined,
      "A number opted out of text messages",
    );
  }
  const queued = await ctx.db
    .query("smsMessages")
    .withIndex("by_phone_status", (q) => q.eq("phone", phone).eq("status", "queued").eq("orgId", orgId))
    .take(500);
  const now = Date.now();
  for (const m of queued) {
    await ctx.db.patch("smsMessages", m._id, { status: "cancelled", error: "Opted out", updatedAt: now });
    const send = await ctx.db.get("smsSends", m.sendId);
    if (send)
      await ctx.db.patch("smsSends", send._id, {
        counts: { ...moveCounts(send.counts, "queued", "cancelled"), optedOut: send.counts.optedOut + 1 },
      });
  }
  return changed;
}

/** Opts a number back in; whether it was opted out. */
export async function optIn(ctx: MutationCtx, orgId: Id<"organizations">, phone: string): Promise<boolean> {
  const rows = await ctx.db
    .query("smsOptOuts")
    .withIndex("by_org_phone", (q) => q.eq("orgId", orgId).eq("phone", phone))
    .collect();
  for (const r of rows) await ctx.db.delete("smsOptOuts", r._id);
  if (rows.length > 0) await markDoorsOfContact(ctx, orgId, { phone });
  if (rows.length > 0)
    await log(
      ctx,
      orgId,
      "info",
      `${phone} opted back in to text messages`,
      undefined,
      "A number opted back in to text messages",
    );
  return rows.length > 0;
}

/** The organisations that texted a number (an inbound reply concerns them). */
export async function orgsThatTexted(db: Db, phone: string): Promise<Id<"organizations">[]> {
  const rows = await db
    .query("smsMessages")
    .withIndex("by_phone_status", (q) => q.eq("phone", phone))
    .take(500);
  return [...new Set(rows.map((r) => r.orgId))];
}
