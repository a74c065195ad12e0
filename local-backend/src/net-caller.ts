/**
 * Turns client credentials (sync `Authenticate` messages, HTTP `Authorization` headers) into a
 * Caller. Shared by sync.ts and http.ts so a token is judged the same way on both paths.
 *
 * Headers follow Convex (local_backend/src/authentication.rs): `Bearer <jwt>`, or
 * `Convex <admin key>` / `Convex <admin key>:<base64 JSON identity>` for an admin acting as a user
 * (what `ConvexHttpClient.setAdminAuth(key, identity)` sends).
 */
import type { JSONValue } from "convex/values";
import type { UserIdentity } from "./engine-api.js";
import { AuthVerificationError, type AuthVerifier } from "./auth.js";
import { ANONYMOUS, safeEqual, type Caller } from "./net-common.js";

const BAD_ADMIN_KEY =
  "The provided deploy key was invalid for this deployment. Double check that the environment this key was generated for matches the desired deployment.";

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
      throw new AuthVerificationError(BAD_ADMIN_KEY, "BadDeployKey", 403);
    }
    return { identity: impersonatedIdentity(impersonating), admin: true };
  }

  /** `Authorization` header → Caller; throws AuthVerificationError for bad credentials. */
  async fromHeader(header: string | undefined): Promise<Caller> {
    if (header === undefined || header === "") return ANONYMOUS;
    if (header.length < 7)
      throw new AuthVerificationError("Invalid authentication header", "InvalidHeaderFailure", 400);
    const scheme = header.slice(0, 7).toLowerCase();
    if (scheme === "convex ") return this.adminFromHeader(header.slice(7));
    // Convex reports a header that is neither `Convex ` nor `Bearer ` this way
    if (scheme !== "bearer " || header.length <= 7)
      throw new AuthVerificationError("Invalid admin key", "InvalidAdminKey", 400);
    return this.user(header.slice(7).trim());
  }

  /** `<key>` or `<key>:<base64 of the identity's JSON>` */
  private adminFromHeader(value: string): Caller {
    if (this.adminKey !== undefined && safeEqual(value, this.adminKey)) return this.admin(value, undefined);
    const colon =
      this.adminKey !== undefined && value.startsWith(`${this.adminKey}:`)
        ? this.adminKey.length
        : value.lastIndexOf(":");
    if (colon < 0) return this.admin(value, undefined);
    const key = value.slice(0, colon);
    let identity: unknown;
    try {
      identity = JSON.parse(Buffer.from(value.slice(colon + 1), "base64").toString("utf8"));
    } catch {
      throw new AuthVerificationError("Malformed Authorization header.", "HeaderParseFailure", 400);
    }
    if (!validActingIdentity(identity))
      throw new AuthVerificationError("Malformed Authorization header.", "HeaderParseFailure", 400);
    return this.admin(key, identity);
  }
}

/** Convex's UserIdentityAttributes: `tokenIdentifier`, or `issuer` and `subject`, must be set. */
function validActingIdentity(v: unknown): boolean {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const a = v as Record<string, unknown>;
  return typeof a.tokenIdentifier === "string" || (typeof a.issuer === "string" && typeof a.subject === "string");
}

/**
 * Admin callers may act as a user (`impersonating`), as the dashboard does. A given
 * `tokenIdentifier` is kept; otherwise it is `issuer|subject` (Convex's UserIdentifier::construct).
 */
function impersonatedIdentity(attrs: unknown): UserIdentity | null {
  if (attrs === null || typeof attrs !== "object" || Array.isArray(attrs)) return null;
  const a = attrs as Record<string, JSONValue>;
  const issuer = typeof a.issuer === "string" ? a.issuer : "local-backend-admin";
  const subject = typeof a.subject === "string" ? a.subject : "admin";
  const tokenIdentifier = typeof a.tokenIdentifier === "string" ? a.tokenIdentifier : `${issuer}|${subject}`;
  return { ...a, tokenIdentifier, subject, issuer };
}
