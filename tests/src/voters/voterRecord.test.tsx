/**
 * The voter record's pieces: state-verified icons only where the state gave a value, the neutral
 * "No vote history", elections newest first, history labels and values, a birth year kept as
 * text in the form, and no drag handle for roles that cannot reorder the form.
 */
import { DndContext } from "@dnd-kit/core";
import { SortableContext } from "@dnd-kit/sortable";
import { Theme } from "@radix-ui/themes";
import { act, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { SortableSection } from "@/features/voters/components/SortableSection";
import { StateHistoryCard } from "@/features/voters/components/StateHistoryCard";
import { VerifiedIcon } from "@/features/voters/components/VerifiedIcon";
import { VoteHistoryCard } from "@/features/voters/components/VoteHistoryCard";
import { VoterFieldInput } from "@/features/voters/components/VoterFieldInput";
import {
  changeFieldLabel,
  changeValueText,
  countLabel,
  electionsNewestFirst,
  isFullDate,
} from "@/features/voters/utils/voterDisplay";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  container = document.createElement("div");
  document.body.appendChild(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});
const render = (node: ReactNode) => act(() => root.render(<Theme>{node}</Theme>));

describe("state-verified icon", () => {
  test("no icon without a state value; match and mismatch otherwise (trimmed, any case)", () => {
    render(<VerifiedIcon value="Raleigh" verified={undefined} />);
    expect(container.querySelector("[role=img]")).toBeNull();
    render(<VerifiedIcon value="Raleigh" verified="  " />);
    expect(container.querySelector("[role=img]")).toBeNull();
    render(<VerifiedIcon value="Raleigh" verified=" raleigh " />);
    expect(container.querySelector("[role=img]")?.getAttribute("aria-label")).toBe("Matches state record");
    render(<VerifiedIcon value={undefined} verified="Durham" />);
    expect(container.querySelector("[role=img]")?.getAttribute("aria-label")).toBe("Does not match state record");
  });
});

describe("state voter history", () => {
  const badge = () => container.querySelector("[data-testid='voters.history']");
  test("neutral 'No vote history' without any; the 0–4 score otherwise", () => {
    render(<StateHistoryCard score={undefined} elections={0} />);
    expect(badge()?.textContent).toBe("No vote history");
    expect(badge()?.getAttribute("data-accent-color")).toBe("gray");
    render(<StateHistoryCard score={0} elections={0} />);
    expect(badge()?.textContent).toBe("0/4");
    expect(badge()?.getAttribute("data-accent-color")).toBe("red");
    render(<StateHistoryCard score={3} elections={5} />);
    expect(badge()?.textContent).toBe("3/4");
    expect(badge()?.getAttribute("data-accent-color")).toBe("green");
    render(<StateHistoryCard score={undefined} elections={2} />);
    expect(badge()?.textContent).toBe("Not scored");
  });

  test("the vote history card lists elections newest first with their details", () => {
    render(
      <VoteHistoryCard
        elections={[
          { election: "2016 General", date: "2016-11-08", type: "General" },
          { election: "Town meeting" },
          { election: "2024 Primary", date: "2024-03-05", type: "Primary", method: "Absentee", party: "DEM" },
        ]}
      />,
    );
    const rows = [...container.querySelectorAll("[data-testid='voters.election']")].map((r) => r.textContent);
    expect(rows).toEqual([
      "2024 Primary2024-03-05 · Primary · Absentee · DEM ballot",
      "2016 General2016-11-08 · General",
      "Town meeting",
    ]);
  });
});

describe("display helpers", () => {
  test("history labels, values, counts, dates", () => {
    const custom = new Map([["custom_1", "Shirt Size"]]);
    expect(changeFieldLabel("city", custom)).toBe("City");
    expect(changeFieldLabel("zip", custom)).toBe("ZIP Code");
    expect(changeFieldLabel("custom_fields.custom_1", custom)).toBe("Shirt Size");
    expect(changeFieldLabel("custom_fields.custom_t_shirt", custom)).toBe("T Shirt");
    expect(changeFieldLabel("status_code", custom)).toBe("Status Code");
    expect(changeValueText("city", null)).toBe("—");
    expect(changeValueText("from_state_database", "true")).toBe("Yes");
    expect(changeValueText("vote_history", JSON.stringify([{ election: "a" }, { election: "b" }]))).toBe("2 elections");
    expect(countLabel(12345, "voter")).toBe("12,345 voters");
    expect(countLabel(1, "contact")).toBe("1 contact");
    expect(isFullDate("1921")).toBe(false);
    expect(isFullDate("1921-04-02")).toBe(true);
    expect(electionsNewestFirst([{ date: "2020-01-01" }, {}, { date: "2022-01-01" }])).toEqual([
      { date: "2022-01-01" },
      { date: "2020-01-01" },
      {},
    ]);
  });
});

describe("voter form", () => {
  test("a birth year alone is a text input keeping its value; a full date is a date input", () => {
    const def = {
      key: "date_of_birth",
      label: "Date of Birth",
      type: "date" as const,
      section: "personal" as const,
      required: false,
    };
    render(<VoterFieldInput def={def} value="1921" onChange={() => {}} />);
    let input = container.querySelector("input")!;
    expect(input.type).toBe("text");
    expect(input.value).toBe("1921");
    render(<VoterFieldInput def={def} value="1921-04-02" onChange={() => {}} />);
    input = container.querySelector("input")!;
    expect(input.type).toBe("date");
    expect(input.value).toBe("1921-04-02");
  });

  test("the drag handle is offered only to those who may reorder the form", () => {
    const section = (draggable: boolean) => (
      <DndContext>
        <SortableContext items={["notes"]}>
          <SortableSection id="notes" title="Notes" draggable={draggable}>
            <span>field</span>
          </SortableSection>
        </SortableContext>
      </DndContext>
    );
    render(section(true));
    expect(container.querySelector("[aria-label='Drag to reorder Notes']")).not.toBeNull();
    render(section(false));
    expect(container.querySelector("[aria-label='Drag to reorder Notes']")).toBeNull();
    expect(container.textContent).toContain("Notes");
  });
});
