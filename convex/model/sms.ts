/**
 * SMS sends (DESIGN.md §4): a send fans out into one message per recipient phone through a chain
 * of enqueue steps (ENQUEUE_BATCH recipients a transaction); the sender (smsSender.ts) drains the
 * queue in position order at the organisation's pace. Every state change of a message moves the
 * send's counters, so progress and tiles are read, never counted. Pause, resume and cancel (the
 * shared send queue's, model/sendQueue.ts, with the activity log).
 */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { internal } from "../_generated/api";
import { appError } from "../lib/errors";
import { hasOptOutText, INVALID_PHONE_FORMAT, normalizePhone, segmentInfo } from "../lib/sms/rules";
import { stateCode } from "../lib/sms/quietHours";
import { MAX_SMS_BODY } from "../tables/sms";
import { displayName } from "./presence";
import { cancel, ensureSender, pause, resume } from "./sendQueue";
import { smsQueue } from "./smsSender";
import {
  finishSend,
  loadSettings,
  log,
  moveCounts,
  optOutOf,
  providerConfig,
  recipientTimeZone,
  type Counts,
} from "./smsShared";
import type { Viewer } from "./viewer";
import { TEXTS } from "../lib/texts";

export const ENQUEUE_BATCH = 1000;
/** up to this many opt-outs an enqueue step reads them all at once instead of one lookup a phone */
export const OPT_OUT_SET_MAX = 5_000;
export const MAX_QUICK_VOTERS = 5_000;
export const MAX_EXTRA_PHONES = 20;

const EMPTY_COUNTS: Counts = {
  queued: 0,
  sent: 0,
  delivered: 0,
  failed: 0,
  undelivered: 0,
  cancelled: 0,
  optedOut: 0,
  noPhone: 0,
  invalid: 0,
  duplicates: 0,
  segmentsSent: 0,
};

export type StartInput = {
  campaignId?: Id<"campaigns">;
  voterIds?: Id<"voters">[];
  extraPhones?: string[];
  body?: string;
  acknowledgeNoOptOutText?: boolean;
};

