/**
 * How the audit log screen and a voter's audit history word entries: action labels, the role an
 * impersonating actor tried on, times with seconds, verify's outcome in plain words, and the
 * page's filters (URL search params) as the server's query arguments.
 */
import type { FunctionArgs, FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import { builtInRole } from "@convex/lib/permissions";
import { AUDIT_ACTIONS, type AuditAction } from "@convex/tables/audit";
import { currentTimeZone, formatDateTime, zonedDayStart } from "@/lib/dateTime";

export type AuditEntry = FunctionReturnType<typeof api.audit.list>["page"][number];
export type AuditActor = FunctionReturnType<typeof api.audit.actors>[number];
export type VerifyResult = FunctionReturnType<typeof api.audit.verify>;
/** What list and exportCsv filter by. */
export type AuditQueryFilters = Omit<FunctionArgs<typeof api.audit.list>, "paginationOpts">;

/** Every action's label in the filter and the rows (a new action in AUDIT_ACTIONS needs one here). */
const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "voter.create": "Voter created",
  "voter.update": "Voter changed",
  "voter.delete": "Voter deleted",
  "import.finish": "Import finished",
  "import.delete": "Import deleted",
  export: "Export",
  "group.create": "Group created",
  "group.update": "Group changed",
  "group.delete": "Group deleted",
  "segment.create": "Segment created",
  "segment.update": "Segment changed",
  "segment.delete": "Segment deleted",
  "role.create": "Role created",
  "role.update": "Role changed",
  "role.delete": "Role deleted",
  "member.update": "Member changed",
  "member.remove": "Member removed",
  "invitation.create": "Invitation sent",
  "invitation.resend": "Invitation resent",
  "invitation.revoke": "Invitation revoked",
  "invitation.accept": "Invitation accepted",
  "impersonation.start": "Impersonation started",
  "impersonation.stop": "Impersonation stopped",
  "signin.success": "Signed in",
  "signin.failure": "Sign-in failed",
  "password.reset": "Password reset",
  "sms.send": "Text blast sent",
  "email.send": "Email sent",
  "webhook.sms": "SMS opt-out or opt-in (webhook)",
  "webhook.email": "Email bounce or complaint (webhook)",
  "consent.update": "Consent changed by staff",
  "settings.update": "Settings changed",
  "mapData.update": "Map data changed",
  "mapData.delete": "Map data deleted",
};

/** The actions in the filter's order (the log's own order: by area). */
export const AUDIT_ACTION_OPTIONS = AUDIT_ACTIONS.map((a) => ({ value: a, label: AUDIT_ACTION_LABELS[a] }));

export function auditActionLabel(action: string): string {
  return (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;
}

/** The actor filter's name for entries no member wrote. */
export const SYSTEM_ACTOR = "System (webhooks, failed sign-ins)";

/** "Ada Lovelace", or "Ada Lovelace as Volunteer" while she was trying on a role. */
export function actorText(entry: Pick<AuditEntry, "actorName" | "impersonatedRole">): string {
  if (entry.impersonatedRole === null) return entry.actorName;
  return `${entry.actorName} as ${builtInRole(entry.impersonatedRole)?.name ?? "a custom role"}`;
}

/** "Jun 3, 2026, 4:05:09 PM" in the user's zone: an audit trail wants the seconds. */
export function auditTime(ms: number, timeZone = currentTimeZone()): string {
  return formatDateTime(ms, timeZone, { seconds: true });
}

/** "1 entry", "1,461 entries". */
export function entriesText(n: number): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? "entry" : "entries"}`;
}

const REASONS = {
  missing: "the entry is missing: it was deleted from the log.",
  prevHash: "the entry does not follow on from the one before it: an earlier entry was changed or replaced.",
  hash: "the entry was changed after it was recorded: its contents no longer match its hash.",
} as const;

/** Verify's outcome in plain words. */
export function verifyText(result: VerifyResult): string {
  if (result.ok) return `Chain verified: ${entriesText(result.entries)}`;
  return `Chain broken at entry #${result.seq}: ${REASONS[result.reason]}`;
}

/** The screen's filters as kept in the URL (every one optional: "" is unset). */
export type AuditFilterValues = {
  /** a member's user id, "system", or "" */
  actor: string;
  action: string;
  /** a document id (a voter's, a group's...) */
  target: string;
  /** the picked voter's name, shown instead of the id */
  targetName: string;
  /** date inputs' values, YYYY-MM-DD, both days included */
  from: string;
  to: string;
};

export const FILTER_KEYS = ["actor", "action", "target", "targetName", "from", "to"] as const;

export function filtersFromParams(params: URLSearchParams): AuditFilterValues {
  const get = (k: (typeof FILTER_KEYS)[number]) => params.get(k) ?? "";
  return {
    actor: get("actor"),
    action: get("action"),
    target: get("target"),
    targetName: get("targetName"),
    from: get("from"),
    to: get("to"),
  };
}

/**
 * The filters as list/exportCsv arguments, or null while they cannot be sent yet: an actor id is
 * sent only once the actor list knows it (a hand-edited URL must not reach the server's id check).
 */
export function queryFilters(
  f: AuditFilterValues,
  actors: AuditActor[] | undefined,
  timeZone = currentTimeZone(),
): AuditQueryFilters | null {
  const out: AuditQueryFilters = {};
  if (f.actor === "system") out.actorId = null;
  else if (f.actor !== "") {
    if (actors === undefined) return null;
    const known = actors.find((a) => a.id === f.actor);
    if (known) out.actorId = known.id;
  }
  if ((AUDIT_ACTIONS as readonly string[]).includes(f.action)) out.action = f.action as AuditAction;
  if (f.target.trim() !== "") out.targetId = f.target.trim();
  const from = zonedDayStart(f.from, false, timeZone);
  const to = zonedDayStart(f.to, true, timeZone);
  if (from !== undefined) out.from = from;
  if (to !== undefined) out.to = to;
  return out;
}
