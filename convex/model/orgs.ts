/** Creating organisations and their first membership. */
import type { Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { CREATOR_ROLES } from "../lib/permissions";
import { normalizeEmail } from "./strings";

export const BILLING_PERIOD_MS = 2_592_000_000;

/** Emails of the platform operators (spec: "one specific agency account receives super admin"). */
export function isSuperAdminEmail(email: string | undefined): boolean {
  if (!email) return false;
  const list = (process.env.SUPER_ADMIN_EMAILS ?? "").split(",").map(normalizeEmail).filter(Boolean);
  return list.includes(normalizeEmail(email));
}

export async function createOrganizationFor(ctx: MutationCtx, userId: Id<"users">, ownerName: string) {
  const now = Date.now();
  const user = await ctx.db.get(userId);
  const orgId = await ctx.db.insert("organizations", {
    name: `${ownerName}'s Organization`,
    createdBy: userId,
    subscription: { tier: "starter", status: "active", billingCycle: "monthly", nextBillingDate: now + BILLING_PERIOD_MS },
  });
  const roles = isSuperAdminEmail(user?.email) ? ["super_admin", ...CREATOR_ROLES] : [...CREATOR_ROLES];
  await ctx.db.insert("memberships", { orgId, userId, roles, status: "active", joinedAt: now });
  await ctx.db.patch(userId, { activeOrgId: orgId });
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
    await ctx.db.patch(existing._id, { roles: [...new Set([...existing.roles, ...roles])], status: "active" });
    return existing._id;
  }
  return await ctx.db.insert("memberships", { orgId, userId, roles, status: "active", invitedBy, joinedAt: Date.now() });
}
