/**
 * Uploaded images of designs: the email builder's image and hero blocks (spec/2 §5 "Image
 * upload") and the CTA creator's image elements. The browser uploads to Convex file storage, then
 * `register` hands the file in (model/files.ts: its bytes must show PNG, JPEG, GIF or WebP — SVG
 * is refused, it can carry script and most email clients do not show it — under 5 MB) and
 * returns its public URL, which stays valid as long as the image is kept, so sent emails and
 * embedded CTAs keep showing it. Uploads are budgeted per member and per organisation.
 */
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { appError, internalMutation, orgAction, orgDatabase } from "./functions";
import { acceptUpload, attachFile, issueUploadUrl } from "./model/files";
import { vImagePurpose } from "./tables/email";
import { TEXTS } from "./lib/texts";

export const generateUploadUrl = orgAction("campaigns.manage")({
  args: {},
  returns: v.string(),
  handler: async (ctx): Promise<string> => await issueUploadUrl(ctx, ctx.viewer),
});

/** Attaches a handed-in image of `orgId` and records it (only through that organisation's database). */
export const attach = internalMutation({
  args: { orgId: v.id("organizations"), userId: v.id("users"), storageId: v.id("_storage"), purpose: vImagePurpose },
  returns: v.object({ url: v.string() }),
  handler: async (ctx, { orgId, userId, storageId, purpose }) => {
    const db = orgDatabase(ctx.db, orgId);
    const { contentType, size } = await attachFile(db, storageId, "image");
    const url = await ctx.storage.getUrl(storageId);
    if (!url) throw appError("VALIDATION_ERROR", TEXTS.images.storageMissing, "Upload failed");
    await db.insert("images", {
      orgId,
      purpose,
      storageId,
      url,
      contentType,
      size,
      createdBy: userId,
      createdAt: Date.now(),
    });
    return { url };
  },
});

export const register = orgAction("campaigns.manage")({
  args: { storageId: v.id("_storage"), purpose: vImagePurpose },
  returns: v.object({ url: v.string() }),
  handler: async (ctx, { storageId, purpose }): Promise<{ url: string }> => {
    await acceptUpload(ctx, ctx.viewer, storageId, "image");
    return await ctx.runMutation(internal.images.attach, {
      orgId: ctx.viewer.orgId,
      userId: ctx.viewer.userId,
      storageId,
      purpose,
    });
  },
});
