import { useMutation } from "convex/react";
import { ConvexError } from "convex/values";
import { useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { AppErrorData } from "@convex/lib/errors";
import { toast } from "@/ui/toast";
import { TEXTS } from "@convex/lib/texts";

export type StartArgs = {
  campaignId?: Id<"campaigns">;
  voterIds?: Id<"voters">[];
  extraPhones?: string[];
  body?: string;
};

/** The preflight refusal a sender may overrule (the message lacks the organisation's name or "Reply STOP"). */
export const OPT_OUT_TITLE = TEXTS.sms.optOutTitle;

type Pending = { args: StartArgs; message: string };

/**
 * Starting a send (quick send or a campaign's). Refusals show as the spec's warnings; the opt-out
 * preflight refusal is kept as `pending` so the sender can confirm the exception and send anyway.
 */
export function useSmsSend(onStarted: (sendId: Id<"smsSends">) => void) {
  const startMutation = useMutation(api.sms.start);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);

  const run = async (args: StartArgs, acknowledgeNoOptOutText: boolean): Promise<boolean> => {
    setBusy(true);
    try {
      const sendId = await startMutation({
        ...args,
        ...(acknowledgeNoOptOutText ? { acknowledgeNoOptOutText: true } : {}),
      });
      setPending(null);
      onStarted(sendId);
      return true;
    } catch (e) {
      const data = e instanceof ConvexError ? (e.data as Partial<AppErrorData>) : undefined;
      if (data?.title === OPT_OUT_TITLE && !acknowledgeNoOptOutText) {
        setPending({ args, message: data.message ?? "" });
      } else if (data?.title && data.message) {
        toast.warning(data.title, { description: data.message });
      } else {
        toast.failure(
          "Error sending messages",
          e,
          e instanceof ConvexError ? {} : { description: "An unexpected error occurred while sending messages." },
        );
      }
      return false;
    } finally {
      setBusy(false);
    }
  };

  return {
    busy,
    /** the refused send waiting for the sender's "send anyway" */
    pending,
    start: (args: StartArgs) => run(args, false),
    confirmException: () => (pending ? run(pending.args, true) : Promise.resolve(false)),
    dismissException: () => setPending(null),
  };
}
