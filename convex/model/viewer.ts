/** Resolving who is calling: user → organisation → membership → effective role and permissions. */
import type { Doc, Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import { SUPER_ADMIN_ROLE, superAdminPendingVerification } from "./orgs";
import {
  builtInRole,
  type Permission,
  type RoleDefinition,
  type RoleColor,
  resolveRoles,
  type RoleResolution,
} from "../lib/permissions";

export type Viewer = {
  userId: Id<"users">;
  user: Doc<"users">;
  orgId: Id<"organizations">;
  org: Doc<"organizations">;
  membership: Doc<"memberships">;
  roles: RoleResolution;
  permissions: Set<Permission>;
  can: (permission: Permission) => boolean;
};

/**
 * The signed-in user's id, from Convex Auth or (Clerk) the identity's tokenIdentifier. A Convex
 * Auth token names its session ("userId|sessionId"): once that session is gone (signed out,
 * password changed elsewhere) or expired, the token no longer identifies anyone, even though the
 * JWT itself stays valid until it expires.
 */
export async function currentUserId(ctx: QueryCtx): Promise<Id<"users"> | null> {
  const identity = await ctx.auth.getUserIdentity();
  if (identity === null) return null;
  const [subjectUser, subjectSession] = identity.subject.split("|");
  const userId = subjectSession !== undefined ? ctx.db.normalizeId("users", subjectUser) : null;
  if (userId !== null) {
    const sessionId = ctx.db.normalizeId("authSessions", subjectSession);
    const session = sessionId === null ? null : await ctx.db.get("authSessions", sessionId);
    if (session === null || session.userId !== userId || session.expirationTime < Date.now()) return null;
    return userId;
  }
  const user = await ctx.db
    .query("users")
    .withIndex("by_token", (q) => q.eq("tokenIdentifier", identity.tokenIdentifier))
    .unique();
  return user?._id ?? null;
}

export function customRoleToDefinition(r: Doc<"customRoles">): RoleDefinition {
  return {
    id: r.roleId,
    name: r.name,
    description: r.description,
    level: r.level,
    permissions: r.permissions as Permission[],
    modes: r.modes,
    color: r.color as RoleColor,
    builtIn: false,
  };
}

export async function orgRoleLookup(ctx: QueryCtx, orgId: Id<"organizations">) {
  const custom = await ctx.db
    .query("customRoles")
    .withIndex("by_org_role", (q) => q.eq("orgId", orgId))
    .collect();
  const byId = new Map(custom.map((r) => [r.roleId, customRoleToDefinition(r)]));
  return (id: string) => builtInRole(id) ?? byId.get(id);
}

export async function activeMembership(ctx: QueryCtx, user: Doc<"users">): Promise<Doc<"memberships"> | null> {
  if (user.activeOrgId) {
    const m = await ctx.db
      .query("memberships")
      .withIndex("by_org_user", (q) => q.eq("orgId", user.activeOrgId!).eq("userId", user._id))
      .unique();
    if (m) return m;
  }
  return await ctx.db
    .query("memberships")
    .withIndex("by_user", (q) => q.eq("userId", user._id))
    .first();
}

/**
 * The roles a membership gives this user. A super admin role does not resolve for an address
 * listed in SUPER_ADMIN_EMAILS that its holder has not verified (model/emailVerification.ts): the
 * list must not make whoever registered the address first a platform super admin.
 */
export function effectiveRoleIds(user: Doc<"users">, membership: Doc<"memberships">): string[] {
  return superAdminPendingVerification(user)
    ? membership.roles.filter((r) => r !== SUPER_ADMIN_ROLE)
    : membership.roles;
}

/** Resolves the caller or returns null when signed out / not a member of any organisation. */
export async function loadViewer(ctx: QueryCtx): Promise<Viewer | null> {
  const userId = await currentUserId(ctx);
  if (userId === null) return null;
  const user = await ctx.db.get("users", userId);
  if (user === null) return null;
  const membership = await activeMembership(ctx, user);
  if (membership === null || membership.status !== "active") return null;
  const org = await ctx.db.get("organizations", membership.orgId);
  if (org === null) return null;
  const lookup = await orgRoleLookup(ctx, org._id);
  const roles = resolveRoles(
    effectiveRoleIds(user, membership),
    membership.activeRole,
    membership.impersonatedRole,
    lookup,
  );
  if (roles === null) return null;
  const permissions = roles.permissions;
  return {
    userId,
    user,
    orgId: org._id,
    org,
    membership,
    roles,
    permissions,
    can: (p) => permissions.has(p),
  };
}

/** The wrapper's gate: signed in, member of an organisation, and holding `permission` (if any). */
export type Denial = { message: string; title?: string };

export async function requireViewer(ctx: QueryCtx, permission: Permission | null, denied?: Denial): Promise<Viewer> {
  const userId = await currentUserId(ctx);
  if (userId === null) throw appError("UNAUTHORIZED");
  const viewer = await loadViewer(ctx);
  if (viewer === null) throw appError("FORBIDDEN", "You are not a member of an organization.");
  if (permission !== null && !viewer.can(permission)) throw appError("FORBIDDEN", denied?.message, denied?.title);
  return viewer;
}

export async function requireUser(ctx: QueryCtx): Promise<Doc<"users">> {
  const userId = await currentUserId(ctx);
  if (userId === null) throw appError("UNAUTHORIZED");
  const user = await ctx.db.get("users", userId);
  if (user === null) throw appError("UNAUTHORIZED");
  return user;
}
