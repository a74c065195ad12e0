/**
 * The permission matrix (issue 3): every public function of every module is called by each of
 * the five roles and by an admin of another organisation, with arguments synthesised from its
 * validators (ids point at real documents of the fixture organisation).
 * - A role without the function's permission is refused with FORBIDDEN; a role with it is never
 *   refused for authorisation (other business errors are fine: the arguments are synthetic).
 * - The outsider never changes the fixture organisation's documents and never receives any of
 *   its document ids.
 * Functions built without the wrappers of convex/functions.ts fail the test, except Convex Auth's.
 */
import { makeFunctionReference } from "convex/server";
import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { builtInRole, resolveRoles, type Permission } from "@convex/lib/permissions";
import schema from "@convex/schema";
import { roleFixture, setupTest, type TestConvex } from "./setup";

type Json = Record<string, any>;
type Registered = {
  isQuery?: boolean;
  isMutation?: boolean;
  isAction?: boolean;
  isPublic?: boolean;
  exportArgs(): string;
  __access?: string;
};

/** Convex Auth's own endpoints are built by the library, not by our wrappers. */
const LIBRARY_FUNCTIONS = new Set(["auth:signIn", "auth:signOut", "auth:store", "auth:isAuthenticated"]);
/** A result that does not match its function's `returns` (convex-test's and local-backend's wording). */
const RETURNS_MISMATCH = /Return value validation failed|ReturnsValidationError/;
const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;

const sources: Record<string, Record<string, unknown>> = import.meta.glob("../../convex/**/*.ts", { eager: true });

