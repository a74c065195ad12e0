/**
 * JWT verification for the network layer, following what Convex does with `convex/auth.config.ts`:
 *
 * - OIDC providers `{ domain, applicationID }`: `${domain}/.well-known/openid-configuration` →
 *   `jwks_uri` → keys; the token's `iss` must be the domain and its `aud` must contain
 *   applicationID.
 * - customJwt providers `{ type: "customJwt", issuer, jwks, algorithm, applicationID? }`: keys come
 *   straight from the `jwks` URL; `aud` is only checked when applicationID is set.
 *
 * Discovery documents and key sets are cached with a TTL. An unknown `kid` forces one early
 * refetch (rate limited) so key rotation at the issuer does not lock users out until the TTL.
 *
 * Convex Auth serves its discovery document and JWKS from the app's own http actions on the site
 * URL, so the fetch function is injectable: the server routes requests for its own site origin
 * straight into the engine instead of through the socket.
 */
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from "jose";
import type { JSONValue } from "convex/values";
import type { UserIdentity } from "./engine-api.js";

/** A verification failure; `message` is what the client sees (AuthError / 401 body). */
export class AuthVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AuthVerificationError";
  }
}

type OidcProvider = { kind: "oidc"; domain: string; applicationID: string };
type CustomJwtProvider = {
  kind: "customJwt";
  issuer: string;
  jwks: string;
  algorithm: string;
  applicationID?: string;
};
export type ParsedProvider = OidcProvider | CustomJwtProvider;

export type VerifiedToken = {
  identity: UserIdentity;
  /** seconds since epoch; undefined when the token carries no `exp` */
  expiresAt: number | undefined;
};

export type AuthVerifierOptions = {
  /** read on every verification so a reloaded auth.config.ts takes effect */
  providers: () => JSONValue[];
  fetch?: (url: string) => Promise<Response>;
  /** cache lifetime for discovery documents and JWKS (default 10 minutes) */
  cacheTtlMs?: number;
  /** accepted clock skew for exp/nbf (default 5 s, the same order as Convex's leeway) */
  clockToleranceSec?: number;
};

const OIDC_ALGORITHMS = ["RS256", "ES256", "EdDSA", "Ed25519"];
/** a refetch triggered by an unknown kid happens at most this often per URL */
const KID_MISS_REFETCH_INTERVAL_MS = 5_000;
const FETCH_TIMEOUT_MS = 10_000;

function trimSlash(s: string): string {
  return s.replace(/\/+$/, "");
}

export function parseProviders(raw: JSONValue[]): ParsedProvider[] {
  const out: ParsedProvider[] = [];
  for (const p of raw) {
    if (p === null || typeof p !== "object" || Array.isArray(p)) continue;
    const o = p as Record<string, JSONValue>;
    if (o.type === "customJwt") {
      if (typeof o.issuer !== "string" || typeof o.jwks !== "string") continue;
      out.push({
        kind: "customJwt",
        issuer: o.issuer,
        jwks: o.jwks,
        algorithm: typeof o.algorithm === "string" ? o.algorithm : "RS256",
        applicationID: typeof o.applicationID === "string" ? o.applicationID : undefined,
      });
    } else if (typeof o.domain === "string" && o.domain !== "") {
      out.push({
        kind: "oidc",
        domain: o.domain,
        applicationID: typeof o.applicationID === "string" ? o.applicationID : "",
      });
    }
  }
  return out;
}

function describeProvider(p: ParsedProvider): string {
  return p.kind === "oidc"
    ? `OIDC(domain=${p.domain}, app_id=${p.applicationID})`
    : `CustomJWT(issuer=${p.issuer}, app_id=${p.applicationID ?? "<none>"})`;
}

/** Standard OIDC claims → the camelCase names of `UserIdentity` (as Convex maps them). */
const STANDARD_CLAIMS: Record<string, string> = {
  name: "name",
  given_name: "givenName",
  family_name: "familyName",
  nickname: "nickname",
  preferred_username: "preferredUsername",
  profile: "profileUrl",
  picture: "pictureUrl",
  email: "email",
  email_verified: "emailVerified",
  gender: "gender",
  birthdate: "birthday",
  zoneinfo: "timezone",
  locale: "language",
  phone_number: "phoneNumber",
  phone_number_verified: "phoneNumberVerified",
  address: "address",
  updated_at: "updatedAt",
};
/** registered JWT claims that describe the token rather than the user; not exposed */
const TOKEN_CLAIMS = new Set(["iss", "sub", "aud", "exp", "iat", "nbf", "jti"]);

