import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

/** Application Errors: the errors staff's browsers reported, newest first, live. */
export function useClientErrors() {
  const reports = useQuery(api.errorReports.listRecent, {});
  return { reports };
}
