/**
 * The audit log (issue 39): who did what, hash-chained per organisation. A mutation writes its
 * entry unchained into auditPending (a cheap insert that conflicts with nobody); the organisation's
 * sealer (model/audit.ts) appends pending entries to auditLog in order within a second, giving each
 * its seq and the hash chain. No public function edits or deletes either table.
 */
import { defineTable } from "convex/server";
import { v, type Infer } from "convex/values";

/** Every action the log records (one entry per call, never one per row of a bulk path). */
export const AUDIT_ACTIONS = [
  "voter.create",
  "voter.update",
  "voter.delete",
  "import.finish",
  "import.delete",
  "export",
  "group.create",
  "group.update",
  "group.delete",
  "segment.create",
  "segment.update",
  "segment.delete",
  "role.create",
  "role.update",
  "role.delete",
  "member.update",
  "member.remove",
  "invitation.create",
  "invitation.resend",
  "invitation.revoke",
  "invitation.accept",
  "impersonation.start",
  "impersonation.stop",
  "signin.success",
  "signin.failure",
  "password.reset",
  "sms.send",
  "email.send",
  "webhook.sms",
  "webhook.email",
  "consent.update",
  "settings.update",
  "mapData.update",
  "mapData.delete",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const vAuditAction = v.union(...AUDIT_ACTIONS.map((a) => v.literal(a)));

/** What the action was done to: a document (table and id) and how people know it (a name, a file name). */
export const vAuditTarget = v.object({ table: v.string(), id: v.string(), label: v.string() });
/** One changed field, before and after (text; null: absent). */
export const vAuditChange = v.object({
  field: v.string(),
  from: v.union(v.string(), v.null()),
  to: v.union(v.string(), v.null()),
});
export type AuditChange = Infer<typeof vAuditChange>;

/** An entry as the acting mutation writes it: everything but its place in the chain. */
export const auditEntryFields = {
  orgId: v.id("organizations"),
  at: v.number(),
  /** the acting user; null for the system, a webhook or a signed-out caller (a failed sign-in) */
  actorId: v.union(v.id("users"), v.null()),
  actorName: v.string(),
  /** the role the actor was trying on (impersonation), else null */
  impersonatedRole: v.union(v.string(), v.null()),
  /** one random id per function execution: the entries one call wrote share it */
  requestId: v.string(),
  action: vAuditAction,
  target: vAuditTarget,
  summary: v.string(),
  /** field-level before/after, capped (model/audit.ts capChanges) */
  changes: v.array(vAuditChange),
};

export const auditTables = {
  auditLog: defineTable({
    ...auditEntryFields,
    /** 1, 2, 3… per organisation, without gaps */
    seq: v.number(),
    /** the previous entry's hash (64 zeros for the first) */
    prevHash: v.string(),
    /** SHA-256 (hex) of the canonical entry, prevHash included (model/audit.ts entryHash) */
    hash: v.string(),
  })
    .index("by_org_seq", ["orgId", "seq"])
    .index("by_org_at", ["orgId", "at"])
    .index("by_org_actor", ["orgId", "actorId", "at"])
    .index("by_org_action", ["orgId", "action", "at"])
    .index("by_org_target", ["orgId", "target.id", "at"]),
  /** Entries written but not sealed yet (at most about a second old); the sealer takes them in creation order. */
  auditPending: defineTable(auditEntryFields).index("by_org", ["orgId"]),
  /**
   * Whether an organisation's sealer chain is running. Audited mutations read it and write it only
   * to start a chain, so while one runs they do not conflict with each other or with the sealer.
   */
  auditSealMarks: defineTable({ orgId: v.id("organizations"), running: v.boolean() }).index("by_org", ["orgId"]),
  /** How long the organisation keeps its entries (days; never below model/audit.ts MIN_RETENTION_DAYS). */
  auditSettings: defineTable({
    orgId: v.id("organizations"),
    retentionDays: v.number(),
    updatedAt: v.number(),
  }).index("by_org", ["orgId"]),
  /**
   * The last entry retention deleted (its seq and hash): the chain's new start, so the entries kept
   * still verify (the first one's prevHash is this hash).
   */
  auditAnchors: defineTable({ orgId: v.id("organizations"), seq: v.number(), hash: v.string() }).index("by_org", [
    "orgId",
  ]),
};
