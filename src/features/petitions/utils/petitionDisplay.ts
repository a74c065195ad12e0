import type { api } from "@convex/_generated/api";
import { FAILURE_LABELS, type FailureReason } from "@convex/lib/petitions/match";

export type PetitionRow = (typeof api.petitions.list)["_returnType"][number];
export type LineRow = (typeof api.petitions.lines)["_returnType"]["page"][number];
export type LineStatus = LineRow["status"];

export const STATUS_LABELS: Record<LineStatus, string> = {
  pending: "Pending",
  verified: "Verified",
  failed: "Failed",
  duplicate: "Duplicate",
  review: "Needs review",
  adjudicated: "Adjudicated",
};
export const STATUS_COLORS = {
  pending: "gray",
  verified: "green",
  failed: "red",
  duplicate: "orange",
  review: "amber",
  adjudicated: "blue",
} as const;

export function reasonLabel(reason: string | null): string {
  return reason ? (FAILURE_LABELS[reason as FailureReason] ?? reason) : "";
}

export function percent(x: number | null): string {
  return x === null ? "—" : `${Math.round(x * 100)}%`;
}

export const ACTION_HELP: Record<"accept" | "cure" | "overrule" | "reject", string> = {
  accept: "Accept: the line is the chosen voter's valid signature.",
  cure: "Cure: the signer fixed the problem (for example confirmed their current address); it counts.",
  overrule: "Overrule: the automatic result was wrong (a failed line counts, a verified one does not).",
  reject: "Reject: the line does not count.",
};
