/**
 * Live collaboration on ordinary records and presence (issue 12 §1–2), on both backends:
 * disjoint field changes merge, a same-field change is refused naming the teammate, deleting a
 * voter someone edits names who deleted it; presence joins, lists, expires and is refused to
 * other organisations and roles without the room's permission.
 */
import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { api, internal } from "@convex/_generated/api";
import { createMember, roleFixture, setupTest } from "./setup";

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  const maria = await f.campaign_manager.as.mutation(api.voters.create, {
    fields: {
      first_name: "Maria",
      last_name: "Lopez",
      phone: "555-0100",
      email: "maria@example.org",
      custom_fields: { shirt: "M" },
    },
  });
  // Bob: a second campaign manager in the same organisation
  const bob = await createMember(t, ["campaign_manager"], {
    orgId: f.campaign_manager.orgId,
    firstName: "Bob",
    lastName: "Stone",
  });
  return { t, f, maria, bob };
}

async function rejection(
  p: Promise<unknown>,
): Promise<{ code: string; message: string; conflicts?: { field: string; theirs: unknown; by: string | null }[] }> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ConvexError);
    return (e as ConvexError<any>).data;
  }
  throw new Error("expected the call to be refused");
}

describe("no lost updates on a voter", () => {
  test("changes to different fields from the same base both stay", async () => {
    const { f, maria, bob } = await fixture();
    const alice = f.campaign_manager.as;
    // both opened the form on the same version; Alice saves the phone, Bob the email
    await alice.mutation(api.voters.update, {
      id: maria,
      edits: [{ field: "phone", base: "555-0100", value: "555-0199" }],
    });
    await bob.as.mutation(api.voters.update, {
      id: maria,
      edits: [{ field: "email", base: "maria@example.org", value: "m.lopez@example.org" }],
    });
    const v = await alice.query(api.voters.get, { id: maria });
    expect(v).toMatchObject({ phone: "555-0199", email: "m.lopez@example.org", first_name: "Maria" });
    // custom fields merge per key too
    await alice.mutation(api.voters.update, {
      id: maria,
      edits: [{ field: "custom_fields.shirt", base: "M", value: "L" }],
    });
    await bob.as.mutation(api.voters.update, {
      id: maria,
      edits: [{ field: "custom_fields.shirt", base: "L", value: null }],
    });
    expect((await alice.query(api.voters.get, { id: maria }))?.custom_fields).toBeUndefined();
  });

  test("a change to the same field is refused, naming the teammate and the field; nothing is written", async () => {
    const { f, maria, bob } = await fixture();
    await bob.as.mutation(api.voters.update, {
      id: maria,
      edits: [{ field: "phone", base: "555-0100", value: "555-0142" }],
    });
    const err = await rejection(
      f.campaign_manager.as.mutation(api.voters.update, {
        id: maria,
        edits: [
          { field: "phone", base: "555-0100", value: "555-0199" },
          { field: "email", base: "maria@example.org", value: "new@example.org" },
        ],
      }),
    );
    expect(err.code).toBe("CONFLICT");
    expect(err.message).toBe("Maria Lopez was changed by Bob Stone while you were editing: phone");
    expect(err.conflicts).toEqual([{ field: "phone", theirs: "555-0142", by: "Bob Stone" }]);
    const v = await f.viewer.as.query(api.voters.get, { id: maria });
    expect(v).toMatchObject({ phone: "555-0142", email: "maria@example.org" });
    // the form names who saved each field
    const state = await f.viewer.as.query(api.voters.editState, { id: maria });
    expect(state.fields.phone).toMatchObject({ name: "Bob Stone", userId: bob.userId });
    // "keep mine": saving again from Bob's value as the base goes through
    await f.campaign_manager.as.mutation(api.voters.update, {
      id: maria,
      edits: [{ field: "phone", base: "555-0142", value: "555-0199" }],
    });
    expect(await f.viewer.as.query(api.voters.get, { id: maria })).toMatchObject({ phone: "555-0199" });
  });

  test("the same change made twice is not a conflict; an unchanged save writes nothing", async () => {
    const { f, maria, bob } = await fixture();
    await bob.as.mutation(api.voters.update, {
      id: maria,
      edits: [{ field: "phone", base: "555-0100", value: "555-0177" }],
    });
    await f.campaign_manager.as.mutation(api.voters.update, {
      id: maria,
      edits: [{ field: "phone", base: "555-0100", value: "555-0177" }],
    });
    const state = await f.viewer.as.query(api.voters.editState, { id: maria });
    expect(state.fields.phone.name).toBe("Bob Stone");
  });

  test("saving a voter a teammate deleted names who deleted it", async () => {
    const { f, maria, bob } = await fixture();
    await bob.as.mutation(api.voters.remove, { id: maria });
    const err = await rejection(
      f.volunteer.as.mutation(api.voters.update, {
        id: maria,
        edits: [{ field: "phone", base: "555-0100", value: "1" }],
      }),
    );
    expect(err).toMatchObject({ code: "NOT_FOUND", message: "This voter was deleted by Bob Stone." });
    expect((await f.viewer.as.query(api.voters.editState, { id: maria })).deleted).toMatchObject({ name: "Bob Stone" });
    // another organisation learns nothing about it
    expect(await f.outsider.as.query(api.voters.editState, { id: maria })).toEqual({ fields: {}, deleted: null });
    await expect(f.outsider.as.mutation(api.voters.update, { id: maria, edits: [] })).rejects.toThrow(
      /could not be found/,
    );
  });

  test("refused: other organisation, signed out, role without voters.update", async () => {
    const { t, f, maria } = await fixture();
    const edits = [{ field: "phone", base: "555-0100", value: "555-0101" }];
    await expect(f.outsider.as.mutation(api.voters.update, { id: maria, edits })).rejects.toThrow(/could not be found/);
    await expect(t.mutation(api.voters.update, { id: maria, edits })).rejects.toThrow(/log in/);
    await expect(f.viewer.as.mutation(api.voters.update, { id: maria, edits })).rejects.toThrow(/permission/);
    await expect(f.outsider.as.query(api.voters.editState, { id: maria })).resolves.toEqual({
      fields: {},
      deleted: null,
    });
    await expect(t.query(api.voters.editState, { id: maria })).rejects.toThrow(/log in/);
    expect(await f.viewer.as.query(api.voters.get, { id: maria })).toMatchObject({ phone: "555-0100" });
  });
});

