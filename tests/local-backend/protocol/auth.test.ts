/**
 * JWT authentication over WebSocket and HTTP: an OIDC issuer (discovery + JWKS on a local server),
 * a customJwt provider, Convex Auth style self-issued tokens verified against the app's own http
 * actions, and rejected tokens (expired, forged, wrong audience).
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, exportJWK, exportPKCS8, generateKeyPair, type CryptoKey } from "jose";
import { anyApi } from "convex/server";
import { ConvexHttpClient, type ConvexClient } from "convex/browser";
import { RawSyncClient, newClient, startFixture, startIssuer, tempDir } from "./helpers";

type Keys = { privateKey: CryptoKey; publicKey: CryptoKey };

let issuer: Awaited<ReturnType<typeof startIssuer>> | undefined;
let issuerUrl: string;
let oidcKeys: Keys;
let customKeys: Keys;
let strangerKeys: Keys;
let backend: Awaited<ReturnType<typeof startFixture>>;
const clients: ConvexClient[] = [];

async function jwks(keys: Keys, kid: string, alg: string) {
  return { keys: [{ ...(await exportJWK(keys.publicKey)), kid, alg, use: "sig" }] };
}

beforeAll(async () => {
  oidcKeys = await generateKeyPair("RS256");
  customKeys = await generateKeyPair("ES256");
  strangerKeys = await generateKeyPair("RS256");
  const oidcJwks = await jwks(oidcKeys, "oidc-1", "RS256");
  const customJwks = await jwks(customKeys, "custom-1", "ES256");
  issuer = await startIssuer((url) => ({
    "/oidc/.well-known/openid-configuration": { issuer: `${url}/oidc`, jwks_uri: `${url}/oidc/jwks` },
    "/oidc/jwks": oidcJwks,
    "/custom/jwks": customJwks,
  }));
  issuerUrl = issuer.url;
  // auth.config.ts reads these when the backend loads the fixture
  process.env.PROTOCOL_TEST_OIDC_DOMAIN = `${issuerUrl}/oidc`;
  process.env.PROTOCOL_TEST_CUSTOM_ISSUER = `${issuerUrl}/custom`;
  process.env.PROTOCOL_TEST_CUSTOM_JWKS = `${issuerUrl}/custom/jwks`;
  backend = await startFixture();
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await backend?.stop();
  await issuer?.close();
});

function oidcToken(
  opts: { exp?: number | string; aud?: string; keys?: Keys; claims?: Record<string, unknown>; sub?: string } = {},
) {
  return new SignJWT({ email: "ada@example.com", name: "Ada", email_verified: true, role: "organizer", ...opts.claims })
    .setProtectedHeader({ alg: "RS256", kid: "oidc-1" })
    .setIssuer(`${issuerUrl}/oidc`)
    .setSubject(opts.sub ?? "user-1")
    .setAudience(opts.aud ?? "protocol-tests")
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? "1h")
    .sign((opts.keys ?? oidcKeys).privateKey);
}

function customToken() {
  return new SignJWT({ team: "blue" })
    .setProtectedHeader({ alg: "ES256", kid: "custom-1" })
    .setIssuer(`${issuerUrl}/custom`)
    .setSubject("svc-9")
    .setAudience("protocol-custom")
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(customKeys.privateKey);
}

/** setAuth and wait for the client's verdict (true = the server accepted the token). */
function authenticate(client: ConvexClient, token: string): Promise<boolean> {
  return new Promise((resolve) => client.setAuth(async () => token, resolve));
}

function client(): ConvexClient {
  const c = newClient(backend.cloudUrl);
  clients.push(c);
  return c;
}

