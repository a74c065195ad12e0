/**
 * The audit log's hooks (issue 39): each audited call writes exactly one entry of its action, with
 * its actor and target — bulk calls included (one entry per call, never one per row).
 */
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import type { Doc, Id } from "@convex/_generated/dataModel";
import { MIN_RETENTION_DAYS } from "@convex/model/audit";
import { createMember, roleFixture, setupTest, type TestConvex } from "./setup";

/** The organisation's entries, sealed (in chain order) and still pending (in creation order). */
async function entries(t: TestConvex, orgId: Id<"organizations">) {
  return await t.run(async (ctx) => {
    const sealed = (await ctx.db.query("auditLog").collect()).filter((e) => e.orgId === orgId);
    const pending = (await ctx.db.query("auditPending").collect()).filter((e) => e.orgId === orgId);
    return [...sealed.sort((a, b) => a.seq - b.seq), ...pending.sort((a, b) => a._creationTime - b._creationTime)];
  });
}

type Entry = Pick<Doc<"auditLog">, "action" | "actorId" | "target" | "summary" | "changes">;

/** Runs `call` and returns the one entry it wrote (failing when it wrote none or several). */
async function oneEntry(t: TestConvex, orgId: Id<"organizations">, call: () => Promise<unknown>): Promise<Entry> {
  const before = (await entries(t, orgId)).length;
  await call();
  const after = await entries(t, orgId);
  expect(after.slice(before).map((e) => e.action)).toHaveLength(1);
  return after[after.length - 1];
}

/** The link of the newest email to `email` (as members.test.ts reads it). */
async function mailedLink(t: TestConvex, email: string) {
  const mails = await t.run(async (ctx) =>
    ctx.db
      .query("emailOutbox")
      .withIndex("by_to", (q) => q.eq("to", email))
      .collect(),
  );
  const link = mails.at(-1)?.text.match(/https?:\/\/\S+|\/accept-invitation\S+/)?.[0] ?? "";
  const url = new URL(link, "http://x");
  return { id: url.searchParams.get("id")!, token: url.searchParams.get("token")! };
}

