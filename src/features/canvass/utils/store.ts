/**
 * The field app's local copy (IndexedDB through Dexie, database "precinct-canvass"), keyed by the
 * signed-in user: the lists they opened (canvass.bundle, the door states, the voters' phone and
 * email), their assigned lists, the organisation's map layers, and the outbox of results recorded
 * at the doors. Every result goes to the outbox first, with its client id and its place in the
 * device's order for the list (seq); the sync loop (sync.ts) sends them and clears each one the
 * server recorded. A refused one moves to "Not accepted" with the server's sentence, kept until the
 * canvasser sends it again or discards it; a recorded one with a note (a teammate's edit kept)
 * leaves that note. Nothing here needs the network, and it survives reloads and app kills.
 */
import Dexie, { type Table } from "dexie";
import type { FunctionArgs, FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";
import type { ResultCode } from "@convex/lib/canvass";

export type Bundle = FunctionReturnType<typeof api.canvass.bundle>;
export type BundleDoor = Bundle["doors"][number];
export type MyList = FunctionReturnType<typeof api.canvass.myLists>[number];
export type DoorState = FunctionReturnType<typeof api.canvass.doorStatesOf>[number];
export type VoterContact = FunctionReturnType<typeof api.canvassApp.contacts>[number];
export type CanvassEvent = FunctionArgs<typeof api.canvass.sync>["events"][number];
export type Outcome = FunctionReturnType<typeof api.canvass.sync>["outcomes"][number];

/** What the map of a list draws offline: the organisation's layers as last seen (useOrgMap). */
export type OrgMapCopy = {
  streets: string | null;
  basemapUrl: string | null;
  tiles: { url: string; attribution: string } | null;
};

/** A list the canvasser opened: everything its screen needs offline. */
export type ListCopy = {
  userId: string;
  listId: string;
  bundle: Bundle;
  /** the door states as last read (live when online) */
  states: DoorState[];
  /** the voters' phone and email (the base of a correction at the door); null when not read yet */
  contacts: VoterContact[] | null;
  savedAt: number;
  /** the streets file whose ranges under the turf were put in the offline cache (turfStreets.ts), and when */
  streetsCached: { url: string; at: number } | null;
};

/** The canvasser's assigned lists, as last read. */
export type MyListsCopy = { userId: string; lists: MyList[]; savedAt: number };

/** One action waiting to be sent: the server's event plus what the app keeps beside it. */
export type OutboxItem = CanvassEvent & {
  userId: string;
  listId: string;
  /** when it was put in the outbox (device clock) */
  queuedAt: number;
  /** the door and result in words, for the lists the canvasser reads ("12 Oak St · Not Home") */
  label: string;
};

/** An action the server refused: kept with its sentence until sent again or discarded. */
export type RefusedItem = OutboxItem & { message: string; refusedAt: number };

/** A recorded action the server had something to say about (a voter edit that kept a teammate's value). */
export type Notice = { clientId: string; userId: string; listId: string; label: string; message: string; at: number };

/** A door's result as recorded on this device: shown at once, until the server's state has it. */
export type DoorMark = {
  clientId: string;
  userId: string;
  listId: string;
  doorId: string;
  result: ResultCode;
  at: number;
};

type Meta = { key: string; value: unknown };

/** How far ahead of the server's clock a device's may be for its marks to be matched by the server's states. */
const CLOCK_SKEW_MS = 60_000;

/** The action as recorded at the door: the outbox adds its client id, seq and time. */
export type NewAction = Omit<CanvassEvent, "clientId" | "seq" | "at"> & { at?: number };

/** Fields of an outbox item the server's event does not have. */
const LOCAL_FIELDS = ["userId", "listId", "queuedAt", "label", "message", "refusedAt"] as const;

/** The event canvass.sync takes (its validator refuses any other field). */
export function toEvent(item: OutboxItem): CanvassEvent {
  const out: Record<string, unknown> = { ...item };
  for (const k of LOCAL_FIELDS) delete out[k];
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out as CanvassEvent;
}

class CanvassDb extends Dexie {
  lists!: Table<ListCopy, [string, string]>;
  myLists!: Table<MyListsCopy, string>;
  outbox!: Table<OutboxItem, string>;
  refused!: Table<RefusedItem, string>;
  notices!: Table<Notice, string>;
  marks!: Table<DoorMark, string>;
  meta!: Table<Meta, string>;

  constructor(name: string, deps?: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange }) {
    super(name, deps);
    this.version(1).stores({
      lists: "[userId+listId], userId",
      myLists: "userId",
      outbox: "clientId, [userId+listId+seq], [userId+queuedAt], userId",
      refused: "clientId, userId, [userId+listId]",
      notices: "clientId, userId",
      marks: "clientId, [userId+listId]",
      meta: "key",
    });
  }
}

