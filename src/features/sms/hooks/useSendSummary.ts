import { useQuery } from "convex/react";
import { useEffect, useRef } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { toast } from "@/ui/toast";
import { sendTotals } from "../utils/smsDisplay";

/**
 * A send this user started, live; once it ends, the spec's summary toast (spec/2 §8): "DEMO MODE"
 * (info, 8 s) in demo mode, else all sent / some sent / failed; none for a cancelled send.
 */
export function useSendSummary(sendId: Id<"smsSends"> | null) {
  const progress = useQuery(api.sms.progress, sendId ? { sendId } : "skip");
  const told = useRef<string | null>(null);
  const finished =
    progress && (progress.status === "completed" || progress.status === "failed" || progress.status === "cancelled")
      ? progress
      : null;
  useEffect(() => {
    if (!finished || told.current === finished.id) return;
    told.current = finished.id;
    const t = sendTotals(finished);
    const description = `${t.ok} sent, ${t.failed} failed${finished.counts.optedOut ? `, ${finished.counts.optedOut} opted out skipped` : ""}${finished.error ? `. ${finished.error}` : ""}`;
    // a cancelled send: whoever cancelled it was told (useSendControls), the log tells the rest
    if (finished.status === "cancelled") return;
    if (finished.demo)
      toast.info("DEMO MODE", {
        description: `No text left the server (no Twilio credentials): ${description}.`,
        duration: 8000,
      });
    else if (t.failed === 0 && finished.status === "completed")
      toast.success("All messages sent successfully", { description });
    else if (t.ok > 0) toast.warning("Some messages sent", { description });
    else toast.error("Failed to send messages", { description });
  }, [finished]);
  return { progress };
}
