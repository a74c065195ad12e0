/**
 * /audit-log with Convex mocked (issue 39): audit.view only ('Access Restricted' otherwise); rows
 * (time in the user's zone, actor and impersonated role, action label, target linked for voters,
 * summary) that open to their changes, request id and hash; new entries show live; the URL's
 * filters are the query's arguments and editing them changes both; Verify chain's outcome in
 * plain words; Export CSV pages with the filters and downloads one file; retention shows the
 * server's refusal; no axe violations on a phone (390 px) or a desktop.
 */
import { getFunctionName } from "convex/server";
import { ConvexError } from "convex/values";
import { useLocation } from "react-router-dom";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { setDisplayTimeZone, zonedDayStart } from "@/lib/dateTime";
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

type Entry = Record<string, unknown> & { _id: string; seq: number };
type ExportPage = { header: string[]; rows: string[][]; isDone: boolean; continueCursor: string };

const state = {
  permissions: new Set<string>(),
  entries: [] as Entry[],
  listArgs: undefined as unknown,
  actors: undefined as { id: string | null; name: string }[] | undefined,
  settings: { retentionDays: 1461, minRetentionDays: 1461 } as unknown,
  verify: vi.fn(async (_args: unknown): Promise<unknown> => ({ ok: true, entries: 12 })),
  exportCsv: vi.fn(async (_args: unknown): Promise<ExportPage> => ({
    header: [],
    rows: [],
    isDone: true,
    continueCursor: "",
  })),
  setRetention: vi.fn(async (_args: unknown): Promise<null> => null),
  downloads: [] as { text: string; name: string }[],
  loadMore: vi.fn(),
};

vi.mock("convex/react", () => ({
  useQuery: (ref: unknown, args: unknown) => {
    if (args === "skip") return undefined;
    const name = getFunctionName(ref as never);
    if (name === "audit:actors") return state.actors;
    if (name === "audit:settings") return state.settings;
    return undefined;
  },
  usePaginatedQuery: (ref: unknown, args: unknown) => {
    if (getFunctionName(ref as never) === "audit:list") state.listArgs = args;
    if (args === "skip") return { results: [], status: "LoadingFirstPage", loadMore: state.loadMore, isLoading: true };
    return { results: state.entries, status: "CanLoadMore", loadMore: state.loadMore, isLoading: false };
  },
  useAction: () => state.verify,
  useMutation: (ref: unknown) =>
    getFunctionName(ref as never) === "audit:exportCsv" ? state.exportCsv : state.setRetention,
}));
vi.mock("@/session/ViewerProvider", () => ({ useViewer: () => ({ can: (p: string) => state.permissions.has(p) }) }));
vi.mock("@/lib/csv", async (original) => ({
  ...(await original<typeof import("@/lib/csv")>()),
  downloadCsv: (text: string, name: string) => state.downloads.push({ text, name }),
}));
vi.mock("@/ui/toast", async (original) => ({
  ...(await original<typeof import("@/ui/toast")>()),
  toast: { success: vi.fn(), failure: vi.fn(), error: vi.fn() },
}));

const { AuditLogPage } = await import("@/features/admin/AuditLogPage");

const ZONE = "America/Chicago";
const AT = Date.UTC(2026, 5, 3, 21, 5, 9); // 4:05:09 PM in Chicago (CDT)
const ENTRY: Entry = {
  _id: "e2",
  _creationTime: AT,
  orgId: "o1",
  seq: 2,
  at: AT,
  actorId: "u1",
  actorName: "Ada Lovelace",
  impersonatedRole: "volunteer",
  requestId: "a1b2c3d4e5f6a1b2c3d4e5f6",
  action: "voter.update",
  target: { table: "voters", id: "v1", label: "Grace Hopper" },
  summary: "Changed 1 field of voter Grace Hopper.",
  changes: [{ field: "email", from: "grace@example.org", to: "grace@navy.mil" }],
  prevHash: "1".repeat(64),
  hash: "f".repeat(64),
};
const OLDER: Entry = {
  ...ENTRY,
  _id: "e1",
  seq: 1,
  at: AT - 60_000,
  actorId: null,
  actorName: "Twilio",
  impersonatedRole: null,
  action: "webhook.sms",
  target: { table: "smsOptOuts", id: "+15035550101", label: "+15035550101" },
  summary: "STOP from +15035550101.",
  changes: [],
};

