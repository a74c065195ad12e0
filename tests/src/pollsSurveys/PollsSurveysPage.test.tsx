/**
 * /polls-surveys: the organisation's surveys with status, live response count, last response and
 * links into the Survey Maker; Create survey only with surveys.manage; the refusal without
 * surveys.view; an empty state; accessible.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { allByTestId, byTestId, expectNoAxeViolations, mountRoot, type MountedRoot } from "../../support/render";

const state = { permissions: new Set<string>(), hub: undefined as unknown, asked: [] as unknown[] };

vi.mock("convex/react", () => ({
  useQuery: (_ref: unknown, args: unknown) => {
    state.asked.push(args);
    return args === "skip" ? undefined : state.hub;
  },
}));
vi.mock("@/session/ViewerProvider", () => ({ useViewer: () => ({ can: (p: string) => state.permissions.has(p) }) }));

const { PollsSurveysPage } = await import("@/features/pollsSurveys/PollsSurveysPage");

const HUB = {
  surveys: [
    {
      id: "s1",
      name: "Door knock",
      description: "After each visit",
      status: "live",
      pages: 2,
      questions: 5,
      responses: 1234,
      lastResponseAt: Date.UTC(2026, 4, 3, 15, 30),
      updatedAt: 1,
    },
    {
      id: "s2",
      name: "Ideas",
      description: null,
      status: "draft",
      pages: 1,
      questions: 0,
      responses: 0,
      lastResponseAt: null,
      updatedAt: 1,
    },
  ],
  totalResponses: 1234,
  lastResponseAt: Date.UTC(2026, 4, 3, 15, 30),
};

describe("PollsSurveysPage", () => {
  let r: MountedRoot;
  beforeEach(() => {
    r = mountRoot();
    state.asked = [];
  });
  afterEach(() => r.unmount());

  test("a manager: every survey with status, count, last response and its links; Create survey", async () => {
    state.permissions = new Set(["surveys.view", "surveys.manage"]);
    state.hub = HUB;
    r.render(<PollsSurveysPage />, "/polls-surveys");
    expect(r.container.querySelector("h1")?.textContent).toBe("Polls & Surveys");
    expect(r.container.textContent).not.toMatch(/coming soon/i);
    const cards = allByTestId(r.container, "hub.survey");
    expect(cards.map((c) => c.querySelector("h2")?.textContent)).toEqual(["Door knock", "Ideas"]);
    expect(cards.map((c) => byTestId(c, "hub.status")?.textContent)).toEqual([
      "Collecting responses",
      "Draft: no questions yet",
    ]);
    expect(cards.map((c) => byTestId(c, "hub.responses")?.textContent)).toEqual(["1,234", "0"]);
    expect(byTestId(cards[0], "hub.lastResponseAt")?.textContent).toMatch(/May 3, 2026/);
    expect(byTestId(cards[1], "hub.lastResponseAt")?.textContent).toBe("No responses yet");
    const links = [...cards[0].querySelectorAll("a")].map((a) => [a.textContent, a.getAttribute("href")]);
    expect(links).toEqual([
      ["Open in Survey Maker", "/survey-maker?survey=s1&tab=edit"],
      ["View responses", "/survey-maker?survey=s1&tab=submissions"],
    ]);
    expect(byTestId(r.container, "hub.create")?.getAttribute("href")).toBe("/survey-maker?create=true");
    expect(byTestId(r.container, "hub.totalResponses")?.textContent).toBe("1,234");
    await expectNoAxeViolations(r.container);
  });

  test("a viewer of surveys: the list without Create survey", () => {
    state.permissions = new Set(["surveys.view"]);
    state.hub = HUB;
    r.render(<PollsSurveysPage />, "/polls-surveys");
    expect(allByTestId(r.container, "hub.survey")).toHaveLength(2);
    expect(byTestId(r.container, "hub.create")).toBeNull();
  });

  test("the empty state", async () => {
    state.permissions = new Set(["surveys.view", "surveys.manage"]);
    state.hub = { surveys: [], totalResponses: 0, lastResponseAt: null };
    r.render(<PollsSurveysPage />, "/polls-surveys");
    expect(byTestId(r.container, "hub.empty")?.textContent).toContain("No surveys yet");
    expect([...r.container.querySelectorAll("a")].map((a) => a.textContent?.trim())).toContain(
      "Create your first survey",
    );
    await expectNoAxeViolations(r.container);
  });

  test("without surveys.view: the app's refusal, and nothing is asked of the server", async () => {
    state.permissions = new Set();
    state.hub = HUB;
    r.render(<PollsSurveysPage />, "/polls-surveys");
    expect(r.container.textContent).toContain("You do not have permission to perform this action.");
    expect(allByTestId(r.container, "hub.survey")).toHaveLength(0);
    expect(state.asked.every((a) => a === "skip")).toBe(true);
    await expectNoAxeViolations(r.container);
  });
});