const CANVASS_DB = "precinct-canvass";

export class CanvassStore {
  readonly db: CanvassDb;

  constructor(name = CANVASS_DB, deps?: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange }) {
    this.db = new CanvassDb(name, deps);
  }

  close() {
    this.db.close();
  }

  // ——— copies of the server's data ———

  async saveBundle(userId: string, bundle: Bundle, now = Date.now()) {
    const listId = bundle.list.id;
    await this.db.transaction("rw", this.db.lists, this.db.marks, this.db.outbox, async () => {
      const old = await this.db.lists.get([userId, listId]);
      await this.db.lists.put({
        userId,
        listId,
        bundle,
        states: bundle.states,
        contacts: old?.contacts ?? null,
        savedAt: now,
        streetsCached: old?.streetsCached ?? null,
      });
      await this.dropSeenMarks(userId, listId, bundle.states);
    });
  }

  async saveStates(userId: string, listId: string, states: DoorState[]) {
    await this.db.transaction("rw", this.db.lists, this.db.marks, this.db.outbox, async () => {
      const old = await this.db.lists.get([userId, listId]);
      if (!old) return;
      await this.db.lists.update([userId, listId], { states });
      await this.dropSeenMarks(userId, listId, states);
    });
  }

  async saveContacts(userId: string, listId: string, contacts: VoterContact[]) {
    await this.db.lists.update([userId, listId], { contacts });
  }

  async markStreetsCached(userId: string, listId: string, url: string, at = Date.now()) {
    await this.db.lists.update([userId, listId], { streetsCached: { url, at } });
  }

  async list(userId: string, listId: string): Promise<ListCopy | undefined> {
    return await this.db.lists.get([userId, listId]);
  }

  async listsOf(userId: string): Promise<ListCopy[]> {
    return await this.db.lists.where("userId").equals(userId).toArray();
  }

  /** Forgets the user's copies of lists (not their outbox, refused or notices: unsent work stays). */
  async forgetLists(userId: string) {
    await this.db.transaction("rw", this.db.lists, this.db.myLists, async () => {
      await this.db.lists.where("userId").equals(userId).delete();
      await this.db.myLists.delete(userId);
    });
  }

  async saveMyLists(userId: string, lists: MyList[], now = Date.now()) {
    await this.db.myLists.put({ userId, lists, savedAt: now });
  }

  async myLists(userId: string): Promise<MyListsCopy | undefined> {
    return await this.db.myLists.get(userId);
  }

  async saveOrgMap(userId: string, map: OrgMapCopy) {
    await this.db.meta.put({ key: `orgMap:${userId}`, value: map });
  }

  async orgMap(userId: string): Promise<OrgMapCopy | null> {
    return ((await this.db.meta.get(`orgMap:${userId}`))?.value as OrgMapCopy | undefined) ?? null;
  }

  async setting<T>(key: string): Promise<T | undefined> {
    return (await this.db.meta.get(`setting:${key}`))?.value as T | undefined;
  }

  async saveSetting(key: string, value: unknown) {
    await this.db.meta.put({ key: `setting:${key}`, value });
  }

  // ——— the outbox ———

  /**
   * Puts an action in the outbox with a new client id and the next seq of this device for the
   * list, and marks its door at once; one transaction, so a kill mid-way leaves neither.
   */
  async record(
    userId: string,
    listId: string,
    action: NewAction,
    label: string,
    now = Date.now(),
  ): Promise<OutboxItem> {
    return await this.db.transaction("rw", this.db.outbox, this.db.meta, this.db.marks, async () => {
      const key = `seq:${listId}`;
      const last = ((await this.db.meta.get(key))?.value as number | undefined) ?? 0;
      const seq = last + 1;
      await this.db.meta.put({ key, value: seq });
      const { at, ...rest } = action;
      const item: OutboxItem = {
        ...rest,
        clientId: crypto.randomUUID(),
        seq,
        at: at ?? now,
        userId,
        listId,
        queuedAt: now,
        label,
      };
      await this.db.outbox.add(item);
      await this.db.marks.put({
        clientId: item.clientId,
        userId,
        listId,
        doorId: item.doorId,
        result: item.result,
        at: item.at,
      });
      return item;
    });
  }

  /** The user's waiting actions: of one list in seq order, or all of them oldest first. */
  async waiting(userId: string, listId?: string): Promise<OutboxItem[]> {
    if (listId !== undefined)
      return await this.db.outbox
        .where("[userId+listId+seq]")
        .between([userId, listId, Dexie.minKey], [userId, listId, Dexie.maxKey])
        .toArray();
    return await this.db.outbox
      .where("[userId+queuedAt]")
      .between([userId, Dexie.minKey], [userId, Dexie.maxKey])
      .toArray();
  }

  async waitingCount(userId: string): Promise<number> {
    return await this.db.outbox.where("userId").equals(userId).count();
  }

  /**
   * The next batch to send: the list of the oldest waiting action, its actions in seq order, at
   * most `max` (a list's actions go before a later list's, each list in its own order).
   */
  async nextBatch(userId: string, max: number): Promise<OutboxItem[]> {
    const oldest = await this.db.outbox
      .where("[userId+queuedAt]")
      .between([userId, Dexie.minKey], [userId, Dexie.maxKey])
      .first();
    if (!oldest) return [];
    return await this.db.outbox
      .where("[userId+listId+seq]")
      .between([userId, oldest.listId, Dexie.minKey], [userId, oldest.listId, Dexie.maxKey])
      .limit(max)
      .toArray();
  }

  /**
   * The server's answer to a batch, in one transaction: recorded and duplicate actions leave the
   * outbox (with their note, if any), refused ones move to "Not accepted" with the sentence. An
   * action without an outcome stays. Returns how many left the outbox.
   */
  async applyOutcomes(items: OutboxItem[], outcomes: Outcome[], now = Date.now()): Promise<number> {
    const byId = new Map(outcomes.map((o) => [o.clientId, o]));
    let done = 0;
    await this.db.transaction("rw", [this.db.outbox, this.db.refused, this.db.notices, this.db.marks], async () => {
      for (const item of items) {
        const o = byId.get(item.clientId);
        if (!o) continue;
        // an item the canvasser discarded or that another tab settled meanwhile is not revived
        if (!(await this.db.outbox.get(item.clientId))) continue;
        await this.db.outbox.delete(item.clientId);
        done++;
        if (o.status === "refused") {
          await this.db.refused.put({ ...item, message: o.message ?? "Not accepted.", refusedAt: now });
          await this.db.marks.delete(item.clientId);
        } else if (o.message) {
          await this.db.notices.put({
            clientId: item.clientId,
            userId: item.userId,
            listId: item.listId,
            label: item.label,
            message: o.message,
            at: now,
          });
        }
      }
    });
    return done;
  }

  /** A whole batch refused with one sentence (the call itself was refused: the list is gone, the role changed). */
  async refuseAll(items: OutboxItem[], message: string, now = Date.now()) {
    await this.applyOutcomes(
      items,
      items.map((i) => ({ clientId: i.clientId, status: "refused" as const, eventId: null, message })),
      now,
    );
  }

  async refusedOf(userId: string): Promise<RefusedItem[]> {
    return (await this.db.refused.where("userId").equals(userId).toArray()).sort((a, b) => a.seq - b.seq);
  }

  async noticesOf(userId: string): Promise<Notice[]> {
    return (await this.db.notices.where("userId").equals(userId).toArray()).sort((a, b) => a.at - b.at);
  }

  /** Sends a refused action again: back to the outbox with its client id and seq (the server did not keep it). */
  async retry(clientId: string) {
    await this.db.transaction("rw", this.db.outbox, this.db.refused, this.db.marks, async () => {
      const r = await this.db.refused.get(clientId);
      if (!r) return;
      const { message: _m, refusedAt: _r, ...item } = r;
      await this.db.outbox.put(item);
      await this.db.refused.delete(clientId);
      await this.db.marks.put({
        clientId,
        userId: item.userId,
        listId: item.listId,
        doorId: item.doorId,
        result: item.result,
        at: item.at,
      });
    });
  }

  /** The canvasser gives a refused action up (their explicit choice). */
  async discard(clientId: string) {
    await this.db.refused.delete(clientId);
  }

  async dismissNotice(clientId: string) {
    await this.db.notices.delete(clientId);
  }

  async marksOf(userId: string, listId: string): Promise<DoorMark[]> {
    return await this.db.marks.where("[userId+listId]").equals([userId, listId]).toArray();
  }

  /**
   * Marks the server's states already show go: sent ones whose door has a state as late as the
   * mark (the server caps a result's time at its own clock: a device clock a little ahead is allowed for).
   */
  private async dropSeenMarks(userId: string, listId: string, states: DoorState[]) {
    const lastAt = new Map(states.map((s) => [s.doorId as string, s.lastAt]));
    const pending = new Set((await this.waiting(userId, listId)).map((i) => i.clientId));
    const seen = (await this.marksOf(userId, listId)).filter(
      (m) => !pending.has(m.clientId) && (lastAt.get(m.doorId) ?? -Infinity) >= m.at - CLOCK_SKEW_MS,
    );
    await this.db.marks.bulkDelete(seen.map((m) => m.clientId));
  }
}

let shared: CanvassStore | null = null;

/** The app's store (one per page). */
export function canvassStore(): CanvassStore {
  shared ??= new CanvassStore();
  return shared;
}
