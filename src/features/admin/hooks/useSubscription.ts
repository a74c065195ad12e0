import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** The organisation's plan, status, usage and payment method, live. */
export function useSubscriptionOverview() {
  const sub = useQuery(api.subscription.overview, {});
  return { sub };
}

/** Billing History: the recorded plan changes, live. */
export function useBillingHistory() {
  const history = useQuery(api.subscription.history, {});
  return { history };
}

/** The billing page's Change Plan. */
export function useChangePlan() {
  const change = useMutation(api.subscription.changePlan);
  return { change };
}

/** Account Settings' Change Subscription Plan: the payment methods to choose from (live) and the change. */
export function useChangeSubscription() {
  const methods = useQuery(api.payments.list, {});
  const change = useMutation(api.subscription.changePlan);
  return { methods, change };
}
