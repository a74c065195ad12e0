/**
 * The respondent flow's rough edges (issue 33, low items): a survey with its own email question is
 * not asked "Your email" again (its answer is the respondent's email); a bad email is told as such,
 * not as "Please fill in all required fields"; the thank-you stands alone, without the blank form.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { newSurveyField, type SurveyPage } from "@convex/lib/surveys/rules";
import { byTestId, click, expectNoAxeViolations, flush, mount, type, type Mounted } from "../../support/render";

const toast = vi.hoisted(() => ({
  success: vi.fn(),
  error: vi.fn(),
  info: vi.fn(),
  warning: vi.fn(),
  failure: vi.fn(),
}));
vi.mock("@/ui/toast", () => ({ toast, errorMessage: (e: unknown) => String(e) }));

const { SurveyRespondent } = await import("@/features/surveys/components/SurveyRespondent");

const name = { ...newSurveyField("text", "f_name"), label: "Your name", required: true };
const email = { ...newSurveyField("email", "f_email"), label: "Email", required: true };
const survey = (fields: SurveyPage["fields"], allowMultipleSubmissions = false) => ({
  name: "Town hall",
  description: null,
  pages: [{ id: "p1", title: "", condition: null, fields }],
  settings: { allowMultipleSubmissions, showProgressBar: true },
});

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
  vi.clearAllMocks();
});

const input = (id: string) => m!.container.querySelector<HTMLInputElement>(`#t-${id}`)!;
const submit = async () => {
  click(byTestId(m!.container, "survey.submit"));
  await flush();
};

describe("SurveyRespondent", () => {
  test("a survey with its own required email question is not asked 'Your email'; that answer is the respondent's email", async () => {
    const onSubmit = vi.fn(async () => ({ ok: true as const }));
    m = mount(
      <SurveyRespondent survey={survey([name, email])} allowAnonymous={false} onSubmit={onSubmit} idPrefix="t" />,
    );
    expect(m.container.textContent).not.toContain("Your email");
    type(input("f_name"), "Ada");
    type(input("f_email"), "ada@example.org");
    await submit();
    expect(onSubmit).toHaveBeenCalledWith({ f_name: "Ada", f_email: "ada@example.org" }, "ada@example.org", "");
    await expectNoAxeViolations(m.container);
  });

  test("without one, 'Your email' is asked; a malformed address is told as such, a missing one as a required field", async () => {
    const onSubmit = vi.fn(async () => ({ ok: true as const }));
    m = mount(<SurveyRespondent survey={survey([name])} allowAnonymous={false} onSubmit={onSubmit} idPrefix="t" />);
    type(input("f_name"), "Ada");
    await submit();
    expect(toast.error).toHaveBeenLastCalledWith("Please fill in all required fields");
    type(input("respondent-email"), "not-an-email");
    await submit();
    expect(toast.error).toHaveBeenLastCalledWith("Please enter a valid email address");
    expect(m.container.textContent).toContain("Please enter a valid email address");
    expect(onSubmit).not.toHaveBeenCalled();
  });

  test("after a submission the thank-you stands alone; another response only when the survey allows several", async () => {
    const onSubmit = vi.fn(async () => ({ ok: true as const }));
    m = mount(
      <SurveyRespondent survey={survey([name, email], true)} allowAnonymous={false} onSubmit={onSubmit} idPrefix="t" />,
    );
    type(input("f_name"), "Ada");
    type(input("f_email"), "ada@example.org");
    await submit();
    expect(byTestId(m.container, "survey.success")).not.toBeNull();
    expect(m.container.querySelector("form")).toBeNull();
    click([...m.container.querySelectorAll("button")].find((b) => b.textContent === "Submit another response"));
    expect(m.container.querySelector("form")).not.toBeNull();
    expect(input("f_name").value).toBe("");
  });
});
