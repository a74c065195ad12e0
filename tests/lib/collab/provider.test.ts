/**
 * Co-editing through the real backend (issue 12 §3): ConvexYjsProvider instances on `ConvexClient`s
 * over WebSocket, against the app's own convex/ functions on the embedded backend. Two and three
 * clients editing at once converge; a client offline for a while merges on reconnect, nothing
 * lost or duplicated; edits kept from an earlier session reach the server on the next load;
 * canvas objects merge per property; undo is per user; awareness rides on presence; a viewer's
 * pushes are refused.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { Awareness } from "y-protocols/awareness";
import * as Y from "yjs";
import type { ConvexClient } from "convex/browser";
import { addObject, localUndoManager, readObjects, updateObject } from "@/lib/collab/canvasObjects";
import { ConvexYjsProvider, type CollabStatus } from "@/lib/collab/convexYjsProvider";
import { PresenceAwareness } from "@/lib/collab/presenceAwareness";
import { CollaborativeDocStore } from "@/lib/collab/useCollaborativeDoc";
import {
  network,
  startAppBackendInProcess,
  type AppMember,
  type InProcessAppBackend,
  type Network,
} from "../../support/appBackend";

let app: InProcessAppBackend;
let alice: AppMember;
let bob: AppMember;
let carol: AppMember;
let viewer: AppMember;
const open: { provider: ConvexYjsProvider; client: ConvexClient }[] = [];

beforeAll(async () => {
  app = await startAppBackendInProcess();
  alice = await app.member(["campaign_manager"], { firstName: "Alice" });
  bob = await app.member(["campaign_manager"], { orgId: alice.orgId, firstName: "Bob" });
  carol = await app.member(["campaign_manager"], { orgId: alice.orgId, firstName: "Carol" });
  viewer = await app.member(["viewer"], { orgId: alice.orgId, firstName: "Vic" });
});

afterAll(async () => {
  for (const o of open) o.provider.destroy();
  await app?.stop();
});

function connect(
  member: AppMember,
  room: string,
  opts: { net?: Network; doc?: Y.Doc; onError?: (e: Error) => void } = {},
) {
  const client = app.client(member, opts.net);
  const doc = opts.doc ?? new Y.Doc();
  const provider = new ConvexYjsProvider(client, room, doc, { onError: opts.onError });
  open.push({ provider, client });
  return { client, doc, provider, text: () => doc.getText("body").toJSON() };
}

/** Resolves once `predicate` holds, checked after every change of the given documents. */
function until(docs: Y.Doc[], predicate: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (predicate()) return resolve();
    const check = () => {
      if (!predicate()) return;
      for (const d of docs) d.off("update", check);
      resolve();
    };
    for (const d of docs) d.on("update", check);
  });
}

function untilStatus(provider: ConvexYjsProvider, status: CollabStatus): Promise<void> {
  return new Promise((resolve) => {
    if (provider.status === status) return resolve();
    const off = provider.onStatus((s) => {
      if (s !== status) return;
      off();
      resolve();
    });
  });
}

const tick = () => new Promise<void>((r) => setImmediate(r));
const count = (text: string, token: string) => text.split(token).length - 1;

/** `n` tokens "[<tag><i>]" inserted at random token boundaries, yielding between edits. */
async function typeTokens(doc: Y.Doc, tag: string, n: number) {
  for (let i = 0; i < n; i++) {
    const body = doc.getText("body");
    const text = body.toJSON();
    const boundaries = [0, ...[...text].flatMap((ch, k) => (ch === "]" ? [k + 1] : []))];
    body.insert(boundaries[Math.floor(Math.random() * boundaries.length)], `[${tag}${i}]`);
    await tick();
  }
}

