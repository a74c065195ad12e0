/**
 * Identity order on one connection: every message sees the identity the messages before it set.
 * An `Action` sent right after an `Authenticate` (a sign-in, a user switch, a sign-out) runs as
 * the new caller, as on Convex, whose sync worker handles Authenticate before reading on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from "jose";
import { RawSyncClient, startFixture, startIssuer } from "./helpers";

let issuer: Awaited<ReturnType<typeof startIssuer>> | undefined;
let backend: Awaited<ReturnType<typeof startFixture>> | undefined;
let keys: { privateKey: CryptoKey; publicKey: CryptoKey };
let issuerUrl: string;

beforeAll(async () => {
  keys = await generateKeyPair("RS256");
  const jwks = { keys: [{ ...(await exportJWK(keys.publicKey)), kid: "order-1", alg: "RS256", use: "sig" }] };
  issuer = await startIssuer((url) => ({
    "/oidc/.well-known/openid-configuration": { issuer: `${url}/oidc`, jwks_uri: `${url}/oidc/jwks` },
    "/oidc/jwks": jwks,
  }));
  issuerUrl = issuer.url;
  process.env.PROTOCOL_TEST_OIDC_DOMAIN = `${issuerUrl}/oidc`;
  backend = await startFixture();
});

afterAll(async () => {
  await backend?.stop();
  await issuer?.close();
  delete process.env.PROTOCOL_TEST_OIDC_DOMAIN;
});

function token(sub: string): Promise<string> {
  return new SignJWT({ name: sub })
    .setProtectedHeader({ alg: "RS256", kid: "order-1" })
    .setIssuer(`${issuerUrl}/oidc`)
    .setSubject(sub)
    .setAudience("protocol-tests")
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(keys.privateKey);
}

describe("identity order on a connection", () => {
  it("runs an Action sent in the same burst as an Authenticate as the new identity, 100 times out of 100", async () => {
    // sign-in as a, switch to b, sign-out, sign-in as c, …: each Action right behind its Authenticate
    const subjects = ["user-a", "user-b", null, "user-c"];
    const tokens = new Map<string, string>();
    for (const s of subjects) if (s !== null) tokens.set(s, await token(s));
    const client = new RawSyncClient(backend!.cloudUrl);
    await client.opened;
    client.connect();
    const expected: Array<string | null> = [];
    for (let i = 0; i < 100; i++) {
      const subject = subjects[i % subjects.length];
      expected.push(subject);
      client.send(
        subject === null
          ? { type: "Authenticate", tokenType: "None", baseVersion: i }
          : { type: "Authenticate", tokenType: "User", value: tokens.get(subject), baseVersion: i },
      );
      client.send({ type: "Action", requestId: i, udfPath: "fidelityA:whoamiAction", args: [{}] });
    }
    const seen: Array<string | null> = [];
    for (let i = 0; i < 100; i++) {
      const r = await client.next((m) => m.type === "ActionResponse" && m.requestId === i);
      expect(r.success).toBe(true);
      seen.push(r.result as string | null);
    }
    const wrong = seen.filter((s, i) => s !== expected[i]).length;
    expect(wrong).toBe(0);
    expect(client.messages.filter((m) => m.type === "AuthError" || m.type === "FatalError")).toEqual([]);
    client.close();
  });
});
