import { Badge } from "@radix-ui/themes";
import { statusColor, statusLabel } from "../utils/voterDisplay";

export function StatusBadge({ status }: { status: string | undefined }) {
  return <Badge color={statusColor(status)}>{statusLabel(status)}</Badge>;
}
