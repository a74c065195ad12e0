/**
 * CTA templates (spec/3 §2.9, §3.3, §6): the 25 built-ins live in lib/cta/templates.ts; custom
 * templates are platform-wide, listed to every member who can see CTAs, and created, edited and
 * deleted by super administrators only — anyone else gets "Access Denied: Only Super
 * Administrators can create templates." from the server.
 */
import { v } from "convex/values";
import { appError, orgQuery, superAdminMutation } from "./functions";
import { TEMPLATE_CATEGORIES } from "./lib/cta/design";
import { checkTemplate, CTA_MAX_TEMPLATES } from "./model/ctas";
import { displayName } from "./model/orgs";
import { ctaTables } from "./tables/cta";

const DENIED = { title: "Access Denied", message: "Only Super Administrators can create templates." };

function category(c: string): string {
  if (!(TEMPLATE_CATEGORIES as readonly string[]).includes(c))
    throw appError("VALIDATION_ERROR", `Choose a category: ${TEMPLATE_CATEGORIES.join(", ")}.`, "Template Save Failed");
  return c;
}

export const list = orgQuery("campaigns.view")({
  args: {},
  returns: v.array(
    ctaTables.ctaTemplates.validator
      .pick("name", "category", "design", "createdAt", "updatedAt", "updatedByName")
      .extend({ id: v.id("ctaTemplates") }),
  ),
  handler: async (ctx) => {
    const rows = await ctx.db.query("ctaTemplates").withIndex("by_name").take(CTA_MAX_TEMPLATES);
    return rows.map((t) => ({
      id: t._id,
      name: t.name,
      category: t.category,
      design: t.design,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      updatedByName: t.updatedByName,
    }));
  },
});

export const create = superAdminMutation(DENIED)({
  args: { name: v.string(), category: v.string(), design: v.string() },
  returns: v.id("ctaTemplates"),
  handler: async (ctx, args) => {
    const { name, design } = checkTemplate(args.name, args.design);
    if ((await ctx.db.query("ctaTemplates").withIndex("by_name").take(CTA_MAX_TEMPLATES)).length >= CTA_MAX_TEMPLATES) {
      throw appError(
        "VALIDATION_ERROR",
        `At most ${CTA_MAX_TEMPLATES} custom templates. Delete one first.`,
        "Template Save Failed",
      );
    }
    const now = Date.now();
    return await ctx.db.insert("ctaTemplates", {
      name,
      category: category(args.category),
      design: JSON.stringify({ ...design, name }),
      createdBy: ctx.viewer.userId,
      createdAt: now,
      updatedByName: displayName(ctx.viewer.user),
      updatedAt: now,
    });
  },
});

export const update = superAdminMutation(DENIED)({
  /** `baseUpdatedAt`: when the template the editor started from was saved; a later save by someone else is not overwritten */
  args: {
    id: v.id("ctaTemplates"),
    baseUpdatedAt: v.number(),
    name: v.string(),
    category: v.string(),
    design: v.string(),
  },
  /** the new `updatedAt`: the base of this editor's next save */
  returns: v.number(),
  handler: async (ctx, args) => {
    const template = await ctx.db.get("ctaTemplates", args.id);
    if (!template) throw appError("NOT_FOUND", "This template no longer exists.");
    if (template.updatedAt !== args.baseUpdatedAt) {
      throw appError(
        "CONFLICT",
        `${template.updatedByName} saved this template while you were editing it. Open it again to see their changes, then make yours.`,
        "Template changed",
      );
    }
    const { name, design } = checkTemplate(args.name, args.design);
    const updatedAt = Math.max(Date.now(), template.updatedAt + 1);
    await ctx.db.patch("ctaTemplates", args.id, {
      name,
      category: category(args.category),
      design: JSON.stringify({ ...design, name }),
      updatedByName: displayName(ctx.viewer.user),
      updatedAt,
    });
    return updatedAt;
  },
});

export const remove = superAdminMutation(DENIED)({
  args: { id: v.id("ctaTemplates") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    if (!(await ctx.db.get("ctaTemplates", id))) throw appError("NOT_FOUND", "This template no longer exists.");
    await ctx.db.delete("ctaTemplates", id);
    return null;
  },
});
