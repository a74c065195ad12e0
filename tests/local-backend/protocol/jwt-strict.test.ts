/**
 * JWT verification as strict as Convex's (crates/authentication, openidconnect, biscuit), through
 * the real clients: key selection by `kid`, the customJwt leeway on `iat`, `nbf` honoured with that
 * leeway (for OIDC too, where Convex ignores it), Convex's error codes and
 * messages over HTTP and WebSocket, `ctx.auth.getUserIdentity()` throwing in an http action for a
 * bad Bearer token, and an admin acting as a user over HTTP (`setAdminAuth(key, identity)`).
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from "jose";
import { anyApi } from "convex/server";
import { ConvexHttpClient, type ConvexClient } from "convex/browser";
import { AuthVerificationError, AuthVerifier } from "../../../local-backend/src/auth";
import { RawSyncClient, newClient, startFixture, startIssuer, tempDir } from "./helpers";

type Keys = { privateKey: CryptoKey; publicKey: CryptoKey };
const APP_DIR = fileURLToPath(new URL("./fidelity-app/convex", import.meta.url));
const ADMIN_KEY = "fidelity-admin-key";

let issuer: Awaited<ReturnType<typeof startIssuer>> | undefined;
let url: string;
let k1: Keys;
let k2: Keys;
let single: Keys;
let custom: Keys;
let backend: Awaited<ReturnType<typeof startFixture>>;
const clients: ConvexClient[] = [];

const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  [k1, k2, single, custom] = await Promise.all([1, 2, 3, 4].map(() => generateKeyPair("RS256")));
  const jwk = async (keys: Keys, extra: Record<string, string>) => ({
    ...(await exportJWK(keys.publicKey)),
    use: "sig",
    ...extra,
  });
  const multiJwks = { keys: [await jwk(k1, { kid: "k1", alg: "RS256" }), await jwk(k2, { kid: "k2", alg: "RS256" })] };
  const singleJwks = { keys: [await jwk(single, {})] };
  const customJwks = { keys: [await jwk(custom, { kid: "c1", alg: "RS256" })] };
  issuer = await startIssuer((base) => ({
    "/multi/.well-known/openid-configuration": { issuer: `${base}/multi`, jwks_uri: `${base}/multi/jwks` },
    "/multi/jwks": multiJwks,
    "/single/.well-known/openid-configuration": { issuer: `${base}/single`, jwks_uri: `${base}/single/jwks` },
    "/single/jwks": singleJwks,
    "/custom/jwks": customJwks,
  }));
  url = issuer.url;
  process.env.FIDELITY_OIDC_DOMAIN = `${url}/multi`;
  process.env.FIDELITY_SINGLE_DOMAIN = `${url}/single`;
  process.env.FIDELITY_CUSTOM_ISSUER = `${url}/custom`;
  process.env.FIDELITY_CUSTOM_JWKS = `${url}/custom/jwks`;
  backend = await startFixture({ functionsDir: APP_DIR, dataDir: tempDir(), adminKey: ADMIN_KEY });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await backend?.stop();
  await issuer?.close();
});

type TokenOpts = { kid?: string; iat?: number; exp?: number; nbf?: number; aud?: string | string[]; sub?: string };

function oidc(path: "multi" | "single", keys: Keys, o: TokenOpts = {}) {
  return new SignJWT({ email: "ada@example.com", ...(o.nbf === undefined ? {} : { nbf: o.nbf }) })
    .setProtectedHeader(o.kid === undefined ? { alg: "RS256" } : { alg: "RS256", kid: o.kid })
    .setIssuer(`${url}/${path}`)
    .setSubject(o.sub ?? "ada")
    .setAudience(o.aud ?? "fidelity")
    .setIssuedAt(o.iat ?? now())
    .setExpirationTime(o.exp ?? now() + 3600)
    .sign(keys.privateKey);
}

function customJwt(o: TokenOpts = {}) {
  return new SignJWT({ team: "blue", ...(o.nbf === undefined ? {} : { nbf: o.nbf }) })
    .setProtectedHeader(o.kid === undefined ? { alg: "RS256" } : { alg: "RS256", kid: o.kid })
    .setIssuer(`${url}/custom`)
    .setSubject(o.sub ?? "svc")
    .setAudience("fidelity-custom")
    .setIssuedAt(o.iat ?? now())
    .setExpirationTime(o.exp ?? now() + 3600)
    .sign(custom.privateKey);
}

/** POST /api/query whoami:query with this Authorization header: status and JSON body. */
async function queryWith(authorization: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${backend.cloudUrl}/api/query`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: authorization },
    body: JSON.stringify({ path: "whoami:query", args: [{}], format: "convex_encoded_json" }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function authenticate(client: ConvexClient, token: string): Promise<boolean> {
  return new Promise((resolve) => client.setAuth(async () => token, resolve));
}

describe("key selection by kid", () => {
  it("OIDC: a token without kid is refused when the JWKS has several eligible keys", async () => {
    const { status, body } = await queryWith(`Bearer ${await oidc("multi", k1)}`);
    expect(status).toBe(401);
    expect(body).toEqual({
      code: "Unauthenticated",
      message:
        "Could not verify OIDC token claim. Check that the token signature is valid and the token hasn't expired.",
    });
    // the same token with its kid is accepted
    const ok = new ConvexHttpClient(backend.cloudUrl);
    ok.setAuth(await oidc("multi", k1, { kid: "k1" }));
    expect(await ok.query(anyApi.whoami.query, {})).toMatchObject({ tokenIdentifier: `${url}/multi|ada` });
    // a kid naming the other key does not verify
    expect((await queryWith(`Bearer ${await oidc("multi", k1, { kid: "k2" })}`)).status).toBe(401);
  });

  it("OIDC: a token without kid is accepted when exactly one key is eligible (Convex Auth's tokens)", async () => {
    const h = new ConvexHttpClient(backend.cloudUrl);
    h.setAuth(await oidc("single", single));
    expect(await h.query(anyApi.whoami.query, {})).toMatchObject({ tokenIdentifier: `${url}/single|ada` });
  });

  it("customJwt: a token without kid is refused (the key is found by kid alone)", async () => {
    const { status, body } = await queryWith(`Bearer ${await customJwt()}`);
    expect(status).toBe(401);
    expect(body).toEqual({
      code: "InvalidAuthHeader",
      message: "Could not decode token. JWT may be missing a 'kid' (key ID) header.",
    });
    const unknown = await queryWith(`Bearer ${await customJwt({ kid: "nope" })}`);
    expect(unknown.body.message).toBe(
      "Could not decode token. The JWT's 'kid' (key ID) header is 'nope', does this key match any key in the provider's JWKS?",
    );
    const h = new ConvexHttpClient(backend.cloudUrl);
    h.setAuth(await customJwt({ kid: "c1" }));
    expect(await h.query(anyApi.whoami.query, {})).toMatchObject({
      tokenIdentifier: `${url}/custom|svc`,
      team: "blue",
    });
  });

  it("OIDC: a second audience besides the application id is not trusted", async () => {
    expect((await queryWith(`Bearer ${await oidc("single", single, { aud: ["fidelity", "other"] })}`)).status).toBe(
      401,
    );
  });
});

describe("issued-at in the future", () => {
  it("customJwt: refused beyond Convex's 5 s leeway, accepted within it", async () => {
    const { status, body } = await queryWith(`Bearer ${await customJwt({ kid: "c1", iat: now() + 120 })}`);
    expect(status).toBe(401);
    expect(body.code).toBe("InvalidAuthHeader");
    expect(body.message).toMatch(/^Could not validate token: Token will be valid in 1[12]\d seconds$/);
    const h = new ConvexHttpClient(backend.cloudUrl);
    h.setAuth(await customJwt({ kid: "c1", iat: now() + 2 }));
    expect(await h.query(anyApi.whoami.query, {})).toMatchObject({ subject: "svc" });
  });

  it("customJwt: expired beyond the leeway is refused with biscuit's text", async () => {
    const { body } = await queryWith(`Bearer ${await customJwt({ kid: "c1", iat: now() - 600, exp: now() - 300 })}`);
    expect(body.message).toMatch(/^Could not validate token: Token expired 30\d seconds ago$/);
  });

  it("OIDC: any iat is accepted (openidconnect's default), exp has no leeway", async () => {
    const h = new ConvexHttpClient(backend.cloudUrl);
    h.setAuth(await oidc("single", single, { iat: now() + 120 }));
    expect(await h.query(anyApi.whoami.query, {})).toMatchObject({ subject: "ada" });
    expect((await queryWith(`Bearer ${await oidc("single", single, { exp: now() - 2 })}`)).status).toBe(401);
  });
});

describe("not-before in the future", () => {
  // A token not valid yet identifies nobody: only the key holder could make one, still it must
  // not be honoured early. Convex's leeway for `nbf` (customJwt, biscuit's epsilon) is 5 s.
  it("OIDC: nbf an hour ahead is refused; within the 5 s leeway it is accepted", async () => {
    const { status, body } = await queryWith(`Bearer ${await oidc("single", single, { nbf: now() + 3600 })}`);
    expect(status).toBe(401);
    expect(body).toEqual({
      code: "Unauthenticated",
      message:
        "Could not verify OIDC token claim. Check that the token signature is valid and the token hasn't expired.",
    });
    expect((await queryWith(`Bearer ${await oidc("single", single, { nbf: now() + 30 })}`)).status).toBe(401);
    const h = new ConvexHttpClient(backend.cloudUrl);
    h.setAuth(await oidc("single", single, { nbf: now() + 2 }));
    expect(await h.query(anyApi.whoami.query, {})).toMatchObject({ subject: "ada" });
    h.setAuth(await oidc("single", single, { nbf: now() - 60 }));
    expect(await h.query(anyApi.whoami.query, {})).toMatchObject({ subject: "ada" });
  });

  it("OIDC: over the WebSocket a token not valid yet does not authenticate", async () => {
    const c = newClient(backend.cloudUrl);
    clients.push(c);
    expect(await authenticate(c, await oidc("single", single, { nbf: now() + 3600 }))).toBe(false);
    expect(await authenticate(c, await oidc("single", single, { nbf: now() + 2 }))).toBe(true);
  });

  it("customJwt: nbf beyond the leeway is refused with biscuit's text; within it accepted", async () => {
    const { status, body } = await queryWith(`Bearer ${await customJwt({ kid: "c1", nbf: now() + 3600 })}`);
    expect(status).toBe(401);
    expect(body.message).toMatch(/^Could not validate token: Token will be valid in 3(59\d|600) seconds$/);
    const h = new ConvexHttpClient(backend.cloudUrl);
    h.setAuth(await customJwt({ kid: "c1", nbf: now() + 2 }));
    expect(await h.query(anyApi.whoami.query, {})).toMatchObject({ subject: "svc" });
  });
});

describe("Convex's codes and messages", () => {
  it("NoAuthProvider, InvalidAuthHeader, InvalidAdminKey over HTTP", async () => {
    const stranger = await new SignJWT({})
      .setProtectedHeader({ alg: "RS256" })
      .setIssuer("https://elsewhere.example")
      .setSubject("x")
      .setAudience("fidelity")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(k1.privateKey);
    const none = await queryWith(`Bearer ${stranger}`);
    expect(none.status).toBe(401);
    expect(none.body.code).toBe("NoAuthProvider");
    expect(none.body.message).toBe(
      "No auth provider found matching the given token. Check that your JWT's issuer and audience match one of your configured providers: " +
        `[OIDC(domain=${url}/multi, app_id=fidelity), OIDC(domain=${url}/single, app_id=fidelity), CustomJWT(issuer=${url}/custom, app_id=fidelity-custom)]`,
    );
    expect(await queryWith("Bearer not-a-jwt")).toEqual({
      status: 401,
      body: {
        code: "InvalidAuthHeader",
        message:
          "Could not parse JWT payload. Check that the token is a valid JWT format with three base64-encoded parts separated by dots.",
      },
    });
    expect(await queryWith("Basic abcdef")).toEqual({
      status: 400,
      body: { code: "InvalidAdminKey", message: "Invalid admin key" },
    });
    expect((await queryWith("Convex wrong-key")).body.code).toBe("BadDeployKey");
  });

  it("the WebSocket AuthError carries the same message", async () => {
    const raw = new RawSyncClient(backend.cloudUrl);
    await raw.opened;
    raw.connect();
    raw.send({ type: "Authenticate", tokenType: "User", value: await customJwt(), baseVersion: 0 });
    const err = await raw.next((m) => m.type === "AuthError");
    expect(err.error).toBe("Could not decode token. JWT may be missing a 'kid' (key ID) header.");
    raw.close();
    const c = newClient(backend.cloudUrl);
    clients.push(c);
    expect(await authenticate(c, await oidc("multi", k2))).toBe(false);
    expect(await authenticate(c, await oidc("multi", k2, { kid: "k2" }))).toBe(true);
  });
});

describe("http actions", () => {
  it("a bad Bearer token makes ctx.auth.getUserIdentity() throw; nested queries see no identity", async () => {
    const bad = await customJwt();
    const caught = await fetch(`${backend.siteUrl}/whoami-caught`, { headers: { Authorization: `Bearer ${bad}` } });
    expect(caught.status).toBe(200);
    expect(await caught.json()).toEqual({
      error: "Could not decode token. JWT may be missing a 'kid' (key ID) header.",
      nested: null,
    });
    const thrown = await fetch(`${backend.siteUrl}/whoami`, { headers: { Authorization: `Bearer ${bad}` } });
    expect(thrown.status).toBe(500);
    // a header that is not Convex auth at all reaches the action too, and so does its error
    const basic = await fetch(`${backend.siteUrl}/whoami-caught`, { headers: { Authorization: "Basic abcdef" } });
    expect(await basic.json()).toEqual({ error: "Invalid admin key", nested: null });
    // a good token and no token
    const good = await fetch(`${backend.siteUrl}/whoami`, {
      headers: { Authorization: `Bearer ${await customJwt({ kid: "c1" })}` },
    });
    expect(await good.json()).toBe(`${url}/custom|svc`);
    expect(await (await fetch(`${backend.siteUrl}/whoami`)).json()).toBeNull();
  });
});

describe("admin acting as a user over HTTP", () => {
  it("setAdminAuth(key, identity) reaches queries and actions as that user", async () => {
    const h = new ConvexHttpClient(backend.cloudUrl);
    (h as unknown as { setAdminAuth(key: string, identity?: object): void }).setAdminAuth(ADMIN_KEY, {
      issuer: "https://dashboard.example",
      subject: "grace",
      name: "Grace",
    });
    expect(await h.query(anyApi.whoami.query, {})).toMatchObject({
      tokenIdentifier: "https://dashboard.example|grace",
      subject: "grace",
      issuer: "https://dashboard.example",
      name: "Grace",
    });
    expect(await h.action(anyApi.whoami.action, {})).toMatchObject({ subject: "grace" });
    // a plain admin key has no user identity
    (h as unknown as { setAdminAuth(key: string): void }).setAdminAuth(ADMIN_KEY);
    expect(await h.query(anyApi.whoami.query, {})).toBeNull();
    // the same over WebSocket (Authenticate with tokenType Admin and impersonating)
    const raw = new RawSyncClient(backend.cloudUrl);
    await raw.opened;
    raw.connect();
    raw.send({
      type: "Authenticate",
      tokenType: "Admin",
      value: ADMIN_KEY,
      impersonating: { issuer: "https://dashboard.example", subject: "grace" },
      baseVersion: 0,
    });
    expect((await raw.next((m) => m.type === "Transition" || m.type === "AuthError")).type).toBe("Transition");
    raw.close();
  });
});

describe("a customJwt provider whose key set is not JSON", () => {
  it("is refused with Convex's 'Invalid JWKS response body', not as unreachable", async () => {
    const jwks = "data:invalid,not-a-valid-jwks";
    const verifier = new AuthVerifier({
      providers: () => [
        { type: "customJwt", applicationID: "App 4", issuer: "https://issuer.example.com/4", jwks, algorithm: "RS256" },
      ],
    });
    const token = await new SignJWT({ name: "Presley" })
      .setProtectedHeader({ alg: "RS256", kid: "k" })
      .setIssuer("https://issuer.example.com/4")
      .setAudience("App 4")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(custom.privateKey);
    const error = await verifier.verify(token).then(
      () => null,
      (e: unknown) => e as AuthVerificationError,
    );
    expect(error).toBeInstanceOf(AuthVerificationError);
    expect(error?.code).toBe("InvalidAuthHeader");
    expect(error?.message).toContain("Invalid JWKS response body");
    expect(error?.message).toContain("not valid JSON");
  });
});
