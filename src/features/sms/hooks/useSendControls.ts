import { useMutation } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";

/** Pause, resume and cancel of a running send. */
export function useSendControls() {
  const pauseM = useMutation(api.sms.pause);
  const resumeM = useMutation(api.sms.resume);
  const cancelM = useMutation(api.sms.cancel);
  const act = async (label: string, done: string, f: () => Promise<unknown>) => {
    try {
      await f();
      toast.success(done);
    } catch (e) {
      toast.failure(`Error ${label} the send`, e);
    }
  };
  return {
    pause: (sendId: Id<"smsSends">) => act("pausing", "Send paused", () => pauseM({ sendId })),
    resume: (sendId: Id<"smsSends">) => act("resuming", "Send resumed", () => resumeM({ sendId })),
    cancel: (sendId: Id<"smsSends">) => act("cancelling", "Send cancelled", () => cancelM({ sendId })),
  };
}
