/**
 * The voter page's Consent section (issue 39): per channel the state and the ledger's events with
 * their provenance; opting out or back in only with messaging.send and only after confirming; axe.
 */
import { getFunctionName } from "convex/server";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  allByTestId,
  button,
  byTestId,
  click,
  expectNoAxeViolations,
  flush,
  mount,
  type Mounted,
} from "../../support/render";

const event = (id: string, channel: "sms" | "email", kind: "opt_in" | "opt_out", source: string, more = {}) => ({
  id,
  channel,
  contact: channel === "sms" ? "+15035550101" : "ada@example.org",
  kind,
  source,
  sourceId: null,
  keyword: null,
  actorName: null,
  disclosureVersion: null,
  address: null,
  at: Date.UTC(2026, 2, 1),
  ...more,
});

const DATA = {
  sms: {
    contact: "+15035550101",
    optedOut: { at: Date.UTC(2026, 2, 1) },
    events: [
      event("e2", "sms", "opt_out", "keyword", {
        keyword: "STOP TEXTING ME",
        sourceId: "SM123",
        address: "+15035550101",
      }),
      event("e1", "sms", "opt_in", "staff", { actorName: "Jane Organizer" }),
    ],
  },
  email: {
    contact: "ada@example.org",
    optedOut: null,
    suppressions: [{ reason: "bounced", at: Date.UTC(2026, 1, 1) }],
    events: [event("e3", "email", "opt_out", "bounce", { sourceId: "ev_1" })],
  },
};

const state = {
  data: DATA as unknown,
  can: true,
  setOptOut: vi.fn(async (_args: unknown) => true),
  args: {} as Record<string, unknown>,
};

vi.mock("convex/react", () => ({
  useQuery: (ref: unknown, args: unknown) => {
    state.args[getFunctionName(ref as never)] = args;
    return getFunctionName(ref as never) === "consent:forVoter" ? state.data : undefined;
  },
  useMutation: () => state.setOptOut,
}));
vi.mock("@/session/ViewerProvider", () => ({
  useViewer: () => ({ can: (p: string) => state.can && p === "messaging.send" }),
}));

const { VoterConsent } = await import("@/features/voters/components/VoterConsent");

describe("VoterConsent", () => {
  let m: Mounted;
  afterEach(() => {
    m.unmount();
    state.data = DATA;
    state.can = true;
    state.setOptOut.mockClear();
  });

  test("each channel's state and its events with where they came from, for this voter; axe", async () => {
    m = mount(<VoterConsent voterId={"v1" as never} />);
    expect(state.args["consent:forVoter"]).toEqual({ voterId: "v1" });
    expect(byTestId(m.container, "voters.consent.sms.state")!.textContent).toBe("Opted out");
    expect(byTestId(m.container, "voters.consent.email.state")!.textContent).toBe("Not opted out");
    const sms = byTestId(m.container, "voters.consent.sms")!;
    const events = allByTestId(sms, "voters.consent.event");
    expect(events).toHaveLength(2);
    expect(events[0].textContent).toContain("Opt-out");
    expect(events[0].textContent).toContain("Text reply");
    expect(events[0].textContent).toContain("“STOP TEXTING ME”");
    expect(events[0].textContent).toContain("ref. SM123");
    // the address is the number itself: not repeated
    expect(events[0].textContent).not.toContain("from +1");
    expect(events[1].textContent).toContain("Opt-in");
    expect(events[1].textContent).toContain("by Jane Organizer");
    const email = byTestId(m.container, "voters.consent.email")!;
    expect(email.textContent).toContain("Bounced");
    // a bounce is kept in the ledger but is not an opt-out of the person
    expect(allByTestId(email, "voters.consent.event")[0].textContent).toContain("Suppressed");
    expect(email.textContent).not.toContain("Opt-out");
    expect(email.textContent).toContain("This address bounced");
    await expectNoAxeViolations(m.container);
  });

  test("opting out asks first, then records it; cancelling changes nothing", async () => {
    m = mount(<VoterConsent voterId={"v1" as never} />);
    const email = byTestId(m.container, "voters.consent.email")!;
    click(button(email, "Opt out"));
    expect(document.body.textContent).toContain("Opt out of email?");
    click(button(document.body, "Cancel"));
    expect(state.setOptOut).not.toHaveBeenCalled();
    click(button(email, "Opt out"));
    const dialog = document.body.querySelector("[role='alertdialog']")!;
    await expectNoAxeViolations(dialog);
    click(button(dialog, "Opt out"));
    await flush();
    expect(state.setOptOut).toHaveBeenCalledWith({ voterId: "v1", channel: "email", optedOut: true });
    // the opted-out SMS channel offers opting back in
    click(button(byTestId(m.container, "voters.consent.sms")!, "Opt back in"));
    click(button(document.body.querySelector("[role='alertdialog']")!, "Opt back in"));
    await flush();
    expect(state.setOptOut).toHaveBeenLastCalledWith({ voterId: "v1", channel: "sms", optedOut: false });
  });

  test("without messaging.send there is nothing to change; no contact on file says so", () => {
    state.can = false;
    state.data = { sms: { contact: null, optedOut: null, events: [] }, email: { ...DATA.email, events: [] } };
    m = mount(<VoterConsent voterId={"v1" as never} />);
    expect(button(m.container, "Opt out")).toBeUndefined();
    expect(button(m.container, "Opt back in")).toBeUndefined();
    expect(byTestId(m.container, "voters.consent.sms")!.textContent).toContain("No phone on file");
    expect(byTestId(m.container, "voters.consent.email")!.textContent).toContain("No opt-ins or opt-outs recorded.");
  });

  test("loading shows a placeholder; a voter of no concern (null) shows nothing", () => {
    state.data = undefined;
    m = mount(<VoterConsent voterId={"v1" as never} />);
    expect(byTestId(m.container, "voters.consent")).not.toBeNull();
    m.unmount();
    state.data = null;
    m = mount(<VoterConsent voterId={"v1" as never} />);
    expect(byTestId(m.container, "voters.consent")).toBeNull();
  });
});
