import { useConvex } from "convex/react";
import { useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import { RESET_MESSAGES } from "../utils/authMessages";

export type ResetLinkState = { status: "verifying" } | { status: "valid" } | { status: "invalid"; message: string };

/**
 * Checks the recovery link once. A one-shot query, not a subscription: the code is consumed by the
 * reset itself and the form must not flip to "invalid" under the user.
 */
export function useResetLinkCheck(email: string, code: string): ResetLinkState {
  const convex = useConvex();
  const [state, setState] = useState<ResetLinkState>({ status: "verifying" });
  useEffect(() => {
    let cancelled = false;
    convex
      .query(api.users.checkResetLink, { email, code })
      .then((r) => !cancelled && setState(r.valid ? { status: "valid" } : { status: "invalid", message: r.message }))
      .catch(() => !cancelled && setState({ status: "invalid", message: RESET_MESSAGES.verifyError }));
    return () => {
      cancelled = true;
    };
  }, [convex, email, code]);
  return state;
}
