import { useMutation, usePaginatedQuery, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { FunctionArgs, FunctionReturnType } from "convex/server";
import type { DistrictKind } from "@convex/lib/districts";

export type DistrictRow = FunctionReturnType<typeof api.districts.list>["districts"][number];
export type DistrictDetail = NonNullable<FunctionReturnType<typeof api.districts.get>>;
export type DistrictOutline = FunctionReturnType<typeof api.districts.outlines>["outlines"][number];
/** Which way a voter's code and the map disagree: coded to the district and placed elsewhere, or the reverse. */
export type DisagreementDirection = FunctionArgs<typeof api.districts.disagreements>["direction"];

/** Which kinds of district exist, the boundary layers and the assignment run, live ("skip": not allowed to see). */
export function useDistrictOverview(enabled: boolean) {
  return useQuery(api.districts.overview, enabled ? {} : "skip");
}

/**
 * The chosen kind's districts with their tallies and outlines, and the open district, live
 * (teammates' changes and the assignment chain update them in place).
 */
export function useDistricts(kind: DistrictKind | null, openId: string | null) {
  const list = useQuery(api.districts.list, kind ? { kind } : "skip");
  const outlines = useQuery(api.districts.outlines, kind ? { kind } : "skip");
  const open = useQuery(api.districts.get, openId ? { id: openId } : "skip");
  return { list, outlines, open };
}

/** The district actions a member may take (the server checks the permission again). */
export function useDistrictActions() {
  const makeGroup = useMutation(api.districts.makeGroup);
  const makeEmailSegment = useMutation(api.districts.makeEmailSegment);
  return { makeGroup, makeEmailSegment };
}

/** A district's voters whose code and map disagree one way, `pageSize` a page, live. */
export function useDistrictDisagreements(id: string, direction: DisagreementDirection, pageSize: number) {
  const { results, status, loadMore } = usePaginatedQuery(
    api.districts.disagreements,
    { id, direction },
    { initialNumItems: pageSize },
  );
  return { results, status, loadMore };
}
