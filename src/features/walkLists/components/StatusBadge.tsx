import { Badge } from "@radix-ui/themes";
import type { WalkListStatus } from "@convex/tables/walkLists";

const COLORS: Record<WalkListStatus, "green" | "blue" | "yellow" | "gray"> = {
  Active: "green",
  Completed: "blue",
  Scheduled: "yellow",
  Paused: "gray",
};

/** A walk list's status (spec/3 §2.7: Active, Completed, Scheduled, Paused), and Expired past its expiry. */
export function StatusBadge({ status, expired }: { status: WalkListStatus; expired?: boolean }) {
  return (
    <>
      <Badge color={COLORS[status]} data-testid="walkList.status">
        {status}
      </Badge>
      {expired && status !== "Completed" && (
        <Badge color="red" ml="1">
          Expired
        </Badge>
      )}
    </>
  );
}
