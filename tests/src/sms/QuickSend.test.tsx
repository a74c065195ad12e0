/**
 * Quick Send: a voter whose number opted out is marked "Opted out" and cannot be ticked (nor by
 * "select all"); the button counts in the singular for one recipient.
 */
import { getFunctionName } from "convex/server";
import { afterEach, describe, expect, test, vi } from "vitest";
import { allByTestId, click, expectNoAxeViolations, mount, type Mounted } from "../../support/render";

const voters = [
  { _id: "v1", first_name: "Ada", last_name: "Lovelace", phone: "(503) 555-0101", status: "Active" },
  { _id: "v2", first_name: "Bob", last_name: "Stone", phone: "(503) 555-0102", status: "Active" },
];
vi.mock("convex/react", () => ({
  usePaginatedQuery: () => ({ results: voters, status: "Exhausted", isLoading: false, loadMore: () => {} }),
  useQuery: (ref: unknown, args: unknown) =>
    args !== "skip" && getFunctionName(ref as never) === "sms:optedOutAmong" ? ["v2"] : undefined,
  useMutation: () => vi.fn(),
}));
vi.mock("@/session/ViewerProvider", () => ({ useViewer: () => ({ can: () => true }) }));
vi.mock("@/features/sms/hooks/useSendSummary", () => ({ useSendSummary: () => ({ progress: null }) }));
vi.mock("@/features/sms/hooks/useSmsSend", async (orig) => ({
  ...(await orig<object>()),
  useSmsSend: () => ({
    start: vi.fn(),
    busy: false,
    pending: null,
    confirmException: vi.fn(),
    dismissException: vi.fn(),
  }),
}));

const { QuickSend } = await import("@/features/sms/components/QuickSend");

describe("Quick Send", () => {
  let m: Mounted;
  afterEach(() => m.unmount());

  test("an opted-out voter is marked and cannot be ticked; one recipient is 'Send to 1 Recipient'", async () => {
    m = mount(<QuickSend canSend orgName="Friends of Ada" />);
    const rows = allByTestId(m.container, "sms.recipient");
    expect(rows[1].textContent).toContain("Opted out");
    expect(rows[0].textContent).not.toContain("Opted out");
    const bob = rows[1].querySelector<HTMLButtonElement>("[role=checkbox]")!;
    expect(bob.disabled).toBe(true);
    click(m.container.querySelector("[aria-label='Select all voters with a phone']"));
    const sendButton = [...m.container.querySelectorAll("button")].find((b) => b.textContent?.includes("Send to"))!;
    expect(sendButton.textContent?.trim()).toBe("Send to 1 Recipient");
    expect(bob.getAttribute("aria-checked")).toBe("false");
    await expectNoAxeViolations(m.container);
  });
});