export function identityFromClaims(payload: JWTPayload): UserIdentity {
  const iss = String(payload.iss);
  const sub = String(payload.sub);
  const identity: UserIdentity = { tokenIdentifier: `${iss}|${sub}`, subject: sub, issuer: iss };
  for (const [claim, value] of Object.entries(payload)) {
    if (TOKEN_CLAIMS.has(claim) || value === undefined) continue;
    const mapped = STANDARD_CLAIMS[claim];
    if (mapped === undefined) {
      // custom claims pass through unchanged, as `identity.custom_claim` in Convex
      identity[claim] = value as JSONValue;
      continue;
    }
    if (mapped === "emailVerified" || mapped === "phoneNumberVerified") {
      identity[mapped] = value === true || value === "true";
    } else if (mapped === "address") {
      identity[mapped] = typeof value === "string" ? value : JSON.stringify(value);
    } else if (mapped === "updatedAt") {
      // UserIdentity.updatedAt is a string; OIDC sends seconds since epoch
      identity[mapped] =
        typeof value === "number"
          ? new Date(value * 1000).toISOString()
          : typeof value === "string"
            ? value
            : JSON.stringify(value);
    } else {
      identity[mapped] = typeof value === "string" ? value : (value as JSONValue);
    }
  }
  return identity;
}

type CachedJson = { value: unknown; fetchedAt: number };
type CachedKeys = { getKey: JWTVerifyGetKey; fetchedAt: number };

export class AuthVerifier {
  private readonly fetchImpl: (url: string) => Promise<Response>;
  private readonly ttl: number;
  private readonly tolerance: number;
  private readonly discovery = new Map<string, Promise<CachedJson>>();
  private readonly keys = new Map<string, Promise<CachedKeys>>();

