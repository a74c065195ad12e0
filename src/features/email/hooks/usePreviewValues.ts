import { useQuery } from "convex/react";
import { useMemo } from "react";
import { api } from "@convex/_generated/api";
import { previewValues } from "@convex/lib/email/merge";

/**
 * What a preview fills in: sample voter values and the sender's real ones (the campaign website,
 * your name), so a link to an empty `{{user.website}}` shows as recipients would get it. Sample
 * values until the sender's arrive.
 */
export function usePreviewValues() {
  const sender = useQuery(api.emailTest.previewSender, {});
  return useMemo(() => previewValues(sender), [sender]);
}

export const PREVIEW_VALUES_NOTE = "shown with sample voter values and your campaign's own";
