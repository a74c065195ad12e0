/**
 * Uploaded images of designs: the email builder's image and hero blocks (spec/2 §5 "Image
 * upload") and the CTA creator's image elements. The browser uploads to Convex file storage, then
 * `register` checks what arrived — an image (PNG, JPEG, GIF or WebP: SVG is refused, it can carry
 * script and most email clients do not show it) under 5 MB — and returns the file's public URL,
 * which stays valid as long as the image is kept, so sent emails and embedded CTAs keep showing
 * it. Uploads are budgeted per user.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { appError, internalMutation, orgAction, orgMutation } from "./functions";
import { IMAGE_MAX_BYTES, IMAGE_TYPES } from "./lib/images";
import { emailRateLimit } from "./model/emailCampaigns";
import { vImagePurpose } from "./tables/email";

/** The upload budget lives outside any organisation (the rate limiter's own table). */
export const spendUpload = internalMutation({
  args: { userId: v.id("users") },
  returns: v.boolean(),
  handler: async (ctx, { userId }) => (await emailRateLimit(ctx, { name: "imageUploadsPerUser", key: userId })).ok,
});

export const generateUploadUrl = orgAction("campaigns.manage")({
  args: {},
  returns: v.string(),
  handler: async (ctx): Promise<string> => {
    if (!(await ctx.runMutation(internal.images.spendUpload, { userId: ctx.viewer.userId }))) {
      throw appError("RATE_LIMIT", "Too many uploads. Please wait a few minutes and try again.", "Upload failed");
    }
    return await ctx.storage.generateUploadUrl();
  },
});

export const register = orgMutation("campaigns.manage")({
  args: { storageId: v.id("_storage"), purpose: vImagePurpose },
  returns: v.object({ url: v.string() }),
  handler: async (ctx, { storageId, purpose }) => {
    const meta = await ctx.db.system.get(storageId);
    if (!meta) throw appError("VALIDATION_ERROR", "No file provided", "Upload failed");
    const contentType = meta.contentType ?? "";
    if (!IMAGE_TYPES.test(contentType)) {
      await ctx.storage.delete(storageId);
      throw appError("VALIDATION_ERROR", "File must be an image", "Upload failed");
    }
    if (meta.size >= IMAGE_MAX_BYTES) {
      await ctx.storage.delete(storageId);
      throw appError("VALIDATION_ERROR", "File size must be less than 5MB", "Upload failed");
    }
    const url = await ctx.storage.getUrl(storageId);
    if (!url) throw appError("VALIDATION_ERROR", "Upload unavailable: Image storage is not configured. Please use URL input instead.", "Upload failed");
    await ctx.db.insert("images", { orgId: ctx.viewer.orgId, purpose, storageId, url, contentType, size: meta.size, createdBy: ctx.viewer.userId, createdAt: Date.now() });
    return { url };
  },
});