function Where() {
  const l = useLocation();
  return <output data-testid="location">{l.search}</output>;
}

const text = (el: Element | null | undefined) => el?.textContent ?? "";

describe("AuditLogPage", () => {
  let r: MountedRoot;
  beforeAll(() => setDisplayTimeZone(ZONE));
  afterAll(() => setDisplayTimeZone(null));
  beforeEach(() => {
    r = mountRoot();
    state.permissions = new Set(["audit.view", "organization.manage", "voters.view"]);
    state.entries = [ENTRY, OLDER];
    state.actors = [
      { id: null, name: "Twilio" },
      { id: "u1", name: "Ada Lovelace" },
    ];
    state.settings = { retentionDays: 1461, minRetentionDays: 1461 };
    state.listArgs = undefined;
    state.downloads = [];
    for (const f of [state.verify, state.exportCsv, state.setRetention, state.loadMore]) f.mockClear();
  });
  afterEach(() => r.unmount());
  const show = (path = "/audit-log") =>
    r.render(
      <>
        <AuditLogPage />
        <Where />
      </>,
      path,
    );

  test("without audit.view: Access Restricted, and the log is not asked for", () => {
    state.permissions = new Set(["voters.view", "voters.manage"]);
    show();
    const refusal = byTestId(r.container, "admin.accessRestricted");
    expect(text(refusal)).toContain("Access Restricted");
    expect(text(refusal)).toContain("You need Account Administrator privileges to view the audit log.");
    expect(byTestId(r.container, "audit.table")).toBeNull();
    expect(state.listArgs).toBe("skip");
  });

  test("rows: time in the user's zone, actor as the role tried on, action label, voter linked, summary; details open", () => {
    show();
    const rows = allByTestId(r.container, "audit.row");
    expect(rows.map((x) => x.dataset.seq)).toEqual(["2", "1"]);
    expect(text(byTestId(rows[0], "audit.time"))).toBe("Jun 3, 2026, 4:05:09 PM");
    expect(text(byTestId(rows[0], "audit.actor"))).toBe("Ada Lovelace as Volunteer");
    expect(text(byTestId(rows[0], "audit.action"))).toBe("Voter changed");
    expect(byTestId(rows[0], "audit.target")!.querySelector("a")?.getAttribute("href")).toBe("/voters/v1");
    expect(text(byTestId(rows[0], "audit.summary"))).toBe("Changed 1 field of voter Grace Hopper.");
    expect(text(byTestId(rows[1], "audit.actor"))).toBe("Twilio");
    expect(text(byTestId(rows[1], "audit.action"))).toBe("SMS opt-out or opt-in (webhook)");
    expect(byTestId(rows[1], "audit.target")!.querySelector("a")).toBeNull();

    expect(byTestId(r.container, "audit.details")).toBeNull();
    const toggle = button(rows[0], "Show details of entry #2")!;
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    click(toggle);
    const details = byTestId(r.container, "audit.details")!;
    expect(allByTestId(details, "audit.change").map(text)).toEqual(["email: grace@example.org → grace@navy.mil"]);
    expect(text(byTestId(details, "audit.requestId"))).toBe("a1b2c3d4e5f6a1b2c3d4e5f6");
    expect(text(byTestId(details, "audit.hash"))).toBe("f".repeat(64));
    expect(button(rows[0], "Hide details of entry #2")!.getAttribute("aria-expanded")).toBe("true");
  });

  test("live: an entry the subscription delivers shows at the top without a reload", () => {
    show();
    expect(allByTestId(r.container, "audit.row")).toHaveLength(2);
    state.entries = [
      { ...ENTRY, _id: "e3", seq: 3, action: "export", summary: "Exported 2 voters as CSV." },
      ENTRY,
      OLDER,
    ];
    r.rerender(<AuditLogPage />);
    const rows = allByTestId(r.container, "audit.row");
    expect(rows.map((x) => x.dataset.seq)).toEqual(["3", "2", "1"]);
    expect(text(byTestId(rows[0], "audit.action"))).toBe("Export");
    click(button(r.container, "Load more"));
    expect(state.loadMore).toHaveBeenCalledWith(50);
  });

  test("filters: the URL's are the query's arguments; editing them changes the URL and the query", () => {
    show("/audit-log?actor=u1&action=export&target=v1&from=2026-06-01&to=2026-06-02");
    expect(state.listArgs).toEqual({
      actorId: "u1",
      action: "export",
      targetId: "v1",
      from: Date.UTC(2026, 5, 1, 5), // midnight in Chicago (CDT, UTC-5)
      to: Date.UTC(2026, 5, 3, 5), // the end date is included: up to the next day's midnight
    });
    expect(zonedDayStart("2026-06-01", false, ZONE)).toBe(Date.UTC(2026, 5, 1, 5));
    expect(text(byTestId(r.container, "audit.filter.actor"))).toBe("Ada Lovelace");
    expect(text(byTestId(r.container, "audit.filter.action"))).toBe("Export");

    type(byTestId(r.container, "audit.filter.target") as HTMLInputElement, "k57abc");
    expect(state.listArgs).toMatchObject({ targetId: "k57abc" });
    expect(text(byTestId(r.container, "location"))).toContain("target=k57abc");
    type(byTestId(r.container, "audit.filter.from") as HTMLInputElement, "");
    expect(state.listArgs).not.toHaveProperty("from");
    expect(text(byTestId(r.container, "location"))).not.toContain("from=");

    click(button(r.container, "Clear filters"));
    expect(state.listArgs).toEqual({});
    expect(text(byTestId(r.container, "location"))).toBe("");
  });

  test("filters: the system actor is the null actor; an actor id the list does not know is not sent; a voter picked shows by name", () => {
    show("/audit-log?actor=system");
    expect(state.listArgs).toEqual({ actorId: null });
    state.actors = undefined;
    show("/audit-log?actor=u9");
    expect(state.listArgs).toBe("skip");
    state.actors = [{ id: "u1", name: "Ada Lovelace" }];
    show("/audit-log?actor=u9&action=nonsense");
    expect(state.listArgs).toEqual({});
    show("/audit-log?target=v1&targetName=Grace+Hopper");
    expect(state.listArgs).toEqual({ targetId: "v1" });
    expect(text(byTestId(r.container, "audit.filter.targetChip"))).toContain("Voter: Grace Hopper");
    click(button(r.container, "Clear the target"));
    expect(state.listArgs).toEqual({});
  });

  test("Verify chain: verified with the count, or where the chain breaks and why, in plain words", async () => {
    show();
    click(button(r.container, "Verify chain"));
    await flush();
    expect(state.verify).toHaveBeenCalledWith({});
    expect(text(byTestId(r.container, "audit.verifyResult"))).toBe("Chain verified: 12 entries");

    const failures = {
      hash: "Chain broken at entry #7: the entry was changed after it was recorded: its contents no longer match its hash.",
      prevHash:
        "Chain broken at entry #7: the entry does not follow on from the one before it: an earlier entry was changed or replaced.",
      missing: "Chain broken at entry #7: the entry is missing: it was deleted from the log.",
    };
    for (const [reason, expected] of Object.entries(failures)) {
      state.verify.mockResolvedValueOnce({ ok: false, seq: 7, entryId: null, reason, checked: 6 });
      click(button(r.container, "Verify chain"));
      await flush();
      expect(text(byTestId(r.container, "audit.verifyResult"))).toBe(expected);
    }
    state.verify.mockResolvedValueOnce({ ok: true, entries: 1 });
    click(button(r.container, "Verify chain"));
    await flush();
    expect(text(byTestId(r.container, "audit.verifyResult"))).toBe("Chain verified: 1 entry");
  });

  test("Export CSV: pages through exportCsv with the current filters, then downloads one CSV", async () => {
    const header = ["seq", "summary"];
    state.exportCsv
      .mockResolvedValueOnce({ header, rows: [["2", "=cmd"]], isDone: false, continueCursor: "c1" })
      .mockResolvedValueOnce({ header, rows: [["1", "STOP"]], isDone: true, continueCursor: "c2" });
    show("/audit-log?action=export");
    click(byTestId(r.container, "audit.export"));
    await flush();
    await flush();
    expect(state.exportCsv.mock.calls.map((c) => c[0])).toEqual([
      { action: "export", cursor: null },
      { action: "export", cursor: "c1" },
    ]);
    expect(state.downloads).toHaveLength(1);
    expect(state.downloads[0].name).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    // toCsv: quoted, formulas neutralised
    expect(state.downloads[0].text).toBe('"seq","summary"\r\n"2","\'=cmd"\r\n"1","STOP"');
  });

  test("retention: shown to audit.view; organization.manage changes it; below four years shows the server's refusal", async () => {
    show();
    expect(text(byTestId(r.container, "audit.retention.current"))).toContain("Entries are kept for 1,461 days");
    const input = byTestId(r.container, "audit.retention.days") as HTMLInputElement;
    expect(input.value).toBe("1461");
    const refusal = "Keep the audit log for at least 1461 days (four years, the consent record minimum).";
    state.setRetention.mockRejectedValueOnce(new ConvexError({ code: "VALIDATION_ERROR", message: refusal }));
    type(input, "365");
    click(button(r.container, "Save retention"));
    await flush();
    expect(state.setRetention).toHaveBeenCalledWith({ days: 365 });
    expect(text(byTestId(r.container, "audit.retention.error"))).toBe(refusal);
    // typing again clears it; a valid value is saved
    type(input, "2000");
    expect(byTestId(r.container, "audit.retention.error")).toBeNull();
    click(button(r.container, "Save retention"));
    await flush();
    expect(state.setRetention).toHaveBeenLastCalledWith({ days: 2000 });
    expect(byTestId(r.container, "audit.retention.error")).toBeNull();

    // without organization.manage: read only
    state.permissions = new Set(["audit.view"]);
    show();
    expect(text(byTestId(r.container, "audit.retention.current"))).toContain("1,461 days");
    expect(byTestId(r.container, "audit.retention.days")).toBeNull();
  });

  for (const [name, width] of [
    ["a phone (390 px)", 390],
    ["a desktop", 1280],
  ] as const) {
    test(`accessible on ${name}: rows, an open entry, a verify result, the filters and retention`, async () => {
      const matchMedia = window.matchMedia;
      const innerWidth = window.innerWidth;
      Object.defineProperty(window, "innerWidth", { configurable: true, value: width });
      window.matchMedia = ((query: string) => {
        const max = /max-width:\s*([\d.]+)px/.exec(query);
        const min = /min-width:\s*([\d.]+)px/.exec(query);
        const matches = (max ? width <= Number(max[1]) : true) && (min ? width >= Number(min[1]) : true);
        return {
          matches,
          media: query,
          addEventListener() {},
          removeEventListener() {},
          addListener() {},
          removeListener() {},
        };
      }) as never;
      try {
        show();
        click(button(r.container, "Show details of entry #2"));
        click(button(r.container, "Verify chain"));
        await flush();
        await expectNoAxeViolations(r.container);
      } finally {
        window.matchMedia = matchMedia;
        Object.defineProperty(window, "innerWidth", { configurable: true, value: innerWidth });
      }
    });
  }
});
