/**
 * Exactly once across a backend kill (issue 13): 10,000 messages queued for a campaign, the
 * backend SIGKILLed while the sender waits for the provider's answer to a message the provider
 * already accepted, restarted on the same data: every recipient
 * gets exactly one message (0 duplicates, 0 lost) and every message record ends sent.
 */
import { afterAll, describe, expect, test } from "vitest";
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference, type FunctionReturnType } from "convex/server";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import {
  prepareDataDir,
  signIn,
  signUp,
  startAppBackend,
  stopBackend,
  until,
  type AppBackend,
} from "../../support/appBackend";
import { middayTimeZone } from "../../support/middayTimeZone";
import { FakeTwilio, twilioEnv } from "../../support/fakeTwilio";

const N = Number(process.env.SMS_CRASH_N ?? 10_000);
const ADMIN_KEY = "sms-crash-test-admin-key";
const backends: AppBackend[] = [];
/** an internal function, called with the admin key */
const internalMutation = (name: string) => makeFunctionReference<"mutation", Record<string, unknown>, unknown>(name);
const fake = new FakeTwilio();

afterAll(async () => {
  for (const b of backends) await stopBackend(b);
  await fake.stop();
});

describe("a backend kill mid-queue", () => {
  test(`${N.toLocaleString("en-US")} messages: 0 duplicates, 0 lost`, async () => {
    await fake.start();
    const dataDir = await prepareDataDir({ ...twilioEnv(fake.url), SMS_LEASE_MS: "2000" });
    const first = await startAppBackend(dataDir, { adminKey: ADMIN_KEY });
    backends.push(first);
    const user = await signUp(first, "crash@example.org");
    await user.mutation(api.sms.saveSettings, {
      settings: {
        quietStart: 0,
        quietEnd: 24,
        defaultTimeZone: middayTimeZone(),
        profile: "short_code",
        segmentsPerSecond: 1000,
      },
    });
    const admin = new ConvexHttpClient(first.cloud, { logger: false });
    (admin as unknown as { setAdminAuth(k: string): void }).setAdminAuth(ADMIN_KEY);
    const orgId = (await admin.mutation(internalMutation("seed:orgOfUser"), {
      email: "crash@example.org",
    })) as Id<"organizations">;
    const groups: Id<"voterGroups">[] = [];
    for (let g = 0; g < 2; g++) {
      const ids: Id<"voters">[] = [];
      for (let b = 0; b < N / 2 / 1000; b++) {
        const voters = Array.from({ length: 1000 }, (_, i) => {
          const n = g * (N / 2) + b * 1000 + i;
          return { first_name: `V${n}`, last_name: "Crash", phone: `+1555${String(n).padStart(7, "0")}` };
        });
        ids.push(
          ...((await admin.mutation(internalMutation("seed:insertVoters"), { orgId, voters })) as Id<"voters">[]),
        );
      }
      groups.push(
        (await admin.mutation(internalMutation("seed:createGroup"), {
          orgId,
          name: `Half ${g}`,
          description: null,
          voterIds: ids,
        })) as Id<"voterGroups">,
      );
    }
    const orgName = (await user.query(api.sms.overview, {})).orgName;
    const campaignId = await user.mutation(api.smsCampaigns.create, {
      name: "Crash",
      description: null,
      body: `${orgName}: vote! Reply STOP to opt out`,
      voterGroups: groups,
      individualVoters: [],
    });
    const sendId = await user.mutation(api.sms.start, { campaignId });

    // kill while the sender is mid-queue, waiting for the provider's answer to a message the
    // provider has already accepted: that message must be found, not sent again
    fake.hangAt = Math.floor(N * 0.3);
    await until(async () => (fake.messages.length >= fake.hangAt! ? true : undefined), 120_000, "30% sent");
    await stopBackend(first);
    const atKill = fake.messages.length;
    expect(atKill).toBeLessThan(N);

    const second = await startAppBackend(dataDir, { adminKey: ADMIN_KEY });
    backends.push(second);
    const relogged = await signIn(second, "crash@example.org");
    const done = await until(
      async () => {
        const p = await relogged.query(api.sms.progress, { sendId });
        if (process.env.SMS_CRASH_DEBUG)
          console.log(JSON.stringify({ status: p?.status, counts: p?.counts, fake: fake.messages.length }));
        return p && p.status === "completed" ? p : undefined;
      },
      240_000,
      "the send to complete after the restart",
    );

    // every record, read before the verdicts so that a failure says what became of the recipients
    const records: FunctionReturnType<typeof api.sms.history>["page"] = [];
    let cursor: string | null = null;
    for (;;) {
      const page: FunctionReturnType<typeof api.sms.history> = await relogged.query(api.sms.history, {
        sendId,
        paginationOpts: { numItems: 200, cursor },
      });
      records.push(...page.page);
      if (page.isDone) break;
      cursor = page.continueCursor;
    }
    const perPhone = new Map<string, number>();
    for (const m of fake.messages) perPhone.set(m.to, (perPhone.get(m.to) ?? 0) + 1);
    const duplicates = [...perPhone.values()].filter((c) => c > 1).length;
    const lost = N - perPhone.size;
    console.log(
      `crash test: ${atKill} sent before the kill, ${fake.messages.length} in all, ${duplicates} duplicates, ${lost} lost; counts ${JSON.stringify(done.counts)}`,
    );
    const notReached = records.filter((r) => !perPhone.has(r.phone ?? ""));
    if (notReached.length > 0) console.log(`never reached the provider: ${JSON.stringify(notReached.slice(0, 5))}`);
    expect(duplicates).toBe(0);
    expect(lost).toBe(0);
    expect(fake.messages).toHaveLength(N);
    expect(done.counts).toMatchObject({ sent: N, queued: 0, failed: 0 });
    // every record is sent and carries the sid the provider gave its message
    const sids = new Set(fake.messages.map((m) => m.sid));
    expect(records).toHaveLength(N);
    for (const r of records) {
      expect(r.status).toBe("sent");
      expect(sids.has(r.providerSid ?? "")).toBe(true);
    }
  }, 600_000);
});
