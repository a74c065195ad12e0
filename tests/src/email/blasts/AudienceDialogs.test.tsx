/**
 * Send To's dialogs: New segment (name and complete rules required, rules sent as JSON text),
 * editing a segment sends only the changed fields with their base, and Manage list (contacts,
 * add voters or a group, remove) with accessible controls; without access to voters it asks for no
 * contacts and says why.
 */
import { getFunctionName } from "convex/server";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { button, click, expectNoAxeViolations, flush, mount, type, type Mounted } from "../../../support/render";

const mutations = new Map<string, ReturnType<typeof vi.fn>>();
const mutation = (name: string) => {
  if (!mutations.has(name))
    mutations.set(
      name,
      vi.fn(async () => null),
    );
  return mutations.get(name)!;
};
vi.mock("convex/react", () => ({
  useQuery: (ref: unknown, args: unknown) => {
    if (args === "skip") return undefined;
    const name = getFunctionName(ref as never);
    if (name === "groups:list") return [{ _id: "g1", name: "Volunteers", description: null, memberCount: 3 }];
    if (name === "emailSegments:editState") return { fields: {}, deleted: null };
    return undefined;
  },
  usePaginatedQuery: (_ref: unknown, args: unknown) =>
    args === "skip"
      ? { results: [], status: "LoadingFirstPage", loadMore: vi.fn(), isLoading: true }
      : {
          results: [{ voterId: "v1", name: "Ada Lovelace", email: "ada@example.org" }],
          status: "CanLoadMore",
          loadMore: vi.fn(),
          isLoading: false,
        },
  useMutation: (ref: unknown) => mutation(getFunctionName(ref as never)),
}));
const toast = vi.hoisted(() => ({
  success: vi.fn(),
  error: vi.fn(),
  info: vi.fn(),
  warning: vi.fn(),
  failure: vi.fn(),
}));
vi.mock("@/ui/toast", () => ({ toast, errorMessage: (e: unknown) => String(e) }));
const viewer = vi.hoisted(() => ({ seeVoters: true }));
vi.mock("@/session/ViewerProvider", () => ({
  useViewer: () => ({ can: (p: string) => p !== "voters.view" || viewer.seeVoters }),
}));

const { SegmentDialog } = await import("@/features/email/blasts/SegmentDialog");
const { ManageListDialog } = await import("@/features/email/blasts/ManageListDialog");

describe("audience dialogs", () => {
  let m: Mounted;
  beforeEach(() => {
    viewer.seeVoters = true;
    mutations.clear();
    Object.values(toast).forEach((f) => f.mockReset());
  });
  afterEach(() => m.unmount());
  const dialog = () => document.querySelector("[role=dialog]")!;

  test("New segment needs a name and complete rules", async () => {
    m = mount(<SegmentDialog open onOpenChange={() => {}} editId={null} segment={undefined} />);
    click(button(dialog(), "Create segment"));
    expect(toast.error).toHaveBeenLastCalledWith("Name required", { description: "Please enter a segment name." });
    type(dialog().querySelector<HTMLInputElement>("input:not([type])")!, "Young voters");
    click(button(dialog(), "Create segment"));
    expect(toast.error).toHaveBeenLastCalledWith("Segment conditions incomplete", {
      description: "Please complete all segment conditions.",
    });
    expect(mutations.get("emailSegments:create")?.mock.calls ?? []).toEqual([]);
    await expectNoAxeViolations(document.body);
  });

  test("editing a segment sends only the changed fields, each with its base", async () => {
    const rules = [{ id: "a", field: "age" as const, operator: "less_than" as const, value: "30" }];
    const segment = {
      id: "s1" as never,
      name: "Young voters",
      description: null,
      rules,
      cachedCount: 4,
      lastRefreshedAt: null,
      refreshing: false,
    };
    m = mount(<SegmentDialog open onOpenChange={() => {}} editId={"s1" as never} segment={segment} />);
    type(dialog().querySelector<HTMLInputElement>("[data-testid='email.segmentRules.value']")!, "35");
    click(button(dialog(), "Save segment"));
    await flush();
    expect(mutations.get("emailSegments:update")).toHaveBeenCalledWith({
      id: "s1",
      edits: [{ field: "rules", base: JSON.stringify(rules), value: JSON.stringify([{ ...rules[0], value: "35" }]) }],
    });
  });

  test("Manage list: contacts with remove, add a group", async () => {
    m = mount(<ManageListDialog open onOpenChange={() => {}} listId={"l2" as never} name="Newsletter Subscribers" />);
    expect(dialog().textContent).toContain("Ada Lovelace");
    expect(button(dialog(), "Load more")).toBeDefined();
    click(button(dialog(), "Remove Ada Lovelace"));
    await flush();
    expect(mutations.get("emailLists:removeContact")).toHaveBeenCalledWith({ listId: "l2", voterId: "v1" });
    expect(button(dialog(), "Add group")!.disabled).toBe(true);
    await expectNoAxeViolations(document.body);
  });

  test("Manage list without access to voters: no contacts asked for, the reason instead", async () => {
    viewer.seeVoters = false;
    m = mount(<ManageListDialog open onOpenChange={() => {}} listId={"l2" as never} name="Newsletter Subscribers" />);
    expect(dialog().textContent).toContain("Seeing who is on the list needs access to voters.");
    expect(dialog().textContent).not.toContain("Loading");
    expect(dialog().textContent).not.toContain("Ada Lovelace");
    expect(button(dialog(), "Load more")).toBeUndefined();
    expect(button(dialog(), "Delete list")).toBeDefined();
    await expectNoAxeViolations(document.body);
  });
});