describe("presence", () => {
  const tab = (n: number) => `tab-${n}`;

  test("join, list with name and colour, state, leave", async () => {
    const { f, maria, bob } = await fixture();
    const room = `voter:${maria}`;
    await f.volunteer.as.mutation(api.presence.heartbeat, { room, sessionId: tab(1) });
    await bob.as.mutation(api.presence.heartbeat, { room, sessionId: tab(2), state: { editing: true } });
    const list = await f.viewer.as.query(api.presence.list, { room });
    expect(list.map((e) => e.sessionId).sort()).toEqual([tab(1), tab(2)]);
    const b = list.find((e) => e.sessionId === tab(2))!;
    expect(b).toMatchObject({ name: "Bob Stone", userId: bob.userId, state: { editing: true } });
    expect(typeof b.color).toBe("string");
    await bob.as.mutation(api.presence.setState, { room, sessionId: tab(2), state: { editing: false } });
    expect((await f.viewer.as.query(api.presence.list, { room })).find((e) => e.sessionId === tab(2))?.state).toEqual({
      editing: false,
    });
    await bob.as.mutation(api.presence.leave, { room, sessionId: tab(2) });
    expect((await f.viewer.as.query(api.presence.list, { room })).map((e) => e.sessionId)).toEqual([tab(1)]);
  });

  test("beats and state still in flight when a teammate deletes the record: false, nothing written", async () => {
    const { t, f, maria, bob } = await fixture();
    const room = `voter:${maria}`;
    expect(await bob.as.mutation(api.presence.heartbeat, { room, sessionId: tab(2) })).toBe(true);
    await f.campaign_manager.as.mutation(api.voters.remove, { id: maria });
    expect(await bob.as.mutation(api.presence.setState, { room, sessionId: tab(2), state: { editing: true } })).toBe(
      false,
    );
    expect(await bob.as.mutation(api.presence.heartbeat, { room, sessionId: tab(3) })).toBe(false);
    expect((await t.run((ctx) => ctx.db.query("presence").collect())).map((r) => r.sessionId)).toEqual([tab(2)]);
    expect((await t.run((ctx) => ctx.db.query("presence").collect()))[0].state).toBeUndefined();
    await expect(bob.as.query(api.presence.list, { room })).rejects.toThrow(/could not be found/);
  });

  test("a beat touches only the heartbeat table, never the rows the room's list reads", async () => {
    const { t, f, maria } = await fixture();
    const room = `voter:${maria}`;
    await f.volunteer.as.mutation(api.presence.heartbeat, { room, sessionId: tab(1), state: { editing: true } });
    const before = await t.run((ctx) => ctx.db.query("presence").collect());
    const beatBefore = await t.run((ctx) => ctx.db.query("presenceBeats").collect());
    await f.volunteer.as.mutation(api.presence.heartbeat, { room, sessionId: tab(1), state: { editing: true } });
    const after = await t.run((ctx) => ctx.db.query("presence").collect());
    expect(after).toEqual(before);
    const beatAfter = await t.run((ctx) => ctx.db.query("presenceBeats").collect());
    expect(beatAfter[0].lastSeen).toBeGreaterThanOrEqual(beatBefore[0].lastSeen);
  });

  test("a tab that stops beating is removed by its expiry check; a beating one is kept", async () => {
    const { t, f, maria } = await fixture();
    const room = `voter:${maria}`;
    await f.volunteer.as.mutation(api.presence.heartbeat, { room, sessionId: tab(1) });
    const [row] = await t.run((ctx) => ctx.db.query("presence").collect());
    // a recent beat: the check re-arms itself instead of removing
    await t.mutation(internal.presence.expire, { presenceId: row._id });
    expect(await f.viewer.as.query(api.presence.list, { room })).toHaveLength(1);
    // the last beat is older than the timeout: removed
    await t.run(async (ctx) => {
      const beat = (await ctx.db.query("presenceBeats").collect())[0];
      await ctx.db.patch("presenceBeats", beat._id, { lastSeen: Date.now() - 60_000 });
    });
    await t.mutation(internal.presence.expire, { presenceId: row._id });
    expect(await f.viewer.as.query(api.presence.list, { room })).toEqual([]);
    expect(await t.run((ctx) => ctx.db.query("presenceBeats").collect())).toEqual([]);
  });

  test("refused: other organisation, signed out, unknown room, another user's tab, oversized state", async () => {
    const { t, f, maria, bob } = await fixture();
    const room = `voter:${maria}`;
    // another organisation's record: no presence there, and nothing told about it
    expect(await f.outsider.as.mutation(api.presence.heartbeat, { room, sessionId: tab(9) })).toBe(false);
    expect(
      await f.outsider.as.mutation(api.presence.setState, { room, sessionId: tab(9), state: { editing: true } }),
    ).toBe(false);
    expect(await t.run((ctx) => ctx.db.query("presence").collect())).toEqual([]);
    await expect(f.outsider.as.query(api.presence.list, { room })).rejects.toThrow(/could not be found/);
    await expect(t.query(api.presence.list, { room })).rejects.toThrow(/log in/);
    await expect(t.mutation(api.presence.heartbeat, { room, sessionId: tab(9) })).rejects.toThrow(/log in/);
    await expect(f.volunteer.as.query(api.presence.list, { room: "nothing:1" })).rejects.toThrow(/not a room/);
    await expect(f.volunteer.as.mutation(api.presence.heartbeat, { room, sessionId: "bad id!" })).rejects.toThrow(
      /Invalid presence session/,
    );
    await expect(
      f.volunteer.as.mutation(api.presence.heartbeat, { room, sessionId: tab(3), state: { big: "x".repeat(5000) } }),
    ).rejects.toThrow(/limited/);
    await bob.as.mutation(api.presence.heartbeat, { room, sessionId: tab(4) });
    await expect(
      f.volunteer.as.mutation(api.presence.setState, { room, sessionId: tab(4), state: { editing: true } }),
    ).rejects.toThrow(/permission/);
    // leaving someone else's tab does nothing
    await f.volunteer.as.mutation(api.presence.leave, { room, sessionId: tab(4) });
    expect(await f.viewer.as.query(api.presence.list, { room })).toHaveLength(1);
  });

  test("a room needs its kind's permission: campaigns.view for a campaign", async () => {
    const { t, f } = await fixture();
    const campaignId = await t.run((ctx) =>
      ctx.db.insert("campaigns", {
        orgId: f.campaign_manager.orgId,
        name: "GOTV",
        description: null,
        campaign_type: "sms",
        status: "draft",
        updatedAt: Date.now(),
      }),
    );
    const room = `campaign:${campaignId}`;
    await f.campaign_manager.as.mutation(api.presence.heartbeat, { room, sessionId: tab(1) });
    // account_admin alone holds no campaigns.view
    await expect(f.account_admin.as.query(api.presence.list, { room })).rejects.toThrow(/permission/);
  });
});

