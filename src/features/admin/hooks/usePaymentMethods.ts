import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** Payment Methods: the recorded billing profiles (live) and removing one. */
export function usePaymentMethods() {
  const methods = useQuery(api.payments.list, {});
  const remove = useMutation(api.payments.remove);
  return { methods, remove };
}

/** Add Payment Method. */
export function useAddPaymentMethod() {
  const add = useMutation(api.payments.add);
  return { add };
}
