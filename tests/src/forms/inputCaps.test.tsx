/**
 * Public forms and surveys cap what can be typed at what the server accepts (issue 33: a 60,000-
 * character unbroken answer froze the public form on resize), and long words wrap inside the box.
 */
import { describe, expect, test } from "vitest";
import { VALUE_LIMITS, type FormField } from "@convex/lib/forms/rules";
import { MAX_SHORT_ANSWER, MAX_TEXT_ANSWER, newSurveyField } from "@convex/lib/surveys/rules";
import { FormRenderer } from "@/features/forms/components/FormRenderer";
import { SurveyFieldInput } from "@/features/surveys/components/SurveyFieldInput";
import { mount } from "../../support/render";

const field = (id: string, type: FormField["type"]): FormField => ({
  id,
  type,
  label: id,
  required: false,
  placeholder: null,
  options: [],
});

describe("input caps", () => {
  test("form fields: textarea 5,000, text 500, email 254, phone 40; numbers uncapped", () => {
    const m = mount(
      <FormRenderer
        fields={[
          field("a", "textarea"),
          field("b", "text"),
          field("c", "email"),
          field("d", "tel"),
          field("e", "number"),
        ]}
        values={{}}
        onChange={() => {}}
        idPrefix="f"
      />,
    );
    const cap = (id: string) => m.container.querySelector(`#f-${id}`)!.getAttribute("maxlength");
    expect([cap("a"), cap("b"), cap("c"), cap("d"), cap("e")]).toEqual([
      String(VALUE_LIMITS.textarea),
      "500",
      "254",
      "40",
      null,
    ]);
    m.unmount();
  });
  test("survey answers: long text 5,000, one-line answers 500", () => {
    const m = mount(
      <>
        <SurveyFieldInput field={newSurveyField("textarea", "s1")} value={undefined} onChange={() => {}} idPrefix="s" />
        <SurveyFieldInput field={newSurveyField("text", "s2")} value={undefined} onChange={() => {}} idPrefix="s" />
      </>,
    );
    expect(m.container.querySelector("#s-s1")!.getAttribute("maxlength")).toBe(String(MAX_TEXT_ANSWER));
    expect(m.container.querySelector("#s-s2")!.getAttribute("maxlength")).toBe(String(MAX_SHORT_ANSWER));
    m.unmount();
  });
});
