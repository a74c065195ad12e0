/**
 * Email blasts (tables/emailBlast.ts): a campaign's setup (recipients and send type, edited with
 * the record rules), the spec's send checks in order (spec/2 §5), and sends: a blast fans out
 * into one message per address through a chain of enqueue steps (lists, groups, segments,
 * manual addresses; a filter automation's scan of the voters), deduplicated by address and
 * without suppressed addresses; the sender (emailSender.ts) drains the queue in batches.
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { complianceProblem, NO_RECIPIENTS_RESOLVED, parseManualRecipients, personalSubject } from "../lib/email/blast";
import { emptyLinks, emptyLinksMessage, type MergeUser } from "../lib/email/merge";
import { compileMjml } from "../lib/email/mjml";
import { EMAIL_MAX_BYTES, formatBytes, renderEmail } from "../lib/email/render";
import { parseRules, voterMatches, type EmailRule } from "../lib/email/rules";
import { sendProblem } from "../lib/email/sendRules";
import { appError } from "../lib/errors";
import { checkVariables, parseBlocks, senderValues } from "./emailCampaigns";
import { emailQueue, mergeVoterOf } from "./emailSender";
import {
  activeListContacts,
  currentSegmentMembers,
  listSourceCount,
  ruleSubjects,
  voterEmail,
  votersWithEmail,
} from "./emailAudience";
import { isSuppressed } from "./emailEvents";
import { ALWAYS_SUPPRESSED } from "../tables/emailBlast";
import { emailDemoMode } from "./emails";
import { displayName } from "./orgs";
import { cancel, ensureSender, isLive, pause, resume } from "./sendQueue";
import { randomToken } from "./strings";
import type { Viewer } from "./viewer";
import { TEXTS } from "../lib/texts";

export type BlastSetup = NonNullable<Doc<"emailCampaigns">["blast"]>;
export type SendCounts = Doc<"emailSends">["counts"];
type Db = QueryCtx["db"];

/** Recipients resolved per enqueue step (each costs a few reads: within a transaction's limits). */
export const ENQUEUE_BATCH = 500;
export const MAX_AUDIENCE_IDS = 50;

export const EMPTY_SEND_COUNTS: SendCounts = {
  queued: 0,
  sent: 0,
  failed: 0,
  suppressed: 0,
  cancelled: 0,
  duplicates: 0,
  noEmail: 0,
};

export const DEFAULT_SETUP: BlastSetup = {
  listIds: [],
  groupIds: [],
  segmentIds: [],
  manual: [],
  excludeBounced: true,
  excludeComplained: true,
  sendType: "now",
  scheduledAt: null,
  eventTrigger: "voter_created",
  eventTargetId: null,
  eventRules: "[]",
  filterRules: "[]",
};

export function setupOf(c: Pick<Doc<"emailCampaigns">, "blast">): BlastSetup {
  return c.blast ?? DEFAULT_SETUP;
}

/** The campaign's latest send, if any. */
export async function latestSend(db: Db, campaignId: Id<"emailCampaigns">) {
  return await db
    .query("emailSends")
    .withIndex("by_campaign", (q) => q.eq("campaignId", campaignId))
    .order("desc")
    .first();
}

/** Estimated recipients of a selection (before duplicates and exclusions): stored counts, never a scan. */
export async function estimate(
  db: Db,
  orgId: Id<"organizations">,
  sel: Pick<BlastSetup, "listIds" | "groupIds" | "segmentIds" | "manual">,
) {
  let lists = 0;
  for (const id of sel.listIds.slice(0, MAX_AUDIENCE_IDS)) {
    const listId = db.normalizeId("emailLists", id);
    const list = listId ? await db.get("emailLists", listId) : null;
    if (list && list.orgId === orgId) lists += await listSourceCount(db, list);
  }
  let groups = 0;
  for (const id of sel.groupIds.slice(0, MAX_AUDIENCE_IDS)) {
    const groupId = db.normalizeId("voterGroups", id);
    const group = groupId ? await db.get("voterGroups", groupId) : null;
    if (group && group.orgId === orgId) groups += group.memberCount;
  }
  let segments = 0;
  for (const id of sel.segmentIds.slice(0, MAX_AUDIENCE_IDS)) {
    const segmentId = db.normalizeId("emailSegments", id);
    const segment = segmentId ? await db.get("emailSegments", segmentId) : null;
    if (segment && segment.orgId === orgId) segments += segment.cachedCount;
  }
  const manual = parseManualRecipients(sel.manual).valid.length;
  return { total: lists + groups + segments + manual, lists, groups, segments, manual };
}

