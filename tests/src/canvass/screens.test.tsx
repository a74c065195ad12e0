/**
 * The field app's screens (/canvass, /canvass/:listId) on a real local store (fake-indexeddb), with
 * the server's side mocked: the state bar's words in every state; the lists (ready offline, as last
 * seen); door by door: the seven results with their labels, a result saved to the outbox at once
 * and shown on the door before any sync, a contact with the script and a phone correction carrying
 * its base, Deceased without a voter stopped at the door; "Not accepted" kept and sent again; the
 * signed-out and first-visit-offline screens; no axe violation.
 */
// liveQuery (the screens' reads) watches the global IndexedDB
import "fake-indexeddb/auto";
import { act } from "react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { CanvassStoreContext } from "@/features/canvass/hooks/useLocalCopy";
import { stateOf } from "@/features/canvass/components/StateBar";
import { CanvassStore, type Bundle } from "@/features/canvass/utils/store";
import {
  allByTestId,
  button,
  byTestId,
  click,
  expectNoAxeViolations,
  flush,
  mountRoot,
  type,
  type MountedRoot,
} from "../../support/render";

const U = "user_val";
const LIST = "list_oak";

const state = {
  session: null as unknown,
  lists: undefined as unknown,
  claim: vi.fn(async () => ({ doors: [], held: 0 })),
};

vi.mock("@/lib/serviceWorker", () => ({ registerServiceWorker: async () => undefined, hasServiceWorker: () => false }));
vi.mock("@/features/canvass/components/CanvassMap", () => ({ CanvassMap: () => <div data-testid="canvass.map" /> }));
vi.mock("@/features/canvass/hooks/useCanvassSession", () => ({ useCanvassSession: () => state.session }));
vi.mock("@/features/canvass/hooks/useClaims", () => ({
  useClaims: () => ({ claim: state.claim, releaseAll: vi.fn(async () => 0) }),
}));
vi.mock("@/features/canvass/hooks/useGps", () => ({
  useGps: () => ({ consent: false, setConsent: () => {}, position: null, unavailable: false, stamp: () => undefined }),
}));
vi.mock("@/features/canvass/hooks/useMyLists", () => ({
  useMyLists: () => state.lists,
}));
// the server's side of the list and the sync loop: this device's copy only (useLocalCopy is real)
vi.mock("@/features/canvass/hooks/useListCopy", async () => {
  const { useLocalCopy } = await import("@/features/canvass/hooks/useLocalCopy");
  return {
    useListCopy: (_session: unknown, listId: string) => ({
      copy: useLocalCopy(async (s) => (await s.list(U, listId)) ?? null, [listId]),
      marks: useLocalCopy((s) => s.marksOf(U, listId), [listId]) ?? [],
      orgMap: null,
      problem: null,
      streets: "none",
      refresh: () => {},
    }),
  };
});
vi.mock("@/features/canvass/hooks/useOutboxSync", async () => {
  const { useLocalCopy } = await import("@/features/canvass/hooks/useLocalCopy");
  return {
    useOutboxSync: () => ({
      waiting: useLocalCopy((s) => s.waitingCount(U), []) ?? 0,
      sending: false,
      needsSignIn: false,
    }),
  };
});

const { CanvassListsPage } = await import("@/features/canvass/CanvassListsPage");
const { CanvassListPage } = await import("@/features/canvass/CanvassListPage");
const { Route, Routes } = await import("react-router-dom");

const USER = { userId: U, orgId: "org_1", name: "Val Volunteer", canCanvass: true, canEditVoters: true };
const session = (over: Record<string, unknown> = {}) => ({
  user: USER,
  remembered: USER,
  live: false,
  connection: "offline",
  signedOut: false,
  checking: false,
  ...over,
});

const field = (id: string, label: string, options: string[], required: boolean) => ({
  id,
  type: "radio" as const,
  label,
  placeholder: null,
  description: null,
  required,
  options,
  maxRating: null,
  ratingType: null,
  min: null,
  max: null,
  step: null,
  condition: null,
});

