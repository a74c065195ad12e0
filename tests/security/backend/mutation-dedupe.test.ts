/**
 * Sync protocol: mutation results are remembered by (sessionId, requestId) so a reconnecting client
 * is not charged twice. A session id is only a value the client picked, so the remembered result
 * must belong to the identity that made the request: another user (or nobody) presenting the same
 * ids runs a fresh mutation as themselves and never sees the first caller's result.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from "jose";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { RawSyncClient, startFixture, startIssuer } from "../../local-backend/protocol/helpers";

const ADMIN_KEY = "dedupe-admin-key";

let issuer: Awaited<ReturnType<typeof startIssuer>> | undefined;
let issuerUrl: string;
let keys: { privateKey: CryptoKey; publicKey: CryptoKey };
let backend: Awaited<ReturnType<typeof startFixture>>;

beforeAll(async () => {
  keys = await generateKeyPair("RS256");
  const jwks = { keys: [{ ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "RS256", use: "sig" }] };
  issuer = await startIssuer((url) => ({
    "/oidc/.well-known/openid-configuration": { issuer: `${url}/oidc`, jwks_uri: `${url}/oidc/jwks` },
    "/oidc/jwks": jwks,
  }));
  issuerUrl = issuer.url;
  // read by the fixture's auth.config.ts when the backend loads it
  process.env.PROTOCOL_TEST_OIDC_DOMAIN = `${issuerUrl}/oidc`;
  backend = await startFixture({ adminKey: ADMIN_KEY });
});

afterAll(async () => {
  await backend?.stop();
  await issuer?.close();
});

function token(sub: string, claims: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({ name: sub, ...claims })
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setIssuer(`${issuerUrl}/oidc`)
    .setSubject(sub)
    .setAudience("protocol-tests")
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(keys.privateKey);
}

type Auth = { user: string } | { admin: Record<string, unknown> } | null;

/** A raw sync connection on `sessionId`, authenticated as `auth` (null: anonymous). */
async function connectAs(sessionId: string, auth: Auth): Promise<RawSyncClient> {
  const raw = new RawSyncClient(backend.cloudUrl);
  await raw.opened;
  raw.connect(sessionId);
  if (auth !== null) {
    raw.send(
      "user" in auth
        ? { type: "Authenticate", tokenType: "User", value: auth.user, baseVersion: 0 }
        : { type: "Authenticate", tokenType: "Admin", value: ADMIN_KEY, impersonating: auth.admin, baseVersion: 0 },
    );
    const t = await raw.next((m) => m.type === "Transition" || m.type === "AuthError");
    expect(t.type).toBe("Transition");
    expect((t.endVersion as { identity: number }).identity).toBe(1);
  }
  return raw;
}

/** Sends the mutation `protocol/misc:sendAsCaller` with this requestId; resolves to its response. */
async function sendAsCaller(raw: RawSyncClient, requestId: number, channel: string) {
  raw.send({ type: "Mutation", requestId, udfPath: "protocol/misc:sendAsCaller", args: [{ channel }] });
  return raw.next((m) => m.type === "MutationResponse" && m.requestId === requestId);
}

async function close(raw: RawSyncClient): Promise<void> {
  raw.close();
  await raw.closed;
}

async function authors(channel: string): Promise<string[]> {
  const rows: Array<{ author: string }> = await new ConvexHttpClient(backend.cloudUrl).query(anyApi.messages.list, {
    channel,
  });
  return rows.map((r) => r.author).sort();
}

describe("mutation dedupe is bound to the caller's identity", () => {
  it("another user replaying a victim's (sessionId, requestId) runs a fresh mutation as themselves", async () => {
    const sessionId = `victim-session-${Date.now()}`;
    const channel = "dedupe-users";
    const victim = await connectAs(sessionId, { user: await token("alice") });
    const first = await sendAsCaller(victim, 7, channel);
    expect(first).toMatchObject({ success: true, result: "alice" });
    await close(victim);

    const attacker = await connectAs(sessionId, { user: await token("mallory") });
    const replay = await sendAsCaller(attacker, 7, channel);
    expect(replay.success).toBe(true);
    // never the victim's cached response
    expect(replay.result).toBe("mallory");
    expect(replay).not.toEqual(first);
    await close(attacker);
    expect(await authors(channel)).toEqual(["alice", "mallory"]);
  });

  it("an unauthenticated connection replaying the ids runs anonymously", async () => {
    const sessionId = `victim-session-anon-${Date.now()}`;
    const channel = "dedupe-anon";
    const victim = await connectAs(sessionId, { user: await token("bob") });
    const first = await sendAsCaller(victim, 3, channel);
    expect(first.result).toBe("bob");
    await close(victim);

    const anonymous = await connectAs(sessionId, null);
    const replay = await sendAsCaller(anonymous, 3, channel);
    expect(replay.result).toBe("anonymous");
    await close(anonymous);
    expect(await authors(channel)).toEqual(["anonymous", "bob"]);
  });

  it("an admin impersonating someone and an anonymous caller do not share results", async () => {
    const sessionId = `admin-session-${Date.now()}`;
    const channel = "dedupe-admin";
    const admin = await connectAs(sessionId, { admin: { subject: "carol", issuer: "https://issuer.example" } });
    expect((await sendAsCaller(admin, 1, channel)).result).toBe("carol");
    await close(admin);

    const anonymous = await connectAs(sessionId, null);
    expect((await sendAsCaller(anonymous, 1, channel)).result).toBe("anonymous");
    await close(anonymous);
    expect(await authors(channel)).toEqual(["anonymous", "carol"]);
  });

  it("still dedupes the same identity's resend after a reconnect (also with a refreshed token)", async () => {
    const sessionId = `same-user-${Date.now()}`;
    const channel = "dedupe-same";
    const c1 = await connectAs(sessionId, { user: await token("dave") });
    const first = await sendAsCaller(c1, 11, channel);
    await close(c1);

    // someone else uses the same ids in between: that must not disturb dave's entry
    const other = await connectAs(sessionId, { user: await token("erin") });
    expect((await sendAsCaller(other, 11, channel)).result).toBe("erin");
    await close(other);

    const c2 = await connectAs(sessionId, { user: await token("dave", { refreshed: true }) });
    const resent = await sendAsCaller(c2, 11, channel);
    expect(resent).toEqual(first);
    await close(c2);
    // dave's mutation ran once, erin's once
    expect(await authors(channel)).toEqual(["dave", "erin"]);
  });
});