/** Rules of the setup, parsed (the stored JSON was validated on save). */
export function rulesOf(json: string, opts: { event?: boolean } = {}): EmailRule[] {
  try {
    return parseRules(json, opts);
  } catch {
    return [];
  }
}

/** The design as the campaign last saved it, rendered and checked for bulk sending. */
export async function renderForSend(campaign: Doc<"emailCampaigns">, sender: MergeUser) {
  const subject = campaign.subject.replace(/[\r\n]+/g, " ").trim();
  if (!subject || !campaign.fromEmail)
    throw appError(
      "VALIDATION_ERROR",
      "Subject and from address are required. Fill them in under Message settings and save.",
      TEXTS.titles.missingRequired,
    );
  const blocks = parseBlocks(campaign.blocks);
  if (blocks.length === 0)
    throw appError("VALIDATION_ERROR", "Add at least one component before sending.", TEXTS.titles.addContent);
  const problem = complianceProblem(blocks);
  if (problem) throw appError("VALIDATION_ERROR", problem, "Footer required");
  checkVariables(blocks, [subject, campaign.previewText], "Error");
  const empty = emptyLinks(blocks, sender);
  if (empty.length > 0) throw appError("VALIDATION_ERROR", emptyLinksMessage(empty), "Link is empty");
  const rendered = await renderEmail(blocks, compileMjml, { title: subject, previewText: campaign.previewText });
  if (rendered.bytes > EMAIL_MAX_BYTES) {
    throw appError(
      "VALIDATION_ERROR",
      `This email is ${formatBytes(rendered.bytes)}; Gmail clips messages above ${formatBytes(EMAIL_MAX_BYTES)}. Remove some content before sending.`,
      "Email too large",
    );
  }
  const fromName = campaign.fromName.replace(/[\r\n"<>\\]/g, "").trim();
  return {
    subject,
    from: fromName ? `"${fromName}" <${campaign.fromEmail}>` : campaign.fromEmail,
    replyTo: campaign.replyTo || undefined,
    html: rendered.html,
    text: rendered.text,
  };
}

/**
 * The spec's checks before anything is sent, in its order (spec/2 §5), then the design's own
 * (content, footer compliance, size). Throws the first failure with the spec's title and text.
 */
export async function checkSend(db: Db, campaign: Doc<"emailCampaigns"> | null, now: number) {
  const setup = campaign ? setupOf(campaign) : null;
  const audienceBased = setup?.sendType === "now" || setup?.sendType === "schedule";
  const problem = sendProblem({
    hasCampaign: campaign !== null,
    sendType: setup?.sendType ?? "now",
    // counted only where it matters (a send now or a scheduled one)
    recipients: campaign && setup && audienceBased ? (await estimate(db, campaign.orgId, setup)).total : undefined,
    scheduledAt: setup?.scheduledAt ?? null,
    now,
    eventRules: setup ? rulesOf(setup.eventRules, { event: true }) : [],
    filterRules: setup ? rulesOf(setup.filterRules) : [],
  });
  if (problem) throw appError("VALIDATION_ERROR", problem.message, problem.title);
  if (!campaign || !setup) throw new Error("unreachable: a send without a campaign passed the checks");
  if (campaign.status === "automated")
    throw appError(
      "VALIDATION_ERROR",
      "This campaign's automation is active. Stop it before sending another way.",
      "Automation active",
    );
  const running = await latestSend(db, campaign._id);
  if (running && isLive(running.status))
    throw appError(
      "VALIDATION_ERROR",
      "This campaign is being sent. Pause or cancel that send first.",
      "Already sending",
    );
  if (campaign.status === "sent")
    throw appError(
      "VALIDATION_ERROR",
      "This campaign was already sent. Duplicate it to send it again.",
      "Already sent",
    );
  return setup;
}

/** Records a send of the campaign as it was last saved and starts resolving its recipients. */
export async function createSend(
  ctx: MutationCtx,
  campaign: Doc<"emailCampaigns">,
  by: { userId: Id<"users">; name: string; values: Record<string, string> },
  kind: "blast" | "automation",
): Promise<Id<"emailSends">> {
  const setup = setupOf(campaign);
  const template = await renderForSend(campaign, by.values);
  const now = Date.now();
  const filter = kind === "automation" && setup.sendType === "filter";
  const sendId = await ctx.db.insert("emailSends", {
    orgId: campaign.orgId,
    campaignId: campaign._id,
    kind,
    status: "preparing",
    demo: emailDemoMode(),
    ...template,
    senderValues: by.values,
    sources:
      kind === "blast"
        ? {
            listIds: setup.listIds,
            groupIds: setup.groupIds,
            segmentIds: setup.segmentIds,
            manual: parseManualRecipients(setup.manual).valid,
          }
        : { listIds: [], groupIds: [], segmentIds: [], manual: [] },
    exclude: { bounced: setup.excludeBounced, complained: setup.excludeComplained },
    ...(filter ? { filterRules: setup.filterRules } : {}),
    prep: { source: 0, cursor: null, done: kind === "automation" && !filter },
    nextPosition: 0,
    counts: EMPTY_SEND_COUNTS,
    consecutiveErrors: 0,
    batchSeq: 0,
    createdBy: by.userId,
    createdByName: by.name,
    startedAt: now,
    updatedAt: now,
  });
  if (kind === "automation" && !filter) await ctx.db.patch("emailSends", sendId, { status: "sending" });
  else await ctx.scheduler.runAfter(0, internal.emailBlasts.enqueueStep, { sendId });
  return sendId;
}

export function senderOf(viewer: Pick<Viewer, "userId" | "user" | "org">) {
  return {
    userId: viewer.userId,
    name: displayName(viewer.user),
    values: senderValues(viewer.user, viewer.org) as Record<string, string>,
  };
}

type Candidate = { voter: Doc<"voters"> | null; email: string | undefined; name: string };

/** Up to this many suppressions an enqueue step reads them all at once instead of one lookup an address. */
export const SUPPRESSION_SET_MAX = 5_000;

type SuppressedCheck = (email: string) => Promise<boolean>;

/** How an enqueue step tells suppressed addresses: one read of the organisation's few suppressions, or a lookup each. */
async function suppressionCheck(ctx: MutationCtx, send: Doc<"emailSends">): Promise<SuppressedCheck> {
  const rows = await ctx.db
    .query("emailSuppressions")
    .withIndex("by_org_email", (q) => q.eq("orgId", send.orgId))
    .take(SUPPRESSION_SET_MAX + 1);
  if (rows.length > SUPPRESSION_SET_MAX) return (email) => isSuppressed(ctx.db, send, email);
  const set = new Set(
    rows
      .filter(
        (r) =>
          ALWAYS_SUPPRESSED.has(r.reason) ||
          (r.reason === "bounced" && send.exclude.bounced) ||
          (r.reason === "complained" && send.exclude.complained),
      )
      .map((r) => r.email),
  );
  return async (email) => set.has(email);
}

/** Adds one recipient to the send: skips no address, duplicates and suppressed addresses. Returns whether it was queued. */
export async function addRecipient(
  ctx: MutationCtx,
  send: Doc<"emailSends">,
  c: Candidate,
  position: number,
  counts: SendCounts,
  seen: Set<string>,
  suppressed?: SuppressedCheck,
): Promise<boolean> {
  const email = (c.email ?? "").trim().toLowerCase();
  if (!email || !email.includes("@")) {
    counts.noEmail += 1;
    return false;
  }
  if (
    seen.has(email) ||
    (await ctx.db
      .query("emailMessages")
      .withIndex("by_send_email", (q) => q.eq("sendId", send._id).eq("email", email))
      .first()) !== null
  ) {
    counts.duplicates += 1;
    return false;
  }
  seen.add(email);
  if (await (suppressed ? suppressed(email) : isSuppressed(ctx.db, send, email))) {
    counts.suppressed += 1;
    return false;
  }
  const now = Date.now();
  await ctx.db.insert("emailMessages", {
    orgId: send.orgId,
    sendId: send._id,
    campaignId: send.campaignId,
    voterId: c.voter?._id,
    email,
    name: c.name,
    subject: personalSubject(send, { email, voter: c.voter ? mergeVoterOf(c.voter) : null }),
    status: "queued",
    position,
    readyAt: now,
    attempts: 0,
    unsubToken: randomToken(24),
    queuedAt: now,
    updatedAt: now,
  });
  counts.queued += 1;
  return true;
}

const voterName = (v: Doc<"voters">) => `${v.first_name} ${v.last_name}`.trim();
const voterCandidate = (v: Doc<"voters">): Candidate => ({
  voter: v,
  email: voterEmail(v) ?? undefined,
  name: voterName(v),
});

/** Sources of a send in order: its lists, groups, segments, the manual addresses, and a filter automation's scan. */
function sourceCount(send: Doc<"emailSends">): number {
  const { listIds, groupIds, segmentIds } = send.sources;
  return listIds.length + groupIds.length + segmentIds.length + 1 + (send.filterRules ? 1 : 0);
}

/** `gen`: the segment generation a segment's page was read from */
type Page = { items: Candidate[]; cursor: string | null; done: boolean; gen?: number };

/** One page of a source of the send (a list, a group, a segment, the manual addresses, the filter scan). */
async function sourcePage(
  ctx: MutationCtx,
  send: Doc<"emailSends">,
  source: number,
  cursor: string | null,
): Promise<Page | null> {
  const { listIds, groupIds, segmentIds, manual } = send.sources;
  const db = ctx.db;
  const paged = async <T>(
    page: { page: T[]; continueCursor: string; isDone: boolean },
    map: (t: T) => Promise<Candidate | null>,
  ): Promise<Page> => {
    const items: Candidate[] = [];
    for (const row of page.page) {
      const c = await map(row);
      if (c) items.push(c);
    }
    return { items, cursor: page.continueCursor, done: page.isDone };
  };
  const ofVoter = async (voterId: Id<"voters">) => {
    const voter = await db.get("voters", voterId);
    return voter && voter.orgId === send.orgId ? voterCandidate(voter) : null;
  };
  let i = source;
  if (i < listIds.length) {
    const listId = db.normalizeId("emailLists", listIds[i]);
    const list = listId ? await db.get("emailLists", listId) : null;
    if (!list || list.orgId !== send.orgId) return { items: [], cursor: null, done: true };
    if (list.subscriptionType === "all_voters") {
      const page = await votersWithEmail(db, send.orgId).paginate({ cursor, numItems: ENQUEUE_BATCH });
      return await paged(page, async (v) => voterCandidate(v));
    }
    const page = await activeListContacts(db, list._id).paginate({ cursor, numItems: ENQUEUE_BATCH });
    return await paged(page, async (c) => (await ofVoter(c.voterId)) ?? { voter: null, email: c.email, name: c.email });
  }
  i -= listIds.length;
  if (i < groupIds.length) {
    const groupId = db.normalizeId("voterGroups", groupIds[i]);
    const group = groupId ? await db.get("voterGroups", groupId) : null;
    if (!group || group.orgId !== send.orgId) return { items: [], cursor: null, done: true };
    const page = await db
      .query("voterGroupMembers")
      .withIndex("by_group", (q) => q.eq("groupId", group._id))
      .paginate({ cursor, numItems: ENQUEUE_BATCH });
    return await paged(page, (m) => ofVoter(m.voterId));
  }
  i -= groupIds.length;
  if (i < segmentIds.length) {
    const segmentId = db.normalizeId("emailSegments", segmentIds[i]);
    const segment = segmentId ? await db.get("emailSegments", segmentId) : null;
    if (!segment || segment.orgId !== send.orgId) return { items: [], cursor: null, done: true };
    // a refresh switched the segment to a new generation since this source began: a cursor is
    // only valid for its own query (Convex refuses it), so the new members are read from the
    // start (addresses already queued are skipped as duplicates)
    const from = send.prep.gen === segment.gen ? cursor : null;
    const page = await currentSegmentMembers(db, segment).paginate({ cursor: from, numItems: ENQUEUE_BATCH });
    return { ...(await paged(page, (m) => ofVoter(m.voterId))), gen: segment.gen };
  }
  i -= segmentIds.length;
  if (i === 0) {
    const items: Candidate[] = [];
    for (const email of manual) {
      const voter = await db
        .query("voters")
        .withIndex("by_org_email", (q) => q.eq("orgId", send.orgId).eq("emailLower", email))
        .first();
      items.push({ voter, email, name: voter ? voterName(voter) : email });
    }
    return { items, cursor: null, done: true };
  }
  if (i === 1 && send.filterRules) {
    const rules = rulesOf(send.filterRules);
    const now = Date.now();
    const page = await db
      .query("voters")
      .withIndex("by_org", (q) => q.eq("orgId", send.orgId))
      .paginate({ cursor, numItems: ENQUEUE_BATCH });
    const subject = await ruleSubjects(db, send.orgId, page.page, rules);
    return await paged(page, async (v) => (voterMatches(subject(v), rules, now) ? voterCandidate(v) : null));
  }
  return null;
}

/** One step of resolving a send's recipients; schedules the next, and the sender once there is work. */
export async function enqueueStep(ctx: MutationCtx, sendId: Id<"emailSends">) {
  const send = await ctx.db.get("emailSends", sendId);
  if (!send || send.prep.done || send.status === "cancelled" || send.status === "failed" || send.status === "completed")
    return;
  let { source, cursor } = send.prep;
  const counts = { ...send.counts };
  let position = send.nextPosition;
  const page = await sourcePage(ctx, send, source, cursor);
  if (page) {
    const seen = new Set<string>();
    const suppressed = await suppressionCheck(ctx, send);
    for (const c of page.items) if (await addRecipient(ctx, send, c, position, counts, seen, suppressed)) position += 1;
    if (page.done) {
      source += 1;
      cursor = null;
    } else cursor = page.cursor;
  }
  const done = page === null || source >= sourceCount(send);
  const now = Date.now();
  const status = send.status === "preparing" ? "sending" : send.status;
  const prep = { source, cursor, done, ...(cursor !== null && page?.gen !== undefined ? { gen: page.gen } : {}) };
  await ctx.db.patch("emailSends", sendId, { prep, nextPosition: position, counts, status, updatedAt: now });
  if (!done) await ctx.scheduler.runAfter(0, internal.emailBlasts.enqueueStep, { sendId });
  if (done && position === 0 && send.kind === "blast") {
    await ctx.db.patch("emailSends", sendId, { status: "failed", error: NO_RECIPIENTS_RESOLVED, finishedAt: now });
    await ctx.db.patch("emailCampaigns", send.campaignId, { status: "failed", sentAt: undefined });
    return;
  }
  if (status === "sending" && position > send.nextPosition) await ensureSender(ctx, emailQueue, sendId);
  else if (done && status === "sending") await ensureSender(ctx, emailQueue, sendId);
}

/** Pause, resume or cancel a send (model/sendQueue.ts); cancelling cancels every message not yet handed to the provider. */
export async function controlSend(ctx: MutationCtx, send: Doc<"emailSends">, action: "pause" | "resume" | "cancel") {
  if (action === "pause") await pause(ctx, send);
  else if (action === "cancel") await cancel(ctx, send);
  // a resumed send starts afresh: the provider errors before the pause no longer count
  else if (await resume(ctx, emailQueue, send._id, send))
    await ctx.db.patch("emailSends", send._id, { consecutiveErrors: 0 });
}
