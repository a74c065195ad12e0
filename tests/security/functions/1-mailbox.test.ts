/**
 * Item 1: the demo mailbox is an operator's tool. No public function reads the outbox; the http
 * route answers only to the operator's key; an inviting admin never receives the invitation's link.
 */
import { makeFunctionReference } from "convex/server";
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import { fetchFrom, setEnv } from "./harness";
import { createMember, roleFixture, setupTest } from "./setup";

const OPERATOR_KEY = "operator-key-0123456789abcdef";

describe("1. demo mailbox and invitation links", () => {
  test("no public function reads the outbox: signed out, a member or another organisation get nothing", async () => {
    const t = setupTest();
    await setEnv(t, { DEV_MAILBOX_KEY: OPERATOR_KEY, DEV_MAILBOX: "1" });
    const f = await roleFixture(t);
    await f.creator.as.mutation(api.members.invite, {
      firstName: "In",
      lastName: "Vited",
      email: "invited@example.org",
      role: "viewer",
    });
    const devMailbox = makeFunctionReference<"query">("emails:devMailbox");
    for (const caller of [t, f.outsider.as, f.viewer.as, f.creator.as]) {
      await expect(caller.query(devMailbox, {})).rejects.toThrow();
    }
  });

  test("the http route serves only the operator's key, and only in demo mode", async () => {
    const t = setupTest();
    const admin = await createMember(t, ["account_admin", "campaign_manager"]);
    await admin.as.mutation(api.members.invite, {
      firstName: "In",
      lastName: "Vited",
      email: "invited@example.org",
      role: "viewer",
    });
    const read = (key?: string) =>
      fetchFrom(
        t,
        "203.0.113.9",
        "/api/dev/mailbox?to=invited@example.org",
        key ? { headers: { Authorization: `Bearer ${key}` } } : {},
      );

    expect((await read(OPERATOR_KEY)).status).toBe(404); // no key configured: no mailbox at all
    await setEnv(t, { DEV_MAILBOX_KEY: OPERATOR_KEY });
    expect((await read()).status).toBe(401);
    expect((await read("wrong-key-0123456789abcdef")).status).toBe(401);
    const ok = await read(OPERATOR_KEY);
    expect(ok.status).toBe(200);
    const { messages } = (await ok.json()) as { messages: { to: string; kind: string; text: string }[] };
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ to: "invited@example.org", kind: "invitation" });
    await setEnv(t, { RESEND_API_KEY: "re_live_configured" });
    expect((await read(OPERATOR_KEY)).status).toBe(404);
  });

  test("the inviting admin gets no link or token back: only the addressee's mail holds it", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    for (const res of [
      await f.creator.as.mutation(api.members.invite, {
        firstName: "A",
        lastName: "B",
        email: "a@example.org",
        role: "viewer",
      }),
      await f.creator.as.mutation(api.adminUsers.create, { email: "c@example.org", name: "C D", roleIds: ["viewer"] }),
    ]) {
      const mail = await t.run(async (ctx) =>
        ctx.db
          .query("emailOutbox")
          .withIndex("by_to", (q) => q.eq("to", res.email))
          .first(),
      );
      const token = new URL(mail!.text.match(/https?:\/\/\S+|\/accept-invitation\S+/)![0], "http://x").searchParams.get(
        "token",
      )!;
      expect(token).toHaveLength(32);
      expect(JSON.stringify(res)).not.toContain(token);
      expect(JSON.stringify(res)).not.toContain("accept-invitation");
    }
  });
});
