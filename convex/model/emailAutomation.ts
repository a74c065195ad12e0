/**
 * Automated email campaigns (spec/2 §3 rules, §4 send types). An active automation has a standing
 * send (kind "automation") that stays open; recipients join it one at a time, deduplicated by
 * address, so each voter gets the campaign once.
 * - Event: when a voter is created, joins a group, or submits a form or survey, every active
 *   event automation of the organisation with that trigger checks its rules against the voter
 *   and enqueues them after the rules' time delay (a durable scheduled job).
 * - Filter: when activated, a scan enqueues every voter matching the rules; afterwards any voter
 *   who comes to match (created or updated) is enqueued as it happens.
 * District rules are judged once the voter's districts are known: the voter's other rules at the
 * event, then in a scheduled step (after the event rules' delay) the voter is assigned to its
 * districts — what its save's own assignment does, idempotent — and its district rules decide.
 */
import type { WithoutSystemFields } from "convex/server";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { isDistrictRule, ruleDelayMs, serializeRules, voterMatches, type EmailRule } from "../lib/email/rules";
import type { EventTrigger } from "../tables/emailBlast";
import { assignVoter } from "./districts";
import { ruleSubjects, voterEmail } from "./emailAudience";
import { addRecipient, rulesOf, setupOf } from "./emailBlast";
import { emailQueue } from "./emailSender";
import { ensureSender } from "./sendQueue";

export type VoterEvent = { type: EventTrigger; targetId?: string } | { type: "voter_updated" };
/** The voter as just written (its id and fields; the system's creation time is not needed). */
export type EventVoter = WithoutSystemFields<Doc<"voters">> & { _id: Id<"voters"> };

/** The organisation's active automations (few: a campaign is automated by hand). */
/**
 * The organisation's running automations, read once per transaction (an import's batch raises a
 * voter event per row; the automations do not change within it).
 */
const automationsIn = new WeakMap<object, Map<Id<"organizations">, Promise<Doc<"emailCampaigns">[]>>>();

function activeAutomations(ctx: MutationCtx, orgId: Id<"organizations">): Promise<Doc<"emailCampaigns">[]> {
  let byOrg = automationsIn.get(ctx.db);
  if (!byOrg) automationsIn.set(ctx.db, (byOrg = new Map()));
  let found = byOrg.get(orgId);
  if (!found) {
    found = ctx.db
      .query("emailCampaigns")
      .withIndex("by_org_status", (q) => q.eq("orgId", orgId).eq("status", "automated"))
      .take(50);
    byOrg.set(orgId, found);
  }
  return found;
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
      const [districtRules, others] = splitDistrictRules(rules);
      if (!voterMatches(voter, others, now)) continue;
      const delay = Math.max(0, ...rules.map(ruleDelayMs));
      await ctx.scheduler.runAfter(delay, internal.emailBlasts.enqueueAutomated, {
        sendId: c.automationSendId,
        voterId: voter._id,
        ...(districtRules.length ? { districtRules: serializeRules(districtRules) } : {}),
      });
    } else if (setup.sendType === "filter" && (event.type === "voter_created" || event.type === "voter_updated")) {
      const [districtRules, others] = splitDistrictRules(rulesOf(setup.filterRules));
      if (!voterMatches(voter, others, now)) continue;
      if (districtRules.length)
        await ctx.scheduler.runAfter(0, internal.emailBlasts.enqueueAutomated, {
          sendId: c.automationSendId,
          voterId: voter._id,
          districtRules: serializeRules(districtRules),
        });
      else await enqueueAutomated(ctx, c.automationSendId, voter._id);
    }
  }
}

/** Rules in two: the district rules (judged once the voter is assigned) and the others. */
function splitDistrictRules(rules: EmailRule[]): [EmailRule[], EmailRule[]] {
  return [rules.filter(isDistrictRule), rules.filter((r) => !isDistrictRule(r))];
}

/**
 * Adds one voter to an automation's standing send (once per address) and wakes its sender.
 * `districtRules` (JSON): the voter is first assigned to its districts, and must match them.
 */
export async function enqueueAutomated(
  ctx: MutationCtx,
  sendId: Id<"emailSends">,
  voterId: Id<"voters">,
  districtRules?: string,
) {
  const send = await ctx.db.get("emailSends", sendId);
  if (!send || send.status === "cancelled" || send.status === "completed" || send.status === "failed") return;
  const voter = await ctx.db.get("voters", voterId);
  if (!voter || voter.orgId !== send.orgId) return;
  if (districtRules !== undefined) {
    const rules = rulesOf(districtRules);
    // its membership as of now (its save's own assignment may not have run yet; a bulk write schedules none)
    await assignVoter(ctx, voterId);
    const subject = await ruleSubjects(ctx.db, send.orgId, [voter], rules);
    // rules that cannot be read match no one (never everyone)
    if (rules.length === 0 || !voterMatches(subject(voter), rules, Date.now())) return;
  }
  const counts = { ...send.counts };
  const queued = await addRecipient(
    ctx,
    send,
    { voter, email: voterEmail(voter) ?? undefined, name: `${voter.first_name} ${voter.last_name}`.trim() },
    send.nextPosition,
    counts,
    new Set(),
  );
  await ctx.db.patch("emailSends", sendId, {
    counts,
    nextPosition: send.nextPosition + (queued ? 1 : 0),
    updatedAt: Date.now(),
  });
  if (queued) await ensureSender(ctx, emailQueue, sendId);
}
