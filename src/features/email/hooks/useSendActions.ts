import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { classifyError } from "@convex/lib/errors";
import { toast } from "@/ui/toast";
import { browserTimeZone, formatLocal } from "../blasts/automationForm";
import type { SendType } from "../blasts/sendChecks";

/** The server's title and message (spec/2 §5, §8), or the screen's fallback title. */
function failure(fallback: string, e: unknown) {
  const c = classifyError(e);
  toast.failure(
    c.title ?? fallback,
    e,
    c.code === "UNKNOWN_ERROR" ? { description: "Failed to process campaign" } : {},
  );
}

/** Send, schedule or activate a campaign, and undo a schedule or an automation, with the spec's toasts. */
export function useSendActions(id: Id<"emailCampaigns">) {
  const sendMutation = useMutation(api.emailBlasts.send);
  const cancelMutation = useMutation(api.emailBlasts.cancelSchedule);
  const stopMutation = useMutation(api.emailBlasts.stopAutomation);
  return {
    /** true when the server took it */
    async send(sendType: SendType, scheduledAt: number | null): Promise<boolean> {
      const timeZone = browserTimeZone();
      try {
        const r = await sendMutation({ id, timeZone });
        if (r.status === "scheduled")
          toast.success("Campaign scheduled", {
            description: scheduledAt === null ? undefined : `Scheduled for ${formatLocal(scheduledAt)} (${timeZone}).`,
          });
        else if (r.status === "automated")
          toast.success("Automation activated", { description: "Matching voters will receive the campaign." });
        else toast.success("Campaign sent", { description: "Sending has started; its progress shows below." });
        return true;
      } catch (e) {
        failure(sendType === "schedule" ? "Failed to schedule campaign" : "Error", e);
        return false;
      }
    },
    async cancelSchedule() {
      try {
        await cancelMutation({ id });
        toast.success("Schedule cancelled", { description: "The campaign is a draft again." });
      } catch (e) {
        failure("Error", e);
      }
    },
    async stopAutomation() {
      try {
        await stopMutation({ id });
        toast.success("Automation stopped");
      } catch (e) {
        failure("Error", e);
      }
    },
  };
}
