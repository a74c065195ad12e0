/**
 * The Email Blast Dashboard (spec/2 §2.2): the tab kept in `?tab=` (navigation values lead to
 * Automated; Statistics only for a sent campaign), the campaign picker, Inbox, Send To's shared
 * setup saved change by change with its base, the exclusions, and no axe violations.
 */
import { getFunctionName } from "convex/server";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { button, click, expectNoAxeViolations, flush, mount, type, type Mounted } from "../../support/render";

const campaigns = [
  {
    id: "c1",
    name: "October newsletter",
    subject: "Early voting starts Monday",
    status: "draft",
    version: 1,
    updatedAt: 1_700_000_000_000,
    updatedByName: "Ada",
    sentAt: null,
    scheduledAt: null,
  },
  {
    id: "c2",
    name: "Thank you",
    subject: "",
    status: "sent",
    version: 2,
    updatedAt: 1_690_000_000_000,
    updatedByName: "Ada",
    sentAt: 1_690_000_000_000,
    scheduledAt: null,
  },
];
const setup = {
  listIds: ["l1"],
  groupIds: [],
  segmentIds: [],
  manual: ["ada@example.org"],
  excludeBounced: true,
  excludeComplained: true,
  sendType: "now",
  scheduledAt: null,
  eventTrigger: "voter_created",
  eventTargetId: null,
  eventRules: [],
  filterRules: [],
  eventRulesJson: "[]",
  filterRulesJson: "[]",
  status: "draft",
  sentAt: null,
};
const state = {
  campaigns,
  lists: [] as unknown[],
};
const DEFAULT_LISTS = [
  {
    id: "l1",
    name: "All Contacts",
    description: null,
    subscriptionType: "all_voters",
    isActive: true,
    contactCount: 1200,
  },
  {
    id: "l2",
    name: "Newsletter Subscribers",
    description: null,
    subscriptionType: "manual",
    isActive: true,
    contactCount: 1,
  },
];
const mutations = new Map<string, ReturnType<typeof vi.fn>>();
const mutation = (name: string) => {
  if (!mutations.has(name))
    mutations.set(
      name,
      vi.fn(async () => null),
    );
  return mutations.get(name)!;
};
const QUERIES: Record<string, () => unknown> = {
  "emailCampaigns:list": () => state.campaigns,
  "emailTemplates:list": () => [],
  "emailBlasts:setup": () => setup,
  "emailBlasts:estimate": () => ({ total: 1201, lists: 1200, groups: 0, segments: 0, manual: 1 }),
  "emailLists:list": () => state.lists,
  "emailSegments:list": () => [
    {
      id: "s1",
      name: "Young voters",
      description: null,
      rules: [],
      cachedCount: 40,
      lastRefreshedAt: null,
      refreshing: false,
    },
  ],
  "groups:list": () => [{ _id: "g1", name: "Volunteers", description: null, memberCount: 3 }],
};
vi.mock("convex/react", () => ({
  useQuery: (ref: unknown, args: unknown) => (args === "skip" ? undefined : QUERIES[getFunctionName(ref as never)]?.()),
  useMutation: (ref: unknown) => mutation(getFunctionName(ref as never)),
  useAction: () => vi.fn(),
  useConvex: () => ({}),
}));
const toast = vi.hoisted(() => ({
  success: vi.fn(),
  error: vi.fn(),
  info: vi.fn(),
  warning: vi.fn(),
  failure: vi.fn(),
}));
vi.mock("@/ui/toast", () => ({ toast, errorMessage: (e: unknown) => String(e) }));
vi.mock("@/session/ViewerProvider", () => ({ useViewer: () => ({ can: () => true, me: { userId: "u1" } }) }));
// the builder and the other helpers' panels are tested on their own
vi.mock("@/features/email/blasts/CreateEditTab", () => ({
  CreateEditTab: ({ campaignParam }: { campaignParam: string }) => (
    <div data-testid="builder">builder {campaignParam}</div>
  ),
}));
vi.mock("@/features/email/blasts/StatisticsTab", () => ({
  StatisticsTab: () => <div data-testid="statistics">statistics</div>,
}));
vi.mock("@/features/email/blasts/SendProgress", () => ({ SendProgress: () => null }));

const { EmailPage } = await import("@/features/email/EmailPage");

