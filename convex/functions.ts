/**
 * The only importer of the `_generated/server` builders. Every public function is built here:
 * the wrappers resolve user → organisation → membership → effective role, check one named
 * permission before the first read, and hand the handler a database that cannot see or touch
 * another organisation's documents.
 */
import { customAction, customMutation, customQuery } from "convex-helpers/server/customFunctions";
import { wrapDatabaseReader, wrapDatabaseWriter, type Rules } from "convex-helpers/server/rowLevelSecurity";
import { authTables } from "@convex-dev/auth/server";
import type { GenericDatabaseReader, GenericDatabaseWriter } from "convex/server";
import type { DataModel, Id } from "./_generated/dataModel";
import {
  action,
  httpAction as rawHttpAction,
  internalAction as rawInternalAction,
  internalMutation as rawInternalMutation,
  internalQuery as rawInternalQuery,
  mutation,
  query,
  type ActionCtx,
} from "./_generated/server";
import { internal } from "./_generated/api";
import type { Permission } from "./lib/permissions";
import { requireUser, requireViewer, type Denial, type Viewer } from "./model/viewer";
import schema from "./schema";
import { appError } from "./lib/errors";

export const internalQuery = rawInternalQuery;
export const internalMutation = rawInternalMutation;
export const internalAction = rawInternalAction;
export const httpAction = rawHttpAction;

type AnyDoc = { _id: string; orgId?: string };

/**
 * Records on each registered function who may call it ("perm:voters.view", "member", "user", "super_admin",
 * "public"), so the permission-matrix test can find every public function and check it.
 */
function tagAccess<B extends (...args: any[]) => any>(builder: B, access: string): B {
  return ((definition: unknown) => {
    const registered = builder(definition);
    Object.defineProperty(registered, "__access", { value: access, enumerable: false });
    return registered;
  }) as unknown as B;
}

/**
 * Convex Auth's tables (password hashes, sessions, reset codes): never visible to org-scoped code.
 * Its `users` is not among them: the app's users table replaces it (tables/core.ts).
 */
const AUTH_TABLES = new Set(Object.keys(authTables).filter((t) => t !== "users"));

/**
 * Tenant isolation, deny by default: a document is visible only when it carries the caller's
 * orgId. The two tables without orgId have their own rule (the caller's organisation row; users
 * who are members of it), Convex Auth's tables are never visible, and a table missing from the
 * rules is denied.
 */
/**
 * Platform-wide tables (no orgId): every member reads them; only an acting super administrator
 * writes them (superAdminMutation).
 */
export const GLOBAL_TABLES = new Set<string>(["ctaTemplates"]);

function tenantRules(
  db: GenericDatabaseReader<DataModel>,
  orgId: Id<"organizations">,
  opts: { superAdmin?: boolean } = {},
): Rules<unknown, DataModel> {
  const deny = async () => false;
  const sameOrg = async (_: unknown, doc: AnyDoc) => doc.orgId !== undefined && doc.orgId === orgId;
  const memberOfOrg = async (_: unknown, doc: AnyDoc) =>
    (await db
      .query("memberships")
      .withIndex("by_org_user", (q) => q.eq("orgId", orgId).eq("userId", doc._id as Id<"users">))
      .first()) !== null;
  const ownOrg = async (_: unknown, doc: AnyDoc) => doc._id === orgId;
  // a member's personal settings (no orgId): readable where the organisation emails them, never written here
  const settingsOfMember = async (_: unknown, doc: { userId?: string }) =>
    doc.userId !== undefined &&
    (await db
      .query("memberships")
      .withIndex("by_org_user", (q) => q.eq("orgId", orgId).eq("userId", doc.userId as Id<"users">))
      .first()) !== null;
  const allow = async () => true;
  const superAdmin = opts.superAdmin ? allow : deny;
  const rules: Rules<unknown, DataModel> & Record<string, unknown> = {};
  for (const table of Object.keys(schema.tables)) {
    rules[table] = AUTH_TABLES.has(table)
      ? { read: deny, modify: deny, insert: deny }
      : GLOBAL_TABLES.has(table)
        ? { read: allow, modify: superAdmin, insert: superAdmin }
        : table === "organizations"
          ? { read: ownOrg, modify: ownOrg, insert: deny }
          : table === "users"
            ? { read: memberOfOrg, modify: memberOfOrg, insert: deny }
            : table === "userPreferences"
              ? { read: settingsOfMember, modify: deny, insert: deny }
              : { read: sameOrg, modify: sameOrg, insert: sameOrg };
  }
  return rules;
}

