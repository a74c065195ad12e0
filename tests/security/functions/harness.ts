/**
 * What the security tests need beyond the function-test setup, on both backends: deployment
 * environment variables, http actions from a chosen client address, and Convex Auth's keys.
 */
import { afterEach } from "vitest";
import { authKeys } from "../../../scripts/backend-env";
import type { TestConvex } from "./setup";

const restores: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (restores.length > 0) await restores.pop()!();
});

/** Sets deployment variables for this test (restored after it). */
export async function setEnv(t: TestConvex, vars: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(vars)) {
    if ("setEnv" in t) {
      const local = t as unknown as { setEnv(n: string, v: string | undefined): Promise<void> };
      await local.setEnv(name, value);
      restores.push(() => local.setEnv(name, undefined));
    } else {
      const before = process.env[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
      restores.push(async () => {
        if (before === undefined) delete process.env[name];
        else process.env[name] = before;
      });
    }
  }
}

let keys: Promise<{ JWT_PRIVATE_KEY: string; JWKS: string }> | null = null;

/** Everything Convex Auth's sign-in needs to issue tokens. */
export async function enableSignIn(t: TestConvex) {
  keys ??= authKeys();
  await setEnv(t, { ...(await keys), SITE_URL: "http://127.0.0.1:4173", CONVEX_SITE_URL: "http://127.0.0.1:3211" });
}

/** An http action request as the deployment's proxy forwards it from `address`. */
export async function fetchFrom(t: TestConvex, address: string, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("X-Forwarded-For", address);
  return await t.fetch(path, { ...init, headers });
}

/** A sign-in ticket for `address` (POST /api/auth/ticket). */
export async function ticketFor(t: TestConvex, address: string): Promise<string> {
  const res = await fetchFrom(t, address, "/api/auth/ticket", { method: "POST" });
  const body = (await res.json()) as { ticket?: string };
  if (!body.ticket) throw new Error(`no ticket: ${res.status}`);
  return body.ticket;
}
