import { useAction } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { IMAGE_MAX_BYTES } from "@convex/lib/images";
import { toast } from "@/ui/toast";
import { TEXTS } from "@convex/lib/texts";

/**
 * Uploads an image of a design (email block, CTA element) to Convex storage and returns its public
 * URL, or null after a toast in the spec's words ('File must be an image', 'File size must be
 * less than 5MB'; the server reads the stored file's bytes again). `failureTitle` is the area's wording.
 */
export function useImageUpload(purpose: "email" | "cta", failureTitle: string) {
  const uploadUrl = useAction(api.images.generateUploadUrl);
  const register = useAction(api.images.register);
  return async (file: File | null): Promise<string | null> => {
    const refuse = (description: string) => {
      toast.error(failureTitle, { description });
      return null;
    };
    if (!file) return refuse("No file provided");
    if (!file.type.startsWith("image/")) return refuse(TEXTS.images.wrongType);
    if (file.size >= IMAGE_MAX_BYTES) return refuse(TEXTS.images.tooLarge);
    try {
      const url = await uploadUrl({});
      const res = await fetch(url, { method: "POST", headers: { "Content-Type": file.type }, body: file });
      if (!res.ok) throw new Error(TEXTS.images.storageMissing);
      const { storageId } = (await res.json()) as { storageId: Id<"_storage"> };
      const { url: publicUrl } = await register({ storageId, purpose });
      toast.success("Image uploaded successfully");
      return publicUrl;
    } catch (e) {
      toast.failure(failureTitle, e);
      return null;
    }
  };
}