describe("no lost updates on a group", () => {
  test("name and description merge; the same field is refused naming the teammate; a deleted group names who deleted it", async () => {
    const { f, bob } = await fixture();
    const alice = f.campaign_manager.as;
    const id = await alice.mutation(api.groups.create, { name: "Canvassers", description: "Saturday" });
    await alice.mutation(api.groups.update, { id, edits: [{ field: "name", base: "Canvassers", value: "Walkers" }] });
    await bob.as.mutation(api.groups.update, {
      id,
      edits: [{ field: "description", base: "Saturday", value: "Sunday" }],
    });
    expect((await alice.query(api.groups.list, {})).map((g) => [g.name, g.description])).toEqual([
      ["Walkers", "Sunday"],
    ]);
    const err = await rejection(
      bob.as.mutation(api.groups.update, { id, edits: [{ field: "name", base: "Canvassers", value: "Knockers" }] }),
    );
    expect(err.message).toMatch(/^The group Walkers was changed by .+ while you were editing: name$/);
    expect((await f.viewer.as.query(api.groups.editState, { id })).fields.description.name).toBe("Bob Stone");
    await bob.as.mutation(api.groups.remove, { id });
    const gone = await rejection(
      alice.mutation(api.groups.update, { id, edits: [{ field: "name", base: "Walkers", value: "X" }] }),
    );
    expect(gone.message).toBe("This group was deleted by Bob Stone.");
    await expect(f.volunteer.as.mutation(api.groups.update, { id, edits: [] })).rejects.toThrow(/permission/);
  });
});

