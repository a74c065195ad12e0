/**
 * No escalation (DESIGN.md §3, SECURITY.md): who may grant, create, edit, assign or invite which
 * role, and whose membership a caller may touch. Every role, member and invitation function
 * asks here before it writes.
 *
 * The rule: a role is within reach when its level is below the caller's and every permission it
 * carries is one the caller effectively holds. The platform's two top roles are the exception
 * that keeps an organisation governable: an Account Administrator may make (and manage) another
 * Account Administrator, a Super Administrator another Super Administrator — otherwise a second
 * administrator could never be added nor a departed one removed.
 */
import type { Id } from "../_generated/dataModel";
import type { QueryCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import { expandPermissions, rolePermissions, type Permission, type RoleDefinition } from "../lib/permissions";
import { orgRoleLookup, type Viewer } from "./viewer";

/** Roles whose holders may grant them to a peer (the top of the tenant and of the platform). */
const PEER_GRANTABLE = new Set(["account_admin", "super_admin"]);

export type Grantor = Pick<Viewer, "roles" | "permissions" | "membership">;

/** The level the caller acts at: the impersonated role's while impersonating, else the active role's. */
export function grantorLevel(caller: Grantor): number {
  return (caller.roles.impersonating ?? caller.roles.active).level;
}

/** Roles the caller holds and acts with (owned roles at or below the active one; none while impersonating). */
function peerRoles(caller: Grantor): Set<string> {
  if (caller.roles.impersonating) return new Set();
  const level = caller.roles.active.level;
  return new Set(caller.roles.owned.filter((r) => r.level <= level && PEER_GRANTABLE.has(r.id)).map((r) => r.id));
}

/** The permissions of `role` that the caller does not hold. */
export function missingPermissions(caller: Grantor, permissions: Iterable<Permission>): Permission[] {
  return [...permissions].filter((p) => !caller.permissions.has(p));
}

/** May the caller grant (assign, invite with) this role? */
export function canGrant(caller: Grantor, role: RoleDefinition): boolean {
  const ranked = role.level < grantorLevel(caller) || peerRoles(caller).has(role.id);
  return ranked && missingPermissions(caller, rolePermissions(role)).length === 0;
}

export const GRANT_DENIED = "You can only grant roles below your own level whose permissions you hold yourself.";

/**
 * Refuses an empty list, unknown role ids and any role out of the caller's reach. Returns the
 * resolved definitions.
 */
export async function assertGrantable(
  ctx: QueryCtx,
  caller: Grantor,
  orgId: Id<"organizations">,
  roleIds: string[],
): Promise<RoleDefinition[]> {
  if (roleIds.length === 0) throw appError("VALIDATION_ERROR", "Select at least one role.");
  const lookup = await orgRoleLookup(ctx, orgId);
  const out: RoleDefinition[] = [];
  for (const id of new Set(roleIds)) {
    const role = lookup(id);
    if (role === undefined) throw appError("VALIDATION_ERROR", `Unknown role: ${id}.`);
    if (!canGrant(caller, role)) throw appError("FORBIDDEN", `${GRANT_DENIED} (${role.name})`);
    out.push(role);
  }
  return out;
}

/** The highest level among a member's roles (0 when none resolves). */
export function memberLevel(roleIds: string[], lookup: (id: string) => RoleDefinition | undefined): number {
  return Math.max(0, ...roleIds.map((r) => lookup(r)?.level ?? 0));
}

/**
 * May the caller change or remove this member? Only members ranked below the caller, or a peer
 * holding the same top role (account admin ↔ account admin, super admin ↔ super admin).
 */
export function canManageMember(
  caller: Grantor,
  targetRoles: string[],
  lookup: (id: string) => RoleDefinition | undefined,
): boolean {
  const level = memberLevel(targetRoles, lookup);
  if (level < grantorLevel(caller)) return true;
  const top = targetRoles
    .map(lookup)
    .filter((r): r is RoleDefinition => r !== undefined)
    .sort((a, b) => b.level - a.level)[0];
  return top !== undefined && top.level === level && peerRoles(caller).has(top.id) && level <= grantorLevel(caller);
}

export const MEMBER_DENIED = "You cannot change a user whose role is at or above your own.";

type RoleShape = { id?: string; level: number; permissions: Permission[] };

/**
 * Why the caller may not create or edit a custom role of this shape (null: they may). It must
 * rank below the caller, carry only permissions the caller holds, and not be a role the caller holds.
 */
function roleOutOfReach(caller: Grantor, role: RoleShape): string | null {
  if (role.id !== undefined && caller.membership.roles.includes(role.id)) {
    return "You cannot edit a role you hold. Ask another administrator.";
  }
  const level = grantorLevel(caller);
  if (role.level >= level) return `Access level must be below your own (${level}).`;
  const missing = missingPermissions(caller, expandPermissions(role.permissions));
  if (missing.length > 0) return `You can only give permissions you hold yourself (not ${missing.join(", ")}).`;
  return null;
}

export function roleWithinReach(caller: Grantor, role: RoleShape): boolean {
  return roleOutOfReach(caller, role) === null;
}

export function assertRoleWithinReach(caller: Grantor, role: RoleShape) {
  const problem = roleOutOfReach(caller, role);
  if (problem !== null) throw appError("FORBIDDEN", problem);
}
