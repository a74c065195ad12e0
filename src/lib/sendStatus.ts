/** The badge colour of a queued send's status (the status itself: convex/tables/sendStatus.ts). */
import type { SendStatus } from "@convex/tables/sendStatus";

export const SEND_STATUS_COLORS: Record<SendStatus, "yellow" | "blue" | "orange" | "green" | "gray" | "red"> = {
  preparing: "yellow",
  sending: "blue",
  paused: "orange",
  completed: "green",
  cancelled: "gray",
  failed: "red",
};
