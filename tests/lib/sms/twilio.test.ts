/**
 * Sending through Twilio (issue 13), against a local fake of its API: the request the SDK makes
 * (To / From / Body / StatusCallback, Basic auth), success, each error code mapped to the spec's
 * message, status callbacks with valid and forged signatures and out of order, STOP / START / HELP
 * replies, and messages held outside the recipient's sending hours.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ConvexHttpClient } from "convex/browser";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { prepareDataDir, signUp, startAppBackend, stopBackend, until, type AppBackend } from "../../support/appBackend";
import { middayTimeZone } from "../../support/middayTimeZone";
import { ACCOUNT_SID, AUTH_TOKEN, FakeTwilio, FROM, MAGIC, postInbound, twilioEnv } from "../../support/fakeTwilio";

let fake: FakeTwilio;
let backend: AppBackend;
let client: ConvexHttpClient;
let orgName: string;

beforeAll(async () => {
  fake = new FakeTwilio();
  await fake.start();
  backend = await startAppBackend(await prepareDataDir(twilioEnv(fake.url)));
  client = await signUp(backend);
  // no quiet hours in these tests unless one sets them (recipients without a state or ZIP are in the
  // default zone, where it is midday: federal hours are open); a fast pace
  await client.mutation(api.sms.saveSettings, {
    settings: { quietStart: 0, quietEnd: 24, defaultTimeZone: middayTimeZone(), profile: "short_code" },
  });
  orgName = (await client.query(api.sms.overview, {})).orgName;
}, 120_000);

afterAll(async () => {
  if (backend) await stopBackend(backend);
  if (fake) await fake.stop();
});

async function voter(first: string, phone: string, extra: Record<string, string> = {}): Promise<Id<"voters">> {
  return await client.mutation(api.voters.create, {
    fields: { first_name: first, last_name: "Test", phone, ...extra },
  });
}

async function sendAndWait(voterIds: Id<"voters">[], body = `${orgName}: polls open 7am. Reply STOP to opt out`) {
  const sendId = await client.mutation(api.sms.start, { body, voterIds });
  const done = await until(
    async () => {
      const p = await client.query(api.sms.progress, { sendId });
      return p && (p.status === "completed" || p.status === "paused") ? p : undefined;
    },
    60_000,
    "the send to finish",
  );
  const rows = (await client.query(api.sms.history, { sendId, paginationOpts: { numItems: 100, cursor: null } })).page;
  return { sendId, progress: done, rows };
}

describe("sending through Twilio", () => {
  test("not in demo mode with valid credentials; the SDK's request: To, From, Body, StatusCallback, Basic auth", async () => {
    expect((await client.query(api.sms.overview, {})).demo).toBe(false);
    const ids = [
      await voter("Ann", "(503) 555-0111"),
      await voter("Ben", "503-555-0112"),
      await voter("Cy", "+15035550113"),
    ];
    const before = fake.messages.length;
    const { progress, rows } = await sendAndWait(ids);
    expect(progress).toMatchObject({ status: "completed", counts: { sent: 3, failed: 0 } });
    const sent = fake.messages.slice(before);
    expect(sent.map((m) => m.to).sort()).toEqual(["+15035550111", "+15035550112", "+15035550113"]);
    for (const m of sent) {
      expect(m.from).toBe(FROM);
      expect(m.body).toBe(`${orgName}: polls open 7am. Reply STOP to opt out`);
      expect(m.statusCallback).toMatch(new RegExp(`^${backend.site}/api/twilio/status\\?m=`));
    }
    const expectedAuth = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString("base64")}`;
    expect(fake.requests.filter((r) => r.method === "POST").every((r) => r.auth === expectedAuth)).toBe(true);
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent", "sent"]);
    expect(new Set(rows.map((r) => r.providerSid))).toEqual(new Set(sent.map((m) => m.sid)));
    const usage = await client.query(api.smsCampaigns.list, {});
    expect(usage.messagesSent).toBeGreaterThanOrEqual(3);
  });

  test("each provider error becomes the spec's message; 21610 opts the number out; a 429 is retried after a back-off", async () => {
    const ids = [
      await voter("Inv", MAGIC.invalid),
      await voter("Uns", MAGIC.unsubscribed),
      await voter("Cant", MAGIC.cannotReceive),
      await voter("Busy", MAGIC.rateLimitedOnce),
    ];
    const { progress, rows } = await sendAndWait(ids);
    const by = Object.fromEntries(rows.map((r) => [r.phone, r]));
    expect(by[MAGIC.invalid]).toMatchObject({
      status: "failed",
      errorCode: "21211",
      error: "The phone number format is invalid. Please use a valid number.",
    });
    expect(by[MAGIC.cannotReceive]).toMatchObject({
      status: "failed",
      errorCode: "21614",
      error: "The phone number format is invalid. Please use a valid number.",
    });
    expect(by[MAGIC.unsubscribed]).toMatchObject({ status: "failed", errorCode: "21610" });
    expect(by[MAGIC.rateLimitedOnce]).toMatchObject({ status: "sent" });
    expect(progress.counts).toMatchObject({ sent: 1, failed: 3 });
    expect((await client.query(api.sms.voterHistory, { voterId: ids[1] })).optedOut).toMatchObject({
      source: "provider",
    });
    const log = await client.query(api.sms.log, { since: 0 });
    expect(log.some((l) => l.type === "error" && l.message.includes(MAGIC.invalid))).toBe(true);
  });

  test("a request that gets no answer (dropped connection, 500) is settled with the provider: each recipient gets exactly one message", async () => {
    const ids = [
      await voter("Five", MAGIC.serverError),
      await voter("Gone", MAGIC.dropUnstored),
      await voter("Mute", MAGIC.dropAnswered),
    ];
    const before = fake.messages.length;
    const { progress, rows } = await sendAndWait(ids);
    expect(progress).toMatchObject({ status: "completed", counts: { sent: 3, failed: 0 } });
    const sent = fake.messages.slice(before);
    expect(sent.map((m) => m.to).sort()).toEqual([MAGIC.serverError, MAGIC.dropUnstored, MAGIC.dropAnswered].sort());
    // the message stored before its connection dropped is recorded with the provider's sid, not sent again
    expect(new Set(rows.map((r) => r.providerSid))).toEqual(new Set(sent.map((m) => m.sid)));
  });

  test("insufficient funds pauses the send with the spec's message and keeps the rest queued", async () => {
    const ids = [await voter("Poor", MAGIC.noFunds), await voter("Next", "+15035550150")];
    const { progress } = await sendAndWait(ids);
    expect(progress).toMatchObject({
      status: "paused",
      error: "Your Twilio account has insufficient funds to send this message.",
    });
    // the refused message and every one not yet handed to Twilio stay queued (at 1 a second, the
    // next one leaves before a slow answer to the first arrives: it is sent, not lost)
    const nextLeft = fake.messages.some((m) => m.to === "+15035550150");
    expect(progress.counts.queued).toBe(nextLeft ? 1 : 2);
    await client.mutation(api.sms.cancel, { sendId: progress.id });
  });

  test("wrong credentials (20003) pause the send: 'The SMS service is currently unavailable'", async () => {
    fake.rejectAuth = true;
    try {
      const { progress } = await sendAndWait([await voter("Auth", "+15035550160")]);
      expect(progress).toMatchObject({
        status: "paused",
        error: "The SMS service is currently unavailable. Please try again later.",
      });
      await client.mutation(api.sms.cancel, { sendId: progress.id });
    } finally {
      fake.rejectAuth = false;
    }
  });
});

describe("status callbacks", () => {
  test("signed callbacks move a message forward; forged ones are refused; a late 'sent' never undoes 'delivered'", async () => {
    const before = fake.messages.length;
    const { rows } = await sendAndWait([await voter("Del", "+15035550170"), await voter("Und", "+15035550171")]);
    const [a, b] = fake.messages.slice(before).sort((x, y) => x.to.localeCompare(y.to));
    expect((await fake.postStatus(a, "delivered")).status).toBe(200);
    expect((await fake.postStatus(b, "undelivered", { errorCode: "30003" })).status).toBe(200);
    expect((await fake.postStatus(a, "sent")).status).toBe(200);
    const forged = await fake.postStatus(b, "delivered", { forge: true });
    expect(forged.status).toBe(403);
    const after = (
      await client.query(api.sms.history, { sendId: rows[0].sendId, paginationOpts: { numItems: 10, cursor: null } })
    ).page;
    const by = Object.fromEntries(after.map((r) => [r.phone, r]));
    expect(by["+15035550170"].status).toBe("delivered");
    expect(by["+15035550171"]).toMatchObject({ status: "undelivered", errorCode: "30003" });
    const p = await client.query(api.sms.progress, { sendId: rows[0].sendId });
    expect(p!.counts).toMatchObject({ delivered: 1, undelivered: 1, sent: 0 });
  });

  test("unsigned or oversized webhook requests are refused", async () => {
    const r1 = await fetch(`${backend.site}/api/twilio/status`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "MessageSid=SM1&MessageStatus=delivered",
    });
    expect(r1.status).toBe(403);
    const r2 = await fetch(`${backend.site}/api/twilio/inbound`, {
      method: "POST",
      headers: { "X-Twilio-Signature": "x" },
      body: "Body=" + "x".repeat(20_000),
    });
    expect(r2.status).toBe(413);
  });
});

describe("replies", () => {
  test("STOP opts out (later sends skip the number), START opts back in, HELP answers with the organisation's name", async () => {
    const id = await voter("Reply", "+15035550180");
    await sendAndWait([id]);
    expect((await postInbound(backend.site, "+15035550180", "STOP")).status).toBe(200);
    expect((await client.query(api.sms.voterHistory, { voterId: id })).optedOut).toMatchObject({ source: "inbound" });
    const again = await sendAndWait([id]);
    expect(again.progress.counts).toMatchObject({ optedOut: 1, sent: 0 });
    const help = await postInbound(backend.site, "+15035550180", "HELP");
    expect(help.headers.get("content-type")).toContain("text/xml");
    expect(await help.text()).toContain(orgName);
    await postInbound(backend.site, "+15035550180", "start");
    expect((await client.query(api.sms.voterHistory, { voterId: id })).optedOut).toBeNull();
    expect((await postInbound(backend.site, "+15035550180", "STOP", { forge: true })).status).toBe(403);
    expect((await client.query(api.sms.voterHistory, { voterId: id })).optedOut).toBeNull();
  });
});

describe("quiet hours", () => {
  test("a message outside the recipient's sending hours is held, not dropped or sent", async () => {
    // a one-hour window that does not contain the current hour in New York
    const hourNy = Number(
      new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", hour: "numeric", hourCycle: "h23" }).format(
        new Date(),
      ),
    );
    const start = (hourNy + 2) % 24;
    const window = start === 23 ? { quietStart: 22, quietEnd: 23 } : { quietStart: start, quietEnd: start + 1 };
    if (hourNy >= window.quietStart && hourNy < window.quietEnd) throw new Error("bad window");
    await client.mutation(api.sms.saveSettings, {
      settings: { ...window, defaultTimeZone: "UTC", profile: "short_code" },
    });
    try {
      const before = fake.messages.length;
      const id = await voter("Night", "+12125550190", { zip: "10001" });
      const sendId = await client.mutation(api.sms.start, {
        body: `${orgName}: hello. Reply STOP to opt out`,
        voterIds: [id],
      });
      const row = await until(
        async () => {
          const page = (await client.query(api.sms.history, { sendId, paginationOpts: { numItems: 5, cursor: null } }))
            .page;
          return page[0]?.heldUntil ? page[0] : undefined;
        },
        30_000,
        "the message to be held",
      );
      expect(row.status).toBe("queued");
      expect(row.heldUntil!).toBeGreaterThan(Date.now());
      expect(fake.messages.slice(before)).toEqual([]);
      await client.mutation(api.sms.cancel, { sendId });
    } finally {
      await client.mutation(api.sms.saveSettings, {
        settings: { quietStart: 0, quietEnd: 24, defaultTimeZone: middayTimeZone(), profile: "short_code" },
      });
    }
  });
});
