/**
 * What happens to an email after it left (tables/emailBlast.ts): suppressions, Resend's events
 * (delivered, opened, clicked, bounced, complained) applied once per event id and once per
 * recipient per kind whatever their order, unsubscribes, the campaign's sharded statistic
 * counters and the monthly usage meter. Statistics are read from counters, never counted.
 */
import { defineRateLimits } from "convex-helpers/server/rateLimit";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { ALWAYS_SUPPRESSED, STAT_FIELDS, STAT_SHARDS, type ProviderEvent, type StatField } from "../tables/emailBlast";
import { audit } from "./audit";
import { recordOptOut } from "./consent";

type Db = QueryCtx["db"];

/** Whether a suppression keeps this address out of a send (unsubscribed always; bounced and complained as the send excludes them). */
export async function isSuppressed(
  db: Db,
  send: Pick<Doc<"emailSends">, "orgId" | "exclude">,
  email: string,
): Promise<boolean> {
  const rows = await db
    .query("emailSuppressions")
    .withIndex("by_org_email", (q) => q.eq("orgId", send.orgId).eq("email", email))
    .take(3);
  return rows.some(
    (r) =>
      ALWAYS_SUPPRESSED.has(r.reason) ||
      (r.reason === "bounced" && send.exclude.bounced) ||
      (r.reason === "complained" && send.exclude.complained),
  );
}

/** Adds to a campaign's counters (one random shard: concurrent webhooks seldom touch the same document). */
export async function bumpStats(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  campaignId: Id<"emailCampaigns">,
  add: Partial<Record<StatField, number>>,
) {
  if (!Object.values(add).some((n) => n)) return;
  const shard = Math.floor(Math.random() * STAT_SHARDS);
  const row = await ctx.db
    .query("emailStatShards")
    .withIndex("by_campaign_shard", (q) => q.eq("campaignId", campaignId).eq("shard", shard))
    .unique();
  if (row) {
    const patch: Partial<Record<StatField, number>> = {};
    for (const f of STAT_FIELDS) if (add[f]) patch[f] = row[f] + add[f];
    await ctx.db.patch("emailStatShards", row._id, patch);
  } else {
    const zero = Object.fromEntries(STAT_FIELDS.map((f) => [f, add[f] ?? 0])) as Record<StatField, number>;
    await ctx.db.insert("emailStatShards", { orgId, campaignId, shard, ...zero });
  }
}

/** The campaign's counters: the sum of its shards. */
export async function readStats(db: Db, campaignId: Id<"emailCampaigns">): Promise<Record<StatField, number>> {
  const rows = await db
    .query("emailStatShards")
    .withIndex("by_campaign_shard", (q) => q.eq("campaignId", campaignId))
    .take(STAT_SHARDS);
  const out = Object.fromEntries(STAT_FIELDS.map((f) => [f, 0])) as Record<StatField, number>;
  for (const r of rows) for (const f of STAT_FIELDS) out[f] += r[f];
  return out;
}

export async function topLinks(db: Db, campaignId: Id<"emailCampaigns">, n = 5) {
  const rows = await db
    .query("emailClickTargets")
    .withIndex("by_campaign_clicks", (q) => q.eq("campaignId", campaignId))
    .order("desc")
    .take(n);
  return rows.map((r) => ({ url: r.url, clicks: r.clicks }));
}

/** The UTC month emails are counted in. */
export function usageMonth(at: number): string {
  return new Date(at).toISOString().slice(0, 7);
}

export async function addEmailUsage(ctx: MutationCtx, orgId: Id<"organizations">, emails: number) {
  const period = usageMonth(Date.now());
  const row = await ctx.db
    .query("emailUsage")
    .withIndex("by_org_period", (q) => q.eq("orgId", orgId).eq("period", period))
    .unique();
  if (row) await ctx.db.patch("emailUsage", row._id, { emails: row.emails + emails });
  else await ctx.db.insert("emailUsage", { orgId, period, emails });
}

/** Emails sent through the provider this calendar month (UTC). */
export async function monthlyEmails(db: Db, orgId: Id<"organizations">): Promise<number> {
  const row = await db
    .query("emailUsage")
    .withIndex("by_org_period", (q) => q.eq("orgId", orgId).eq("period", usageMonth(Date.now())))
    .unique();
  return row?.emails ?? 0;
}

const FLAG: Record<
  ProviderEvent["type"],
  { field: "deliveredAt" | "openedAt" | "clickedAt" | "bouncedAt" | "complainedAt"; stat: StatField }
> = {
  "email.delivered": { field: "deliveredAt", stat: "delivered" },
  "email.opened": { field: "openedAt", stat: "opened" },
  "email.clicked": { field: "clickedAt", stat: "clicked" },
  "email.bounced": { field: "bouncedAt", stat: "bounced" },
  "email.complained": { field: "complainedAt", stat: "complained" },
};

