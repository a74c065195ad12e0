import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";

export type SignOptions = (typeof api.signs.options)["_returnType"];
export type SignRow = NonNullable<(typeof api.signs.get)["_returnType"]>;

/** The organisation's campaigns and members for the sign dialogs. */
export function useSignOptions(enabled: boolean) {
  return useQuery(api.signs.options, enabled ? {} : "skip");
}
