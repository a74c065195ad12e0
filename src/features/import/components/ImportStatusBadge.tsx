import { Badge } from "@radix-ui/themes";
import { STATUS_COLORS, type DisplayStatus } from "@/lib/import/format";

const LABELS: Record<DisplayStatus, string> = {
  completed: "completed",
  failed: "failed",
  in_progress: "in_progress",
  deleted: "deleted",
  cancelled: "cancelled",
  interrupted: "interrupted",
};

export function ImportStatusBadge({ status, deleting }: { status: DisplayStatus; deleting?: boolean }) {
  return <Badge color={deleting ? "gray" : STATUS_COLORS[status]}>{deleting ? "deleting…" : LABELS[status]}</Badge>;
}
