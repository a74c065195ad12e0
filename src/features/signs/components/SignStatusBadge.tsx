import { Badge } from "@radix-ui/themes";
import { BADGE_COLORS } from "../utils/signDisplay";

export function SignStatusBadge({ status, pickupDue }: { status: string; pickupDue?: boolean }) {
  const color = (BADGE_COLORS as Record<string, "green" | "blue" | "gray">)[status] ?? "red";
  return (
    <>
      <Badge color={color}>{status}</Badge>
      {pickupDue && (
        <Badge color="amber" ml="1">
          Due for pickup
        </Badge>
      )}
    </>
  );
}
