/**
 * JWT verification for the network layer, following what Convex does with `convex/auth.config.ts`
 * (crates/authentication: the first provider whose issuer and application id match is used):
 *
 * - OIDC providers `{ domain, applicationID }` (openidconnect's ID token verifier):
 *   `${iss}/.well-known/openid-configuration` → `jwks_uri` → keys; RS256 or EdDSA; `aud` must
 *   hold applicationID and nothing else; the key is the one eligible key (a token's `kid` narrows
 *   the set; a token without `kid` needs exactly one eligible key); `exp` without leeway, any `iat`;
 *   `nbf` with the customJwt leeway (5 s) — stricter than Convex, whose OIDC verifier ignores `nbf`.
 * - customJwt providers `{ type: "customJwt", issuer, jwks, algorithm, applicationID? }`
 *   (biscuit): keys straight from the `jwks` URL, found by the token's `kid` (required); `exp`,
 *   `nbf` and `iat` with a 5 s leeway; `aud` only checked when applicationID is set.
 *
 * Failures carry Convex's codes (`InvalidAuthHeader`, `NoAuthProvider`, `Unauthenticated`,
 * `AuthProviderDiscoveryFailed`) and messages.
 *
 * Discovery documents and key sets are cached with a TTL. An unknown `kid` forces one early
 * refetch (rate limited) so key rotation at the issuer does not lock users out until the TTL.
 *
 * Convex Auth serves its discovery document and JWKS from the app's own http actions on the site
 * URL, so the fetch function is injectable: the server routes requests for its own site origin
 * straight into the engine instead of through the socket.
 */
import { compactVerify, decodeJwt, decodeProtectedHeader, importJWK, type JWK, type JWTPayload } from "jose";
import type { JSONValue } from "convex/values";
import type { UserIdentity } from "./engine-api.js";

/**
 * A verification failure. `message` is what the client sees (AuthError text, HTTP body), `code`
 * Convex's short code (`InvalidAuthHeader`, `NoAuthProvider`, `Unauthenticated`, …) and `status`
 * the HTTP status Convex answers with (401 for authentication errors).
 */
