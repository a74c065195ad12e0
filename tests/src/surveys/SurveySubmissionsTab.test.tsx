/**
 * A survey's Submissions tab with canvass answers among them (issue 38): each answer recorded at a
 * door is marked Canvass in the table and its details, the tab says how many came from canvassing,
 * and the summary counts their answers with the others; accessible.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  allByTestId,
  button,
  byTestId,
  click,
  expectNoAxeViolations,
  flush,
  mountRoot,
  type MountedRoot,
} from "../../support/render";

const state = {
  data: undefined as unknown,
  sample: undefined as unknown,
  canvass: undefined as unknown,
};
vi.mock("@/session/ViewerProvider", () => ({ useViewer: () => ({ can: () => true }) }));
vi.mock("@/features/surveys/hooks/useSurveySubmissions", () => ({
  useSurveySubmissions: () => ({
    data: state.data,
    sample: state.sample,
    canvass: state.canvass,
    removeSubmission: vi.fn(),
    allRows: vi.fn(async () => []),
  }),
}));
vi.mock("@/ui/toast", () => ({ toast: { success: vi.fn(), failure: vi.fn(), info: vi.fn() } }));

const { SurveySubmissionsTab } = await import("@/features/surveys/components/SurveySubmissionsTab");

const PAGES = [
  {
    id: "p1",
    title: "Page 1",
    condition: null,
    fields: [
      {
        id: "support",
        type: "radio" as const,
        label: "Will you support Lee?",
        placeholder: null,
        description: null,
        required: false,
        options: ["Yes", "No"],
        maxRating: null,
        ratingType: null,
        min: null,
        max: null,
        step: null,
        condition: null,
      },
    ],
  },
];
const row = (id: string, source: string, email: string | null, support: string) => ({
  id,
  responses: { support },
  email,
  source,
  userAgent: null,
  submittedAt: Date.UTC(2026, 5, 3),
});
const text = (el: Element | null | undefined) => el?.textContent ?? "";

describe("SurveySubmissionsTab with canvass answers", () => {
  let r: MountedRoot;
  beforeEach(() => {
    r = mountRoot();
    state.data = {
      rows: [
        row("s3", "canvass", null, "Yes"),
        row("s2", "public", "ada@example.org", "No"),
        row("s1", "canvass", null, "Yes"),
      ],
      total: 3,
    };
    state.sample = { responses: [{ support: "Yes" }, { support: "No" }, { support: "Yes" }], sampled: false };
    state.canvass = { canvass: 2, sampled: false };
  });
  afterEach(() => r.unmount());

  test("canvass rows are marked, counted, and their answers are in the summary", async () => {
    r.render(<SurveySubmissionsTab surveyId={"sv1" as never} surveyName="Doorstep" pages={PAGES} />);
    expect(text(byTestId(r.container, "survey.submissionTotal"))).toBe("3 submissions");
    expect(text(byTestId(r.container, "survey.canvassCount"))).toBe("2 recorded at the door by canvassers");
    const rows = allByTestId(r.container, "survey.submissionRow");
    expect(rows.map((x) => text(byTestId(x, "survey.sourceCanvass")))).toEqual(["Canvass", "", "Canvass"]);
    expect(text(rows[1])).toContain("ada@example.org");
    // the summary counts every answer, the door's with the link's
    const summary = byTestId(r.container, "survey.summary")!;
    expect(text(summary)).toContain("3 answers");
    expect(text(summary)).toContain("Yes2");
    await expectNoAxeViolations(r.container);
    click(button(rows[0], "Details"));
    await flush();
    const dialog = document.body.querySelector("[role='dialog']")!;
    expect(text(dialog)).toContain("recorded at the door by a canvasser");
  });

  test("more submissions than the sample: the count says of which; none from canvassing: nothing said", () => {
    state.canvass = { canvass: 1_500, sampled: true };
    r.render(<SurveySubmissionsTab surveyId={"sv1" as never} surveyName="Doorstep" pages={PAGES} />);
    expect(text(byTestId(r.container, "survey.canvassCount"))).toBe(
      "1,500 recorded at the door by canvassers (of the latest 2,000)",
    );
    state.canvass = { canvass: 0, sampled: false };
    r.render(<SurveySubmissionsTab surveyId={"sv1" as never} surveyName="Doorstep" pages={PAGES} />);
    expect(byTestId(r.container, "survey.canvassCount")).toBeNull();
  });
});