const BUNDLE = {
  list: { id: LIST, name: "Oak loop", status: "Active", expiresAt: Date.UTC(2030, 0, 1), open: true },
  survey: {
    id: "survey_1",
    name: "Doorstep script",
    pages: [
      {
        id: "p1",
        title: "Page 1",
        condition: null,
        fields: [field("support", "Will you support Lee?", ["Yes", "No"], true)],
      },
    ],
  },
  doors: [
    {
      order: 1,
      id: "door_1",
      lat: 39.8,
      lng: -89.6,
      address: "10 Oak St",
      unit: null,
      voters: [{ id: "voter_ann", name: "Ann Walker", age: 40, party: "DEM" }],
      voterCount: 1,
      claim: null,
    },
    {
      order: 2,
      id: "door_2",
      lat: 39.8001,
      lng: -89.6,
      address: "12 Oak St",
      unit: "2",
      voters: [
        { id: "voter_bo", name: "Bo Walker", age: 42, party: null },
        { id: "voter_cy", name: "Cy Walker", age: 19, party: "REP" },
      ],
      voterCount: 2,
      claim: null,
    },
    {
      order: 3,
      id: "door_3",
      lat: 39.8002,
      lng: -89.6,
      address: "14 Oak St",
      unit: null,
      voters: [],
      voterCount: 0,
      claim: "other",
    },
  ],
  states: [],
  myClaims: [],
} as unknown as Bundle;

let r: MountedRoot;
let store: CanvassStore;

/** Lets the local store's reads come back and render (liveQuery is asynchronous). */
async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 100; i++) {
    if (check()) return;
    await flush();
  }
  throw new Error(`never: ${what}\n${r.container.textContent?.slice(0, 600)}`);
}
const text = (el: Element | null | undefined) => el?.textContent ?? "";

function render(ui: React.ReactNode, path: string) {
  r.render(<CanvassStoreContext.Provider value={store}>{ui}</CanvassStoreContext.Provider>, path);
}
function renderList(door?: string) {
  render(
    <Routes>
      <Route path="/canvass/:listId" element={<CanvassListPage />} />
    </Routes>,
    `/canvass/${LIST}${door ? `?door=${door}` : ""}`,
  );
}

beforeEach(async () => {
  store = new CanvassStore(`canvass-screens-${Math.random()}`);
  await store.saveBundle(U, BUNDLE);
  await store.saveContacts(U, LIST, [{ voterId: "voter_ann", phone: "+12175550100", email: null }] as never);
  state.session = session();
  state.lists = { lists: undefined, savedAt: null, fromDevice: false, readyOffline: new Set() };
  r = mountRoot();
});
afterEach(() => {
  r.unmount();
  store.close();
});

describe("the state bar", () => {
  test("the same words everywhere: offline, connecting, syncing, synced, sign in", () => {
    const s = (connection: "online" | "offline" | "connecting", waiting: number, signIn = false) =>
      stateOf({ connection, waiting, signIn, refused: 0 }).text;
    expect(s("offline", 0)).toBe("Offline · nothing waiting");
    expect(s("offline", 20)).toBe("Offline · 20 waiting");
    expect(s("connecting", 3)).toBe("Connecting · 3 waiting");
    expect(s("online", 3)).toBe("Syncing · 3 waiting");
    expect(s("online", 0)).toBe("Synced");
    expect(s("online", 1, true)).toBe("Sign in to send 1 waiting result");
    expect(s("offline", 2, true)).toBe("Sign in to send 2 waiting results");
  });
});

describe("/canvass", () => {
  test("the assigned lists, which are ready offline, and as of when when offline", async () => {
    state.lists = {
      lists: [
        {
          id: LIST,
          name: "Oak loop",
          status: "Active",
          expiresAt: Date.UTC(2030, 0, 1),
          surveyName: "Doorstep script",
          doors: 3,
          knocked: 1,
          contacts: 0,
        },
        {
          id: "list_elm",
          name: "Elm row",
          status: "Active",
          expiresAt: Date.UTC(2030, 0, 1),
          surveyName: null,
          doors: 8,
          knocked: 0,
          contacts: 0,
        },
      ],
      savedAt: Date.UTC(2026, 5, 3, 15, 0),
      fromDevice: true,
      readyOffline: new Set([LIST]),
    };
    render(<CanvassListsPage />, "/canvass");
    await until(() => allByTestId(r.container, "canvass.list").length === 2, "the lists");
    const [oak, elm] = allByTestId(r.container, "canvass.list");
    expect(text(oak)).toContain("1 of 3 doors knocked · Doorstep script");
    expect(byTestId(oak, "canvass.list.ready")?.textContent).toBe("Ready offline");
    expect(byTestId(elm, "canvass.list.ready")).toBeNull();
    expect(text(elm)).toContain("Open it once while online to have it offline.");
    expect(text(byTestId(r.container, "canvass.lists.asOf"))).toMatch(/^Offline: your lists as of /);
    expect(text(byTestId(r.container, "canvass.state"))).toBe("Offline · nothing waiting");
    expect(oak.getAttribute("href")).toBe(`/canvass/${LIST}`);
    await expectNoAxeViolations(r.container);
  });

  test("no lists", async () => {
    state.session = session({ live: true, connection: "online" });
    state.lists = { lists: [], savedAt: null, fromDevice: false, readyOffline: new Set() };
    render(<CanvassListsPage />, "/canvass");
    await until(() => byTestId(r.container, "canvass.lists.empty") !== null, "the empty state");
    expect(text(byTestId(r.container, "canvass.lists.empty"))).toBe("No walk lists are assigned to you right now.");
    expect(text(byTestId(r.container, "canvass.state"))).toBe("Synced");
  });
});

