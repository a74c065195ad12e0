import { Badge } from "@radix-ui/themes";

const COLORS: Record<string, "green" | "blue" | "red" | "gray"> = { sent: "green", scheduled: "blue", failed: "red" };

/** Email campaign status badge (spec/2 §4: sent green, scheduled blue, failed red, others gray). */
export function CampaignStatus({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? "gray"} size="1">
      {status}
    </Badge>
  );
}