describe("Email Blast Dashboard", () => {
  let m: Mounted;
  beforeEach(() => {
    mutations.clear();
    Object.values(toast).forEach((f) => f.mockReset());
    state.campaigns = campaigns;
    state.lists = DEFAULT_LISTS;
  });
  afterEach(() => m.unmount());
  const render = (url: string) =>
    (m = mount(
      <MemoryRouter initialEntries={[url]}>
        <EmailPage />
      </MemoryRouter>,
    ));
  // a Radix Themes tab renders its label twice (once hidden, to reserve the bold width)
  const label = (t: Element | null) => t?.querySelector(".rt-TabsTriggerInner")?.textContent;
  const tabs = () => [...m.container.querySelectorAll("[role=tab]")].map(label);
  const selectedTab = () => label(m.container.querySelector("[role=tab][aria-selected=true]"));

  test("navigation values schedule, setup and automate open Automated", () => {
    for (const t of ["schedule", "setup", "automate"]) {
      render(`/email?tab=${t}&campaign=c1`);
      expect(selectedTab()).toBe("Automated");
      m.unmount();
    }
    render("/email?tab=inbox&campaign=c1");
    expect(selectedTab()).toBe("Inbox");
  });

  test("Statistics is shown only for a sent campaign", () => {
    render("/email?tab=statistics&campaign=c1");
    expect(tabs()).toEqual(["Create & Edit", "Inbox", "Send To", "Automated"]);
    expect(selectedTab()).toBe("Create & Edit");
    m.unmount();
    render("/email?tab=statistics&campaign=c2");
    expect(tabs()).toContain("Statistics");
    expect(selectedTab()).toBe("Statistics");
    expect(m.container.querySelector("[data-testid=statistics]")).not.toBeNull();
  });

  test("the picker says when there are no campaigns; a new campaign must be saved before Send To", () => {
    state.campaigns = [];
    render("/email?tab=send-to");
    expect(m.container.querySelector("[data-testid='email.dashboard.picker']")!.textContent).toBe(
      "No campaigns available",
    );
    expect(m.container.textContent).toContain("Save the campaign first");
  });

  test("Inbox lists subject, name and status; opening one shows Create & Edit", async () => {
    render("/email?tab=inbox");
    const items = m.container.querySelectorAll("[data-testid='email.inbox.item']");
    expect(items).toHaveLength(2);
    expect(items[0].textContent).toContain("Early voting starts Monday");
    expect(items[0].textContent).toContain("October newsletter");
    expect(items[1].textContent).toContain("No subject");
    expect(items[1].textContent).toContain("sent");
    await expectNoAxeViolations(m.container);
    click(items[0]);
    expect(selectedTab()).toBe("Create & Edit");
    expect(m.container.querySelector("[data-testid=builder]")!.textContent).toBe("builder c1");
  });

  test("Send To: counts, the estimate, exclusions; each change is saved with its base", async () => {
    render("/email?tab=send-to&campaign=c1");
    const text = m.container.textContent;
    expect(text).toContain("1,200 voters");
    expect(text).toContain("1 contact");
    expect(text).toContain("1,201");
    expect(text).toMatch(/estimate/i);
    const unsubscribed = [...m.container.querySelectorAll("label")]
      .find((l) => l.textContent?.includes("Exclude unsubscribed"))!
      .querySelector("[role=checkbox]")!;
    expect(unsubscribed.getAttribute("aria-checked")).toBe("true");
    expect(unsubscribed.hasAttribute("disabled")).toBe(true);
    expect(text).toContain("Unsubscribed addresses are never sent to: the law requires it.");

    const newsletter = [...m.container.querySelectorAll("label")]
      .find((l) => l.textContent?.includes("Newsletter Subscribers"))!
      .querySelector("[role=checkbox]")!;
    click(newsletter);
    await flush();
    const update = mutations.get("emailBlasts:updateSetup")!;
    expect(update).toHaveBeenLastCalledWith({
      id: "c1",
      edits: [{ field: "listIds", base: ["l1"], value: ["l1", "l2"] }],
    });

    type(
      m.container.querySelector<HTMLTextAreaElement>("[data-testid='email.manual'] textarea")!,
      "Grace@example.org, nobody, ada@example.org",
    );
    click(button(m.container, "Add addresses"));
    await flush();
    expect(update).toHaveBeenLastCalledWith({
      id: "c1",
      edits: [{ field: "manual", base: ["ada@example.org"], value: ["ada@example.org", "grace@example.org"] }],
    });
    expect(m.container.textContent).toContain("1 added, 1 duplicate skipped, 1 without @ ignored");
    await expectNoAxeViolations(m.container);
  });

  test("Send To: a refused change names the teammate", async () => {
    const { ConvexError } = await import("convex/values");
    const conflict = new ConvexError({
      code: "CONFLICT",
      message: 'The campaign "X" was changed by Grace while you were editing: bounced exclusion',
      title: "Edit conflict",
      conflicts: [{ field: "excludeBounced", theirs: false, by: "Grace" }],
    });
    mutation("emailBlasts:updateSetup").mockRejectedValueOnce(conflict);
    render("/email?tab=send-to&campaign=c1");
    const bounced = [...m.container.querySelectorAll("label")]
      .find((l) => l.textContent?.includes("Exclude bounced"))!
      .querySelector("[role=checkbox]")!;
    click(bounced);
    await flush();
    expect(toast.failure).toHaveBeenCalledWith("Edit conflict", conflict);
    // the screen goes back to the stored value
    expect(bounced.getAttribute("aria-checked")).toBe("true");
  });

  test("an unsaved How to send choice survives a switch to another tab and back", async () => {
    const { act } = await import("react");
    const showTab = (name: string) =>
      act(() => {
        const trigger = [...m.container.querySelectorAll("[role=tab]")].find((t) => label(t) === name)!;
        trigger.dispatchEvent(new MouseEvent("mousedown", { bubbles: true, button: 0 }));
      });
    render("/email?tab=automated&campaign=c1");
    click(m.container.querySelector("[role=radio][value=schedule]"));
    expect(m.container.textContent).toContain("Unsaved changes");
    showTab("Send To");
    expect(selectedTab()).toBe("Send To");
    showTab("Automated");
    expect(selectedTab()).toBe("Automated");
    expect(m.container.querySelector("[role=radio][value=schedule]")!.getAttribute("aria-checked")).toBe("true");
    expect(m.container.textContent).toContain("Unsaved changes");
    await expectNoAxeViolations(m.container);
  });

  test("the default lists are created once when the organisation has none", async () => {
    state.lists = [];
    render("/email?tab=send-to&campaign=c1");
    await flush();
    expect(mutations.get("emailLists:ensureDefaults")).toHaveBeenCalledTimes(1);
  });
});
