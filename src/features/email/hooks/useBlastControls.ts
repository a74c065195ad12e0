import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";

type Action = "pause" | "resume" | "cancel";

const WORDS: Record<Action, { doing: string; done: string }> = {
  pause: { doing: "pausing", done: "Send paused" },
  resume: { doing: "resuming", done: "Send resumed" },
  cancel: { doing: "cancelling", done: "Send cancelled" },
};

/** Pause, resume and cancel of a running email send (api.emailBlasts.control), with the outcome as a toast. */
export function useBlastControls() {
  const control = useMutation(api.emailBlasts.control);
  const run = async (sendId: Id<"emailSends">, action: Action) => {
    try {
      await control({ sendId, action });
      toast.success(WORDS[action].done);
    } catch (e) {
      toast.failure(`Error ${WORDS[action].doing} the send`, e);
    }
  };
  return { run };
}
