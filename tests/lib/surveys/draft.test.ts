/** The survey draft in Yjs: two editors' concurrent changes merge; skip logic and the summary. */
import * as Y from "yjs";
import { describe, expect, test } from "vitest";
import {
  addSurveyField,
  addSurveyPage,
  canonicalSurvey,
  readSurveyDraft,
  removeSurveyPage,
  setSurveyMeta,
  stepSurveyField,
  updateSurveyField,
  updateSurveyPage,
  writeSurveyDraft,
} from "@convex/lib/surveys/draft";
import { DEFAULT_SURVEY_SETTINGS, newSurveyField, visiblePages, type SurveyPage } from "@convex/lib/surveys/rules";
import { summarize } from "@/features/surveys/utils/summary";

function pair() {
  const a = new Y.Doc();
  writeSurveyDraft(a, {
    name: "S",
    description: null,
    recipient: null,
    settings: DEFAULT_SURVEY_SETTINGS,
    pages: [
      {
        id: "page_1",
        title: "Page 1",
        condition: null,
        fields: [newSurveyField("rating", "field_r"), newSurveyField("radio", "field_v")],
      },
    ],
  });
  const b = new Y.Doc();
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
  const sync = () => {
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
  };
  return { a, b, sync };
}

describe("survey draft", () => {
  test("concurrent edits: a page added with a question, a label changed, a question moved — all kept, same on both", () => {
    const { a, b, sync } = pair();
    addSurveyPage(b, "page_2", "Volunteering");
    addSurveyField(b, "page_2", newSurveyField("slider", "field_h"));
    updateSurveyPage(b, "page_2", { condition: { fieldId: "field_v", op: "equals", value: "Option 1" } });
    updateSurveyField(a, "field_r", { label: "How was it?", maxRating: 7 });
    expect(stepSurveyField(a, "field_v", -1)).toBe(true);
    expect(stepSurveyField(a, "field_v", -1)).toBe(false);
    sync();
    const d = readSurveyDraft(a);
    expect(d).toEqual(readSurveyDraft(b));
    expect(d.pages.map((p) => [p.id, p.fields.map((f) => f.id)])).toEqual([
      ["page_1", ["field_v", "field_r"]],
      ["page_2", ["field_h"]],
    ]);
    expect(d.pages[0].fields[1]).toMatchObject({ label: "How was it?", maxRating: 7 });
    expect(canonicalSurvey({ ...d, recipient: null })).toBe(
      canonicalSurvey({ ...readSurveyDraft(b), recipient: null }),
    );
    removeSurveyPage(a, "page_2");
    sync();
    expect(readSurveyDraft(b).pages).toHaveLength(1);
  });

  test("two people typing in one label, description, page title or name both keep their keystrokes (Y.Text)", () => {
    const { a, b, sync } = pair();
    updateSurveyField(a, "field_r", { label: "Rate" });
    sync();
    updateSurveyField(a, "field_r", { label: "Rate us", description: "Be honest" });
    updateSurveyField(b, "field_r", { label: "Please Rate", description: "Please" });
    updateSurveyPage(a, "page_1", { title: "Page 1: you" });
    updateSurveyPage(b, "page_1", { title: "First Page 1" });
    setSurveyMeta(a, "name", "S2");
    setSurveyMeta(b, "name", "My S");
    sync();
    const d = readSurveyDraft(a);
    expect(d).toEqual(readSurveyDraft(b));
    expect(d.pages[0].fields[0]).toMatchObject({ label: "Please Rate us" });
    expect(d.pages[0].fields[0].description).toContain("Be honest");
    expect(d.pages[0].fields[0].description).toContain("Please");
    expect(d.pages[0].title).toBe("First Page 1: you");
    expect(d.name).toBe("My S2");
    // an emptied description or placeholder reads as none
    updateSurveyField(a, "field_r", { description: null, placeholder: "" });
    expect(readSurveyDraft(a).pages[0].fields[0]).toMatchObject({ description: null, placeholder: null });
  });

  test("a draft stored with plain strings reads as before", () => {
    const doc = new Y.Doc();
    doc.transact(() => {
      doc.getMap("surveyMeta").set("name", "Old");
      doc.getMap("surveyMeta").set("description", "");
      const page = new Y.Map<unknown>();
      page.set("title", "Old page");
      page.set("order", 1);
      doc.getMap<Y.Map<unknown>>("surveyPages").set("page_1", page);
      const field = new Y.Map<unknown>();
      for (const [k, v] of Object.entries({
        ...newSurveyField("text", "field_t"),
        id: undefined,
        label: "Old label",
        description: null,
        pageId: "page_1",
        order: 1,
      }))
        if (v !== undefined) field.set(k, v);
      doc.getMap<Y.Map<unknown>>("surveyFields").set("field_t", field);
    });
    const d = readSurveyDraft(doc);
    expect(d).toMatchObject({
      name: "Old",
      description: "",
      pages: [{ id: "page_1", title: "Old page", fields: [{ id: "field_t", label: "Old label", description: null }] }],
    });
    updateSurveyField(doc, "field_t", { label: "Old label 2" });
    expect(readSurveyDraft(doc).pages[0].fields[0].label).toBe("Old label 2");
  });
});

describe("skip logic and summary", () => {
  const pages: SurveyPage[] = [
    {
      id: "page_1",
      title: "P1",
      condition: null,
      fields: [
        { ...newSurveyField("number", "field_age"), label: "Age" },
        { ...newSurveyField("checkbox", "field_t"), options: ["Roads", "Schools"] },
      ],
    },
    {
      id: "page_2",
      title: "P2",
      condition: { fieldId: "field_age", op: "gt", value: "17" },
      fields: [
        { ...newSurveyField("text", "field_a"), condition: { fieldId: "field_t", op: "contains", value: "school" } },
        newSurveyField("rating", "field_r"),
      ],
    },
  ];
  test("greater than, contains on a list, and a page whose every question is hidden is skipped", () => {
    expect(visiblePages(pages, { field_age: 16 }).map((p) => p.id)).toEqual(["page_1"]);
    expect(visiblePages(pages, { field_age: 30, field_t: ["Roads"] })[1].fields.map((f) => f.id)).toEqual(["field_r"]);
    expect(visiblePages(pages, { field_age: 30, field_t: ["Schools"] })[1].fields.map((f) => f.id)).toEqual([
      "field_a",
      "field_r",
    ]);
  });
  test("summary: option counts, rating average, number average", () => {
    const s = summarize(pages, [
      { field_age: 20, field_t: ["Roads", "Schools"], field_r: 5 },
      { field_age: 40, field_t: ["Roads"], field_r: 2 },
    ]);
    expect(s.find((x) => x.field.id === "field_t")).toMatchObject({
      kind: "options",
      counts: [
        { option: "Roads", count: 2 },
        { option: "Schools", count: 1 },
      ],
    });
    expect(s.find((x) => x.field.id === "field_r")).toMatchObject({ kind: "rating", average: 3.5, answered: 2 });
    expect(s.find((x) => x.field.id === "field_age")).toMatchObject({ kind: "number", average: 30 });
  });
});
