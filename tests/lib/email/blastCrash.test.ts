/**
 * Durability of email blasts across a backend kill (issue 15): a blast SIGKILLed while the sender
 * waits for the provider's answer to a batch the provider already accepted, restarted on the
 * same data: every recipient gets exactly one email (0 duplicates, 0 lost) — the stuck batch is
 * sent again under its idempotency key and the provider answers with what it already accepted.
 * And a scheduled send whose moment passes while the backend is down goes out after the restart.
 */
import fs from "node:fs";
import { afterAll, describe, expect, test } from "vitest";
import { makeFunctionReference } from "convex/server";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { FakeResend } from "../../support/fakeResend";
import { signIn, signUp, startAppBackend, stopBackend, until, type AppBackend } from "../../support/appBackend";
import {
  adminClient,
  ADMIN_KEY,
  createCampaign,
  setSetup,
  startBlastBackend,
  voters,
  waitForSend,
} from "./blastSupport";

const N = Number(process.env.EMAIL_CRASH_N ?? 3_000);
const internalMutation = (name: string) => makeFunctionReference<"mutation", Record<string, unknown>, unknown>(name);
const backends: AppBackend[] = [];
const fakes: FakeResend[] = [];

afterAll(async () => {
  for (const b of backends) {
    await stopBackend(b);
    fs.rmSync(b.dataDir, { recursive: true, force: true });
  }
  for (const f of fakes) await f.stop();
});

describe("a backend kill", () => {
  test(`mid-blast, ${N.toLocaleString("en-US")} recipients: 0 duplicates, 0 lost`, async () => {
    const { fake, backend: first, dataDir } = await startBlastBackend();
    fakes.push(fake);
    backends.push(first);
    const user = await signUp(first, "crash-email@example.org");
    const admin = adminClient(first);
    const orgId = (await admin.mutation(internalMutation("seed:orgOfUser"), {
      email: "crash-email@example.org",
    })) as Id<"organizations">;
    const ids: Id<"voters">[] = [];
    for (let b = 0; b < N / 1000; b++) {
      const batch = Array.from({ length: 1000 }, (_, i) => ({
        first_name: `V${b * 1000 + i}`,
        last_name: "Crash",
        email: `v${b * 1000 + i}@crash.example.org`,
      }));
      ids.push(
        ...((await admin.mutation(internalMutation("seed:insertVoters"), { orgId, voters: batch })) as Id<"voters">[]),
      );
    }
    const group = (await admin.mutation(internalMutation("seed:createGroup"), {
      orgId,
      name: "Everyone",
      description: null,
      voterIds: ids,
    })) as Id<"voterGroups">;
    const id = await createCampaign(user, undefined, "Crash");
    await setSetup(user, id, { groupIds: [group] });

    // the provider accepts the 10th batch but the answer never comes: the sender waits on it when killed
    fake.hangAtBatch = 10;
    await user.mutation(api.emailBlasts.send, { id });
    await until(async () => (fake.emails.length >= 1000 ? true : undefined), 120_000, "10 batches at the provider");
    await new Promise((r) => setTimeout(r, 300));
    await stopBackend(first);
    const atKill = fake.emails.length;
    expect(atKill).toBeLessThan(N);

    const second = await startAppBackend(dataDir, { adminKey: ADMIN_KEY });
    backends.push(second);
    const relogged = await signIn(second, "crash-email@example.org");
    const done = await waitForSend(relogged, id, "completed", 240_000);

    const perAddress = new Map<string, number>();
    for (const m of fake.emails) for (const to of m.to) perAddress.set(to, (perAddress.get(to) ?? 0) + 1);
    const duplicates = [...perAddress.values()].filter((c) => c > 1).length;
    const lost = N - perAddress.size;
    console.log(
      `email crash test: ${atKill} at the provider before the kill, ${fake.emails.length} in all, ${duplicates} duplicates, ${lost} lost`,
    );
    expect(duplicates).toBe(0);
    expect(lost).toBe(0);
    expect(fake.emails).toHaveLength(N);
    expect(done.counts).toMatchObject({ sent: N, queued: 0, failed: 0 });
    // the stuck batch was sent again under the same key (answered from the provider's idempotency store)
    const keys = fake.requests.filter((r) => r.path === "/emails/batch").map((r) => r.idempotencyKey);
    expect(keys.length).toBe(new Set(keys).size + 1);
  }, 600_000);

  test("a scheduled send whose time passes while the backend is down goes out after the restart", async () => {
    const { fake, backend: first, dataDir } = await startBlastBackend();
    fakes.push(fake);
    backends.push(first);
    const user = await signUp(first, "sched@example.org");
    const [a, b] = await voters(user, [
      { first: "Sa", email: "sa@example.org" },
      { first: "Sb", email: "sb@example.org" },
    ]);
    const group = await user.mutation(api.groups.create, { name: "Sched" });
    await user.mutation(api.groups.addMembers, { groupId: group, voterIds: [a, b] });
    const id = await createCampaign(user, undefined, "Scheduled");
    const at = Date.now() + 4_000;
    await setSetup(user, id, { groupIds: [group], sendType: "schedule", scheduledAt: at });
    expect(await user.mutation(api.emailBlasts.send, { id })).toMatchObject({ status: "scheduled" });
    expect((await user.query(api.emailCampaigns.list, {})).find((c) => c.id === id)).toMatchObject({
      status: "scheduled",
      scheduledAt: at,
    });
    await stopBackend(first);
    await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now()) + 1_000));
    expect(fake.emails).toHaveLength(0);

    const second = await startAppBackend(dataDir, { adminKey: ADMIN_KEY });
    backends.push(second);
    const relogged = await signIn(second, "sched@example.org");
    await waitForSend(relogged, id, "completed", 60_000);
    expect(fake.emails.map((e) => e.to[0]).sort()).toEqual(["sa@example.org", "sb@example.org"]);
    expect((await relogged.query(api.emailCampaigns.list, {})).find((c) => c.id === id)).toMatchObject({
      status: "sent",
    });
  }, 120_000);
});
