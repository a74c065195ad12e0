import { Badge } from "@radix-ui/themes";
import { CAMPAIGN_STATUS_COLORS } from "../utils/smsDisplay";

/** A campaign's status with the spec's colour (draft green, active blue, completed gray, cancelled red). */
export function CampaignStatusBadge({ status }: { status: string }) {
  return <Badge color={CAMPAIGN_STATUS_COLORS[status] ?? "gray"}>{status}</Badge>;
}
