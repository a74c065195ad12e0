/**
 * Stored email templates (spec/2 §3 email_templates; category "custom" — the five built-ins are
 * in lib/email/templates.ts): the builder lists, loads, saves and deletes them; the developer
 * page /test-email-templates lists, inserts a sample and deletes them, for administrators
 * (settings.manage).
 */
import { v } from "convex/values";
import { appError, orgMutation, orgQuery } from "./functions";
import { EMAIL_MAX_TEMPLATES, parseBlocks } from "./model/emailCampaigns";
import { BUILT_IN_TEMPLATES } from "./lib/email/templates";
import type { Id } from "./_generated/dataModel";
import type { MutationCtx, QueryCtx } from "./_generated/server";
import { TEXTS } from "./lib/texts";

const vTemplateRow = v.object({
  id: v.id("emailTemplates"),
  name: v.string(),
  blocks: v.string(),
  createdAt: v.number(),
});

async function listTemplates(ctx: QueryCtx, orgId: Id<"organizations">) {
  const rows = await ctx.db
    .query("emailTemplates")
    .withIndex("by_org_created", (q) => q.eq("orgId", orgId))
    .order("desc")
    .take(EMAIL_MAX_TEMPLATES);
  return rows.map((t) => ({ id: t._id, name: t.name, blocks: t.blocks, createdAt: t._creationTime }));
}

async function insertTemplate(
  ctx: MutationCtx & { viewer: { orgId: Id<"organizations">; userId: Id<"users"> } },
  name: string,
  blocksJson: string,
) {
  const n = name.trim();
  if (!n) throw appError("VALIDATION_ERROR", "Please enter a template name.", "Template name required");
  if (n.length > 120) throw appError("VALIDATION_ERROR", "A template name has at most 120 characters.");
  const blocks = parseBlocks(blocksJson);
  if (blocks.length === 0) throw appError("VALIDATION_ERROR", TEXTS.email.noComponents, TEXTS.titles.addContent);
  const orgId = ctx.viewer.orgId;
  const same = await ctx.db
    .query("emailTemplates")
    .withIndex("by_org_name", (q) => q.eq("orgId", orgId).eq("name", n))
    .first();
  if (same) throw appError("DUPLICATE_ERROR", "A template with this name already exists.");
  const count = (
    await ctx.db
      .query("emailTemplates")
      .withIndex("by_org_created", (q) => q.eq("orgId", orgId))
      .take(EMAIL_MAX_TEMPLATES)
  ).length;
  if (count >= EMAIL_MAX_TEMPLATES)
    throw appError(
      "VALIDATION_ERROR",
      `An organization keeps at most ${EMAIL_MAX_TEMPLATES} templates. Delete one first.`,
    );
  return await ctx.db.insert("emailTemplates", {
    orgId,
    name: n,
    blocks: JSON.stringify(blocks),
    createdBy: ctx.viewer.userId,
    createdAt: Date.now(),
  });
}

export const list = orgQuery("campaigns.view")({
  args: {},
  returns: v.array(vTemplateRow),
  handler: async (ctx) => await listTemplates(ctx, ctx.viewer.orgId),
});

/** Save as template: the current design under a new name. */
export const create = orgMutation("campaigns.manage")({
  args: { name: v.string(), blocks: v.string() },
  returns: v.id("emailTemplates"),
  handler: async (ctx, { name, blocks }) => await insertTemplate(ctx, name, blocks),
});

async function removeTemplate(ctx: MutationCtx, id: Id<"emailTemplates">) {
  if (!(await ctx.db.get("emailTemplates", id))) throw appError("NOT_FOUND", "This template no longer exists.");
  await ctx.db.delete("emailTemplates", id);
  return null;
}

export const remove = orgMutation("campaigns.manage")({
  args: { id: v.id("emailTemplates") },
  returns: v.null(),
  handler: async (ctx, { id }) => await removeTemplate(ctx, id),
});

/** Developer page: the stored templates. */
export const devList = orgQuery("settings.manage")({
  args: {},
  returns: v.array(vTemplateRow),
  handler: async (ctx) => await listTemplates(ctx, ctx.viewer.orgId),
});

/** Developer page: inserts a copy of a built-in template as a stored one ("{name} (test {n})"). */
export const devInsert = orgMutation("settings.manage")({
  args: { builtInId: v.string() },
  returns: v.id("emailTemplates"),
  handler: async (ctx, { builtInId }) => {
    const t = BUILT_IN_TEMPLATES.find((b) => b.id === builtInId);
    if (!t) throw appError("NOT_FOUND", "There is no built-in template with that id.");
    const existing = await listTemplates(ctx, ctx.viewer.orgId);
    let n = 1;
    while (existing.some((e) => e.name === `${t.name} (test ${n})`)) n++;
    return await insertTemplate(ctx, `${t.name} (test ${n})`, JSON.stringify(t.blocks));
  },
});

export const devRemove = orgMutation("settings.manage")({
  args: { id: v.id("emailTemplates") },
  returns: v.null(),
  handler: async (ctx, { id }) => await removeTemplate(ctx, id),
});
