/**
 * Turns client credentials (sync `Authenticate` messages, HTTP `Authorization` headers) into a
 * Caller. Shared by sync.ts and http.ts so a token is judged the same way on both paths.
 */
import type { JSONValue } from "convex/values";
import type { UserIdentity } from "./engine-api.js";
import { AuthVerificationError, type AuthVerifier } from "./auth.js";
import { ANONYMOUS, safeEqual, type Caller } from "./net-common.js";

export class CallerResolver {
  constructor(
    private readonly verifier: AuthVerifier,
    /** admin key accepted as `Authorization: Convex <key>` / tokenType "Admin"; none → refused */
    private readonly adminKey: string | undefined,
  ) {}

  async user(token: string): Promise<Caller> {
    const { identity, expiresAt } = await this.verifier.verify(token);
    return { identity, expiresAt, admin: false };
  }

  admin(key: string, impersonating: unknown): Caller {
    if (this.adminKey === undefined || !safeEqual(key, this.adminKey)) {
      throw new AuthVerificationError("Invalid admin key");
    }
    return { identity: impersonatedIdentity(impersonating), admin: true };
  }

  /** `Authorization` header → Caller; throws AuthVerificationError for bad credentials. */
  async fromHeader(header: string | undefined): Promise<Caller> {
    if (header === undefined || header.trim() === "") return ANONYMOUS;
    const m = /^\s*(Bearer|Convex)\s+(.+?)\s*$/i.exec(header);
    if (!m) throw new AuthVerificationError("Authorization header must be `Bearer <token>`");
    const impersonating = undefined;
    return m[1].toLowerCase() === "bearer" ? this.user(m[2]) : this.admin(m[2], impersonating);
  }
}

/** Admin callers may act as a fake user (`impersonating`), as the dashboard does. */
function impersonatedIdentity(attrs: unknown): UserIdentity | null {
  if (attrs === null || typeof attrs !== "object" || Array.isArray(attrs)) return null;
  const a = attrs as Record<string, JSONValue>;
  const issuer = typeof a.issuer === "string" ? a.issuer : "local-backend-admin";
  const subject = typeof a.subject === "string" ? a.subject : "admin";
  return { ...a, tokenIdentifier: `${issuer}|${subject}`, subject, issuer };
}
