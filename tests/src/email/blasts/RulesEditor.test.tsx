/**
 * The rules editor shared by event rules, filter rules and segments (spec/2 §3, §5): a rule can be
 * removed only while more than one remains, the value input is hidden for "is empty" and "is not
 * empty", event rules carry a delay and unit, and every control has an accessible name.
 */
import { useState } from "react";
import { afterEach, describe, expect, test } from "vitest";
import type { EmailRule } from "@convex/lib/email/rules";
import { RulesEditor } from "@/features/email/blasts/RulesEditor";
import { button, click, expectNoAxeViolations, mount, type Mounted } from "../../../support/render";

function Harness({ initial, event }: { initial: EmailRule[]; event?: boolean }) {
  const [rules, setRules] = useState(initial);
  return <RulesEditor rules={rules} onChange={setRules} event={event} label="Filter rule" testId="rules" />;
}

const rule = (id: string, over: Partial<EmailRule> = {}): EmailRule => ({
  id,
  field: "city",
  operator: "equals",
  value: "Raleigh",
  ...over,
});

describe("RulesEditor", () => {
  let m: Mounted;
  afterEach(() => m.unmount());
  const rows = () => m.container.querySelectorAll("[data-testid='rules.row']");

  test("no rules yet shows one blank rule that cannot be removed", () => {
    m = mount(<Harness initial={[]} />);
    expect(rows()).toHaveLength(1);
    expect(button(m.container, "Remove filter rule 1")).toBeUndefined();
  });

  test("a rule is removable only while more than one remains", () => {
    m = mount(<Harness initial={[rule("a")]} />);
    expect(button(m.container, "Remove filter rule 1")).toBeUndefined();
    click(button(m.container, "Add rule"));
    expect(rows()).toHaveLength(2);
    expect(button(m.container, "Remove filter rule 1")).toBeDefined();
    click(button(m.container, "Remove filter rule 2"));
    expect(rows()).toHaveLength(1);
    expect(m.container.querySelector<HTMLInputElement>("[data-testid='rules.value']")!.value).toBe("Raleigh");
    expect(button(m.container, "Remove filter rule 1")).toBeUndefined();
  });

  test("the value input is hidden for is empty and is not empty", () => {
    m = mount(
      <Harness
        initial={[
          rule("a", { operator: "is_empty", value: "" }),
          rule("b", { operator: "is_not_empty", value: "" }),
          rule("c"),
        ]}
      />,
    );
    const values = m.container.querySelectorAll<HTMLInputElement>("[data-testid='rules.value']");
    expect(values).toHaveLength(1);
    expect(values[0].getAttribute("aria-label")).toBe("Filter rule 3 value");
  });

  test("event rules have a time delay and unit; axe finds no violations", async () => {
    m = mount(
      <Harness
        initial={[rule("a", { timeDelay: 2, timeUnit: "days" }), rule("b", { operator: "is_empty", value: "" })]}
        event
      />,
    );
    expect(m.container.querySelector<HTMLInputElement>("input[aria-label='Filter rule 1 time delay']")!.value).toBe(
      "2",
    );
    expect(m.container.querySelector("[aria-label='Filter rule 1 time unit']")!.textContent).toBe("Days");
    expect(m.container.querySelector("[aria-label='Filter rule 1 field']")!.textContent).toBe("City");
    await expectNoAxeViolations(m.container);
  });
});
