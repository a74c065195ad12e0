/**
 * A result as the canvasser fills it in at the door, turned into the outbox's action, with the
 * checks the server would make (so a mistake is fixed at the door, not refused later): a voter for
 * Deceased, the added person's names and email, the script's required answers once any is given,
 * and a correction of phone or email carrying the value it started from.
 */
import { MAX_NOTES, type ResultCode } from "@convex/lib/canvass";
import { pageErrors, visiblePages, type Answer, type Responses, type SurveyPage } from "@convex/lib/surveys/rules";
import { TEXTS } from "@convex/lib/texts";
import type { Id } from "@convex/_generated/dataModel";
import type { BundleDoor, NewAction, VoterContact } from "./store";
import { CANVASS_TEXTS } from "./texts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type RecordForm = {
  result: ResultCode;
  /** "door": everyone at the door; "add": a person added at the door; else a voter's id */
  who: string;
  person: { firstName: string; lastName: string; phone: string; email: string };
  /** the chosen voter's phone and email as the canvasser leaves them */
  phone: string;
  email: string;
  answers: Responses;
  notes: string;
  wrongAddress: boolean;
  doNotContact: boolean;
};

export function emptyForm(result: ResultCode, who = "door"): RecordForm {
  return {
    result,
    who,
    person: { firstName: "", lastName: "", phone: "", email: "" },
    phone: "",
    email: "",
    answers: {},
    notes: "",
    wrongAddress: false,
    doNotContact: false,
  };
}

type Context = {
  door: BundleDoor;
  /** the voters' phone and email as cached (null: not read yet: no corrections) */
  contacts: Map<string, VoterContact> | null;
  survey: { pages: SurveyPage[] } | null;
  canEditVoters: boolean;
  gps?: { lat: number; lng: number; accuracy: number };
};

export type Built = { ok: true; action: NewAction } | { ok: false; errors: Record<string, string> };

function blank(a: Answer | undefined) {
  return a === undefined || (typeof a === "string" && a.trim() === "") || (Array.isArray(a) && a.length === 0);
}

/** The script's answers kept for this result (shown questions only), with their errors. */
function scriptAnswers(pages: SurveyPage[], answers: Responses) {
  const shown = visiblePages(pages, answers);
  const kept: Responses = {};
  for (const p of shown)
    for (const f of p.fields) {
      const a = answers[f.id];
      if (!blank(a)) kept[f.id] = typeof a === "string" ? a.trim() : a;
    }
  // an untouched script is skipped; once answered, its required questions are needed
  if (Object.keys(kept).length === 0) return { kept: null, errors: {} };
  const errors: Record<string, string> = {};
  for (const p of shown) Object.assign(errors, pageErrors(p, answers));
  return { kept, errors };
}

/** The outbox action of a filled-in form, or what to fix. */
export function buildAction(form: RecordForm, ctx: Context): Built {
  const errors: Record<string, string> = {};
  const t = CANVASS_TEXTS;
  let voterId: Id<"voters"> | null = null;
  let addPerson: NewAction["addPerson"] = undefined;
  if (form.who === "add") {
    const p = form.person;
    if (!p.firstName.trim() || !p.lastName.trim()) errors.person = t.nameRequired;
    else if (p.email.trim() && !EMAIL.test(p.email.trim())) errors.personEmail = t.badEmail;
    addPerson = {
      firstName: p.firstName.trim(),
      lastName: p.lastName.trim(),
      phone: p.phone.trim() || null,
      email: p.email.trim() || null,
    };
  } else if (form.who !== "door") {
    const voter = ctx.door.voters.find((v) => v.id === form.who);
    if (voter) voterId = voter.id;
  }
  if (form.result === "deceased" && voterId === null) errors.who = TEXTS.canvass.voterNeeded;

  const edits: NonNullable<NewAction["edits"]> = [];
  const base = voterId && ctx.contacts ? ctx.contacts.get(voterId) : undefined;
  // corrections come from a talk at the door
  if (base && ctx.canEditVoters && form.result === "contacted") {
    for (const field of ["phone", "email"] as const) {
      const now = form[field].trim();
      if (now === (base[field] ?? "")) continue;
      if (field === "email" && now && !EMAIL.test(now)) errors.email = t.badEmail;
      edits.push({ field, base: base[field], value: now || null });
    }
  }

  let answers: Responses | null = null;
  if (form.result === "contacted" && ctx.survey) {
    const script = scriptAnswers(ctx.survey.pages, form.answers);
    Object.assign(errors, script.errors);
    answers = script.kept;
  }
  const notes = form.notes.trim();
  if (notes.length > MAX_NOTES) errors.notes = TEXTS.canvass.notesTooLong(MAX_NOTES);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const action: NewAction = {
    doorId: ctx.door.id,
    voterId,
    result: form.result,
    answers,
    notes: notes || null,
    doNotContact: form.doNotContact,
    wrongAddress: form.wrongAddress,
  };
  if (addPerson) action.addPerson = addPerson;
  if (edits.length > 0) action.edits = edits;
  if (ctx.gps) action.gps = ctx.gps;
  return { ok: true, action };
}