describe("audited actions write exactly one entry each", () => {
  test("roles, members, invitations, impersonation", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const admin = f.creator;
    const role = {
      name: "Door knockers",
      description: "",
      permissions: ["voters.view"],
      modes: ["campaign" as const],
      color: "green",
    };
    let roleId = "";
    let e = await oneEntry(t, f.orgId, async () => {
      roleId = (await admin.as.mutation(api.adminRoles.create, role)).id;
    });
    expect(e).toMatchObject({
      action: "role.create",
      actorId: admin.userId,
      target: { table: "customRoles", id: roleId },
    });
    expect(e.changes).toContainEqual({ field: "permissions", from: null, to: '["voters.view"]' });
    e = await oneEntry(t, f.orgId, () =>
      admin.as.mutation(api.adminRoles.update, { roleId, ...role, name: "Canvassers" }),
    );
    expect(e).toMatchObject({
      action: "role.update",
      changes: [{ field: "name", from: "Door knockers", to: "Canvassers" }],
    });
    e = await oneEntry(t, f.orgId, () => admin.as.mutation(api.adminRoles.remove, { roleId }));
    expect(e.action).toBe("role.delete");

    e = await oneEntry(t, f.orgId, () =>
      admin.as.mutation(api.adminUsers.update, {
        userId: f.viewer.userId,
        name: "Vi Ewer",
        roleIds: ["viewer", "volunteer"],
      }),
    );
    expect(e).toMatchObject({ action: "member.update", target: { table: "users", id: f.viewer.userId } });
    expect(e.changes).toContainEqual({ field: "roles", from: '["viewer"]', to: '["viewer","volunteer"]' });
    e = await oneEntry(t, f.orgId, () => admin.as.mutation(api.adminUsers.remove, { userId: f.viewer.userId }));
    expect(e).toMatchObject({ action: "member.remove", target: { label: "Vi Ewer" } });

    let invitationId = "" as Id<"invitations">;
    e = await oneEntry(t, f.orgId, async () => {
      invitationId = (
        await admin.as.mutation(api.members.invite, {
          firstName: "New",
          lastName: "Bie",
          email: "newbie@example.org",
          role: "volunteer",
        })
      ).invitationId;
    });
    expect(e).toMatchObject({ action: "invitation.create", target: { table: "invitations", id: invitationId } });
    e = await oneEntry(t, f.orgId, () => admin.as.mutation(api.members.resend, { invitationId }));
    expect(e.action).toBe("invitation.resend");
    e = await oneEntry(t, f.orgId, () => admin.as.mutation(api.members.revoke, { invitationId }));
    expect(e.action).toBe("invitation.revoke");
    e = await oneEntry(t, f.orgId, () =>
      admin.as.mutation(api.adminUsers.create, { email: "made@example.org", name: "Made Here", roleIds: ["viewer"] }),
    );
    expect(e.action).toBe("invitation.create");

    // accepting: the joining user acts
    const joiner = await createMember(t, ["account_admin"], { email: "known@example.org" });
    await admin.as.mutation(api.members.invite, {
      firstName: "Kno",
      lastName: "Wn",
      email: "known@example.org",
      role: "viewer",
    });
    const link = await mailedLink(t, "known@example.org");
    e = await oneEntry(t, f.orgId, () => joiner.as.mutation(api.members.acceptInvitation, link));
    expect(e).toMatchObject({ action: "invitation.accept", actorId: joiner.userId });

    e = await oneEntry(t, f.orgId, () => f.volunteer.as.mutation(api.viewer.startImpersonation, { roleId: "viewer" }));
    expect(e).toMatchObject({ action: "impersonation.start", actorId: f.volunteer.userId });
    e = await oneEntry(t, f.orgId, () => f.volunteer.as.mutation(api.viewer.stopImpersonation, {}));
    expect(e).toMatchObject({ action: "impersonation.stop" });
    expect((e as Doc<"auditLog">).impersonatedRole).toBe("viewer");
    // stopping when not impersonating changes nothing and writes nothing
    const count = (await entries(t, f.orgId)).length;
    await f.volunteer.as.mutation(api.viewer.stopImpersonation, {});
    expect(await entries(t, f.orgId)).toHaveLength(count);
  });

  test("sign-ins and password resets go to the account's organisation; an unknown email to none", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const email = (await t.run((ctx) => ctx.db.get("users", f.volunteer.userId)))!.email!;
    const address = "203.0.113.7";
    let e = await oneEntry(t, f.orgId, () =>
      t.mutation(internal.authThrottle.succeeded, { email, address, audit: "signin.success" }),
    );
    expect(e).toMatchObject({
      action: "signin.success",
      actorId: f.volunteer.userId,
      target: { id: f.volunteer.userId },
    });
    e = await oneEntry(t, f.orgId, () =>
      t.mutation(internal.authThrottle.failed, { email, address, audit: "signin.failure" }),
    );
    expect(e).toMatchObject({ action: "signin.failure", actorId: null, target: { id: f.volunteer.userId } });
    e = await oneEntry(t, f.orgId, () =>
      t.mutation(internal.authThrottle.succeeded, { email, address, audit: "password.reset" }),
    );
    expect(e.action).toBe("password.reset");
    // without the argument (change-password's own use of the throttle) nothing is written
    const count = (await entries(t, f.orgId)).length;
    await t.mutation(internal.authThrottle.failed, { email, address });
    await t.mutation(internal.authThrottle.failed, { email: "nobody@example.org", address, audit: "signin.failure" });
    expect(await entries(t, f.orgId)).toHaveLength(count);
    expect(
      await t.run(async (ctx) => (await ctx.db.query("auditPending").collect()).filter((p) => p.orgId !== f.orgId)),
    ).toEqual([]);
  });

  test("groups and segments: create, update, delete and membership changes, one entry per call", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager;
    const voterIds: Id<"voters">[] = [];
    for (const first of ["A", "B", "C"])
      voterIds.push(await cm.as.mutation(api.voters.create, { fields: { first_name: first, last_name: "Voter" } }));
    let groupId = "" as Id<"voterGroups">;
    let e = await oneEntry(t, f.orgId, async () => {
      groupId = await cm.as.mutation(api.groups.create, { name: "Walkers" });
    });
    expect(e).toMatchObject({
      action: "group.create",
      target: { table: "voterGroups", id: groupId, label: "Walkers" },
    });
    e = await oneEntry(t, f.orgId, () =>
      cm.as.mutation(api.groups.update, { id: groupId, edits: [{ field: "name", base: "Walkers", value: "Talkers" }] }),
    );
    expect(e).toMatchObject({ action: "group.update", changes: [{ field: "name", from: "Walkers", to: "Talkers" }] });
    e = await oneEntry(t, f.orgId, () =>
      cm.as.mutation(api.groups.addMembers, { groupId, voterIds: voterIds.slice(0, 2) }),
    );
    expect(e.summary).toBe("Added 2 voters to group Talkers.");
    e = await oneEntry(t, f.orgId, () => cm.as.mutation(api.groups.addMember, { groupId, voterId: voterIds[2] }));
    expect(e.summary).toBe("Added C Voter to group Talkers.");
    e = await oneEntry(t, f.orgId, () => cm.as.mutation(api.groups.removeMember, { groupId, voterId: voterIds[2] }));
    expect(e.action).toBe("group.update");
    e = await oneEntry(t, f.orgId, () =>
      cm.as.mutation(api.groups.addMatching, { groupId, cursor: null, numItems: 500 }),
    );
    expect(e.summary).toBe("Added 1 voter matching a filter to group Talkers.");
    e = await oneEntry(t, f.orgId, () => cm.as.mutation(api.groups.remove, { id: groupId }));
    expect(e).toMatchObject({ action: "group.delete", summary: "Deleted group Talkers (3 voters)." });

    let segmentId = "" as Id<"emailSegments">;
    e = await oneEntry(t, f.orgId, async () => {
      segmentId = await cm.as.mutation(api.emailSegments.create, { name: "Everyone", description: null, rules: "[]" });
    });
    expect(e).toMatchObject({ action: "segment.create", target: { id: segmentId } });
    e = await oneEntry(t, f.orgId, () =>
      cm.as.mutation(api.emailSegments.update, {
        id: segmentId,
        edits: [{ field: "name", base: "Everyone", value: "All" }],
      }),
    );
    expect(e).toMatchObject({ action: "segment.update", changes: [{ field: "name", from: "Everyone", to: "All" }] });
    e = await oneEntry(t, f.orgId, () => cm.as.mutation(api.emailSegments.remove, { id: segmentId }));
    expect(e.action).toBe("segment.delete");
  });

  test("an import: one entry at its end (not one per row), one when deleted", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const m = f.campaign_manager;
    const mapping = [
      { column: "First", target: "first_name" },
      { column: "Last", target: "last_name" },
    ];
    const before = (await entries(t, f.orgId)).length;
    const importId = await m.as.mutation(api.imports.start, {
      filename: "county.csv",
      totalRecords: null,
      bytesTotal: 100,
      fieldMapping: mapping,
      newFields: [],
      fieldDetails: mapping.map((c) => ({ ...c, fieldType: "existing" as const, sample: ["a"] })),
      errorMode: "ask",
      attestation: { state: "NC", use: "campaign", useOther: null, attested: true },
    });
    await m.as.mutation(api.imports.appendBatch, {
      importId,
      startRow: 1,
      rows: [1, 2, 3].map((row) => ({ row, fields: { first_name: `F${row}`, last_name: "L" } })),
    });
    expect(await entries(t, f.orgId)).toHaveLength(before);
    let e = await oneEntry(t, f.orgId, () =>
      m.as.mutation(api.imports.finish, { importId, totalRecords: 3, columnStats: [] }),
    );
    expect(e).toMatchObject({
      action: "import.finish",
      target: { table: "importHistory", id: importId, label: "county.csv" },
    });
    expect(e.summary).toContain("3 voters added");
    expect(e.summary).toContain("Voter file from North Carolina; permitted use attested: Political campaign activity.");
    e = await oneEntry(t, f.orgId, () => m.as.mutation(api.imports.remove, { importId }));
    expect(e).toMatchObject({ action: "import.delete", target: { id: importId } });
  });

  test("sends, keyword webhooks and settings", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const cm = f.campaign_manager;
    const voterId = await cm.as.mutation(api.voters.create, {
      fields: { first_name: "Ada", last_name: "Voter", phone: "(503) 555-0101", email: "ada@example.org" },
    });
    let e = await oneEntry(t, f.orgId, () =>
      cm.as.mutation(api.voterEmails.send, { voterId, subject: "Hello", message: "Vote early" }),
    );
    expect(e).toMatchObject({ action: "email.send", target: { table: "voters", id: voterId } });

    const orgName = (await t.run((ctx) => ctx.db.get("organizations", f.orgId)))!.name;
    let sendId = "" as Id<"smsSends">;
    e = await oneEntry(t, f.orgId, async () => {
      sendId = await cm.as.mutation(api.sms.start, {
        voterIds: [voterId],
        body: `${orgName}: vote! Reply STOP to opt out`,
      });
    });
    expect(e).toMatchObject({ action: "sms.send", target: { table: "smsSends", id: sendId, label: "Quick send" } });
    expect(e.summary).toContain("up to 1 recipients");
    // its messages queued (as the scheduled enqueue would), so the number counts as texted by this organisation
    for (let i = 0; i < 20; i++) {
      const send = await t.run((ctx) => ctx.db.get("smsSends", sendId));
      if (send!.prep.done) break;
      await t.mutation(internal.sms.enqueueStep, { sendId });
    }
    await cm.as.mutation(api.sms.cancel, { sendId });

    // a STOP from a number this organisation texted: one entry for the opt-out; a replayed webhook
    // and a second STOP (no change of state) none
    e = await oneEntry(t, f.orgId, () =>
      t.mutation(internal.sms.inbound, { messageSid: "SMaudit1", from: "+15035550101", body: "STOP" }),
    );
    expect(e).toMatchObject({ action: "webhook.sms", actorId: null, target: { id: "+15035550101" } });
    const count = (await entries(t, f.orgId)).length;
    await t.mutation(internal.sms.inbound, { messageSid: "SMaudit1", from: "+15035550101", body: "STOP" });
    await t.mutation(internal.sms.inbound, { messageSid: "SMaudit2", from: "+15035550101", body: "STOP" });
    expect(await entries(t, f.orgId)).toHaveLength(count);
    e = await oneEntry(t, f.orgId, () =>
      t.mutation(internal.sms.inbound, { messageSid: "SMaudit3", from: "+15035550101", body: "START" }),
    );
    expect(e.summary).toContain("opted back in");

    e = await oneEntry(t, f.orgId, () =>
      f.account_admin.as.mutation(api.account.update, { edits: [{ field: "ein", base: "", value: "12-3456789" }] }),
    );
    expect(e).toMatchObject({ action: "settings.update", changes: [{ field: "ein", from: "", to: "12-3456789" }] });
    e = await oneEntry(t, f.orgId, () =>
      f.account_admin.as.mutation(api.mapData.setTiles, {
        edits: [
          { field: "tileUrl", base: "", value: "https://tiles.example.org/{z}/{x}/{y}.png" },
          { field: "tileAttribution", base: "", value: "Example" },
        ],
      }),
    );
    expect(e).toMatchObject({ action: "mapData.update", target: { label: "Tile source" } });
    expect(e.changes.map((c) => c.field)).toEqual(["tileUrl", "tileAttribution"]);

    // custom voter fields: added and deleted (a definition every voter's record is shown with)
    let key = "";
    e = await oneEntry(t, f.orgId, async () => {
      key = await f.campaign_manager.as.mutation(api.customFields.create, {
        label: "Yard sign",
        type: "text",
        required: false,
      });
    });
    expect(e).toMatchObject({ action: "settings.update", target: { table: "customFieldDefs", id: key } });
    const def = (await f.campaign_manager.as.query(api.customFields.list, {})).find((d) => d.key === key)!;
    e = await oneEntry(t, f.orgId, () => f.campaign_manager.as.mutation(api.customFields.remove, { id: def._id }));
    expect(e.summary).toContain('Deleted the custom voter field "Yard sign"');
  });

  test("retention: never below four years; past it the oldest entries go and the rest still verify", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    const admin = f.account_admin;
    await expect(admin.as.mutation(api.audit.setRetention, { days: MIN_RETENTION_DAYS - 1 })).rejects.toThrow(
      /at least/,
    );
    await expect(f.campaign_manager.as.mutation(api.audit.setRetention, { days: 2000 })).rejects.toThrow(/permission/);
    const e = await oneEntry(t, f.orgId, () => admin.as.mutation(api.audit.setRetention, { days: 2000 }));
    expect(e).toMatchObject({
      action: "settings.update",
      changes: [{ field: "retentionDays", from: String(MIN_RETENTION_DAYS), to: "2000" }],
    });
    expect(await admin.as.query(api.audit.settings, {})).toEqual({
      retentionDays: 2000,
      minRetentionDays: MIN_RETENTION_DAYS,
    });
    for (const first of ["A", "B", "C"])
      await f.campaign_manager.as.mutation(api.voters.create, { fields: { first_name: first, last_name: "V" } });
    for (let i = 0; i < 10; i++) {
      const left = await t.run(async (ctx) => (await ctx.db.query("auditPending").collect()).length);
      if (left === 0) break;
      await new Promise((r) => setTimeout(r, 5));
      await t.mutation(internal.audit.seal, { orgId: f.orgId });
    }
    const log = (await entries(t, f.orgId)) as Doc<"auditLog">[];
    expect(log.map((x) => x.seq)).toEqual([1, 2, 3, 4]);
    // the first two are 2001 days old (their stored hashes no longer match: retention deletes them anyway)
    const old = Date.now() - 2001 * 86_400_000;
    await t.run(async (ctx) => {
      for (const x of log.slice(0, 2)) await ctx.db.patch("auditLog", x._id, { at: old });
    });
    await t.mutation(internal.audit.sweepRetention, {});
    await t.mutation(internal.audit.expire, { orgId: f.orgId });
    const kept = (await entries(t, f.orgId)) as Doc<"auditLog">[];
    expect(kept.map((x) => x.seq)).toEqual([3, 4]);
    expect(await admin.as.action(api.audit.verify, {})).toEqual({ ok: true, entries: 2 });
    // the chain goes on from the kept end
    await f.campaign_manager.as.mutation(api.voters.create, { fields: { first_name: "D", last_name: "V" } });
    await new Promise((r) => setTimeout(r, 5));
    await t.mutation(internal.audit.seal, { orgId: f.orgId });
    expect(await admin.as.action(api.audit.verify, {})).toEqual({ ok: true, entries: 3 });
  });

  test("the audit log's CSV export is itself audited, once per export", async () => {
    const t = setupTest();
    const f = await roleFixture(t);
    await f.campaign_manager.as.mutation(api.voters.create, { fields: { first_name: "A", last_name: "V" } });
    await new Promise((r) => setTimeout(r, 5));
    await t.mutation(internal.audit.seal, { orgId: f.orgId });
    let page: { header: string[]; rows: string[][]; isDone: boolean; continueCursor: string } | null = null;
    const e = await oneEntry(t, f.orgId, async () => {
      page = await f.account_admin.as.mutation(api.audit.exportCsv, { cursor: null, action: "voter.create" });
    });
    expect(e).toMatchObject({ action: "export", actorId: f.account_admin.userId });
    expect(e.summary).toBe("Exported the audit log as CSV (action voter.create).");
    expect(page!.rows).toHaveLength(1);
    expect(page!.rows[0][5]).toBe("voter.create");
    expect(page!.header).toHaveLength(page!.rows[0].length);
    await expect(f.campaign_manager.as.mutation(api.audit.exportCsv, { cursor: null })).rejects.toThrow(/permission/);
  });
});
