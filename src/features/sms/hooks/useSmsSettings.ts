import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";

/** SMS settings: saving the organisation's sending hours, default zone, sender class and pace. */
export function useSaveSmsSettings() {
  const save = useMutation(api.sms.saveSettings);
  return { save };
}
