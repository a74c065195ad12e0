/** Creating organisations and their first membership. */
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import { CREATOR_ROLES } from "../lib/permissions";
import { normalizeEmail } from "./strings";

export const BILLING_PERIOD_MS = 2_592_000_000;

export const SUPER_ADMIN_ROLE = "super_admin";

/**
 * Emails of the platform operators (spec: "one specific agency account receives super admin").
 * Being listed is not enough: see listedSuperAdmin.
 */
export function isSuperAdminEmail(email: string | undefined): boolean {
  if (!email) return false;
  const list = (process.env.SUPER_ADMIN_EMAILS ?? "").split(",").map(normalizeEmail).filter(Boolean);
  return list.includes(normalizeEmail(email));
}

/**
 * Does the list's super admin role apply to this user? Only to a verified address (an emailed
 * code, model/emailVerification.ts): sign-up does not verify, and whoever registered a listed
 * address first would otherwise be platform super admin.
 */
export function listedSuperAdmin(user: Pick<Doc<"users">, "email" | "emailVerificationTime"> | null): boolean {
  return user !== null && isSuperAdminEmail(user.email) && user.emailVerificationTime !== undefined;
}

/** Listed but not verified: a super admin role stored on such a user's memberships does not resolve. */
export function superAdminPendingVerification(user: Pick<Doc<"users">, "email" | "emailVerificationTime">): boolean {
  return isSuperAdminEmail(user.email) && user.emailVerificationTime === undefined;
}

export async function createOrganizationFor(ctx: MutationCtx, userId: Id<"users">, ownerName: string) {
  const now = Date.now();
  const user = await ctx.db.get("users", userId);
  const orgId = await ctx.db.insert("organizations", {
    name: `${ownerName}'s Organization`,
    createdBy: userId,
    subscription: {
      tier: "starter",
      status: "active",
      billingCycle: "monthly",
      nextBillingDate: now + BILLING_PERIOD_MS,
    },
  });
  const roles = listedSuperAdmin(user) ? [SUPER_ADMIN_ROLE, ...CREATOR_ROLES] : [...CREATOR_ROLES];
  await ctx.db.insert("memberships", { orgId, userId, roles, status: "active", joinedAt: now });
  await ctx.db.patch("users", userId, { activeOrgId: orgId });
  return orgId;
}

/** Adds (or reactivates) a user in an organisation with the given roles. */
export async function addMember(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  userId: Id<"users">,
  roles: string[],
  invitedBy?: Id<"users">,
) {
  const existing = await ctx.db
    .query("memberships")
    .withIndex("by_org_user", (q) => q.eq("orgId", orgId).eq("userId", userId))
    .unique();
  if (existing) {
    await ctx.db.patch("memberships", existing._id, {
      roles: [...new Set([...existing.roles, ...roles])],
      status: "active",
    });
    return existing._id;
  }
  return await ctx.db.insert("memberships", {
    orgId,
    userId,
    roles,
    status: "active",
    invitedBy,
    joinedAt: Date.now(),
  });
}

/** Role ids that make a member an account administrator of the organisation. */
export const ACCOUNT_ADMIN_ROLE = "account_admin";

/** Active members of an organisation holding the account admin role. */
export async function accountAdminCount(ctx: MutationCtx, orgId: Id<"organizations">): Promise<number> {
  const members = await ctx.db
    .query("memberships")
    .withIndex("by_org_user", (q) => q.eq("orgId", orgId))
    .collect();
  return members.filter((m) => m.status === "active" && m.roles.includes(ACCOUNT_ADMIN_ROLE)).length;
}

export const LAST_ADMIN_MESSAGE =
  "This is the organization's last Account Administrator. Give another member the Account Administrator role first.";

/** Refuses a change that would leave the organisation without an account administrator. */
export async function assertKeepsAnAdmin(
  ctx: MutationCtx,
  orgId: Id<"organizations">,
  current: { roles: string[]; status: string },
  nextRoles: string[] | null,
) {
  const wasAdmin = current.status === "active" && current.roles.includes(ACCOUNT_ADMIN_ROLE);
  const staysAdmin = nextRoles !== null && nextRoles.includes(ACCOUNT_ADMIN_ROLE);
  if (wasAdmin && !staysAdmin && (await accountAdminCount(ctx, orgId)) <= 1) {
    throw appError("VALIDATION_ERROR", LAST_ADMIN_MESSAGE, "Last Account Administrator");
  }
}

export function displayName(
  user: { name?: string; firstName?: string; lastName?: string; email?: string } | null,
): string {
  if (!user) return "";
  const full = `${user.firstName ?? ""} ${user.lastName ?? ""}`.trim();
  return full || user.name || user.email || "";
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function isEmail(email: string): boolean {
  return EMAIL_RE.test(email.trim());
}

/** The organisation's memberships with their users (missing users skipped). */
export async function membersWithUsers(ctx: QueryCtx, orgId: Id<"organizations">) {
  const memberships = await ctx.db
    .query("memberships")
    .withIndex("by_org_user", (q) => q.eq("orgId", orgId))
    .collect();
  const out: { membership: Doc<"memberships">; user: Doc<"users"> }[] = [];
  for (const membership of memberships) {
    const user = await ctx.db.get("users", membership.userId);
    if (user) out.push({ membership, user });
  }
  return out;
}

/** Refuses inviting or creating someone who already is an active member of this organisation. */
export async function assertNotAlreadyMember(ctx: QueryCtx, orgId: Id<"organizations">, email: string) {
  const user = await ctx.db
    .query("users")
    .withIndex("email", (q) => q.eq("email", email))
    .first();
  if (!user) return;
  const membership = await ctx.db
    .query("memberships")
    .withIndex("by_org_user", (q) => q.eq("orgId", orgId).eq("userId", user._id))
    .unique();
  if (membership && membership.status === "active") {
    throw appError("DUPLICATE_ERROR", `${email} is already a member of this organization.`);
  }
}
