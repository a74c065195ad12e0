/**
 * Automated email campaigns (spec/2 §3 rules, §4 send types). An active automation has a standing
 * send (kind "automation") that stays open; recipients join it one at a time, deduplicated by
 * address, so each voter gets the campaign once.
 * - Event: when a voter is created, joins a group, or submits a form or survey, every active
 *   event automation of the organisation with that trigger checks its rules against the voter
 *   and enqueues them after the rules' time delay (a durable scheduled job).
 * - Filter: when activated, a scan enqueues every voter matching the rules; afterwards any voter
 *   who comes to match (created or updated) is enqueued as it happens.
 */
import type { WithoutSystemFields } from "convex/server";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { ruleDelayMs, voterMatches } from "../lib/email/rules";
import type { EventTrigger } from "../tables/emailBlast";
import { voterEmail } from "./emailAudience";
import { addRecipient, rulesOf, setupOf } from "./emailBlast";
import { emailQueue } from "./emailSender";
import { ensureSender } from "./sendQueue";

export type VoterEvent = { type: EventTrigger; targetId?: string } | { type: "voter_updated" };
/** The voter as just written (its id and fields; the system's creation time is not needed). */
export type EventVoter = WithoutSystemFields<Doc<"voters">> & { _id: Id<"voters"> };

/** The organisation's active automations (few: a campaign is automated by hand). */
async function activeAutomations(ctx: MutationCtx, orgId: Id<"organizations">) {
  return await ctx.db
    .query("emailCampaigns")
    .withIndex("by_org_status", (q) => q.eq("orgId", orgId).eq("status", "automated"))
    .take(50);
}

/**
 * Called by the mutation in which the event happens: enqueues the voter into every automation
 * the event and the voter's data match (now, or after the rules' delay).
 */
export async function onVoterEvent(ctx: MutationCtx, voter: EventVoter, event: VoterEvent) {
  if (!voter.email) return;
  const campaigns = await activeAutomations(ctx, voter.orgId);
  if (campaigns.length === 0) return;
  const now = Date.now();
  for (const c of campaigns) {
    if (!c.automationSendId) continue;
    const setup = setupOf(c);
    if (setup.sendType === "event") {
      if (event.type !== setup.eventTrigger) continue;
      if (setup.eventTargetId && "targetId" in event && event.targetId !== setup.eventTargetId) continue;
      const rules = rulesOf(setup.eventRules, { event: true });
      if (!voterMatches(voter, rules, now)) continue;
      const delay = Math.max(0, ...rules.map(ruleDelayMs));
      await ctx.scheduler.runAfter(delay, internal.emailBlasts.enqueueAutomated, {
        sendId: c.automationSendId,
        voterId: voter._id,
      });
    } else if (setup.sendType === "filter" && (event.type === "voter_created" || event.type === "voter_updated")) {
      if (!voterMatches(voter, rulesOf(setup.filterRules), now)) continue;
      await enqueueAutomated(ctx, c.automationSendId, voter._id);
    }
  }
}

/** Adds one voter to an automation's standing send (once per address) and wakes its sender. */
export async function enqueueAutomated(ctx: MutationCtx, sendId: Id<"emailSends">, voterId: Id<"voters">) {
  const send = await ctx.db.get(sendId);
  if (!send || send.status === "cancelled" || send.status === "completed" || send.status === "failed") return;
  const voter = await ctx.db.get(voterId);
  if (!voter || voter.orgId !== send.orgId) return;
  const counts = { ...send.counts };
  const queued = await addRecipient(
    ctx,
    send,
    { voter, email: voterEmail(voter) ?? undefined, name: `${voter.first_name} ${voter.last_name}`.trim() },
    send.nextPosition,
    counts,
    new Set(),
  );
  await ctx.db.patch(sendId, { counts, nextPosition: send.nextPosition + (queued ? 1 : 0), updatedAt: Date.now() });
  if (queued) await ensureSender(ctx, emailQueue, sendId);
}
