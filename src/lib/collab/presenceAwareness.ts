/**
 * Awareness (cursors, selections, who is here) for a co-edited document, carried by the presence
 * service (convex/presence.ts), never stored in the document. A y-protocols `Awareness` is the
 * local model, so editor bindings that expect one work unchanged:
 * - its local state goes to the room's presence row through `presence.setState` (throttled) and
 *   the regular `presence.heartbeat`, as `{ yjs: { clientId, clock, state } }` (2,000 characters
 *   of JSON at most, the presence service's limit);
 * - remote states come from the room's live `presence.list`: every other tab's `yjs` state is set
 *   into the Awareness with `user` (name, colour, userId, image) taken from the server's entry,
 *   so nobody can appear under another name; a tab that leaves or stops beating is removed.
 * - closing or reloading the tab (`pagehide`) leaves at once, while the connection is still open,
 *   instead of lingering until the heartbeat times out; a tab restored from the back-forward cache
 *   (`pageshow`) joins again.
 * The presence session is the provider's own (one entry per open document per tab).
 */
import type { Awareness } from "y-protocols/awareness";
import { api } from "@convex/_generated/api";
import { PRESENCE_HEARTBEAT_MS } from "@convex/tables/collab";
import { mutate, watch, type ConvexClientLike } from "./convexClientLike";

type Entry = (typeof api.presence.list)["_returnType"][number];
type Wire = { yjs: { clientId: number; clock: number; state: Record<string, unknown> | null } };

const SEND_EVERY_MS = 80;
/** y-protocols drops remote states not renewed for 30 s; presence already tells who is here. */
const RENEW_EVERY_MS = 10_000;

function wire(value: unknown): Wire["yjs"] | null {
  if (typeof value !== "object" || value === null || !("yjs" in value)) return null;
  const y = (value as Wire).yjs;
  if (typeof y !== "object" || y === null || typeof y.clientId !== "number" || typeof y.clock !== "number") return null;
  return y;
}

export class PresenceAwareness {
  private remote = new Set<number>();
  private sendTimer: ReturnType<typeof setTimeout> | null = null;
  private lastSentAt = 0;
  private clock = 0;
  private readonly beat: ReturnType<typeof setInterval>;
  private readonly renew: ReturnType<typeof setInterval>;
  private readonly unsubscribe: () => void;
  private destroyed = false;
  /** the tab was hidden for good (pagehide): no beats until it shows again */
  private hidden = false;
  private readonly page: EventTarget | null = typeof window !== "undefined" ? window : null;

  constructor(
    private readonly client: ConvexClientLike,
    readonly room: string,
    readonly awareness: Awareness,
    readonly sessionId: string,
    private readonly onError: (e: Error) => void = () => {},
  ) {
    awareness.on("change", this.handleChange);
    this.unsubscribe = watch(
      client,
      api.presence.list,
      { room },
      (entries) => this.applyEntries(entries),
      (e) => this.onError(e),
    );
    this.heartbeat();
    this.beat = setInterval(() => this.heartbeat(), PRESENCE_HEARTBEAT_MS);
    this.page?.addEventListener("pagehide", this.onPageHide);
    this.page?.addEventListener("pageshow", this.onPageShow);
    this.renew = setInterval(() => {
      const now = Date.now();
      for (const id of this.remote) {
        const meta = this.awareness.meta.get(id);
        if (meta) meta.lastUpdated = now;
      }
    }, RENEW_EVERY_MS);
  }

  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.page?.removeEventListener("pagehide", this.onPageHide);
    this.page?.removeEventListener("pageshow", this.onPageShow);
    this.awareness.off("change", this.handleChange);
    this.unsubscribe();
    clearInterval(this.beat);
    clearInterval(this.renew);
    if (this.sendTimer) clearTimeout(this.sendTimer);
    mutate(this.client, api.presence.leave, { room: this.room, sessionId: this.sessionId }).catch(() => {});
  }

  private localWire(): Wire {
    const state = this.awareness.getLocalState();
    // presence stores Convex values: plain JSON (no undefined)
    return {
      yjs: {
        clientId: this.awareness.clientID,
        clock: this.clock,
        state: state === null ? null : (JSON.parse(JSON.stringify(state)) as Record<string, unknown>),
      },
    };
  }

  private readonly onPageHide = () => {
    if (this.destroyed || this.hidden) return;
    this.hidden = true;
    mutate(this.client, api.presence.leave, { room: this.room, sessionId: this.sessionId }).catch(() => {});
  };

  private readonly onPageShow = () => {
    if (this.destroyed || !this.hidden) return;
    this.hidden = false;
    this.heartbeat();
  };

  private heartbeat() {
    if (this.destroyed || this.hidden) return;
    mutate(this.client, api.presence.heartbeat, {
      room: this.room,
      sessionId: this.sessionId,
      state: this.localWire(),
    }).catch((e: Error) => this.onError(e));
  }

  private handleChange = (changes: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
    if (origin !== "local") return;
    const me = this.awareness.clientID;
    if (![...changes.added, ...changes.updated, ...changes.removed].includes(me)) return;
    this.clock += 1;
    if (this.sendTimer) return;
    const wait = Math.max(0, this.lastSentAt + SEND_EVERY_MS - Date.now());
    this.sendTimer = setTimeout(() => {
      this.sendTimer = null;
      this.lastSentAt = Date.now();
      if (this.destroyed) return;
      mutate(this.client, api.presence.setState, {
        room: this.room,
        sessionId: this.sessionId,
        state: this.localWire(),
      }).catch((e: Error) => this.onError(e));
    }, wait);
  };

  private applyEntries(entries: Entry[]) {
    if (this.destroyed) return;
    const now = Date.now();
    const seen = new Set<number>();
    const added: number[] = [];
    const updated: number[] = [];
    const removed: number[] = [];
    for (const e of entries) {
      if (e.sessionId === this.sessionId) continue;
      const y = wire(e.state);
      if (!y || y.clientId === this.awareness.clientID) continue;
      seen.add(y.clientId);
      const prev = this.awareness.states.get(y.clientId);
      if (y.state === null) {
        if (prev) {
          this.awareness.states.delete(y.clientId);
          removed.push(y.clientId);
        }
        continue;
      }
      const user = {
        ...((y.state.user as Record<string, unknown> | undefined) ?? {}),
        name: e.name,
        color: e.color,
        userId: e.userId,
        image: e.image ?? null,
      };
      const state = { ...y.state, user };
      this.awareness.states.set(y.clientId, state);
      this.awareness.meta.set(y.clientId, { clock: y.clock, lastUpdated: now });
      if (!prev) added.push(y.clientId);
      else if (JSON.stringify(prev) !== JSON.stringify(state)) updated.push(y.clientId);
    }
    for (const id of this.remote) {
      if (!seen.has(id) && this.awareness.states.has(id)) {
        this.awareness.states.delete(id);
        removed.push(id);
      }
    }
    this.remote = seen;
    if (added.length + updated.length + removed.length > 0) {
      this.awareness.emit("change", [{ added, updated, removed }, "presence"]);
      this.awareness.emit("update", [{ added, updated, removed }, "presence"]);
    }
  }
}