/** The database an organisation's functions get: only that organisation's documents exist in it (and the platform-wide tables, read-only but for super admins). */
export function orgDatabase(
  db: GenericDatabaseWriter<DataModel>,
  orgId: Id<"organizations">,
  opts: { superAdmin?: boolean } = {},
): GenericDatabaseWriter<DataModel> {
  return wrapDatabaseWriter({}, db, tenantRules(db, orgId, opts), { defaultPolicy: "deny" });
}

/** Whether the viewer acts as a super administrator (holding the role, not impersonating another). */
export function actsAsSuperAdmin(viewer: Pick<Viewer, "roles">): boolean {
  return viewer.roles.active.id === "super_admin" && viewer.roles.impersonating === null;
}

/**
 * A query for members of the caller's organisation holding `permission` (null: any member).
 * `denied` replaces the catalogue's FORBIDDEN message where the spec words the refusal itself.
 */
export function orgQuery(permission: Permission | null, opts: { denied?: Denial } = {}) {
  return tagAccess(
    customQuery(query, {
      args: {},
      input: async (ctx) => {
        const viewer = await requireViewer(ctx, permission, opts.denied);
        const db = wrapDatabaseReader({}, ctx.db, tenantRules(ctx.db, viewer.orgId), { defaultPolicy: "deny" });
        return { ctx: { viewer, db }, args: {} };
      },
    }),
    permission ? `perm:${permission}` : "member",
  );
}

/** A mutation for members of the caller's organisation holding `permission` (null: any member). */
export function orgMutation(permission: Permission | null, opts: { denied?: Denial } = {}) {
  return tagAccess(
    customMutation(mutation, {
      args: {},
      input: async (ctx) => {
        const viewer = await requireViewer(ctx, permission, opts.denied);
        const db = orgDatabase(ctx.db, viewer.orgId);
        return { ctx: { viewer, db }, args: {} };
      },
    }),
    permission ? `perm:${permission}` : "member",
  );
}

export type ActionViewer = Pick<Viewer, "userId" | "orgId"> & { permissions: Permission[] };

/** An action for members holding `permission`; nested runQuery/runMutation go through the same gate. */
export function orgAction(permission: Permission | null) {
  return tagAccess(
    customAction(action, {
      args: {},
      input: async (ctx: ActionCtx) => {
        const viewer: ActionViewer = await ctx.runQuery(internal.viewer.resolveForAction, {
          permission: permission ?? undefined,
        });
        return { ctx: { viewer }, args: {} };
      },
    }),
    permission ? `perm:${permission}` : "member",
  );
}

/** A mutation for acting super administrators only (platform-wide content); `denied` words the refusal. */
export function superAdminMutation(denied: Denial) {
  return tagAccess(
    customMutation(mutation, {
      args: {},
      input: async (ctx) => {
        const viewer = await requireViewer(ctx, null);
        if (!actsAsSuperAdmin(viewer)) throw appError("FORBIDDEN", denied.message, denied.title);
        const db = orgDatabase(ctx.db, viewer.orgId, { superAdmin: true });
        return { ctx: { viewer, db }, args: {} };
      },
    }),
    "super_admin",
  );
}

/** Signed-in users, whether or not they belong to an organisation yet (profile, onboarding). */
export const userQuery = tagAccess(
  customQuery(query, {
    args: {},
    input: async (ctx) => ({ ctx: { user: await requireUser(ctx) }, args: {} }),
  }),
  "user",
);
export const userMutation = tagAccess(
  customMutation(mutation, {
    args: {},
    input: async (ctx) => ({ ctx: { user: await requireUser(ctx) }, args: {} }),
  }),
  "user",
);

/**
 * Callable without signing in (landing, invitation acceptance, public forms). Such functions see
 * no organisation context and must check what they expose themselves.
 */
export const publicQuery = tagAccess(
  customQuery(query, { args: {}, input: async () => ({ ctx: {}, args: {} }) }),
  "public",
);
export const publicMutation = tagAccess(
  customMutation(mutation, { args: {}, input: async () => ({ ctx: {}, args: {} }) }),
  "public",
);
export const publicAction = tagAccess(
  customAction(action, { args: {}, input: async () => ({ ctx: {}, args: {} }) }),
  "public",
);
/** Signed-in users in actions (e.g. changing one's own password). */
export const userAction = tagAccess(
  customAction(action, {
    args: {},
    input: async (ctx: ActionCtx) => {
      if ((await ctx.auth.getUserIdentity()) === null) throw appError("UNAUTHORIZED");
      return { ctx: {}, args: {} };
    },
  }),
  "user",
);

export { appError };
