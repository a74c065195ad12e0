/**
 * The internal half of uploads (model/files.ts): where an upload stands, handing it in, deleting
 * a refused one, and the sweep of uploads nobody handed in or attached. No public function here:
 * each area issues its upload URLs and hands files in under its own permission.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { internalMutation, internalQuery } from "./functions";
import { spendUploadBudget, sweepUploads, uploadState } from "./model/files";
import { vUploadPurpose } from "./tables/files";

const vState = v.union(
  v.object({ state: v.union(v.literal("missing"), v.literal("other"), v.literal("expired")) }),
  v.object({
    state: v.literal("own"),
    attached: v.boolean(),
    purpose: vUploadPurpose,
    contentType: v.string(),
    size: v.number(),
  }),
  v.object({ state: v.literal("free"), declaredType: v.string(), size: v.number() }),
);

export const state = internalQuery({
  args: { orgId: v.id("organizations"), storageId: v.id("_storage") },
  returns: vState,
  handler: async (ctx, { orgId, storageId }) => await uploadState(ctx.db, orgId, storageId, Date.now()),
});

export const spendBudget = internalMutation({
  args: { orgId: v.id("organizations"), userId: v.id("users") },
  returns: v.boolean(),
  handler: async (ctx, { orgId, userId }) => await spendUploadBudget(ctx, orgId, userId),
});

/** Records a checked upload as `orgId`'s; false when it was taken or has gone meanwhile. */
export const claim = internalMutation({
  args: {
    orgId: v.id("organizations"),
    userId: v.id("users"),
    storageId: v.id("_storage"),
    purpose: vUploadPurpose,
    contentType: v.string(),
    size: v.number(),
  },
  returns: v.boolean(),
  handler: async (ctx, { orgId, userId, storageId, purpose, contentType, size }) => {
    const now = Date.now();
    if ((await uploadState(ctx.db, orgId, storageId, now)).state !== "free") return false;
    await ctx.db.insert("files", {
      orgId,
      storageId,
      purpose,
      contentType,
      size,
      uploadedBy: userId,
      createdAt: now,
      attachedAt: null,
    });
    return true;
  },
});

/** Deletes a refused upload, unless somebody owns it. */
export const discard = internalMutation({
  args: { storageId: v.id("_storage") },
  returns: v.null(),
  handler: async (ctx, { storageId }) => {
    const owned = await ctx.db
      .query("files")
      .withIndex("by_storage", (q) => q.eq("storageId", storageId))
      .unique();
    if (!owned && (await ctx.db.system.get("_storage", storageId))) await ctx.storage.delete(storageId);
    return null;
  },
});

/** Sweeps uploads past their deadline (model/files.ts sweepUploads): a chain while a batch comes back full. */
export const sweep = internalMutation({
  args: {},
  returns: v.null(),
  handler: async (ctx) => {
    if (await sweepUploads(ctx, Date.now())) await ctx.scheduler.runAfter(0, internal.files.sweep, {});
    return null;
  },
});