/** Validates a send (spec/2 §5 texts), records it and starts the enqueue chain. */
export async function startSend(ctx: MutationCtx, viewer: Viewer, input: StartInput): Promise<Id<"smsSends">> {
  const campaign = input.campaignId ? await ctx.db.get("campaigns", input.campaignId) : null;
  if (input.campaignId && (!campaign || campaign.campaign_type !== "sms")) throw appError("NOT_FOUND");
  if (campaign && campaign.status === "active") {
    const running = await ctx.db
      .query("smsSends")
      .withIndex("by_campaign", (q) => q.eq("campaignId", campaign._id))
      .order("desc")
      .first();
    if (running && (running.status === "sending" || running.status === "paused" || running.status === "preparing")) {
      throw appError(
        "VALIDATION_ERROR",
        "This campaign is already being sent. Pause or cancel that send first.",
        "Already sending",
      );
    }
  }
  const body = (campaign ? (campaign.body ?? "") : (input.body ?? "")).trim();
  if (body === "") throw appError("VALIDATION_ERROR", TEXTS.required.message, TEXTS.titles.messageEmpty);
  if (body.length > MAX_SMS_BODY)
    throw appError(
      "VALIDATION_ERROR",
      `A text message is limited to ${MAX_SMS_BODY.toLocaleString("en-US")} characters.`,
      "Message too long",
    );

  const groupIds = campaign ? (campaign.voter_groups ?? []) : [];
  const voterIds = campaign ? (campaign.individual_voters ?? []) : [...new Set(input.voterIds ?? [])];
  if (voterIds.length > MAX_QUICK_VOTERS)
    throw appError(
      "VALIDATION_ERROR",
      `A quick send reaches at most ${MAX_QUICK_VOTERS.toLocaleString("en-US")} voters; use a campaign with groups for more.`,
    );
  const extraPhones: string[] = [];
  for (const raw of campaign ? [] : (input.extraPhones ?? [])) {
    if (raw.trim() === "") continue;
    const phone = normalizePhone(raw);
    if (!phone) throw appError("VALIDATION_ERROR", INVALID_PHONE_FORMAT, "Invalid phone number");
    extraPhones.push(phone);
  }
  if (extraPhones.length > MAX_EXTRA_PHONES)
    throw appError("VALIDATION_ERROR", `At most ${MAX_EXTRA_PHONES} additional phone numbers.`);
  if (groupIds.length === 0 && voterIds.length === 0 && extraPhones.length === 0) {
    throw appError("VALIDATION_ERROR", TEXTS.sms.recipients, "No recipients specified");
  }

  const orgName = viewer.org.name;
  if (!input.acknowledgeNoOptOutText && (!hasOptOutText(body) || !body.toLowerCase().includes(orgName.toLowerCase()))) {
    throw appError(
      "VALIDATION_ERROR",
      `The message should name ${orgName} and say how to opt out ("Reply STOP to opt out"). Add both, or confirm that this send is an exception.`,
      TEXTS.sms.optOutTitle,
    );
  }

  const settings = await loadSettings(ctx.db, viewer.orgId);
  const { demo } = providerConfig();
  const seg = segmentInfo(body);
  const now = Date.now();
  const sendId = await ctx.db.insert("smsSends", {
    orgId: viewer.orgId,
    campaignId: campaign?._id,
    kind: campaign ? "campaign" : "quick",
    body,
    segments: seg.segments,
    encoding: seg.encoding,
    status: "preparing",
    demo,
    createdBy: viewer.userId,
    createdByName: displayName(viewer.user),
    groupIds,
    voterIds,
    extraPhones,
    prep: { source: 0, cursor: null, done: false },
    nextPosition: 0,
    counts: EMPTY_COUNTS,
    segmentsPerSecond: settings.segmentsPerSecond,
    startedAt: now,
    updatedAt: now,
  });
  if (campaign) await ctx.db.patch("campaigns", campaign._id, { status: "active", updatedAt: now });
  await log(
    ctx,
    viewer.orgId,
    "info",
    `${demo ? "[DEMO] " : ""}${displayName(viewer.user)} started ${campaign ? `"${campaign.name}"` : "a quick send"}`,
    sendId,
  );
  await ctx.scheduler.runAfter(0, internal.sms.enqueueStep, { sendId });
  return sendId;
}

/**
 * One step of the fan-out: up to ENQUEUE_BATCH recipients of the current source (a group's
 * members, the individual voters, the extra phones) become queued messages, deduplicated per
 * phone, without opted-out numbers. Schedules the next step, and the sender once there is work.
 */