describe("/canvass/:listId", () => {
  test("door by door: the seven results, a Not Home saved to the outbox and shown at once, on to the next door", async () => {
    renderList();
    await until(() => byTestId(r.container, "canvass.door") !== null, "the door");
    expect(text(byTestId(r.container, "canvass.door.position"))).toBe("Door 1 of 3");
    expect(text(byTestId(r.container, "canvass.door.name"))).toBe("10 Oak St");
    expect(text(byTestId(r.container, "canvass.door.state"))).toBe("Not knocked yet");
    expect(text(byTestId(r.container, "canvass.door"))).toContain("Ann Walker");
    const results = [...byTestId(r.container, "canvass.results")!.querySelectorAll("button")].map((b) => b.textContent);
    expect(results).toEqual(["Not Home", "Contacted", "Refused", "Come Back", "Moved", "Deceased", "Inaccessible"]);
    // the door held by a teammate is not offered as a next closest door
    expect(text(byTestId(r.container, "canvass.closest"))).toContain("12 Oak St, Apt 2");
    expect(text(byTestId(r.container, "canvass.closest"))).not.toContain("14 Oak St");
    await expectNoAxeViolations(r.container);

    click(button(r.container, "Not Home"));
    await until(() => byTestId(r.container, "canvass.record") !== null, "the record form");
    expect(r.container.querySelector("h2")?.textContent).toBe("Not Home at 10 Oak St");
    // nobody home concerns the door: that is where the form starts
    const whole = [...r.container.querySelectorAll("button[role=radio]")].find(
      (b) => b.textContent === "Everyone at this door",
    );
    expect(whole?.getAttribute("aria-checked")).toBe("true");
    click(byTestId(r.container, "canvass.save"));
    await until(() => byTestId(r.container, "canvass.door.position")?.textContent === "Door 2 of 3", "the next door");
    const [item] = await store.waiting(U, LIST);
    expect(item).toMatchObject({
      doorId: "door_1",
      voterId: null,
      result: "not_home",
      seq: 1,
      label: "10 Oak St · Not Home",
    });
    expect(text(byTestId(r.container, "canvass.saved"))).toBe("Saved on this device: 10 Oak St · Not Home.");
    await until(() => text(byTestId(r.container, "canvass.state")) === "Offline · 1 waiting", "the state bar");
    await until(() => text(byTestId(r.container, "canvass.list.progress")) === "1 of 3 doors knocked", "progress");
    // back at the first door, its result shows before any sync
    click(button(r.container, "Previous door"));
    await until(() => text(byTestId(r.container, "canvass.door.state")).startsWith("Not Home · "), "the door's state");
    expect(text(byTestId(r.container, "canvass.door"))).toContain("Waiting to sync");
  });

  test("a contact: the script's questions, a phone correction with its base; Deceased needs a voter", async () => {
    renderList("door_1");
    await until(() => byTestId(r.container, "canvass.door") !== null, "the door");
    click(button(r.container, "Contacted"));
    await until(() => byTestId(r.container, "canvass.script") !== null, "the script");
    // a talk at a door with one voter starts with them
    expect(
      [...r.container.querySelectorAll("button[role=radio]")]
        .find((b) => b.textContent?.startsWith("Ann Walker"))
        ?.getAttribute("aria-checked"),
    ).toBe("true");
    expect(text(byTestId(r.container, "canvass.script"))).toContain("Will you support Lee?");
    const phone = [...r.container.querySelectorAll<HTMLInputElement>("input[type=tel]")][0];
    expect(phone.value).toBe("+12175550100");
    type(phone, "217-555-0199");
    click(button(byTestId(r.container, "canvass.script")!, "Yes"));
    type(r.container.querySelector("textarea")!, "Wants a yard sign");
    await expectNoAxeViolations(r.container);
    click(byTestId(r.container, "canvass.save"));
    await until(() => byTestId(r.container, "canvass.record") === null, "saved");
    const [item] = await store.waiting(U, LIST);
    expect(item).toMatchObject({
      voterId: "voter_ann",
      result: "contacted",
      answers: { support: "Yes" },
      notes: "Wants a yard sign",
      edits: [{ field: "phone", base: "+12175550100", value: "217-555-0199" }],
      label: "10 Oak St · Contacted (Ann Walker)",
    });

    // door 2 has two voters: Deceased for the whole door is stopped at the door
    await until(() => byTestId(r.container, "canvass.door.position")?.textContent === "Door 2 of 3", "door 2");
    click(button(r.container, "Deceased"));
    await until(() => byTestId(r.container, "canvass.record") !== null, "the record form");
    click(byTestId(r.container, "canvass.save"));
    await flush();
    expect(text(r.container)).toContain("Choose the voter this result is about.");
    expect(await store.waitingCount(U)).toBe(1);
    click([...r.container.querySelectorAll("button[role=radio]")].find((b) => b.textContent?.startsWith("Cy Walker")));
    click(byTestId(r.container, "canvass.save"));
    await until(() => byTestId(r.container, "canvass.record") === null, "saved");
    expect((await store.waiting(U, LIST)).map((i) => [i.result, i.voterId])).toEqual([
      ["contacted", "voter_ann"],
      ["deceased", "voter_cy"],
    ]);
  });

  test("results the server did not accept stay in view with its sentence, and are sent again on request", async () => {
    const item = await store.record(
      U,
      LIST,
      { doorId: "door_2" as never, voterId: null, result: "moved", answers: null, notes: null },
      "12 Oak St, Apt 2 · Moved",
    );
    await store.applyOutcomes(
      [item],
      [
        {
          clientId: item.clientId,
          status: "refused",
          eventId: null,
          message: "This walk list is completed: results can no longer be recorded on it.",
        },
      ],
    );
    renderList("door_1");
    await until(() => byTestId(r.container, "canvass.notAccepted") !== null, "Not accepted");
    expect(text(byTestId(r.container, "canvass.notAccepted.item"))).toContain(
      "This walk list is completed: results can no longer be recorded on it.",
    );
    expect(text(byTestId(r.container, "canvass.state.refused"))).toBe("1 not accepted");
    await expectNoAxeViolations(r.container);
    click(button(byTestId(r.container, "canvass.notAccepted")!, "Send again"));
    await until(() => byTestId(r.container, "canvass.notAccepted") === null, "sent again");
    expect((await store.waiting(U, LIST)).map((i) => i.clientId)).toEqual([item.clientId]);
  });
});

