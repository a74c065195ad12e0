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

const DENIED = { title: "Access Denied", message: "Only Super Administrators can create templates." };

function category(c: string): string {
  if (!(TEMPLATE_CATEGORIES as readonly string[]).includes(c)) throw appError("VALIDATION_ERROR", `Choose a category: ${TEMPLATE_CATEGORIES.join(", ")}.`, "Template Save Failed");
  return c;
}

export const list = orgQuery("campaigns.view")({
  args: {},
  handler: async (ctx) => {
    const rows = await ctx.db.query("ctaTemplates").withIndex("by_name").take(CTA_MAX_TEMPLATES);
    return rows.map((t) => ({ id: t._id, name: t.name, category: t.category, design: t.design, createdAt: t.createdAt, updatedAt: t.updatedAt }));
  },
});

export const create = superAdminMutation(DENIED)({
  args: { name: v.string(), category: v.string(), design: v.string() },
  returns: v.id("ctaTemplates"),
  handler: async (ctx, args) => {
    const { name, design } = checkTemplate(args.name, args.design);
    if ((await ctx.db.query("ctaTemplates").withIndex("by_name").take(CTA_MAX_TEMPLATES)).length >= CTA_MAX_TEMPLATES) {
      throw appError("VALIDATION_ERROR", `At most ${CTA_MAX_TEMPLATES} custom templates. Delete one first.`, "Template Save Failed");
    }
    const now = Date.now();
    return await ctx.db.insert("ctaTemplates", { name, category: category(args.category), design: JSON.stringify({ ...design, name }), createdBy: ctx.viewer.userId, createdAt: now, updatedAt: now });
  },
});

export const update = superAdminMutation(DENIED)({
  args: { id: v.id("ctaTemplates"), name: v.string(), category: v.string(), design: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    if (!(await ctx.db.get(args.id))) throw appError("NOT_FOUND", "This template no longer exists.");
    const { name, design } = checkTemplate(args.name, args.design);
    await ctx.db.patch(args.id, { name, category: category(args.category), design: JSON.stringify({ ...design, name }), updatedAt: Date.now() });
    return null;
  },
});

export const remove = superAdminMutation(DENIED)({
  args: { id: v.id("ctaTemplates") },
  returns: v.null(),
  handler: async (ctx, { id }) => {
    if (!(await ctx.db.get(id))) throw appError("NOT_FOUND", "This template no longer exists.");
    await ctx.db.delete(id);
    return null;
  },
});