function publicFunctions() {
  const out: { path: string; kind: "query" | "mutation" | "action"; fn: Registered }[] = [];
  for (const [file, mod] of Object.entries(sources)) {
    if (file.includes("/_generated/") || file.endsWith(".d.ts")) continue;
    const modulePath = file.replace(/^.*\/convex\//, "").replace(/\.ts$/, "");
    for (const [name, value] of Object.entries(mod)) {
      const fn = value as Registered;
      if (typeof fn !== "function" && typeof fn !== "object") continue;
      if (!fn || !fn.isPublic) continue;
      const kind = fn.isQuery ? "query" : fn.isMutation ? "mutation" : fn.isAction ? "action" : null;
      if (kind) out.push({ path: `${modulePath}:${name}`, kind, fn });
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

const tableTypes: Record<string, Json> = Object.fromEntries(
  (
    JSON.parse((schema as unknown as { export(): string }).export()).tables as {
      tableName: string;
      documentType: Json;
    }[]
  ).map((t) => [t.tableName, t.documentType]),
);

/** Builds values that satisfy validators, creating referenced documents in the fixture organisation. */
class Synth {
  ids = new Map<string, string>();
  private creating = new Set<string>();
  constructor(
    private t: TestConvex,
    private fixed: Record<string, string>,
  ) {}

  async id(table: string): Promise<string> {
    if (this.fixed[table]) return this.fixed[table];
    const known = this.ids.get(table);
    if (known) return known;
    if (table === "_storage") {
      const id = await this.t.run((ctx) => ctx.storage.store(new Blob(["matrix"])));
      this.ids.set(table, id);
      return id;
    }
    if (this.creating.has(table)) throw new Error(`cyclic required reference to ${table}`);
    this.creating.add(table);
    const doc = await this.value(tableTypes[table], table);
    const id = await this.t.run((ctx) => ctx.db.insert(table as never, doc as never));
    this.creating.delete(table);
    this.ids.set(table, id);
    return id;
  }

  async value(v: Json, hint = ""): Promise<unknown> {
    switch (v.type) {
      case "string":
        return hint.includes("email") ? "matrix@example.org" : "Matrix";
      case "number":
        return 1;
      case "bigint":
        return 1n;
      case "boolean":
        return false;
      case "null":
        return null;
      case "any":
        return "x";
      case "bytes":
        return new ArrayBuffer(1);
      case "literal":
        return v.value;
      case "id":
        return await this.id(v.tableName);
      case "array":
        return [];
      case "record":
        return {};
      case "union": {
        const nul = v.value.find((m: Json) => m.type === "null");
        return await this.value(nul ?? v.value[0], hint);
      }
      case "object": {
        const out: Record<string, unknown> = {};
        for (const [k, f] of Object.entries(v.value as Record<string, { fieldType: Json; optional: boolean }>)) {
          if (f.optional && k !== "paginationOpts") continue;
          out[k] = await this.value(f.fieldType, k);
        }
        return out;
      }
      default:
        throw new Error(`no synthesiser for validator ${v.type}`);
    }
  }
}

/** FORBIDDEN / UNAUTHORIZED when the error is an authorisation refusal; null for anything else. */
function authCode(e: unknown): string | null {
  if (e instanceof ConvexError && typeof e.data === "object" && e.data !== null) {
    const code = (e.data as { code?: string }).code ?? null;
    return code === "FORBIDDEN" || code === "UNAUTHORIZED" ? code : null;
  }
  const m = String((e as Error)?.message ?? e);
  if (/You do not have permission/.test(m)) return "FORBIDDEN";
  if (/Please log in/.test(m)) return "UNAUTHORIZED";
  return null;
}

async function snapshotOrg(t: TestConvex, orgId: string) {
  return await t.run(async (ctx) => {
    const out: Record<string, unknown[]> = {};
    for (const table of Object.keys(tableTypes)) {
      const docs = (await ctx.db.query(table as never).collect()) as Json[];
      out[table] = docs.filter((d) => d.orgId === orgId || d._id === orgId);
    }
    return out;
  });
}

const functions = publicFunctions();

describe("permission matrix", () => {
  test("every public function is built with the permission wrappers", () => {
    const unwrapped = functions.filter((f) => !f.fn.__access && !LIBRARY_FUNCTIONS.has(f.path)).map((f) => f.path);
    expect(unwrapped).toEqual([]);
    expect(functions.length).toBeGreaterThan(5);
  });

  for (const f of functions.filter((x) => x.fn.__access)) {
    test(`${f.path} (${f.fn.__access})`, async () => {
      const access = f.fn.__access!;
      // Public functions: only the isolation checks, for an outsider and for a signed-out caller.
      const callers =
        access === "public" ? (["outsider", "anonymous"] as const) : ([...ROLES, "outsider", "anonymous"] as const);
      for (const role of callers) {
        const t = setupTest();
        const fx = await roleFixture(t);
        const synth = new Synth(t, { organizations: fx.orgId, users: fx.creator.userId });
        const argsValidator = JSON.parse(f.fn.exportArgs());
        const args = (await synth.value(argsValidator)) as Json;
        // what the outsider and the signed-out caller must leave unchanged (a member's call is checked by its code alone)
        const isolation = role === "outsider" || role === "anonymous";
        const before = isolation ? await snapshotOrg(t, fx.orgId) : {};
        const caller = role === "outsider" ? fx.outsider.as : role === "anonymous" ? t : fx[role].as;
        const ref = makeFunctionReference<any>(f.path);
        let result: unknown;
        let error: unknown = null;
        try {
          result = await (f.kind === "query"
            ? caller.query(ref, args)
            : f.kind === "mutation"
              ? caller.mutation(ref, args)
              : caller.action(ref, args));
        } catch (e) {
          error = e;
        }
        const code = error ? authCode(error) : null;
        expect(
          String((error as Error | null)?.message ?? ""),
          "the result must match the function's returns validator",
        ).not.toMatch(RETURNS_MISMATCH);
        if (role === "anonymous" && access !== "public") {
          expect(code, "a signed-out caller must be refused").toBe("UNAUTHORIZED");
          continue;
        }
        if (isolation) {
          const after = await snapshotOrg(t, fx.orgId);
          expect(after, `${role} changed the fixture organisation`).toEqual(before);
          const leaked = JSON.stringify(result ?? null);
          const argIds = new Set(JSON.stringify(args).match(/"[^"]+"/g) ?? []);
          for (const doc of Object.values(before).flat() as Json[]) {
            if (argIds.has(`"${doc._id}"`)) continue;
            expect(leaked.includes(doc._id), `${role} received ${doc._id}`).toBe(false);
          }
          continue;
        }
        const perm = access.startsWith("perm:") ? (access.slice(5) as Permission) : null;
        const allowed =
          access === "super_admin"
            ? role === "super_admin"
            : perm === null || resolveRoles([role], undefined, undefined, builtInRole)!.permissions.has(perm);
        if (allowed) expect(code, `${role} must be allowed (${String(error)})`).toBeNull();
        else expect(code, `${role} must be refused`).toBe("FORBIDDEN");
      }
    });
  }
});