describe("without a session", () => {
  test("the session ended with results waiting: sign in to send them; the device's lists go, the outbox stays", async () => {
    await store.record(
      U,
      LIST,
      { doorId: "door_1" as never, voterId: null, result: "not_home", answers: null, notes: null },
      "a",
    );
    await store.record(
      U,
      LIST,
      { doorId: "door_2" as never, voterId: null, result: "not_home", answers: null, notes: null },
      "b",
    );
    state.session = session({ user: null, signedOut: true, connection: "online" });
    renderList();
    await until(() => byTestId(r.container, "canvass.signedOut") !== null, "the sign-in screen");
    expect(button(r.container, "Sign in to send 2 waiting results")).toBeDefined();
    await until(
      () => text(byTestId(r.container, "canvass.state")) === "Sign in to send 2 waiting results",
      "the state bar",
    );
    await act(async () => {
      await new Promise((res) => setTimeout(res, 20));
    });
    expect(await store.list(U, LIST)).toBeUndefined();
    expect(await store.waitingCount(U)).toBe(2);
    expect(text(r.container)).not.toContain("Ann Walker");
  });

  test("offline on a device that never opened the field app: says so instead of waiting", async () => {
    state.session = session({ user: null, remembered: null, connection: "offline" });
    render(<CanvassListsPage />, "/canvass");
    await until(() => byTestId(r.container, "canvass.offlineFirstVisit") !== null, "the notice");
    expect(text(byTestId(r.container, "canvass.offlineFirstVisit"))).toMatch(/^You are offline\./);
  });
});
