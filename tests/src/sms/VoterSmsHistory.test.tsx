/** The voter page's Text Messages: the voter's replies stand among the texts they got, newest first; where an opt-out came from. */
import { afterEach, describe, expect, test, vi } from "vitest";
import { allByTestId, expectNoAxeViolations, mount, type Mounted } from "../../support/render";

const message = (id: string, at: number, body: string) => ({
  id,
  sendId: "s1",
  voterId: "v1",
  recipientName: "Ada",
  phone: "+15035550101",
  body,
  segments: 1,
  status: "delivered",
  error: null,
  errorCode: null,
  providerSid: null,
  queuedAt: at,
  sentAt: at,
  deliveredAt: at,
  heldUntil: null,
});
const state = { optedOut: null as null | { at: number; source: string } };
vi.mock("convex/react", () => ({
  useQuery: () => ({
    optedOut: state.optedOut,
    messages: [message("m2", 3_000, "Polls open at 7"), message("m1", 1_000, "Vote Tuesday! Reply STOP to opt out")],
    replies: [{ id: "r1", at: 2_000, body: "Where do I vote?" }],
  }),
  useMutation: () => vi.fn(),
}));
vi.mock("@/session/ViewerProvider", () => ({ useViewer: () => ({ can: () => true }) }));
const { VoterSmsHistory } = await import("@/features/sms/components/VoterSmsHistory");

describe("VoterSmsHistory", () => {
  let m: Mounted;
  afterEach(() => m.unmount());
  test("replies are listed with the texts, in time order, marked as replies", async () => {
    m = mount(<VoterSmsHistory voterId={"v1" as never} hasPhone />);
    const replies = allByTestId(m.container, "voters.smsReply");
    expect(replies).toHaveLength(1);
    expect(replies[0].textContent).toContain("Reply");
    expect(replies[0].textContent).toContain("Where do I vote?");
    const text = m.container.textContent;
    expect(text.indexOf("Polls open at 7")).toBeLessThan(text.indexOf("Where do I vote?"));
    expect(text.indexOf("Where do I vote?")).toBeLessThan(text.indexOf("Vote Tuesday!"));
    await expectNoAxeViolations(m.container);
  });

  test("an opt-out says where it came from: a canvasser's do not contact at the door", () => {
    state.optedOut = { at: 4_000, source: "canvass" };
    m = mount(<VoterSmsHistory voterId={"v1" as never} hasPhone />);
    expect(m.container.querySelector("[data-testid='voters.smsOptedOut']")?.textContent).toBe("Opted out of SMS");
    expect(m.container.textContent).toContain(
      "(marked do not contact at the door by a canvasser); no campaign or quick send texts this number.",
    );
    state.optedOut = null;
  });
});
