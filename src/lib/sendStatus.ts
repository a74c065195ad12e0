/** A queued send's status (text blasts and email blasts share the life of a send) and its badge colour. */
export type SendStatus = "preparing" | "sending" | "paused" | "completed" | "cancelled" | "failed";

export const SEND_STATUS_COLORS: Record<SendStatus, "yellow" | "blue" | "orange" | "green" | "gray" | "red"> = {
  preparing: "yellow",
  sending: "blue",
  paused: "orange",
  completed: "green",
  cancelled: "gray",
  failed: "red",
};