describe("co-editing through the backend", () => {
  test("two clients editing one document at once converge", async () => {
    const room = await app.campaignRoom(alice.orgId);
    const a = connect(alice, room);
    const b = connect(bob, room);
    await Promise.all([a.provider.whenSynced, b.provider.whenSynced]);
    expect(a.provider.status).toBe("synced");
    a.doc.getText("body").insert(0, "alpha ");
    b.doc.getText("body").insert(0, "beta ");
    a.doc.getMap("meta").set("subject", "Vote");
    b.doc.getMap("meta").set("preheader", "Tuesday");
    await until(
      [a.doc, b.doc],
      () =>
        a.text() === b.text() &&
        a.text().includes("alpha") &&
        a.text().includes("beta") &&
        b.doc.getMap("meta").size === 2 &&
        a.doc.getMap("meta").size === 2,
    );
    expect(b.doc.getMap("meta").toJSON()).toEqual({ subject: "Vote", preheader: "Tuesday" });
    // what the server stored loads the same
    await Promise.all([a.provider.flush(), b.provider.flush()]);
    const fresh = connect(carol, room);
    await fresh.provider.whenSynced;
    expect(fresh.text()).toBe(a.text());
  });

  test("three clients typing concurrently converge, every edit exactly once", async () => {
    const room = await app.campaignRoom(alice.orgId);
    const clients = [connect(alice, room), connect(bob, room), connect(carol, room)];
    await Promise.all(clients.map((c) => c.provider.whenSynced));
    await Promise.all(clients.map((c, i) => typeTokens(c.doc, "ABC"[i], 30)));
    const docs = clients.map((c) => c.doc);
    const done = () =>
      clients.every((c) => c.text() === clients[0].text()) &&
      ["A", "B", "C"].every((t) => count(clients[0].text(), `[${t}29]`) === 1);
    await until(docs, done);
    for (const tag of ["A", "B", "C"])
      for (let i = 0; i < 30; i++) expect(count(clients[0].text(), `[${tag}${i}]`)).toBe(1);
  });

  test("a client offline for a while keeps its edits and merges on reconnect; nothing lost or duplicated", async () => {
    const room = await app.campaignRoom(alice.orgId);
    const net = network();
    const a = connect(alice, room);
    const c = connect(carol, room, { net });
    await Promise.all([a.provider.whenSynced, c.provider.whenSynced]);
    a.doc.getText("body").insert(0, "[base]");
    await until([c.doc], () => c.text() === "[base]");

    net.cut();
    await untilStatus(c.provider, "offline");
    await Promise.all([typeTokens(a.doc, "on", 10), typeTokens(c.doc, "off", 10)]);
    // the offline client holds its edits, and has not seen the others'
    expect(c.provider.pendingUpdates).toBeGreaterThan(0);
    expect(count(c.text(), "[on0]")).toBe(0);
    await a.provider.flush();
    expect(count(a.text(), "[off0]")).toBe(0);

    net.restore();
    await untilStatus(c.provider, "synced");
    await until(
      [a.doc, c.doc],
      () => a.text() === c.text() && count(a.text(), "[off9]") === 1 && count(a.text(), "[on9]") === 1,
    );
    for (const tag of ["on", "off"]) for (let i = 0; i < 10; i++) expect(count(a.text(), `[${tag}${i}]`)).toBe(1);
    expect(count(a.text(), "[base]")).toBe(1);
  });

  test("edits kept from an earlier session (as y-indexeddb keeps them) reach the server on the next load", async () => {
    const room = await app.campaignRoom(alice.orgId);
    const a = connect(alice, room);
    const net = network();
    const first = connect(bob, room, { net });
    await Promise.all([a.provider.whenSynced, first.provider.whenSynced]);
    a.doc.getText("body").insert(0, "shared ");
    await until([first.doc], () => first.text() === "shared ");
    net.cut();
    await untilStatus(first.provider, "offline");
    first.doc.getText("body").insert(first.doc.getText("body").length, "written offline");
    // the tab is closed while offline: its queued push never leaves
    first.provider.destroy();
    await first.client.close();
    const kept = Y.encodeStateAsUpdate(first.doc);

    // next visit: the document starts from the offline copy
    const restored = new Y.Doc();
    Y.applyUpdate(restored, kept);
    const second = connect(bob, room, { doc: restored });
    await second.provider.whenSynced;
    await until([a.doc], () => a.text() === "shared written offline");
    expect(second.text()).toBe("shared written offline");
  });

  test("canvas objects merge per property: one moves, the other recolours, both changes stay", async () => {
    const room = await app.campaignRoom(alice.orgId);
    const a = connect(alice, room);
    const b = connect(bob, room);
    await Promise.all([a.provider.whenSynced, b.provider.whenSynced]);
    addObject(a.doc, "rect-1", { type: "rect", x: 10, y: 10, fill: "blue", z: 1 });
    await until([b.doc], () => readObjects(b.doc).length === 1);
    updateObject(a.doc, "rect-1", { x: 40, y: 25 });
    updateObject(b.doc, "rect-1", { fill: "red" });
    const merged = (doc: Y.Doc) => {
      const [o] = readObjects(doc);
      return o.x === 40 && o.y === 25 && o.fill === "red";
    };
    await until([a.doc, b.doc], () => merged(a.doc) && merged(b.doc));
    const want = [{ id: "rect-1", type: "rect", x: 40, y: 25, fill: "red", z: 1 }];
    expect(readObjects(a.doc)).toEqual(want);
    expect(readObjects(b.doc)).toEqual(want);
  });

  test("undo takes back only the user's own changes", async () => {
    const room = await app.campaignRoom(alice.orgId);
    const a = connect(alice, room);
    const b = connect(bob, room);
    await Promise.all([a.provider.whenSynced, b.provider.whenSynced]);
    const undo = localUndoManager(a.doc, { captureTimeout: 0 });
    addObject(a.doc, "title", { type: "text", text: "Hello", z: 1 });
    await until([b.doc], () => readObjects(b.doc).length === 1);
    addObject(b.doc, "logo", { type: "image", z: 2 });
    updateObject(b.doc, "title", { fill: "green" });
    await until([a.doc], () => readObjects(a.doc).length === 2 && readObjects(a.doc)[0].fill === "green");
    updateObject(a.doc, "title", { text: "Hello, voters" });
    await until([b.doc], () => readObjects(b.doc)[0].text === "Hello, voters");
    undo.undo();
    expect(readObjects(a.doc).find((o) => o.id === "title")).toMatchObject({ text: "Hello", fill: "green" });
    await until([b.doc], () => readObjects(b.doc)[0].text === "Hello");
    // Bob's objects and properties are untouched by Alice's undo
    expect(readObjects(b.doc).map((o) => o.id)).toEqual(["title", "logo"]);
    expect(readObjects(b.doc)[0].fill).toBe("green");
    undo.redo();
    await until([b.doc], () => readObjects(b.doc)[0].text === "Hello, voters");
  });

  test("awareness rides on presence: others see the state under the server's name; gone when the tab leaves", async () => {
    const room = await app.campaignRoom(alice.orgId);
    const a = connect(alice, room);
    const b = connect(bob, room);
    await Promise.all([a.provider.whenSynced, b.provider.whenSynced]);
    const awA = new Awareness(a.doc);
    const awB = new Awareness(b.doc);
    const presA = new PresenceAwareness(a.client, room, awA, a.provider.sessionId);
    const presB = new PresenceAwareness(b.client, room, awB, b.provider.sessionId);
    const seen = (aw: Awareness, id: number, pred: (s: Record<string, any> | undefined) => boolean) =>
      new Promise<void>((resolve) => {
        if (pred(aw.getStates().get(id))) return resolve();
        const on = () => {
          if (!pred(aw.getStates().get(id))) return;
          aw.off("change", on);
          resolve();
        };
        aw.on("change", on);
      });
    awA.setLocalState({ cursor: { anchor: 3, head: 7 }, user: { name: "Mallory" } });
    await seen(awB, awA.clientID, (s) => s?.cursor?.head === 7);
    expect(awB.getStates().get(awA.clientID)).toMatchObject({
      cursor: { anchor: 3, head: 7 },
      user: { name: expect.stringMatching(/^Alice /), userId: alice.userId },
    });
    presA.destroy();
    await seen(awB, awA.clientID, (s) => s === undefined);
    presB.destroy();
    awA.destroy();
    awB.destroy();
  });

  test("closing the tab (pagehide) leaves at once, without waiting for the heartbeat to time out", async () => {
    const page = new EventTarget();
    vi.stubGlobal("window", page);
    try {
      const room = await app.campaignRoom(alice.orgId);
      const a = connect(alice, room);
      const b = connect(bob, room);
      await Promise.all([a.provider.whenSynced, b.provider.whenSynced]);
      const awA = new Awareness(a.doc);
      const awB = new Awareness(b.doc);
      const presA = new PresenceAwareness(a.client, room, awA, a.provider.sessionId);
      const presB = new PresenceAwareness(b.client, room, awB, b.provider.sessionId);
      const has = (aw: Awareness, id: number, present: boolean) =>
        new Promise<void>((resolve) => {
          if (aw.getStates().has(id) === present) return resolve();
          const on = () => {
            if (aw.getStates().has(id) !== present) return;
            aw.off("change", on);
            resolve();
          };
          aw.on("change", on);
        });
      awA.setLocalState({ cursor: { anchor: 1, head: 1 } });
      await has(awB, awA.clientID, true);
      // only A's tab goes away (presA is not destroyed: a closed tab runs no cleanup code)
      page.dispatchEvent(new Event("pagehide"));
      await has(awB, awA.clientID, false);
      // a tab restored from the back-forward cache joins again
      page.dispatchEvent(new Event("pageshow"));
      await has(awB, awA.clientID, true);
      presA.destroy();
      presB.destroy();
      awA.destroy();
      awB.destroy();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  test("useCollaborativeDoc's store opens the document with awareness, reports synced, and releases it on close", async () => {
    const room = await app.campaignRoom(alice.orgId);
    const a = connect(alice, room);
    await a.provider.whenSynced;
    a.doc.getText("body").insert(0, "draft");
    await a.provider.flush();
    const store = new CollaborativeDocStore();
    expect(store.getSnapshot()).toEqual({ doc: null, status: "connecting", awareness: null });
    const close = store.open(app.client(bob), room);
    await new Promise<void>((resolve) => {
      const check = () => store.getSnapshot().status === "synced" && resolve();
      store.subscribe(check);
      check();
    });
    const { doc, awareness } = store.getSnapshot();
    expect(doc!.getText("body").toJSON()).toBe("draft");
    expect(awareness!.doc).toBe(doc);
    doc!.getText("body").insert(5, " v2");
    await until([a.doc], () => a.text() === "draft v2");
    close();
    expect(store.getSnapshot()).toEqual({ doc: null, status: "connecting", awareness: null });
  });

  test("a viewer receives the document, but its pushes are refused and never stored", async () => {
    const room = await app.campaignRoom(alice.orgId);
    const a = connect(alice, room);
    await a.provider.whenSynced;
    a.doc.getText("body").insert(0, "plan");
    await a.provider.flush();
    const errors: Error[] = [];
    const v = connect(viewer, room, { onError: (e) => errors.push(e) });
    await v.provider.whenSynced;
    expect(v.text()).toBe("plan");
    v.doc.getText("body").insert(0, "hijack ");
    await v.provider.flush();
    expect(errors.map((e) => (e as { data?: { code?: string } }).data?.code)).toEqual(["FORBIDDEN"]);
    const fresh = connect(bob, room);
    await fresh.provider.whenSynced;
    expect(fresh.text()).toBe("plan");
  });
});