export async function enqueueStep(ctx: MutationCtx, sendId: Id<"smsSends">) {
  const send = await ctx.db.get("smsSends", sendId);
  if (!send || send.prep.done || send.status === "cancelled" || send.status === "failed") return;
  const settings = await loadSettings(ctx.db, send.orgId);
  let counts = { ...send.counts };
  let position = send.nextPosition;
  const now = Date.now();
  let { source, cursor } = send.prep;

  // the organisation's opt-outs, read once when there are few (the usual case), else one lookup a phone
  const optOutRows = await ctx.db
    .query("smsOptOuts")
    .withIndex("by_org_phone", (q) => q.eq("orgId", send.orgId))
    .take(OPT_OUT_SET_MAX + 1);
  const optedOutSet = optOutRows.length <= OPT_OUT_SET_MAX ? new Set(optOutRows.map((r) => r.phone)) : null;
  const isOptedOut = async (phone: string) =>
    optedOutSet ? optedOutSet.has(phone) : (await optOutOf(ctx.db, send.orgId, phone)) !== null;
  // phones queued in this step (the index lookup below covers earlier steps)
  const seenHere = new Set<string>();

  const add = async (voter: Doc<"voters"> | null, rawPhone: string | undefined, name: string) => {
    if (!rawPhone || rawPhone.trim() === "") {
      counts.noPhone += 1;
      return;
    }
    const phone = normalizePhone(rawPhone);
    if (!phone) {
      counts.invalid += 1;
      return;
    }
    const dup =
      seenHere.has(phone) ||
      (await ctx.db
        .query("smsMessages")
        .withIndex("by_send_phone", (q) => q.eq("sendId", sendId).eq("phone", phone))
        .first()) !== null;
    if (dup) {
      counts.duplicates += 1;
      return;
    }
    if (await isOptedOut(phone)) {
      counts.optedOut += 1;
      return;
    }
    await ctx.db.insert("smsMessages", {
      orgId: send.orgId,
      sendId,
      campaignId: send.campaignId,
      voterId: voter?._id,
      recipientName: name,
      phone,
      body: send.body,
      segments: send.segments,
      status: "queued",
      position: position++,
      readyAt: now,
      timeZone: recipientTimeZone(voter, settings.defaultTimeZone),
      ...stateOf(voter),
      attempts: 0,
      queuedAt: now,
      updatedAt: now,
    });
    seenHere.add(phone);
    counts = moveCounts(counts, null, "queued");
  };

  const groups = send.groupIds;
  if (source < groups.length) {
    const page = await ctx.db
      .query("voterGroupMembers")
      .withIndex("by_group", (q) => q.eq("groupId", groups[source]))
      .paginate({ cursor, numItems: ENQUEUE_BATCH });
    for (const m of page.page) {
      const voter = await ctx.db.get("voters", m.voterId);
      if (voter) await add(voter, voter.phone, `${voter.first_name} ${voter.last_name}`.trim());
    }
    if (page.isDone) {
      source += 1;
      cursor = null;
    } else cursor = page.continueCursor;
  } else if (source === groups.length) {
    const from = Number(cursor ?? 0);
    for (const id of send.voterIds.slice(from, from + ENQUEUE_BATCH)) {
      const voter = await ctx.db.get("voters", id);
      if (voter && voter.orgId === send.orgId)
        await add(voter, voter.phone, `${voter.first_name} ${voter.last_name}`.trim());
    }
    if (from + ENQUEUE_BATCH >= send.voterIds.length) {
      source += 1;
      cursor = null;
    } else cursor = String(from + ENQUEUE_BATCH);
  } else {
    for (const phone of send.extraPhones) await add(null, phone, phone);
    source += 1;
    cursor = null;
  }
  const done = source > groups.length + 1;
  const status = send.status === "preparing" ? "sending" : send.status;
  await ctx.db.patch("smsSends", sendId, {
    prep: { source, cursor, done },
    nextPosition: position,
    counts,
    status,
    updatedAt: now,
  });
  if (!done) await ctx.scheduler.runAfter(0, internal.sms.enqueueStep, { sendId });
  else {
    const skipped = counts.optedOut + counts.noPhone + counts.invalid;
    await log(
      ctx,
      send.orgId,
      "info",
      `${position.toLocaleString("en-US")} messages queued${skipped ? ` (${counts.optedOut} opted out, ${counts.noPhone} without a phone, ${counts.invalid} invalid numbers skipped)` : ""}`,
      sendId,
    );
  }
  if (status === "sending") await ensureSender(ctx, smsQueue, sendId);
  if (done && position === 0) await finishSend(ctx, sendId);
}

/** Pause, resume or cancel a send; cancelling cancels every message not yet handed to the provider. */
export async function controlSend(
  ctx: MutationCtx,
  viewer: Viewer,
  sendId: Id<"smsSends">,
  action: "pause" | "resume" | "cancel",
) {
  const send = await ctx.db.get("smsSends", sendId);
  if (!send) throw appError("NOT_FOUND");
  const name = displayName(viewer.user);
  if (action === "pause") {
    if (await pause(ctx, send)) await log(ctx, send.orgId, "warning", `${name} paused the send`, sendId);
  } else if (action === "resume") {
    if (await resume(ctx, smsQueue, sendId, send))
      await log(ctx, send.orgId, "info", `${name} resumed the send`, sendId);
  } else if (await cancel(ctx, send)) {
    if (send.campaignId)
      await ctx.db.patch("campaigns", send.campaignId, { status: "cancelled", updatedAt: Date.now() });
    await log(ctx, send.orgId, "warning", `${name} cancelled the send`, sendId);
  }
}

/** The recipient's state for quiet hours by state, when the voter's address names one. */
function stateOf(voter: Pick<Doc<"voters">, "state"> | null) {
  const state = stateCode(voter?.state);
  return state === null ? {} : { state };
}