/**
 * Applies one provider event: once per event id (a retried delivery is a no-op), and each kind
 * counts a recipient once, in whatever order events arrive (an open before its delivery still
 * leaves both counted). Bounces and complaints suppress the address. Returns what it did.
 */
export async function applyProviderEvent(
  ctx: MutationCtx,
  e: ProviderEvent,
): Promise<"duplicate" | "unknown" | "applied"> {
  const seen = await ctx.db
    .query("emailWebhookEvents")
    .withIndex("by_event", (q) => q.eq("eventId", e.eventId))
    .first();
  if (seen) return "duplicate";
  await ctx.db.insert("emailWebhookEvents", { eventId: e.eventId, at: Date.now() });
  const m = await ctx.db
    .query("emailMessages")
    .withIndex("by_provider", (q) => q.eq("providerId", e.emailId))
    .first();
  if (!m) return "unknown";
  const { field, stat } = FLAG[e.type];
  const add: Partial<Record<StatField, number>> = {};
  if (m[field] === undefined) {
    await ctx.db.patch("emailMessages", m._id, { [field]: e.at, updatedAt: Date.now() });
    add[stat] = 1;
  }
  if (e.type === "email.clicked" && e.url) {
    const url = e.url.slice(0, 2048);
    const target = await ctx.db
      .query("emailClickTargets")
      .withIndex("by_campaign_url", (q) => q.eq("campaignId", m.campaignId).eq("url", url))
      .unique();
    if (target) await ctx.db.patch("emailClickTargets", target._id, { clicks: target.clicks + 1 });
    else await ctx.db.insert("emailClickTargets", { orgId: m.orgId, campaignId: m.campaignId, url, clicks: 1 });
  }
  if (e.type === "email.bounced" || e.type === "email.complained") {
    const reason = e.type === "email.bounced" ? "bounced" : "complained";
    const changed = await recordOptOut(ctx, {
      orgId: m.orgId,
      channel: "email",
      contact: m.email,
      ...(m.voterId ? { voterId: m.voterId } : {}),
      campaignId: m.campaignId,
      provenance: { source: reason === "bounced" ? "bounce" : "complaint", sourceId: e.eventId },
    });
    // the address's state changed (a new suppression): the audit log's entry, one per change
    if (changed)
      await audit(
        ctx,
        { orgId: m.orgId, name: "Resend webhook" },
        {
          action: "webhook.email",
          target: { table: "emailSuppressions", id: m.email, label: m.email },
          summary: `${m.email} ${reason === "bounced" ? "bounced" : "marked an email as spam"}: no longer emailed (event ${e.eventId}).`,
        },
      );
  }
  await bumpStats(ctx, m.orgId, m.campaignId, add);
  return "applied";
}

/**
 * Unsubscribes the address a message went to: suppressed for the organisation at once (its queued
 * messages stop in this transaction), recorded in the consent ledger with how (the page's link or a
 * mail client's List-Unsubscribe header) and from where (the client's address).
 */
export async function unsubscribeByToken(
  ctx: MutationCtx,
  token: string,
  via: { source: "unsubscribe_link" | "unsubscribe_header"; address?: string } = { source: "unsubscribe_link" },
): Promise<Doc<"emailMessages"> | null> {
  const m = await ctx.db
    .query("emailMessages")
    .withIndex("by_token", (q) => q.eq("unsubToken", token))
    .unique();
  if (!m) return null;
  await recordOptOut(ctx, {
    orgId: m.orgId,
    channel: "email",
    contact: m.email,
    ...(m.voterId ? { voterId: m.voterId } : {}),
    campaignId: m.campaignId,
    provenance: {
      source: via.source,
      sourceId: m._id,
      ...(via.address ? { address: via.address } : {}),
    },
  });
  if (m.unsubscribedAt === undefined) {
    await ctx.db.patch("emailMessages", m._id, { unsubscribedAt: Date.now() });
    await bumpStats(ctx, m.orgId, m.campaignId, { unsubscribed: 1 });
  }
  return m;
}

/** Webhook event ids older than this are forgotten (Resend retries for about a day). */
export const WEBHOOK_EVENT_TTL_MS = 7 * 86_400_000;

const MINUTE = 60_000;

/** Public endpoints of email (webhooks, unsubscribes): per client address and overall. */
export const { rateLimit: emailPublicRateLimit } = defineRateLimits({
  webhookPerClient: { kind: "token bucket", rate: 6_000, period: MINUTE, capacity: 1_000 },
  webhookGlobal: { kind: "token bucket", rate: 30_000, period: MINUTE, capacity: 5_000 },
  // mail providers post one-click unsubscribes from shared servers: generous per address
  unsubscribePerClient: { kind: "token bucket", rate: 600, period: MINUTE, capacity: 120 },
  unsubscribeGlobal: { kind: "token bucket", rate: 3_000, period: MINUTE, capacity: 1_000 },
});