describe("auth over WebSocket", () => {
  it("accepts an OIDC token and maps claims to the identity", async () => {
    const c = client();
    expect(await authenticate(c, await oidcToken())).toBe(true);
    const identity = await c.query(anyApi.protocol.misc.whoami, {});
    expect(identity).toMatchObject({
      tokenIdentifier: `${issuerUrl}/oidc|user-1`,
      subject: "user-1",
      issuer: `${issuerUrl}/oidc`,
      email: "ada@example.com",
      emailVerified: true,
      name: "Ada",
      role: "organizer",
    });
    // mutations see the same identity
    expect(await c.mutation(anyApi.protocol.misc.whoamiMutation, {})).toMatchObject({ subject: "user-1" });
  });

  it("accepts a customJwt token", async () => {
    const c = client();
    expect(await authenticate(c, await customToken())).toBe(true);
    expect(await c.query(anyApi.protocol.misc.whoami, {})).toMatchObject({
      tokenIdentifier: `${issuerUrl}/custom|svc-9`,
      team: "blue",
    });
  });

  it("rejects expired, forged and wrong-audience tokens", async () => {
    const expired = await oidcToken({ exp: Math.floor(Date.now() / 1000) - 3600 });
    const forged = await oidcToken({ keys: strangerKeys });
    const wrongAud = await oidcToken({ aud: "someone-else" });
    for (const token of [expired, forged, wrongAud]) {
      const c = client();
      expect(await authenticate(c, token)).toBe(false);
      // the connection still serves anonymous queries
      expect(await c.query(anyApi.protocol.misc.whoami, {})).toBeNull();
    }
  });

  it("sends AuthError on the wire for a bad token and keeps the process up", async () => {
    const raw = new RawSyncClient(backend.cloudUrl);
    await raw.opened;
    raw.connect();
    raw.send({
      type: "Authenticate",
      tokenType: "User",
      value: await oidcToken({ keys: strangerKeys }),
      baseVersion: 0,
    });
    const err = await raw.next((m) => m.type === "AuthError");
    expect(err).toMatchObject({ baseVersion: 0, authUpdateAttempted: true });
    expect(String(err.error)).toMatch(/signature/i);
    raw.send({ type: "Authenticate", tokenType: "User", value: "not.a.jwt", baseVersion: 0 });
    expect(String((await raw.next((m) => m.type === "AuthError")).error)).toMatch(/JWT/);
    raw.close();
  });
});

describe("auth over HTTP", () => {
  it("verifies Bearer tokens the same way", async () => {
    const h = new ConvexHttpClient(backend.cloudUrl);
    h.setAuth(await oidcToken({ sub: "http-user" }));
    expect(await h.query(anyApi.protocol.misc.whoami, {})).toMatchObject({ subject: "http-user" });
    const anon = new ConvexHttpClient(backend.cloudUrl);
    expect(await anon.query(anyApi.protocol.misc.whoami, {})).toBeNull();
  });

  it("answers 401 for expired and forged tokens", async () => {
    for (const token of [
      await oidcToken({ exp: Math.floor(Date.now() / 1000) - 60 }),
      await oidcToken({ keys: strangerKeys }),
    ]) {
      const res = await fetch(`${backend.cloudUrl}/api/query`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ path: "protocol/misc:whoami", args: [{}], format: "convex_encoded_json" }),
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe("Unauthenticated");
    }
  });
});

describe("Convex Auth style: the app is its own issuer", () => {
  it("verifies tokens against discovery + JWKS served by the app's http actions", async () => {
    const appDir = fileURLToPath(new URL("./auth-app/convex", import.meta.url));
    const keys = await generateKeyPair("RS256", { extractable: true });
    const self = await startFixture({ functionsDir: appDir, dataDir: tempDir() });
    try {
      self.engine.env.set("JWKS", JSON.stringify({ keys: [{ use: "sig", ...(await exportJWK(keys.publicKey)) }] }));
      self.engine.env.set("JWT_PRIVATE_KEY", await exportPKCS8(keys.privateKey));
      // same shape as @convex-dev/auth's generateToken
      const token = await new SignJWT({ sub: "user123|session456" })
        .setProtectedHeader({ alg: "RS256" })
        .setIssuedAt()
        .setIssuer(self.siteUrl)
        .setAudience("convex")
        .setExpirationTime("1h")
        .sign(keys.privateKey);
      const c = newClient(self.cloudUrl);
      clients.push(c);
      expect(await authenticate(c, token)).toBe(true);
      expect(await c.query(anyApi.whoami.get, {})).toMatchObject({
        tokenIdentifier: `${self.siteUrl}|user123|session456`,
        subject: "user123|session456",
      });
      // http actions see the Bearer token's identity; with a forged token the action still runs,
      // and getUserIdentity() throws the verification error (as on Convex)
      const who = await fetch(`${self.siteUrl}/whoami`, { headers: { Authorization: `Bearer ${token}` } });
      expect(await who.json()).toBe(`${self.siteUrl}|user123|session456`);
      const forged = await fetch(`${self.siteUrl}/whoami`, {
        headers: { Authorization: `Bearer ${token.slice(0, -4)}AAAA` },
      });
      expect(forged.status).toBe(500);
      expect(await forged.text()).toContain("Could not verify OIDC token claim");
      expect(await (await fetch(`${self.siteUrl}/whoami`)).json()).toBeNull();
      const discovery = await fetch(`${self.siteUrl}/.well-known/openid-configuration`);
      expect(((await discovery.json()) as { issuer: string }).issuer).toBe(self.siteUrl);
      await c.close();
    } finally {
      await self.stop();
    }
  });
});
