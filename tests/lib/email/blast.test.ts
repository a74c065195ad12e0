/**
 * Email blasts on the real backend against a local fake of Resend (issue 15): what the provider
 * receives (batch endpoint, ≤ 100 per call, idempotency keys, permissive validation, per-recipient
 * personalisation, List-Unsubscribe + One-Click headers), error handling (an invalid address fails
 * alone with the spec's message, 429 waits for retry-after, five provider errors in a row pause,
 * a revoked key pauses), svix-signed webhooks (valid, forged, stale; deduplicated; order-safe;
 * bounces suppress), one-click unsubscribes excluding the address from a send in flight, and the
 * event and filter automations.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ConvexHttpClient } from "convex/browser";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { postWebhook, type FakeResend } from "../../support/fakeResend";
import { signUp, stopBackend, until, type AppBackend } from "../../support/appBackend";
import { createCampaign, setSetup, startBlastBackend, voters, waitForSend } from "./blastSupport";

let fake: FakeResend;
let backend: AppBackend;
let client: ConvexHttpClient;

beforeAll(async () => {
  ({ fake, backend } = await startBlastBackend());
  client = await signUp(backend, "blaster@example.org");
}, 120_000);

afterAll(async () => {
  if (backend) {
    await stopBackend(backend);
    fs.rmSync(backend.dataDir, { recursive: true, force: true });
  }
  if (fake) await fake.stop();
});

async function groupOf(name: string, ids: Id<"voters">[]) {
  const group = await client.mutation(api.groups.create, { name });
  await client.mutation(api.groups.addMembers, { groupId: group, voterIds: ids });
  return group;
}

describe("a blast through Resend's batch endpoint", () => {
  test("250 recipients from a group and manual addresses: 3 batches, keys, headers, personalisation, statistics", async () => {
    const people = Array.from({ length: 248 }, (_, i) => ({ first: `P${i}`, email: `p${i}@voters.example.org` }));
    const ids = await voters(client, people);
    const group = await groupOf("Big", ids);
    const id = await createCampaign(client, undefined, "Big blast");
    // a duplicate of a group member and an address that is no voter
    await setSetup(client, id, {
      groupIds: [group],
      manual: ["P0@voters.example.org", "walkin@example.org", "friend@example.org"],
    });
    const before = fake.requests.length;
    const result = await client.mutation(api.emailBlasts.send, { id });
    expect(result.status).toBe("sent");
    const done = await waitForSend(client, id);
    expect(done.counts).toMatchObject({ sent: 250, failed: 0, duplicates: 1, queued: 0 });
    const calls = fake.requests.slice(before).filter((r) => r.path === "/emails/batch");
    expect(calls.map((c) => c.count)).toEqual([100, 100, 50]);
    expect(new Set(calls.map((c) => c.idempotencyKey)).size).toBe(3);
    expect(calls.every((c) => c.validation === "permissive" && c.auth?.startsWith("Bearer "))).toBe(true);

    const [mail] = fake.to("p7@voters.example.org");
    expect(mail.subject).toBe("News for P7");
    expect(mail.from).toBe('"Jane for Council" <jane@campaign.example.org>');
    expect(mail.replyTo).toEqual(["team@campaign.example.org"]);
    expect(mail.html).toContain("Hello P7");
    expect(mail.html).toContain("42 Elm Street, Portland, OR 97201");
    expect(mail.text).toContain("p7@voters.example.org");
    expect(mail.html).not.toContain("{{");
    const listUnsub = mail.headers!["List-Unsubscribe"];
    expect(listUnsub).toMatch(
      /^<https?:\/\/[^>]+\/api\/email\/unsubscribe\?t=[A-Za-z0-9_-]+>, <mailto:unsubscribe@campaign\.example\.org\?subject=unsubscribe%20[A-Za-z0-9_-]+>$/,
    );
    expect(mail.headers!["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const token = /t=([A-Za-z0-9_-]+)/.exec(listUnsub)![1];
    expect(mail.html).toContain(`/unsubscribe?t=${token}`);
    expect(fake.to("walkin@example.org")[0].subject).toBe("News for"); // no voter: the name is empty

    const campaigns = await client.query(api.emailCampaigns.list, {});
    expect(campaigns.find((c) => c.id === id)).toMatchObject({ status: "sent" });
    const stats = await client.query(api.emailBlasts.statistics, { id });
    expect(stats).toMatchObject({ recipients: 250, sent: 250, delivered: 0, hasEvents: false, demo: false });
    const sub = await client.query(api.subscription.overview, {});
    expect(sub.usage.emails).toBeGreaterThanOrEqual(250);
  }, 120_000);

  test("an invalid address fails alone with the spec's message; 429 waits for retry-after; the rest goes", async () => {
    const ids = await voters(client, [
      { first: "Good", email: "good@example.org" },
      { first: "Bad", email: "bad@example.org" },
      { first: "Later", email: "later@example.org" },
    ]);
    fake.invalid.add("bad@example.org");
    fake.rateLimitBatches = 1;
    const group = await groupOf("Mixed", ids);
    const id = await createCampaign(client, undefined, "Mixed");
    await setSetup(client, id, { groupIds: [group] });
    const before = fake.requests.length;
    await client.mutation(api.emailBlasts.send, { id });
    const done = await waitForSend(client, id);
    expect(done.counts).toMatchObject({ sent: 2, failed: 1 });
    const batchCalls = fake.requests.slice(before).filter((r) => r.path === "/emails/batch");
    expect(batchCalls.length).toBe(2); // the 429, then the retry under a new key
    const history = await client.query(api.emailBlasts.voterHistory, { voterId: ids[1] });
    expect(history[0]).toMatchObject({ status: "failed", campaignName: "Mixed" });
  }, 60_000);

  test("five provider errors in a row pause the send with the reason; resume finishes it", async () => {
    const ids = await voters(client, [{ first: "Err", email: "err1@example.org" }]);
    fake.failBatches = 5;
    const group = await groupOf("Errors", ids);
    const id = await createCampaign(client, undefined, "Errors");
    await setSetup(client, id, { groupIds: [group] });
    await client.mutation(api.emailBlasts.send, { id });
    const paused = await waitForSend(client, id, "paused", 60_000);
    expect(paused.error).toMatch(/paused after 5 provider errors/);
    await client.mutation(api.emailBlasts.control, { sendId: paused.sendId, action: "resume" });
    const done = await waitForSend(client, id);
    expect(done.counts.sent).toBe(1);
  }, 90_000);

  test("a revoked key pauses at once with the spec's message", async () => {
    const ids = await voters(client, [{ first: "Key", email: "key@example.org" }]);
    fake.rejectAuth = true;
    const group = await groupOf("Revoked", ids);
    const id = await createCampaign(client, undefined, "Revoked");
    await setSetup(client, id, { groupIds: [group] });
    await client.mutation(api.emailBlasts.send, { id });
    const paused = await waitForSend(client, id, "paused");
    expect(paused.error).toBe("The email service is currently unavailable. Please try again later.");
    expect(paused.counts).toMatchObject({ queued: 1, sent: 0 });
    fake.rejectAuth = false;
    await client.mutation(api.emailBlasts.control, { sendId: paused.sendId, action: "cancel" });
    await waitForSend(client, id, "cancelled");
    // the send ends at once; its queued message is cancelled by the cancel chain's next step
    const counts = await until(
      async () => {
        const c = (await client.query(api.emailBlasts.progress, { id }))!.counts;
        return c.queued === 0 ? c : undefined;
      },
      30_000,
      "the queued message to be cancelled",
    );
    expect(counts).toMatchObject({ queued: 0, cancelled: 1 });
  }, 60_000);
});

describe("webhooks and unsubscribes", () => {
  let id: Id<"emailCampaigns">;
  let ids: Id<"voters">[];
  beforeAll(async () => {
    ids = await voters(client, [
      { first: "Wa", email: "wa@example.org" },
      { first: "Wb", email: "wb@example.org" },
      { first: "Wc", email: "wc@example.org" },
    ]);
    const group = await groupOf("Webhooks", ids);
    id = await createCampaign(client, undefined, "Webhooks");
    await setSetup(client, id, { groupIds: [group] });
    await client.mutation(api.emailBlasts.send, { id });
    await waitForSend(client, id);
  }, 60_000);

  test("valid events count once per recipient in any order; forged and stale ones are refused; a retry is a no-op", async () => {
    const a = fake.to("wa@example.org")[0];
    const b = fake.to("wb@example.org")[0];
    expect((await postWebhook(backend.site, { type: "email.opened", emailId: a.id })).status).toBe(200);
    expect((await postWebhook(backend.site, { type: "email.delivered", emailId: a.id })).status).toBe(200);
    expect((await postWebhook(backend.site, { type: "email.delivered", emailId: b.id })).status).toBe(200);
    const retried = {
      type: "email.clicked" as const,
      emailId: a.id,
      link: "https://example.org/rsvp",
      id: "msg_fixed_click_1",
    };
    expect((await postWebhook(backend.site, retried)).status).toBe(200);
    expect((await postWebhook(backend.site, retried)).status).toBe(200); // svix retry: same id
    expect(
      (await postWebhook(backend.site, { type: "email.clicked", emailId: b.id, link: "https://example.org/donate" }))
        .status,
    ).toBe(200);
    expect(
      (await postWebhook(backend.site, { type: "email.clicked", emailId: b.id, link: "https://example.org/rsvp" }))
        .status,
    ).toBe(200);
    expect((await postWebhook(backend.site, { type: "email.delivered", emailId: a.id }, { forge: true })).status).toBe(
      401,
    );
    expect(
      (
        await postWebhook(
          backend.site,
          { type: "email.delivered", emailId: b.id },
          { timestamp: new Date(Date.now() - 10 * 60_000) },
        )
      ).status,
    ).toBe(401);
    const bad = await fetch(`${backend.site}/api/resend/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(bad.status).toBe(401);

    const stats = (await client.query(api.emailBlasts.statistics, { id }))!;
    expect(stats).toMatchObject({ sent: 3, delivered: 2, opened: 1, clicked: 2, hasEvents: true });
    expect(stats.topLinks).toEqual([
      { url: "https://example.org/rsvp", clicks: 2 },
      { url: "https://example.org/donate", clicks: 1 },
    ]);
    const history = await client.query(api.emailBlasts.voterHistory, { voterId: ids[0] });
    expect(history[0]).toMatchObject({ status: "delivered", opened: true, clicked: true });
  }, 30_000);

  test("a bounce and a complaint suppress the address: later sends skip them (bounced by default)", async () => {
    const c = fake.to("wc@example.org")[0];
    await postWebhook(backend.site, { type: "email.bounced", emailId: c.id });
    const b = fake.to("wb@example.org")[0];
    await postWebhook(backend.site, { type: "email.complained", emailId: b.id });
    const stats = (await client.query(api.emailBlasts.statistics, { id }))!;
    expect(stats).toMatchObject({ bounced: 1, complained: 1 });

    const group = await client.mutation(api.groups.create, { name: "Again" });
    await client.mutation(api.groups.addMembers, { groupId: group, voterIds: ids });
    const again = await createCampaign(client, undefined, "Again");
    await setSetup(client, again, { groupIds: [group] });
    await client.mutation(api.emailBlasts.send, { id: again });
    expect((await waitForSend(client, again)).counts).toMatchObject({ sent: 1, suppressed: 2 });
    // with the bounced exclusion off, the bounced address is sent to (the complaint still excluded)
    const third = await createCampaign(client, undefined, "Third");
    await setSetup(client, third, { groupIds: [group], excludeBounced: false });
    await client.mutation(api.emailBlasts.send, { id: third });
    expect((await waitForSend(client, third)).counts).toMatchObject({ sent: 2, suppressed: 1 });
  }, 60_000);

  test("one-click unsubscribe from the email's header: suppressed at once, excluded from a send in flight", async () => {
    const mail = fake.to("wa@example.org")[0];
    const url = /<(https?:[^>]+)>/.exec(mail.headers!["List-Unsubscribe"])![1];
    const token = new URL(url).searchParams.get("t")!;
    expect(await client.query(api.emailUnsubscribe.info, { token })).toMatchObject({
      email: "w\u2022\u2022\u2022@example.org",
      unsubscribed: false,
    });
    expect(await client.query(api.emailUnsubscribe.info, { token: "nope" })).toBeNull();

    // a send in flight (paused) still holding wa@: the unsubscribe takes it out
    const more = await voters(client, [{ first: "Wd", email: "wd@example.org" }]);
    const group = await client.mutation(api.groups.create, { name: "Flight" });
    await client.mutation(api.groups.addMembers, { groupId: group, voterIds: [ids[0], ...more] });
    const flight = await createCampaign(client, undefined, "Flight");
    await setSetup(client, flight, { groupIds: [group] });
    fake.rejectAuth = true; // the send pauses before anything leaves
    await client.mutation(api.emailBlasts.send, { id: flight });
    const paused = await waitForSend(client, flight, "paused");
    fake.rejectAuth = false;

    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(res.status).toBe(200);
    expect(await client.query(api.emailUnsubscribe.info, { token })).toMatchObject({ unsubscribed: true });
    expect(
      (await fetch(url.replace(token, "unknown_token"), { method: "POST", body: "List-Unsubscribe=One-Click" })).status,
    ).toBe(404);

    await client.mutation(api.emailBlasts.control, { sendId: paused.sendId, action: "resume" });
    const done = await waitForSend(client, flight);
    expect(done.counts).toMatchObject({ sent: 1, suppressed: 1 });
    expect(fake.to("wa@example.org").filter((m) => m.subject.startsWith("News"))).toHaveLength(3); // Webhooks, Again and Third, not Flight
    expect((await client.query(api.emailBlasts.statistics, { id }))!.unsubscribed).toBe(1);
  }, 60_000);
});

describe("automations", () => {
  test("event: a voter created (and one joining a group) is emailed within seconds; rules filter", async () => {
    const id = await createCampaign(client, undefined, "Welcome");
    await setSetup(client, id, {
      sendType: "event",
      eventTrigger: "voter_created",
      eventRules: JSON.stringify([
        { id: "r1", field: "city", operator: "equals", value: "Portland", timeDelay: 0, timeUnit: "minutes" },
      ]),
    });
    expect(await client.mutation(api.emailBlasts.send, { id })).toMatchObject({ status: "automated" });
    const t0 = Date.now();
    await voters(client, [
      { first: "New", email: "new@example.org", extra: { city: "Portland" } },
      { first: "Far", email: "far@example.org", extra: { city: "Salem" } },
    ]);
    await until(async () => (fake.to("new@example.org").length > 0 ? true : undefined), 10_000, "the welcome email");
    const latency = Date.now() - t0;
    console.log(`event automation: voter created → email at the provider in ${latency} ms`);
    expect(fake.to("far@example.org")).toHaveLength(0);
    // once per voter: an update does not send again
    const p = await client.query(api.emailBlasts.progress, { id });
    expect(p).toMatchObject({ kind: "automation", status: "sending" });
    await client.mutation(api.emailBlasts.stopAutomation, { id });
    expect((await client.query(api.emailCampaigns.list, {})).find((c) => c.id === id)?.status).toBe("draft");

    const joined = await createCampaign(client, undefined, "Joined");
    const group = await client.mutation(api.groups.create, { name: "Volunteers" });
    await setSetup(client, joined, {
      sendType: "event",
      eventTrigger: "group_joined",
      eventTargetId: group,
      eventRules: JSON.stringify([{ id: "r1", field: "email", operator: "is_not_empty", value: "" }]),
    });
    await client.mutation(api.emailBlasts.send, { id: joined });
    const [v] = await voters(client, [{ first: "Vol", email: "vol@example.org" }]);
    await client.mutation(api.groups.addMembers, { groupId: group, voterIds: [v] });
    await until(
      async () => (fake.to("vol@example.org").some((m) => m.subject === "News for Vol") ? true : undefined),
      10_000,
      "the group email",
    );
  }, 60_000);

  test("filter: voters matching now are sent to, and a voter who comes to match later, once", async () => {
    await voters(client, [
      { first: "Dem", email: "dem1@example.org", extra: { party_affiliation: "DEM" } },
      { first: "Rep", email: "rep1@example.org", extra: { party_affiliation: "REP" } },
    ]);
    const id = await createCampaign(client, undefined, "Filter");
    await setSetup(client, id, {
      sendType: "filter",
      filterRules: JSON.stringify([{ id: "f1", field: "party", operator: "equals", value: "dem" }]),
    });
    await client.mutation(api.emailBlasts.send, { id });
    await until(
      async () => (fake.to("dem1@example.org").some((m) => m.subject === "News for Dem") ? true : undefined),
      15_000,
      "the filter email",
    );
    expect(fake.to("rep1@example.org")).toHaveLength(0);
    const [later] = await voters(client, [
      { first: "Later", email: "later2@example.org", extra: { party_affiliation: "REP" } },
    ]);
    const voter = (await client.query(api.voters.get, { id: later }))!;
    await client.mutation(api.voters.update, {
      id: later,
      edits: [{ field: "party_affiliation", base: voter.party_affiliation ?? null, value: "DEM" }],
    });
    await until(async () => (fake.to("later2@example.org").length > 0 ? true : undefined), 10_000, "the later match");
    await client.mutation(api.voters.update, {
      id: later,
      edits: [{ field: "first_name", base: "Later", value: "Laterr" }],
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(fake.to("later2@example.org")).toHaveLength(1);
  }, 60_000);
});