export class AuthVerificationError extends Error {
  constructor(
    message: string,
    readonly code = "Unauthenticated",
    readonly status = 401,
  ) {
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
type ParsedProvider = OidcProvider | CustomJwtProvider;

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
};

/** a refetch triggered by an unknown kid happens at most this often per URL */
const KID_MISS_REFETCH_INTERVAL_MS = 5_000;
const FETCH_TIMEOUT_MS = 10_000;

function trimSlash(s: string): string {
  return s.replace(/\/+$/, "");
}

function parseProviders(raw: JSONValue[]): ParsedProvider[] {
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
    : `CustomJWT(issuer=${p.issuer}, app_id=${p.applicationID ?? "none"})`;
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

function identityFromClaims(payload: JWTPayload): UserIdentity {
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

/** Convex's texts (crates/authentication/src/lib.rs). */
const PARSE_FAILED =
  "Could not parse JWT payload. Check that the token is a valid JWT format with three base64-encoded parts separated by dots.";
const MISSING_ISSUER =
  "Missing issuer claim ('iss') in JWT payload. The JWT must include an 'iss' claim that matches one of your configured auth providers.";
const OIDC_PARSE_FAILED = "Could not parse as OIDC ID token. Token might not be an OIDC-compliant JWT.";
const OIDC_VERIFY_FAILED =
  "Could not verify OIDC token claim. Check that the token signature is valid and the token hasn't expired.";
/** Convex's leeway for customJwt `exp`, `nbf` and `iat` (biscuit's TemporalOptions epsilon) */
const CUSTOM_JWT_LEEWAY_SEC = 5;
/** `nbf` of OIDC tokens: Convex's only `nbf` leeway, the customJwt one */
const NBF_LEEWAY_SEC = CUSTOM_JWT_LEEWAY_SEC;
/** what Convex accepts from OIDC providers (openidconnect's CoreIdTokenVerifier, set_allowed_algs) */
const OIDC_ALGORITHMS = new Set(["RS256", "EdDSA"]);
const KEY_TYPE: Record<string, string> = {
  RS256: "RSA",
  RS384: "RSA",
  RS512: "RSA",
  ES256: "EC",
  ES384: "EC",
  EdDSA: "OKP",
};

type Jwk = JWK & { kid?: string; use?: string; alg?: string; kty?: string };

function noProviderMessage(providers: ParsedProvider[]): string {
  if (providers.length === 0) {
    return "No auth provider found matching the given token (no providers configured). Check convex/auth.config.ts.";
  }
  return (
    "No auth provider found matching the given token. Check that your JWT's issuer and audience match one of your " +
    `configured providers: [${providers.map(describeProvider).join(", ")}]`
  );
}

/** `https://` is added to an `iss` without a scheme, as Convex does (AuthInfo::matches_token). */
function withProtocol(iss: string): string {
  return iss.startsWith("https://") || iss.startsWith("http://") ? iss : `https://${iss}`;
}

function matchesToken(p: ParsedProvider, auds: string[], iss: string): boolean {
  const appId = p.kind === "oidc" ? p.applicationID : p.applicationID;
  if (appId !== undefined && !auds.includes(appId)) return false;
  return trimSlash(p.kind === "oidc" ? p.domain : p.issuer) === trimSlash(withProtocol(iss));
}

/**
 * The one key an OIDC token may be checked with, as openidconnect picks it: keys usable for
 * signatures with the token's algorithm and, when the token names a `kid`, only keys with that
 * id. None or more than one is a failure (a token without `kid` needs a key set with exactly one
 * eligible key).
 */
function oidcKey(keys: Jwk[], kid: string | undefined, alg: string): Jwk | null {
  const eligible = keys.filter((k) => {
    if (kid !== undefined && k.kid !== kid) return false;
    if (k.use !== undefined && k.use !== "sig") return false;
    if (KEY_TYPE[alg] !== k.kty) return false;
    return k.alg === undefined || k.alg === alg;
  });
  return eligible.length === 1 ? eligible[0] : null;
}

async function signatureValid(token: string, jwk: Jwk, alg: string): Promise<boolean> {
  try {
    const key = await importJWK({ ...jwk, alg }, alg);
    await compactVerify(token, key, { algorithms: [alg] });
    return true;
  } catch {
    return false;
  }
}

function numeric(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

export class AuthVerifier {
  private readonly fetchImpl: (url: string) => Promise<Response>;
  private readonly ttl: number;
  private readonly discovery = new Map<string, Promise<CachedJson>>();
  private readonly keys = new Map<string, Promise<CachedJson>>();

  constructor(private readonly opts: AuthVerifierOptions) {
    this.fetchImpl = opts.fetch ?? ((url) => fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }));
    this.ttl = opts.cacheTtlMs ?? 10 * 60_000;
  }

  /**
   * Verify a user JWT as Convex does (crates/authentication): the first provider whose issuer and
   * application id match the token is the only one tried. Throws AuthVerificationError with
   * Convex's code and message.
   */
  async verify(token: string): Promise<VerifiedToken> {
    let claims: JWTPayload;
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
      claims = decodeJwt(token);
    } catch {
      throw new AuthVerificationError(PARSE_FAILED, "InvalidAuthHeader");
    }
    if (typeof claims.iss !== "string") throw new AuthVerificationError(MISSING_ISSUER, "InvalidAuthHeader");
    const iss = claims.iss;
    const auds = claims.aud === undefined ? [] : Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const providers = parseProviders(this.opts.providers());
    const provider = providers.find((p) => matchesToken(p, auds, iss));
    if (!provider) throw new AuthVerificationError(noProviderMessage(providers), "NoAuthProvider");
    return provider.kind === "oidc"
      ? this.verifyOidc(provider, token, header, claims)
      : this.verifyCustomJwt(provider, token, header, claims);
  }

  private async verifyOidc(
    p: OidcProvider,
    token: string,
    header: ReturnType<typeof decodeProtectedHeader>,
    claims: JWTPayload,
  ): Promise<VerifiedToken> {
    const discovery = await this.discover(claims.iss!);
    // An ID token has iss, sub, aud, exp and iat (openidconnect refuses to parse one without).
    const exp = numeric(claims.exp);
    if (
      typeof claims.sub !== "string" ||
      claims.aud === undefined ||
      exp === undefined ||
      numeric(claims.iat) === undefined
    ) {
      throw new AuthVerificationError(OIDC_PARSE_FAILED, "InvalidAuthHeader");
    }
    const fail = () => new AuthVerificationError(OIDC_VERIFY_FAILED, "Unauthenticated");
    if (claims.iss !== discovery.issuer) throw fail();
    const auds = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    // the application id must be among the audiences, and no other audience is trusted
    if (!auds.includes(p.applicationID) || auds.some((a) => a !== p.applicationID)) throw fail();
    const alg = header.alg;
    if (typeof alg !== "string" || !OIDC_ALGORITHMS.has(alg)) throw fail();
    const kid = typeof header.kid === "string" ? header.kid : undefined;
    const check = async (forceRefresh: boolean) => {
      const key = oidcKey(await this.keySet(discovery.jwksUri, forceRefresh), kid, alg);
      return key !== null && (await signatureValid(token, key, alg));
    };
    // a key the cached set does not have may have been rotated in: refetch once (rate limited)
    if (!(await check(false)) && !(await check(true))) throw fail();
    // no leeway on `exp` for OIDC tokens, and any `iat` is accepted (openidconnect's defaults)
    const now = Math.floor(Date.now() / 1000);
    if (now >= exp) throw fail();
    // openidconnect does not read `nbf`; a token not valid yet identifies nobody here, with the
    // leeway Convex gives `nbf` elsewhere (customJwt); an `nbf` that is no number is refused
    const nbf = claims.nbf === undefined ? undefined : (numeric(claims.nbf) ?? Infinity);
    if (nbf !== undefined && nbf - now > NBF_LEEWAY_SEC) throw fail();
    return { identity: identityFromClaims(claims), expiresAt: exp };
  }

  private async verifyCustomJwt(
    p: CustomJwtProvider,
    token: string,
    header: ReturnType<typeof decodeProtectedHeader>,
    claims: JWTPayload,
  ): Promise<VerifiedToken> {
    const keys = await this.keySet(p.jwks, false);
    const kid = typeof header.kid === "string" ? header.kid : undefined;
    // biscuit's decode_with_jwks: the key is found by `kid` alone, so a token without one is refused
    const decodeFailed = () =>
      new AuthVerificationError(
        kid === undefined
          ? "Could not decode token. JWT may be missing a 'kid' (key ID) header."
          : `Could not decode token. The JWT's 'kid' (key ID) header is '${kid}', does this key match any key in the provider's JWKS?`,
        "InvalidAuthHeader",
      );
    if (kid === undefined) throw decodeFailed();
    const find = async (forceRefresh: boolean) =>
      (forceRefresh ? await this.keySet(p.jwks, true) : keys).find((k) => k.kid === kid);
    const jwk = (await find(false)) ?? (await find(true));
    const alg = header.alg;
    if (!jwk || alg !== p.algorithm || (jwk.alg !== undefined && jwk.alg !== alg)) throw decodeFailed();
    if (!(await signatureValid(token, jwk, alg))) throw decodeFailed();
    // ValidationOptions with a 5 s epsilon: exp, then nbf, then iat
    const now = Math.floor(Date.now() / 1000);
    const invalid = (why: string) => new AuthVerificationError(`Could not validate token: ${why}`, "InvalidAuthHeader");
    const exp = numeric(claims.exp);
    const nbf = numeric(claims.nbf);
    const iat = numeric(claims.iat);
    if (exp !== undefined && now - exp > CUSTOM_JWT_LEEWAY_SEC)
      throw invalid(`Token expired ${Math.trunc(now - exp)} seconds ago`);
    if (nbf !== undefined && nbf - now > CUSTOM_JWT_LEEWAY_SEC)
      throw invalid(`Token will be valid in ${Math.trunc(nbf - now)} seconds`);
    if (iat !== undefined && iat - now > CUSTOM_JWT_LEEWAY_SEC)
      throw invalid(`Token will be valid in ${Math.trunc(iat - now)} seconds`);
    if (typeof claims.sub !== "string") throw new AuthVerificationError("Missing subject", "InvalidAuthHeader");
    if (exp === undefined) throw new AuthVerificationError("Missing expiry", "InvalidAuthHeader");
    return { identity: identityFromClaims(claims), expiresAt: exp + CUSTOM_JWT_LEEWAY_SEC };
  }

  /** OIDC discovery for the token's issuer, as Convex does it (`${iss}/.well-known/openid-configuration`). */
  private async discover(iss: string): Promise<{ issuer: string; jwksUri: string }> {
    const url = `${trimSlash(iss)}/.well-known/openid-configuration`;
    const failed = (detail = "") =>
      new AuthVerificationError(
        `Auth provider discovery of ${iss} failed${detail}`,
        "AuthProviderDiscoveryFailed",
        400,
      );
    let doc: { issuer?: unknown; jwks_uri?: unknown };
    try {
      doc = (await this.cachedJson(this.discovery, url, false)) as typeof doc;
    } catch (e) {
      throw failed(e instanceof HttpStatusError ? `: ${e.status} ${e.body}` : "");
    }
    if (typeof doc?.jwks_uri !== "string" || typeof doc.issuer !== "string") throw failed();
    return { issuer: doc.issuer, jwksUri: doc.jwks_uri };
  }

  private async keySet(url: string, forceRefresh: boolean): Promise<Jwk[]> {
    const now = Date.now();
    const cached = this.keys.get(url);
    if (cached && forceRefresh) {
      const c = await cached.catch(() => undefined);
      // an unknown kid refetches the set at most every few seconds
      if (c && now - c.fetchedAt <= KID_MISS_REFETCH_INTERVAL_MS) forceRefresh = false;
    }
    const invalid = () =>
      new AuthVerificationError(
        `Invalid JWKS response body from '${url}'. The response is not valid JSON or doesn't match the expected JWKS format.`,
        "InvalidAuthHeader",
      );
    let json: unknown;
    try {
      json = await this.cachedJson(this.keys, url, forceRefresh);
    } catch (e) {
      if (e instanceof NotJsonError) throw invalid();
      const why = e instanceof HttpStatusError ? `HTTP ${e.status}` : describeFetchError(e);
      throw new AuthVerificationError(
        `Could not fetch JWKS from URL '${url}': ${why}. Check that the URL is correct and accessible.`,
        "InvalidAuthHeader",
      );
    }
    const keys = (json as { keys?: unknown })?.keys;
    if (!Array.isArray(keys)) throw invalid();
    return keys.filter((k): k is Jwk => k !== null && typeof k === "object");
  }

  private async cachedJson(cache: Map<string, Promise<CachedJson>>, url: string, force: boolean): Promise<unknown> {
    const cached = cache.get(url);
    if (cached && !force) {
      const c = await cached.catch(() => undefined);
      if (c && Date.now() - c.fetchedAt <= this.ttl) return c.value;
    }
    const p = this.fetchJson(url).then((value) => ({ value, fetchedAt: Date.now() }));
    cache.set(url, p);
    // a failed fetch must not stay cached
    p.catch(() => {
      if (cache.get(url) === p) cache.delete(url);
    });
    return (await p).value;
  }

  private async fetchJson(url: string): Promise<unknown> {
    const res = await this.fetchImpl(url);
    if (!res.ok) throw new HttpStatusError(res.status, await res.text().catch(() => ""));
    const text = await res.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new NotJsonError();
    }
  }
}

/** A response that arrived but is not JSON (an invalid key set, not an unreachable one). */
class NotJsonError extends Error {}

class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}`);
  }
}

function describeFetchError(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
