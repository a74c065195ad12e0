import { usePaginatedQuery, useQuery } from "convex/react";
import { useMemo } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

type AudienceArgs = { groupIds: Id<"voterGroups">[]; voterIds: Id<"voters">[]; extraPhones: string[] };

/** Who a send to these groups, voters and numbers reaches and leaves out, live. */
export function useAudience(args: AudienceArgs) {
  const audience = useQuery(api.sms.audience, args);
  return { audience };
}

/**
 * Quick Send's recipients: the voters with a status ("" for all), `pageSize` a page, and which of
 * the first thousand listed opted out (skipped while none are listed).
 */
export function useQuickSendRecipients(status: string, pageSize: number) {
  const list = usePaginatedQuery(api.voters.list, { status: status || undefined }, { initialNumItems: pageSize });
  const voters = list.results;
  const askIds = useMemo(() => voters.slice(0, 1_000).map((v) => v._id), [voters]);
  const optedOutIds = useQuery(api.sms.optedOutAmong, askIds.length > 0 ? { voterIds: askIds } : "skip");
  return { list, optedOutIds };
}

/** A voter picked for a campaign, live (null once deleted). */
export function usePickedVoter(id: Id<"voters">) {
  const voter = useQuery(api.voters.get, { id });
  return { voter };
}
