import { useAction, useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** The caller's email verification: its state (live), sending a code, entering it. */
export function useEmailVerification() {
  const status = useQuery(api.emailVerification.status, {});
  const sendCode = useMutation(api.emailVerification.sendCode);
  const verify = useAction(api.emailVerification.verify);
  return { status, sendCode, verify };
}
