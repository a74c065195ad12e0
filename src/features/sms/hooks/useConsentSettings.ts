import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** The organisation's consent options (live) and saving them. */
export function useConsentSettings() {
  const settings = useQuery(api.consent.settings, {});
  const save = useMutation(api.consent.saveSettings);
  return { settings, save };
}
