/** The form draft as a Yjs document: two editors' concurrent changes merge per property; moves are one property. */
import * as Y from "yjs";
import { describe, expect, test } from "vitest";
import {
  addDraftField,
  draftMatches,
  moveDraftField,
  readDraft,
  removeDraftField,
  setDraftMeta,
  updateDraftField,
  writeDraft,
} from "@convex/lib/forms/draft";
import { checkSubmission, formDefinitionProblem, type FormField } from "@convex/lib/forms/rules";

const f = (id: string, label: string, extra: Partial<FormField> = {}): FormField => ({
  id,
  type: "text",
  label,
  required: false,
  placeholder: null,
  options: [],
  ...extra,
});

function pair() {
  const a = new Y.Doc();
  writeDraft(a, { name: "Signup", description: "", fields: [f("field_a", "A"), f("field_b", "B"), f("field_c", "C")] });
  const b = new Y.Doc();
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
  const sync = () => {
    const ua = Y.encodeStateAsUpdate(a, Y.encodeStateVector(b));
    const ub = Y.encodeStateAsUpdate(b, Y.encodeStateVector(a));
    Y.applyUpdate(b, ua);
    Y.applyUpdate(a, ub);
  };
  return { a, b, sync };
}

describe("form draft", () => {
  test("concurrent edits of different properties, fields and moves all survive", () => {
    const { a, b, sync } = pair();
    updateDraftField(a, "field_a", { label: "Full name" });
    updateDraftField(b, "field_a", { required: true });
    moveDraftField(a, "field_c", 0);
    addDraftField(b, f("field_d", "D"));
    setDraftMeta(b, "description", "Join us");
    sync();
    expect(readDraft(a)).toEqual(readDraft(b));
    const d = readDraft(a);
    expect(d.description).toBe("Join us");
    expect(d.fields.map((x) => x.id)).toEqual(["field_c", "field_a", "field_b", "field_d"]);
    expect(d.fields[1]).toMatchObject({ label: "Full name", required: true });
  });
  test("a field removed by one editor while the other edits it stays removed; moves between neighbours keep order", () => {
    const { a, b, sync } = pair();
    removeDraftField(a, "field_b");
    updateDraftField(b, "field_b", { label: "Edited" });
    sync();
    expect(readDraft(b).fields.map((x) => x.id)).toEqual(["field_a", "field_c"]);
    for (let i = 0; i < 30; i++) moveDraftField(a, i % 2 ? "field_a" : "field_c", 1);
    expect(readDraft(a).fields.map((x) => x.id)).toHaveLength(2);
  });
  test("two people typing in one label, placeholder or the description both keep their keystrokes (Y.Text)", () => {
    const { a, b, sync } = pair();
    updateDraftField(a, "field_a", { label: "A name" });
    updateDraftField(b, "field_a", { label: "Your A" });
    updateDraftField(a, "field_b", { placeholder: "e.g." });
    sync();
    updateDraftField(b, "field_b", { placeholder: "e.g. 5" });
    updateDraftField(a, "field_b", { placeholder: "Say, e.g." });
    setDraftMeta(a, "description", "Join");
    setDraftMeta(b, "description", "Come");
    sync();
    const d = readDraft(a);
    expect(d).toEqual(readDraft(b));
    expect(d.fields[0].label).toBe("Your A name");
    expect(d.fields[1].placeholder).toBe("Say, e.g. 5");
    expect(d.description).toMatch(/^(JoinCome|ComeJoin)$/);
    updateDraftField(a, "field_b", { placeholder: null });
    expect(readDraft(a).fields[1].placeholder).toBeNull();
  });
  test("a draft stored with plain strings reads as before, and can be edited", () => {
    const doc = new Y.Doc();
    doc.transact(() => {
      doc.getMap("formMeta").set("name", "Old form");
      doc.getMap("formMeta").set("description", "");
      const field = new Y.Map<unknown>();
      for (const [k, v] of Object.entries({
        type: "text",
        label: "Old label",
        required: true,
        placeholder: null,
        options: [],
        order: 1,
      }))
        field.set(k, v);
      doc.getMap<Y.Map<unknown>>("formFields").set("field_x", field);
    });
    expect(readDraft(doc)).toEqual({
      name: "Old form",
      description: "",
      fields: [f("field_x", "Old label", { required: true })],
    });
    updateDraftField(doc, "field_x", { label: "Old label!" });
    setDraftMeta(doc, "name", "Old form!");
    expect(readDraft(doc)).toMatchObject({ name: "Old form!", fields: [{ label: "Old label!" }] });
  });
  test("draftMatches compares as the server stores: trimmed, blank options dropped", () => {
    const doc = new Y.Doc();
    writeDraft(doc, {
      name: " Signup ",
      description: "",
      fields: [f("field_t", "Topic ", { type: "select", options: ["A", " ", "B"] })],
    });
    expect(
      draftMatches(readDraft(doc), {
        name: "Signup",
        description: null,
        fields: [f("field_t", "Topic", { type: "select", options: ["A", "B"] })],
      }),
    ).toBe(true);
    updateDraftField(doc, "field_t", { required: true });
    expect(
      draftMatches(readDraft(doc), {
        name: "Signup",
        description: null,
        fields: [f("field_t", "Topic", { type: "select", options: ["A", "B"] })],
      }),
    ).toBe(false);
  });
});

describe("form rules", () => {
  test("definition problems in the builder's words", () => {
    expect(formDefinitionProblem(" ", null, [])).toBe("Form name required");
    expect(formDefinitionProblem("X", null, [f("field_a", "")])).toBe("Every field needs a label.");
    expect(formDefinitionProblem("X", null, [f("field_a", "Pick", { type: "radio", options: [" "] })])).toBe(
      '"Pick" needs at least one option.',
    );
    expect(
      formDefinitionProblem("X", null, [f("field_a", "A"), f("separator_1", "", { type: "separator" })]),
    ).toBeNull();
  });
  test("submission values: typed, capped, options only, dates real, first email is the submitter", () => {
    const fields = [
      f("field_e1", "Work email", { type: "email" }),
      f("field_e2", "Home email", { type: "email" }),
      f("field_d", "Day", { type: "date" }),
      f("field_t", "Notes", { type: "textarea" }),
    ];
    const ok = checkSubmission(fields, { field_e1: " Ann@X.org ", field_e2: "b@y.org", field_d: "2026-02-28" });
    expect(ok).toEqual({
      values: { field_e1: "Ann@X.org", field_e2: "b@y.org", field_d: "2026-02-28" },
      errors: {},
      submitterEmail: "ann@x.org",
    });
    const bad = checkSubmission(fields, { field_d: "2026-02-30", field_t: "x".repeat(5001) });
    expect(bad.errors).toEqual({
      field_d: "Please enter a valid date",
      field_t: "Notes is limited to 5,000 characters.",
    });
  });
});