  constructor(private readonly opts: AuthVerifierOptions) {
    this.fetchImpl =
      opts.fetch ?? ((url) => fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }));
    this.ttl = opts.cacheTtlMs ?? 10 * 60_000;
    this.tolerance = opts.clockToleranceSec ?? 5;
  }

  /** Verify a user JWT; throws AuthVerificationError with a client-facing message. */
  async verify(token: string): Promise<VerifiedToken> {
    let claims: JWTPayload;
    try {
      decodeProtectedHeader(token);
      claims = decodeJwt(token);
    } catch {
      throw new AuthVerificationError("Could not parse JWT payload. Check that the token is a valid JWT.");
    }
    const iss = typeof claims.iss === "string" ? claims.iss : undefined;
    if (iss === undefined) throw new AuthVerificationError("JWT is missing the `iss` claim.");
    const auds = claims.aud === undefined ? [] : Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const providers = parseProviders(this.opts.providers());
    const matching = providers.filter((p) =>
      p.kind === "oidc"
        ? trimSlash(p.domain) === trimSlash(iss) && auds.includes(p.applicationID)
        : trimSlash(p.issuer) === trimSlash(iss) &&
          (p.applicationID === undefined || auds.includes(p.applicationID)),
    );
    if (matching.length === 0) {
      throw new AuthVerificationError(
        `No auth provider found matching the given token (iss=${iss}, aud=${JSON.stringify(claims.aud ?? null)}). ` +
          `Check that your JWT's issuer and audience match one of your configured providers: [${providers
            .map(describeProvider)
            .join(", ")}]`,
      );
    }
    let lastError: unknown;
    for (const provider of matching) {
      try {
        return await this.verifyWith(provider, token, iss);
      } catch (e) {
        lastError = e;
      }
    }
    throw lastError instanceof AuthVerificationError
      ? lastError
      : new AuthVerificationError(`Could not verify token: ${String(lastError)}`);
  }

  private async verifyWith(p: ParsedProvider, token: string, iss: string): Promise<VerifiedToken> {
    const jwksUrl = p.kind === "oidc" ? await this.jwksUriFor(p.domain) : p.jwks;
    const algorithms = p.kind === "oidc" ? OIDC_ALGORITHMS : [p.algorithm];
    const audience = p.kind === "oidc" ? p.applicationID : p.applicationID;
    const attempt = async (forceRefresh: boolean) => {
      const { getKey } = await this.keySet(jwksUrl, forceRefresh);
      return jwtVerify(token, getKey, {
        issuer: iss, // already matched against the provider modulo a trailing slash
        audience,
        algorithms,
        clockTolerance: this.tolerance,
      });
    };
    let result;
    try {
      try {
        result = await attempt(false);
      } catch (e) {
        if (e instanceof joseErrors.JWKSNoMatchingKey) result = await attempt(true);
        else throw e;
      }
    } catch (e) {
      throw new AuthVerificationError(explainJoseError(e));
    }
    const payload = result.payload;
    if (typeof payload.sub !== "string" || payload.sub === "") {
      throw new AuthVerificationError("JWT is missing the `sub` claim.");
    }
    return {
      identity: identityFromClaims(payload),
      expiresAt: typeof payload.exp === "number" ? payload.exp : undefined,
    };
  }

  private async jwksUriFor(domain: string): Promise<string> {
    const url = `${trimSlash(domain)}/.well-known/openid-configuration`;
    const doc = (await this.cachedJson(this.discovery, url, false)) as { jwks_uri?: unknown };
    if (typeof doc?.jwks_uri !== "string") {
      throw new AuthVerificationError(`OIDC discovery document at ${url} has no jwks_uri`);
    }
    return doc.jwks_uri;
  }

  private async keySet(url: string, forceRefresh: boolean): Promise<CachedKeys> {
    const now = Date.now();
    const cached = this.keys.get(url);
    if (cached) {
      const c = await cached.catch(() => undefined);
      const stale = !c || now - c.fetchedAt > this.ttl;
      const refetchAllowed = !c || now - c.fetchedAt > KID_MISS_REFETCH_INTERVAL_MS;
      if (c && !stale && !(forceRefresh && refetchAllowed)) return c;
    }
    const p = this.fetchJson(url).then((json) => ({
      getKey: createLocalJWKSet(json as JSONWebKeySet),
      fetchedAt: Date.now(),
    }));
    this.keys.set(url, p);
    // a failed fetch must not stay cached
    p.catch(() => {
      if (this.keys.get(url) === p) this.keys.delete(url);
    });
    return p;
  }

  private async cachedJson(
    cache: Map<string, Promise<CachedJson>>,
    url: string,
    force: boolean,
  ): Promise<unknown> {
    const cached = cache.get(url);
    if (cached && !force) {
      const c = await cached.catch(() => undefined);
      if (c && Date.now() - c.fetchedAt <= this.ttl) return c.value;
    }
    const p = this.fetchJson(url).then((value) => ({ value, fetchedAt: Date.now() }));
    cache.set(url, p);
    p.catch(() => {
      if (cache.get(url) === p) cache.delete(url);
    });
    return (await p).value;
  }

  private async fetchJson(url: string): Promise<unknown> {
    let res: Response;
    try {
      res = await this.fetchImpl(url);
    } catch (e) {
      throw new AuthVerificationError(`Could not fetch ${url}: ${String(e)}`);
    }
    if (!res.ok) throw new AuthVerificationError(`Could not fetch ${url}: HTTP ${res.status}`);
    try {
      return await res.json();
    } catch {
      throw new AuthVerificationError(`Response from ${url} is not JSON`);
    }
  }
}

function explainJoseError(e: unknown): string {
  if (e instanceof AuthVerificationError) return e.message;
  if (e instanceof joseErrors.JWTExpired) return "Token expired";
  if (e instanceof joseErrors.JWSSignatureVerificationFailed) return "Token signature is invalid";
  if (e instanceof joseErrors.JWKSNoMatchingKey) return "No key in the provider's JWKS matches the token";
  if (e instanceof joseErrors.JWTClaimValidationFailed) return `Invalid token claim: ${e.message}`;
  if (e instanceof joseErrors.JOSEAlgNotAllowed) return `Token algorithm not allowed: ${e.message}`;
  if (e instanceof Error) return `Could not verify token: ${e.message}`;
  return `Could not verify token: ${String(e)}`;
}
