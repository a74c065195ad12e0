import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** Provider mode (demo or Twilio), sender, the organisation's SMS settings and the sends still running. */
export function useSmsOverview() {
  const overview = useQuery(api.sms.overview, {});
  return { overview };
}

export type SmsOverview = NonNullable<ReturnType<typeof useSmsOverview>["overview"]>;
