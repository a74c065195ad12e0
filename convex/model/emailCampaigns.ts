/**
 * Email campaigns (tables/email.ts): the save rules of the builder (spec/2 §5), versions, the
 * co-edited draft's seed, and the personalization values of a sender.
 */
import { defineRateLimits } from "convex-helpers/server/rateLimit";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { BlockDocumentError, normalizeBlocks, type EmailBlock } from "../lib/email/blocks";
import { writeEmailDraft, type EmailMeta } from "../lib/email/draft";
import { isEmailAddress } from "../lib/email/addresses";
import { documentTexts, unknownVariables } from "../lib/email/merge";
import { appError } from "../lib/errors";
import { displayName } from "./orgs";
import type { Viewer } from "./viewer";
import { seedDocument } from "./yjs";
import { TEXTS } from "../lib/texts";

/** Versions kept per campaign (the oldest beyond are dropped on save). */
export const EMAIL_MAX_VERSIONS = 100;
/** Stored JSON of one design (far below Convex's 1 MiB document). */
export const EMAIL_MAX_BLOCKS_JSON = 400_000;
export const EMAIL_MAX_TEMPLATES = 200;
/** Recipients of one test send. */
export const TEST_MAX_RECIPIENTS = 10;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Test sends are budgeted per user and per organisation. */
export const { rateLimit: emailRateLimit } = defineRateLimits({
  testEmailsPerUser: { kind: "token bucket", rate: 30, period: HOUR, capacity: 30 },
  testEmailsPerOrg: { kind: "token bucket", rate: 200, period: HOUR, capacity: 200 },
});

export function emailCampaignRoom(id: Id<"emailCampaigns">): string {
  return `emailCampaign:${id}`;
}

export type EmailSettings = Pick<EmailMeta, "name" | "subject" | "fromName" | "fromEmail" | "replyTo" | "previewText">;

const SETTING_LIMITS: Record<keyof EmailSettings, number> = {
  name: 200,
  subject: 300,
  fromName: 120,
  fromEmail: 254,
  replyTo: 254,
  previewText: 300,
};

/** Parses and checks a stored or submitted design: the block tree, within bounds, with known variables only. */
export function parseBlocks(json: string): EmailBlock[] {
  if (json.length > EMAIL_MAX_BLOCKS_JSON)
    throw appError("VALIDATION_ERROR", "This email is too large to save. Remove some content.", "Save failed");
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw appError("VALIDATION_ERROR", "The email content could not be read.", "Save failed");
  }
  try {
    return normalizeBlocks(raw);
  } catch (e) {
    if (e instanceof BlockDocumentError) throw appError("VALIDATION_ERROR", e.message, "Save failed");
    throw e;
  }
}

/** Unknown personalization variables are refused: they would be sent raw. */
export function checkVariables(blocks: EmailBlock[], extra: string[], title: string) {
  const unknown = unknownVariables(documentTexts(blocks, extra));
  if (unknown.length) {
    throw appError(
      "VALIDATION_ERROR",
      `Unknown personalization ${unknown.length === 1 ? "variable" : "variables"}: ${unknown.map((u) => `{{${u}}}`).join(", ")}`,
      title,
    );
  }
}

/** The builder's save rules: a name ('Campaign name required'), content ('Add content to campaign'), settings within bounds. */
export function checkCampaign(
  settings: EmailSettings,
  blocksJson: string,
): { settings: EmailSettings; blocks: EmailBlock[] } {
  const s = Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, v.trim()])) as EmailSettings;
  if (!s.name) throw appError("VALIDATION_ERROR", TEXTS.required.campaignName, TEXTS.titles.campaignNameRequired);
  for (const [k, max] of Object.entries(SETTING_LIMITS)) {
    if (s[k as keyof EmailSettings].length > max)
      throw appError(
        "VALIDATION_ERROR",
        `That ${k === "fromEmail" ? "from address" : k} is too long (at most ${max} characters).`,
        "Save failed",
      );
  }
  for (const k of ["fromEmail", "replyTo"] as const) {
    if (s[k] && !isEmailAddress(s[k]))
      throw appError(
        "VALIDATION_ERROR",
        "The email address format is invalid. Please use a valid email.",
        "Save failed",
      );
  }
  const blocks = parseBlocks(blocksJson);
  if (blocks.length === 0) throw appError("VALIDATION_ERROR", TEXTS.email.noComponents, TEXTS.titles.addContent);
  checkVariables(blocks, [s.subject, s.previewText], "Save failed");
  return { settings: s, blocks };
}

/** Stores a new version of a campaign (its number is the campaign's new version) and drops the oldest beyond the cap. */
export async function recordVersion(
  ctx: MutationCtx,
  viewer: Pick<Viewer, "userId" | "orgId" | "user">,
  campaign: Pick<Doc<"emailCampaigns">, "_id">,
  version: number,
  settings: EmailSettings,
  blocks: string,
) {
  await ctx.db.insert("emailCampaignVersions", {
    orgId: viewer.orgId,
    campaignId: campaign._id,
    version,
    ...settings,
    blocks,
    savedBy: viewer.userId,
    savedByName: displayName(viewer.user),
    savedAt: Date.now(),
  });
  const old = await ctx.db
    .query("emailCampaignVersions")
    .withIndex("by_campaign_version", (q) =>
      q.eq("campaignId", campaign._id).lte("version", version - EMAIL_MAX_VERSIONS),
    )
    .take(10);
  for (const v of old) await ctx.db.delete("emailCampaignVersions", v._id);
}

/** Seeds the co-edited draft from the server, so no two browsers seed it twice. */
export async function seedEmailDraft(
  ctx: MutationCtx,
  viewer: Pick<Viewer, "userId" | "orgId">,
  id: Id<"emailCampaigns">,
  draft: { meta: EmailSettings; blocks: EmailBlock[] },
) {
  await seedDocument(ctx, viewer, emailCampaignRoom(id), id, (doc) => writeEmailDraft(doc, draft));
}

/** The sender's side of personalization (user.*): the signed-in user and the organisation. */
export function senderValues(
  user: Pick<Doc<"users">, "name" | "firstName" | "lastName" | "email">,
  org: Pick<Doc<"organizations">, "name" | "website">,
) {
  const [first, ...rest] = (user.name ?? "").trim().split(/\s+/);
  return {
    campaign_name: org.name,
    name: displayName(user),
    first_name: user.firstName ?? first ?? "",
    last_name: user.lastName ?? rest.join(" "),
    email: user.email ?? "",
    website: org.website ?? "",
    district: "",
    office: "",
    party: "",
  };
}
