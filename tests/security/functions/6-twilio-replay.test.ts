/**
 * Item 6 (Twilio's webhooks): a signature carries no time, so a captured signed request stays
 * valid. Each is taken once: an inbound text by its MessageSid, a status callback by sid and
 * status. A replay is answered 200 (empty TwiML for inbound, so Twilio does not retry) and changes
 * nothing; the remembered ids are forgotten by a daily purge.
 */
import { describe, expect, test } from "vitest";
import { internal } from "@convex/_generated/api";
import { startSend } from "@convex/model/sms";
import type { Viewer } from "@convex/model/viewer";
import { fetchFrom, setEnv } from "./harness";
import { roleFixture, setupTest, type TestConvex } from "./setup";

const AUTH_TOKEN = "0123456789abcdef0123456789abcdef";
const BASE = "https://hooks.example.org";
const PHONE = "+15035550101";

/** X-Twilio-Signature: base64 HMAC-SHA1 of the URL followed by each field name and value, names sorted. */
async function sign(url: string, params: Record<string, string>): Promise<string> {
  const data =
    url +
    Object.keys(params)
      .sort()
      .map((k) => k + params[k])
      .join("");
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(AUTH_TOKEN),
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(data)));
  return btoa(String.fromCharCode(...mac));
}

/** A signed webhook request as Twilio sends it; the same call again is a byte-for-byte replay. */
async function post(t: TestConvex, pathAndQuery: string, params: Record<string, string>) {
  const signature = await sign(`${BASE}${pathAndQuery}`, params);
  const res = await fetchFrom(t, "198.51.100.20", pathAndQuery, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature },
    body: new URLSearchParams(params).toString(),
  });
  return { status: res.status, body: await res.text() };
}

const inbound = (sid: string, body: string) => ({
  MessageSid: sid,
  AccountSid: `AC${"1".repeat(32)}`,
  From: PHONE,
  To: "+15005550006",
  Body: body,
});

/** An organisation that texted PHONE once (a send fanned out and held, no sender running). */
async function textedOrg() {
  const t = setupTest();
  await setEnv(t, { TWILIO_AUTH_TOKEN: AUTH_TOKEN, TWILIO_WEBHOOK_BASE_URL: BASE });
  const f = await roleFixture(t);
  const { userId, orgId } = f.campaign_manager;
  const [voterId] = await t.mutation(internal.seed.insertVoters, {
    orgId,
    voters: [{ first_name: "Ada", last_name: "Voter", phone: PHONE }],
  });
  const sendId = await t.run(async (c) => {
    const viewer = {
      userId,
      orgId,
      user: (await c.db.get("users", userId))!,
      org: (await c.db.get("organizations", orgId))!,
      can: () => true,
    } as unknown as Viewer;
    const id = await startSend(c, viewer, {
      voterIds: [voterId],
      body: "Vote Tuesday! Reply STOP to opt out",
      acknowledgeNoOptOutText: true,
    });
    await c.db.patch("smsSends", id, { status: "paused" });
    return id;
  });
  for (let i = 0; i < 20; i++) {
    if ((await t.run((c) => c.db.get("smsSends", sendId)))!.prep.done) break;
    await t.mutation(internal.sms.enqueueStep, { sendId });
  }
  const optedOut = async () =>
    (
      await t.run((c) =>
        c.db
          .query("smsOptOuts")
          .withIndex("by_org_phone", (q) => q.eq("orgId", orgId).eq("phone", PHONE))
          .collect(),
      )
    ).length > 0;
  return { t, orgId, sendId, optedOut };
}

describe("6. Twilio webhooks: a replayed signed request changes nothing", () => {
  test("a replayed STOP after a START does not opt the number out again, nor a replayed START back in", async () => {
    const { t, optedOut } = await textedOrg();
    const empty = { status: 200, body: "<Response></Response>" };
    expect(await post(t, "/api/twilio/inbound", inbound("SMstop1", "STOP"))).toEqual(empty);
    expect(await optedOut()).toBe(true);
    expect(await post(t, "/api/twilio/inbound", inbound("SMstart1", "START"))).toEqual(empty);
    expect(await optedOut()).toBe(false);
    // the captured STOP, posted again: answered as Twilio expects, consent unchanged
    expect(await post(t, "/api/twilio/inbound", inbound("SMstop1", "STOP"))).toEqual(empty);
    expect(await optedOut()).toBe(false);
    // and the other way round
    expect(await post(t, "/api/twilio/inbound", inbound("SMstop2", "STOP"))).toEqual(empty);
    expect(await optedOut()).toBe(true);
    expect(await post(t, "/api/twilio/inbound", inbound("SMstart1", "START"))).toEqual(empty);
    expect(await optedOut()).toBe(true);
    // a replayed HELP gets no second answer; a request without its MessageSid is refused
    expect((await post(t, "/api/twilio/inbound", inbound("SMhelp1", "HELP"))).body).toContain("Reply STOP to opt out");
    expect(await post(t, "/api/twilio/inbound", inbound("SMhelp1", "HELP"))).toEqual(empty);
    const { MessageSid: _, ...noSid } = inbound("SMx", "STOP");
    expect((await post(t, "/api/twilio/inbound", noSid)).status).toBe(400);
  });

  test("a replayed status callback does not count twice", async () => {
    const { t, sendId } = await textedOrg();
    const [m] = await t.run((c) =>
      c.db
        .query("smsMessages")
        .withIndex("by_send_position", (q) => q.eq("sendId", sendId))
        .collect(),
    );
    await t.run((c) => c.db.patch("smsMessages", m._id, { status: "sending" }));
    await t.run(async (c) => {
      const send = (await c.db.get("smsSends", sendId))!;
      await c.db.patch("smsSends", sendId, { counts: { ...send.counts, queued: 0 } });
    });
    const path = `/api/twilio/status?m=${m._id}`;
    const status = (s: string, extra: Record<string, string> = {}) => ({
      MessageSid: "SMout1",
      MessageStatus: s,
      AccountSid: `AC${"1".repeat(32)}`,
      ...extra,
    });
    const counts = async () => (await t.run((c) => c.db.get("smsSends", sendId)))!.counts;
    expect((await post(t, path, status("sent"))).status).toBe(200);
    expect(await counts()).toMatchObject({ sent: 1, delivered: 0 });
    expect((await post(t, path, status("delivered"))).status).toBe(200);
    expect(await counts()).toMatchObject({ sent: 0, delivered: 1 });
    for (const s of ["delivered", "sent", "delivered"])
      expect(await post(t, path, status(s))).toEqual({ status: 200, body: "OK" });
    expect(await counts()).toMatchObject({ sent: 0, delivered: 1, failed: 0, undelivered: 0 });
    const keys = (await t.run((c) => c.db.query("twilioWebhookRequests").collect())).map((r) => r.key).sort();
    expect(keys).toEqual(["status:SMout1:delivered", "status:SMout1:sent"]);
  });

  test("remembered requests are forgotten once past their keeping time", async () => {
    const t = setupTest();
    const now = Date.now();
    await t.run(async (c) => {
      await c.db.insert("twilioWebhookRequests", { key: "inbound:SMold", expiresAt: now - 1000 });
      await c.db.insert("twilioWebhookRequests", { key: "inbound:SMkept", expiresAt: now + 86_400_000 });
    });
    await t.mutation(internal.sms.purgeWebhookRequests, {});
    expect((await t.run((c) => c.db.query("twilioWebhookRequests").collect())).map((r) => r.key)).toEqual([
      "inbound:SMkept",
    ]);
  });
});
