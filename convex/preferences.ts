/**
 * Personal settings (/settings): the signed-in user's own time zone, default mode and
 * notification emails. Any signed-in user; each reads and writes only their own row (the caller
 * is the key: no function takes a user id).
 */
import { v } from "convex/values";
import { userMutation, userQuery } from "./functions";
import { MODES } from "./lib/permissions";
import { checkDefaultMode, cleanTimeZone, preferencesRow, readPreferences } from "./model/preferences";
import { loadViewer } from "./model/viewer";
import { vMode } from "./tables/core";
import { vPreferences } from "./tables/preferences";

/** The caller's settings, defaults filled in. */
export const mine = userQuery({
  args: {},
  returns: vPreferences,
  handler: async (ctx) => await readPreferences(ctx.db, ctx.user._id),
});

/**
 * Changes the given settings only (each control saves on its own). A time zone must be one the
 * runtime knows (null: follow the browser); a default mode one the caller's roles allow.
 */
export const update = userMutation({
  args: {
    timeZone: v.optional(v.union(v.string(), v.null())),
    defaultMode: v.optional(v.union(vMode, v.null())),
    notifications: v.optional(
      v.object({ surveyResponses: v.optional(v.boolean()), invitationAccepted: v.optional(v.boolean()) }),
    ),
  },
  returns: vPreferences,
  handler: async (ctx, args) => {
    const current = await readPreferences(ctx.db, ctx.user._id);
    const next = { ...current, notifications: { ...current.notifications } };
    if (args.timeZone !== undefined) next.timeZone = args.timeZone === null ? null : cleanTimeZone(args.timeZone);
    if (args.defaultMode !== undefined) {
      if (args.defaultMode !== null) {
        const viewer = await loadViewer(ctx);
        checkDefaultMode(args.defaultMode, viewer ? viewer.roles.modes : MODES);
      }
      next.defaultMode = args.defaultMode;
    }
    if (args.notifications) {
      for (const [k, on] of Object.entries(args.notifications) as [
        keyof typeof next.notifications,
        boolean | undefined,
      ][]) {
        if (on !== undefined) next.notifications[k] = on;
      }
    }
    const row = await preferencesRow(ctx.db, ctx.user._id);
    if (row) await ctx.db.patch("userPreferences", row._id, { ...next, updatedAt: Date.now() });
    else await ctx.db.insert("userPreferences", { userId: ctx.user._id, ...next, updatedAt: Date.now() });
    return next;
  },
});