describe("edit state is only for members who can see the record", () => {
  test("groups.editState and account.editState: allowed and refused callers", async () => {
    const { t, f } = await fixture();
    const id = await f.campaign_manager.as.mutation(api.groups.create, { name: "Canvassers" });
    await f.campaign_manager.as.mutation(api.groups.update, {
      id,
      edits: [{ field: "name", base: "Canvassers", value: "Walkers" }],
    });
    expect((await f.viewer.as.query(api.groups.editState, { id })).fields.name.userId).toBe(f.campaign_manager.userId);
    expect(await f.outsider.as.query(api.groups.editState, { id })).toEqual({ fields: {}, deleted: null });
    await expect(t.query(api.groups.editState, { id })).rejects.toThrow(/log in/);
    await expect(f.account_admin.as.query(api.groups.editState, { id })).rejects.toThrow(/permission/);
    await f.account_admin.as.mutation(api.account.update, { edits: [{ field: "ein", base: "", value: "12-3456789" }] });
    expect((await f.account_admin.as.query(api.account.editState, {})).fields.ein.userId).toBe(f.account_admin.userId);
    // another organisation sees its own (empty) state, never this one's
    expect((await f.outsider.as.query(api.account.editState, {})).fields).toEqual({});
    await expect(f.volunteer.as.query(api.account.editState, {})).rejects.toThrow(/permission/);
    await expect(t.query(api.account.editState, {})).rejects.toThrow(/log in/);
  });
});

describe("edit marks upkeep", () => {
  test("marks of records deleted over 30 days ago are purged; recent ones and live records' marks stay", async () => {
    const { t, f, maria, bob } = await fixture();
    await bob.as.mutation(api.voters.update, {
      id: maria,
      edits: [{ field: "phone", base: "555-0100", value: "555-0101" }],
    });
    const other = await f.campaign_manager.as.mutation(api.voters.create, {
      fields: { first_name: "Old", last_name: "Gone" },
    });
    const recent = await f.campaign_manager.as.mutation(api.voters.create, {
      fields: { first_name: "New", last_name: "Gone" },
    });
    await bob.as.mutation(api.voters.remove, { id: other });
    await bob.as.mutation(api.voters.remove, { id: recent });
    await t.run(async (ctx) => {
      const row = await ctx.db
        .query("editMarks")
        .withIndex("by_record", (q) => q.eq("recordId", other))
        .unique();
      await ctx.db.patch("editMarks", row!._id, { deleted: { ...row!.deleted!, at: Date.now() - 31 * 86_400_000 } });
    });
    expect(await t.mutation(internal.editMarks.purgeDeleted, {})).toBe(1);
    const left = await t.run((ctx) => ctx.db.query("editMarks").collect());
    expect(left.map((m) => m.recordId).sort()).toEqual([maria, recent].sort());
  });
});
