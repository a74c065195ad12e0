/**
 * The Statistics tab (spec/2 §2.2, §9): cards judged green or red at the thresholds with an icon and
 * words, estimates only before any event and labelled apart, the top-5 heat map, demo mode, the
 * 600 px preview; axe.
 */
import { getFunctionName } from "convex/server";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { BlastStatistics } from "@/features/email/blasts/stats/statsModel";
import { allByTestId, axeViolations, byTestId, mountRoot, type MountedRoot } from "../../../support/render";

const state: { stats: BlastStatistics | undefined; args: Record<string, unknown> } = { stats: undefined, args: {} };
const campaign = {
  id: "c1",
  name: "Spring",
  subject: "Hello {{voter.first_name}}",
  fromName: "Team",
  fromEmail: "team@example.org",
  replyTo: "",
  previewText: "",
  blocks: "[]",
  status: "sent",
  version: 1,
};

vi.mock("convex/react", () => ({
  useQuery: (ref: unknown, args: unknown) => {
    const name = getFunctionName(ref as never);
    state.args[name] = args;
    if (name === "emailBlasts:statistics") return state.stats;
    if (name === "emailCampaigns:get") return campaign;
    return undefined;
  },
  useMutation: () => vi.fn(),
}));
vi.mock("@/features/email/hooks/useRenderedEmail", () => ({
  useRenderedEmail: () => ({ html: "<p>Hi {{voter.first_name}}</p>", text: "", bytes: 10, errors: [] }),
}));

const { StatisticsTab } = await import("@/features/email/blasts/StatisticsTab");

const real: BlastStatistics = {
  recipients: 1000,
  sent: 1000,
  delivered: 951,
  opened: 251,
  clicked: 101,
  bounced: 49,
  unsubscribed: 4,
  complained: 2,
  failed: 0,
  hasEvents: true,
  demo: false,
  sentAt: Date.UTC(2025, 3, 1, 12),
  topLinks: [],
};

describe("StatisticsTab", () => {
  let m: MountedRoot;
  beforeEach(() => {
    m = mountRoot();
    state.args = {};
  });
  afterEach(() => m.unmount());
  const show = (stats: BlastStatistics) => {
    state.stats = stats;
    m.render(<StatisticsTab campaignId={"c1" as never} />);
  };
  const mark = (card: string) => byTestId(byTestId(m.container, `email.stats.${card}`)!, "email.stats.rate")!;

  test("reads the campaign's statistics live", () => {
    show(real);
    expect(state.args["emailBlasts:statistics"]).toEqual({ id: "c1" });
    expect(byTestId(m.container, "email.stats.sent.value")!.textContent).toBe("1,000");
  });

  test("just above each threshold (and bounce just below 5) is green, with an up/down icon and words", () => {
    show(real); // 95.1 % delivered, 26.4 % opened, 10.6 % clicked, 4.9 % bounced
    for (const card of ["delivered", "opened", "clicked", "bounced"]) {
      expect(mark(card).dataset.good, card).toBe("true");
      expect(mark(card).querySelector("svg"), card).not.toBeNull();
    }
    expect(mark("delivered").textContent).toContain("above 95%, on target");
    expect(mark("bounced").textContent).toContain("below 5%, on target");
  });

  test("at the boundaries 95 / 25 / 10 / 5 it is red and says so", () => {
    // 95 % delivered, 25 % and 10 % of 1,900 opened and clicked, 5 % bounced
    show({ ...real, sent: 2000, delivered: 1900, opened: 475, clicked: 190, bounced: 100 });
    for (const card of ["delivered", "opened", "clicked", "bounced"])
      expect(mark(card).dataset.good, card).toBe("false");
    expect(mark("delivered").textContent).toContain("95%");
    expect(mark("delivered").textContent).toContain("at 95%, off target");
    expect(mark("bounced").textContent).toContain("at 5%, off target");
    expect(mark("opened").textContent).toContain("25%");
    expect(byTestId(m.container, "email.stats.estimates")).toBeNull();
  });

  test("no events: estimates, labelled and apart from the measured cards; no threshold marks", () => {
    show({ ...real, delivered: 0, opened: 0, clicked: 0, bounced: 0, hasEvents: false });
    const est = byTestId(m.container, "email.stats.estimates")!;
    expect(est.textContent).toContain("Estimated — no delivery events received yet");
    expect(byTestId(est, "email.stats.delivered.rate")!.textContent).toBe("95% (estimated)");
    expect(byTestId(est, "email.stats.opened.rate")!.textContent).toBe("35% (estimated)");
    expect(byTestId(est, "email.stats.clicked.rate")!.textContent).toBe("12% (estimated)");
    expect(byTestId(est, "email.stats.bounced.rate")!.textContent).toBe("5% (estimated)");
    expect(byTestId(est, "email.stats.delivered.value")!.textContent).toBe("≈ 950");
    const measured = byTestId(m.container, "email.stats.measured")!;
    expect(byTestId(measured, "email.stats.delivered")).toBeNull();
    expect(measured.textContent).not.toContain("Estimate");
    expect(allByTestId(m.container, "email.stats.rate")).toEqual([]);
  });

  test("with events there is no estimate anywhere", () => {
    show(real);
    expect(m.container.textContent).not.toMatch(/estimat/i);
  });

  test("the heat map lists the top 5 targets, most clicked first", () => {
    const topLinks = ["a", "b", "c", "d", "e", "f"].map((x, i) => ({
      url: `https://example.org/${x}`,
      clicks: (i + 1) * 10,
    }));
    show({ ...real, topLinks });
    const rows = allByTestId(m.container, "email.stats.heatRow");
    expect(rows.map((r) => r.textContent.match(/example\.org\/(\w)/)![1])).toEqual(["f", "e", "d", "c", "b"]);
    expect(rows[0].textContent).toContain("60 clicks");
    expect(allByTestId(m.container, "email.stats.heatBar").map((b) => b.style.width)).toEqual([
      "100%",
      "83.3%",
      "66.7%",
      "50%",
      "33.3%",
    ]);
  });

  test("no clicks: the heat map says so", () => {
    show(real);
    expect(byTestId(m.container, "email.stats.heatMap")!.textContent).toContain("No clicks recorded yet.");
  });

  test("summary, info with recipients, and demo mode", () => {
    show({ ...real, demo: true, hasEvents: false });
    expect(byTestId(m.container, "email.stats.demo")!.textContent).toBe("DEMO MODE — no emails left the server");
    expect(byTestId(m.container, "email.stats.info")!.textContent).toContain("DEMO MODE — no emails left the server");
    expect(byTestId(m.container, "email.stats.info")!.textContent).toContain("1,000");
    expect(byTestId(m.container, "email.stats.summary")!.textContent).toContain("Sent to 1,000 recipients.");
  });

  test("the preview: a sandboxed iframe 600 px wide that shrinks to fit, with sample values", () => {
    show(real);
    const frame = byTestId(m.container, "email.stats.previewFrame") as HTMLIFrameElement;
    expect(frame.getAttribute("sandbox")).toBe("");
    expect(frame.style.width).toBe("600px");
    expect(frame.style.maxWidth).toBe("100%");
    expect(frame.getAttribute("srcdoc")).not.toContain("{{voter.first_name}}");
  });

  test("axe finds no violations (measured and estimated)", async () => {
    show({ ...real, topLinks: [{ url: "https://example.org", clicks: 3 }] });
    expect(await axeViolations(m.container)).toEqual([]);
    show({ ...real, hasEvents: false, demo: true });
    expect(await axeViolations(m.container)).toEqual([]);
  });
});
