import { Badge } from "@radix-ui/themes";
import type { SmsStatus } from "@convex/tables/sms";
import { MESSAGE_STATUS_COLORS } from "../utils/smsDisplay";

/** A message's status with the spec's colour (queued yellow … demo purple). */
export function SmsStatusBadge({ status }: { status: SmsStatus }) {
  return (
    <Badge color={MESSAGE_STATUS_COLORS[status]} data-testid="sms.status" data-status={status}>
      {status}
    </Badge>
  );
}
