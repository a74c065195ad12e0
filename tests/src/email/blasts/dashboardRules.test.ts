/**
 * The email dashboard's pure rules (spec/2 §2.2, §5): which tab the `tab` parameter opens, the send
 * checks in the spec's order and words, and manual recipients (no @ ignored, duplicates skipped).
 */
import { describe, expect, test } from "vitest";
import { addManualAddresses, manualAddSummary } from "@/features/email/blasts/manualAddresses";
import { SEND_PROBLEMS, sendProblem, type SendCheckInput } from "@/features/email/blasts/sendChecks";
import { dashboardTab, visibleTabs } from "@/features/email/blasts/tabs";

describe("tab parameter", () => {
  test("the dashboard's own values open their tab", () => {
    for (const t of ["create-and-edit", "inbox", "send-to", "automated"])
      expect(dashboardTab(t, { sent: false })).toBe(t);
    expect(dashboardTab("statistics", { sent: true })).toBe("statistics");
  });
  test("navigation values schedule, setup and automate lead to Automated", () => {
    for (const t of ["schedule", "setup", "automate"]) expect(dashboardTab(t, { sent: false })).toBe("automated");
  });
  test("missing or unknown values open Create & Edit", () => {
    expect(dashboardTab(null, { sent: false })).toBe("create-and-edit");
    expect(dashboardTab("nonsense", { sent: true })).toBe("create-and-edit");
  });
  test("Statistics is shown only for a sent campaign", () => {
    expect(visibleTabs({ sent: false })).not.toContain("statistics");
    expect(visibleTabs({ sent: true })).toContain("statistics");
    expect(dashboardTab("statistics", { sent: false })).toBe("create-and-edit");
  });
});

const NOW = new Date("2030-03-01T12:00").getTime();
const complete = { id: "r1", field: "city" as const, operator: "equals" as const, value: "Raleigh" };
const input = (over: Partial<SendCheckInput> = {}): SendCheckInput => ({
  campaignId: "c1",
  recipients: 12,
  now: NOW,
  sendType: "now",
  scheduleDate: "",
  scheduleTime: "",
  eventRules: [complete],
  filterRules: [complete],
  ...over,
});

describe("send checks (spec/2 §5, in order)", () => {
  test("the spec's titles and messages", () => {
    expect(SEND_PROBLEMS.noCampaign).toEqual({
      title: "No campaign selected",
      message: "Please select a campaign first",
    });
    expect(SEND_PROBLEMS.noRecipients).toEqual({
      title: "No recipients selected",
      message: "Please select recipients in the Send To tab",
    });
    expect(SEND_PROBLEMS.scheduleIncomplete).toEqual({
      title: "Schedule incomplete",
      message: "Please select both date and time for scheduled send",
    });
    expect(SEND_PROBLEMS.eventRules).toEqual({
      title: "Event rules incomplete",
      message: "Please complete all event trigger rules",
    });
    expect(SEND_PROBLEMS.filterRules).toEqual({
      title: "Filter rules incomplete",
      message: "Please complete all filter conditions",
    });
  });

  test("a campaign first, then recipients, then the schedule", () => {
    const everythingWrong = input({
      campaignId: null,
      recipients: 0,
      sendType: "schedule",
      scheduleDate: "",
      scheduleTime: "",
    });
    expect(sendProblem(everythingWrong)).toBe(SEND_PROBLEMS.noCampaign);
    expect(sendProblem({ ...everythingWrong, campaignId: "c1" })).toBe(SEND_PROBLEMS.noRecipients);
    expect(sendProblem({ ...everythingWrong, campaignId: "c1", recipients: 3 })).toBe(SEND_PROBLEMS.scheduleIncomplete);
  });

  test("a schedule needs both date and time, in the future", () => {
    expect(sendProblem(input({ sendType: "schedule", scheduleDate: "2030-03-02", scheduleTime: "" }))).toBe(
      SEND_PROBLEMS.scheduleIncomplete,
    );
    expect(sendProblem(input({ sendType: "schedule", scheduleDate: "", scheduleTime: "09:00" }))).toBe(
      SEND_PROBLEMS.scheduleIncomplete,
    );
    expect(sendProblem(input({ sendType: "schedule", scheduleDate: "2030-02-28", scheduleTime: "09:00" }))).toBe(
      SEND_PROBLEMS.schedulePast,
    );
    expect(sendProblem(input({ sendType: "schedule", scheduleDate: "2030-03-02", scheduleTime: "09:00" }))).toBeNull();
  });

  test("every event rule needs a field and a value (none for is empty)", () => {
    expect(
      sendProblem(input({ sendType: "event", eventRules: [complete, { ...complete, id: "r2", value: " " }] })),
    ).toBe(SEND_PROBLEMS.eventRules);
    expect(sendProblem(input({ sendType: "event", eventRules: [{ ...complete, field: "" }] }))).toBe(
      SEND_PROBLEMS.eventRules,
    );
    expect(
      sendProblem(input({ sendType: "event", eventRules: [{ ...complete, operator: "is_empty", value: "" }] })),
    ).toBeNull();
    // the filter's rules do not matter to an event automation
    expect(sendProblem(input({ sendType: "event", filterRules: [{ ...complete, field: "" }] }))).toBeNull();
  });

  test("every filter rule needs a field and a value", () => {
    expect(sendProblem(input({ sendType: "filter", filterRules: [{ ...complete, value: "" }] }))).toBe(
      SEND_PROBLEMS.filterRules,
    );
    expect(sendProblem(input({ sendType: "filter" }))).toBeNull();
  });

  test("automations find their recipients by event or filter; an estimate still loading is the server's to decide", () => {
    expect(sendProblem(input({ sendType: "event", recipients: 0 }))).toBeNull();
    expect(sendProblem(input({ sendType: "now", recipients: undefined }))).toBeNull();
    expect(sendProblem(input({ sendType: "now", recipients: 0 }))).toBe(SEND_PROBLEMS.noRecipients);
  });
});

describe("manual recipients (spec/2 §5)", () => {
  test("entries without @ are ignored, duplicates skipped, addresses lowercased", () => {
    const r = addManualAddresses(
      ["ada@example.org"],
      "Ada@Example.org, grace@example.org\nnot-an-address\ngrace@example.org, ,linus@example.org",
    );
    expect(r.next).toEqual(["ada@example.org", "grace@example.org", "linus@example.org"]);
    expect(r.added).toEqual(["grace@example.org", "linus@example.org"]);
    expect(r.ignored).toBe(1);
    expect(r.duplicates).toBe(2);
    expect(manualAddSummary(r)).toBe("2 added, 2 duplicates skipped, 1 without @ ignored");
  });
  test("an entry with @ that is not an address is reported, not added", () => {
    const r = addManualAddresses([], "a@b, ok@example.org");
    expect(r.next).toEqual(["ok@example.org"]);
    expect(r.invalid).toEqual(["a@b"]);
  });
  test("no more than the campaign's limit", () => {
    const r = addManualAddresses(["x@example.org"], "a@example.org b@example.org", 2);
    expect(r.next).toEqual(["x@example.org", "a@example.org"]);
    expect(r.overLimit).toBe(1);
  });
});
