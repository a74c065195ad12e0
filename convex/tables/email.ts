/**
 * Email campaigns (spec/2 §3 inbox_messages, email_templates): the published design of each
 * campaign, every saved version of it, the organisation's own templates and uploaded images. The
 * live, co-edited draft of a campaign is a Yjs document (room "emailCampaign:<id>",
 * lib/email/draft.ts); Save publishes it here. Block documents are stored as JSON text of the
 * block tree (lib/email/blocks.ts), validated by `normalizeBlocks` before they are written.
 */
import { defineTable } from "convex/server";
import { v } from "convex/values";
import { vBlastSetup } from "./emailBlast";

export const vImagePurpose = v.union(v.literal("email"), v.literal("cta"));

export const vEmailStatus = v.union(
  v.literal("draft"),
  v.literal("scheduled"),
  v.literal("sent"),
  v.literal("failed"),
  v.literal("automated"),
);

/** The message settings saved with a design. */
export const vEmailSettings = {
  name: v.string(),
  subject: v.string(),
  fromName: v.string(),
  fromEmail: v.string(),
  replyTo: v.string(),
  previewText: v.string(),
};

export const emailTables = {
  emailCampaigns: defineTable({
    orgId: v.id("organizations"),
    ...vEmailSettings,
    /** the block tree as JSON text */
    blocks: v.string(),
    /** the template it was started from ("builtin:welcome" or a stored template's id) */
    templateId: v.optional(v.string()),
    status: vEmailStatus,
    /** the latest saved version (0: never saved since creation) */
    version: v.number(),
    createdBy: v.id("users"),
    createdAt: v.number(),
    updatedBy: v.id("users"),
    updatedByName: v.string(),
    updatedAt: v.number(),
    sentAt: v.optional(v.number()),
    scheduledAt: v.optional(v.number()),
    /** recipients and send type (the dashboard's Send To and Automated tabs); defaults until first edited */
    blast: v.optional(vBlastSetup),
    /** the pending scheduled send (cancelled on reschedule or cancel) */
    scheduleJob: v.optional(v.id("_scheduled_functions")),
    /** the standing send of an active automation */
    automationSendId: v.optional(v.id("emailSends")),
  })
    .index("by_org_updated", ["orgId", "updatedAt"])
    .index("by_org_status", ["orgId", "status", "updatedAt"]),

  /** Every save of a campaign keeps a version; the oldest beyond EMAIL_MAX_VERSIONS are dropped. */
  emailCampaignVersions: defineTable({
    orgId: v.id("organizations"),
    campaignId: v.id("emailCampaigns"),
    version: v.number(),
    ...vEmailSettings,
    blocks: v.string(),
    savedBy: v.id("users"),
    savedByName: v.string(),
    savedAt: v.number(),
  }).index("by_campaign_version", ["campaignId", "version"]),

  /** The organisation's stored templates (category "custom"; the built-ins live in lib/email/templates.ts). */
  emailTemplates: defineTable({
    orgId: v.id("organizations"),
    name: v.string(),
    blocks: v.string(),
    createdBy: v.id("users"),
    createdAt: v.number(),
  })
    .index("by_org_created", ["orgId", "createdAt"])
    .index("by_org_name", ["orgId", "name"]),

  /** Uploaded images of designs (email image and hero blocks, CTA image elements): served by a stable public URL. */
  images: defineTable({
    orgId: v.id("organizations"),
    purpose: vImagePurpose,
    storageId: v.id("_storage"),
    url: v.string(),
    contentType: v.string(),
    size: v.number(),
    createdBy: v.id("users"),
    createdAt: v.number(),
  }).index("by_org", ["orgId"]),
};
