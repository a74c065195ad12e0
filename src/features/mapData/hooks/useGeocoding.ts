import { useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { FunctionReturnType } from "convex/server";

export type GeocodeStatus = FunctionReturnType<typeof api.geocode.status>;

/** Where geocoding the voter file stands (live) and starting it again. */
export function useGeocoding() {
  const status = useQuery(api.geocode.status, {});
  const run = useMutation(api.geocode.run);
  return { status, run };
}
