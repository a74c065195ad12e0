/**
 * The sync loop as the app runs it (useOutboxSync) against a fake canvass.sync: nothing is sent
 * offline; coming online sends the outbox in order and empties it; results recorded while a send
 * is under way go next; a failed send is tried again after a pause; a refused session shows "Sign in".
 */
import "fake-indexeddb/auto";
import { act } from "react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { CanvassSession } from "@/features/canvass/hooks/useCanvassSession";
import { CanvassStoreContext } from "@/features/canvass/hooks/useLocalCopy";
import { CanvassStore, type CanvassEvent, type NewAction } from "@/features/canvass/utils/store";
import { flush, mount, type Mounted } from "../../support/render";

type Call = { listId: string; events: CanvassEvent[] };
const server = {
  calls: [] as Call[],
  recorded: new Set<string>(),
  fail: null as Error | null,
  async sync(args: Call) {
    server.calls.push(args);
    if (server.fail) throw server.fail;
    return {
      outcomes: args.events.map((e) => {
        const seen = server.recorded.has(e.clientId);
        server.recorded.add(e.clientId);
        return { clientId: e.clientId, status: seen ? "duplicate" : "recorded", eventId: null, message: null };
      }),
    };
  },
};
vi.mock("convex/react", () => ({ useMutation: () => (args: Call) => server.sync(args) }));

const { useOutboxSync } = await import("@/features/canvass/hooks/useOutboxSync");

const U = "user_1";
const USER = { userId: U, orgId: "o", name: "Val", canCanvass: true, canEditVoters: true };
const session = (connection: CanvassSession["connection"], over: Partial<CanvassSession> = {}): CanvassSession => ({
  user: USER,
  remembered: USER,
  live: true,
  connection,
  signedOut: false,
  checking: false,
  ...over,
});
const act1 = (door: number): NewAction => ({
  doorId: `door_${door}` as NewAction["doorId"],
  voterId: null,
  result: "not_home",
  answers: null,
  notes: null,
});

let store: CanvassStore;
let m: Mounted;
let shown: ReturnType<typeof useOutboxSync>;
function Probe({ s }: { s: CanvassSession }) {
  shown = useOutboxSync(s);
  return null;
}
const render = (s: CanvassSession) =>
  act(() =>
    m.root.render(
      <CanvassStoreContext.Provider value={store}>
        <Probe s={s} />
      </CanvassStoreContext.Provider>,
    ),
  );
async function until(check: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await flush();
  }
  throw new Error(`never: ${what}`);
}

beforeEach(() => {
  store = new CanvassStore(`sync-hook-${Math.random()}`);
  server.calls = [];
  server.recorded = new Set();
  server.fail = null;
  m = mount(null);
});
afterEach(() => {
  m.unmount();
  store.close();
});

describe("useOutboxSync", () => {
  test("offline nothing is sent; online the outbox goes in order, once, and what is recorded meanwhile follows", async () => {
    for (let i = 1; i <= 20; i++) await store.record(U, "list_1", act1(i), `${i}`, 1_000 + i);
    render(session("offline"));
    await until(() => shown.waiting === 20, "20 waiting");
    await flush();
    expect(server.calls).toEqual([]);

    render(session("online"));
    await until(async () => (await store.waitingCount(U)) === 0, "sent");
    expect(server.calls.flatMap((c) => c.events.map((e) => e.seq))).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(server.recorded.size).toBe(20);
    await until(() => shown.waiting === 0 && !shown.sending, "synced");

    await store.record(U, "list_1", act1(21), "21", 5_000);
    await until(() => server.recorded.size === 21, "the next one sent on its own");
    expect(server.calls.length).toBe(2);
  });

  test("a send that fails is tried again after a pause; the outbox keeps everything meanwhile", async () => {
    await store.record(U, "list_1", act1(1), "1", 1_000);
    server.fail = new Error("Connection lost while action was in flight");
    render(session("online"));
    await until(() => server.calls.length === 1 && !shown.sending, "the first try");
    expect(await store.waitingCount(U)).toBe(1);
    server.fail = null;
    // not at once (a pause of 2 s), then again on its own
    await act(async () => {
      await new Promise((res) => setTimeout(res, 500));
    });
    expect(server.calls.length).toBe(1);
    await act(async () => {
      await new Promise((res) => setTimeout(res, 2_000));
    });
    await until(async () => (await store.waitingCount(U)) === 0, "the retry");
    expect(server.calls.length).toBe(2);
  });

  test("the server refusing the session: the results stay and the app asks to sign in", async () => {
    const { ConvexError } = await import("convex/values");
    await store.record(U, "list_1", act1(1), "1", 1_000);
    server.fail = new ConvexError({ code: "UNAUTHORIZED", message: "Please log in to continue." });
    render(session("online"));
    await until(() => shown.needsSignIn, "sign in");
    expect(await store.waitingCount(U)).toBe(1);
    // signed out, the state still counts the member's waiting results
    render(session("online", { user: null, live: false, signedOut: true }));
    await until(() => shown.waiting === 1, "counted");
  });
});
