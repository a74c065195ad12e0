/**
 * A result filled in at the door becomes the outbox's action (src/features/canvass/utils/record.ts)
 * with the server's checks made at the door: Deceased needs a voter, a person added needs both
 * names (and a valid email), the script is skipped untouched or answered with its required
 * questions, a phone or email correction carries the value it started from, GPS only when given.
 */
import { describe, expect, test } from "vitest";
import type { SurveyPage } from "@convex/lib/surveys/rules";
import { buildAction, emptyForm } from "@/features/canvass/utils/record";
import type { BundleDoor, VoterContact } from "@/features/canvass/utils/store";

const door = {
  order: 3,
  id: "door_3",
  lat: 39.8,
  lng: -89.6,
  address: "12 Oak St",
  unit: null,
  voters: [
    { id: "voter_ann", name: "Ann Walker", age: 40, party: "DEM" },
    { id: "voter_bo", name: "Bo Walker", age: 42, party: null },
  ],
  voterCount: 2,
  claim: null,
} as unknown as BundleDoor;

const contacts = new Map<string, VoterContact>([
  ["voter_ann", { voterId: "voter_ann", phone: "+12175550100", email: null } as unknown as VoterContact],
]);

const field = (id: string, required: boolean, type: "radio" | "text" = "radio") => ({
  id,
  type,
  label: id,
  placeholder: null,
  description: null,
  required,
  options: type === "radio" ? ["Yes", "No"] : [],
  maxRating: null,
  ratingType: null,
  min: null,
  max: null,
  step: null,
  condition: null,
});
const survey = {
  pages: [
    {
      id: "p1",
      title: "Page 1",
      condition: null,
      fields: [
        field("support", true),
        field("mood", false, "text"),
        { ...field("why", false, "text"), condition: { fieldId: "support", op: "equals" as const, value: "No" } },
      ],
    },
  ] as SurveyPage[],
};
const ctx = { door, contacts, survey, canEditVoters: true };

describe("buildAction", () => {
  test("a door-level Not Home", () => {
    const built = buildAction(emptyForm("not_home"), ctx);
    expect(built).toEqual({
      ok: true,
      action: {
        doorId: "door_3",
        voterId: null,
        result: "not_home",
        answers: null,
        notes: null,
        doNotContact: false,
        wrongAddress: false,
      },
    });
  });

  test("Deceased needs the voter it is about", () => {
    expect(buildAction(emptyForm("deceased"), ctx)).toEqual({
      ok: false,
      errors: { who: "Choose the voter this result is about." },
    });
    expect(buildAction(emptyForm("deceased", "voter_bo"), ctx)).toMatchObject({
      ok: true,
      action: { voterId: "voter_bo" },
    });
  });

  test("a contact: untouched script skipped; once answered its required questions count; hidden answers dropped", () => {
    const form = { ...emptyForm("contacted", "voter_ann"), phone: "+12175550100" };
    expect(buildAction(form, ctx)).toMatchObject({ ok: true, action: { answers: null, voterId: "voter_ann" } });
    // support is required once anything is answered
    expect(buildAction({ ...form, answers: { mood: "Chatty" } }, ctx)).toEqual({
      ok: false,
      errors: { support: "This field is required" },
    });
    // "why" is hidden until support is No: an answer left there does not count
    expect(buildAction({ ...form, answers: { why: "Taxes" } }, ctx)).toMatchObject({
      ok: true,
      action: { answers: null },
    });
    expect(buildAction({ ...form, answers: { support: "Yes", why: "Taxes" } }, ctx)).toMatchObject({
      ok: true,
      action: { answers: { support: "Yes" } },
    });
    expect(buildAction({ ...form, answers: { support: "No", why: " Taxes " } }, ctx)).toMatchObject({
      ok: true,
      action: { answers: { support: "No", why: "Taxes" } },
    });
    // a result other than a contact carries no answers
    expect(buildAction({ ...form, result: "refused", answers: { support: "Yes" } }, ctx)).toMatchObject({
      ok: true,
      action: { answers: null },
    });
  });

  test("corrections carry the value they started from; unchanged fields are not sent; no base (or no talk), no correction", () => {
    const form = { ...emptyForm("contacted", "voter_ann"), phone: "217-555-0199", email: "ann@example.org" };
    expect(buildAction(form, ctx)).toMatchObject({
      ok: true,
      action: {
        edits: [
          { field: "phone", base: "+12175550100", value: "217-555-0199" },
          { field: "email", base: null, value: "ann@example.org" },
        ],
      },
    });
    const same = buildAction({ ...form, phone: "+12175550100", email: "" }, ctx);
    expect(same.ok && same.action.edits).toBeFalsy();
    expect(buildAction({ ...form, email: "not-an-email" }, ctx)).toMatchObject({
      ok: false,
      errors: { email: expect.any(String) },
    });
    // contacts not cached yet, or a role that may not change voters: nothing to correct
    const noBase = buildAction(form, { ...ctx, contacts: null });
    expect(noBase.ok && noBase.action.edits).toBeFalsy();
    const noRole = buildAction(form, { ...ctx, canEditVoters: false });
    expect(noRole.ok && noRole.action.edits).toBeFalsy();
    // corrections come with a talk at the door, not with another result
    const refused = buildAction({ ...form, result: "refused" }, ctx);
    expect(refused.ok && refused.action.edits).toBeFalsy();
  });

  test("a person added at the door: both names, a valid email; the rest as typed", () => {
    const add = emptyForm("contacted", "add");
    expect(buildAction(add, ctx)).toEqual({ ok: false, errors: { person: "Please enter the first and last name." } });
    const named = { ...add, person: { firstName: " Cy ", lastName: "Lee", phone: "", email: "cy@" } };
    expect(buildAction(named, ctx)).toMatchObject({ ok: false, errors: { personEmail: expect.any(String) } });
    expect(buildAction({ ...named, person: { ...named.person, email: "cy@example.org" } }, ctx)).toMatchObject({
      ok: true,
      action: { voterId: null, addPerson: { firstName: "Cy", lastName: "Lee", phone: null, email: "cy@example.org" } },
    });
  });

  test("notes, wrong address, do not contact and the GPS stamp (only when given)", () => {
    const form = { ...emptyForm("moved"), notes: "  Sold in May ", wrongAddress: true, doNotContact: true };
    const gps = { lat: 39.81, lng: -89.61, accuracy: 8 };
    expect(buildAction(form, { ...ctx, gps })).toMatchObject({
      ok: true,
      action: { notes: "Sold in May", wrongAddress: true, doNotContact: true, gps },
    });
    const without = buildAction(form, ctx);
    expect(without.ok && "gps" in without.action).toBe(false);
    expect(buildAction({ ...form, notes: "x".repeat(2001) }, ctx)).toMatchObject({
      ok: false,
      errors: { notes: expect.any(String) },
    });
  });
});
