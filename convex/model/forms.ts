/**
 * Forms: the plan's active-form limit, the draft's seed, and recording a submission (checked
 * against the published fields, matched to a voter when the form asks for it, counted).
 */
import type { GenericDatabaseReader } from "convex/server";
import type { DataModel, Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import { writeDraft } from "../lib/forms/draft";
import { checkSubmission, formDefinitionProblem, type FormField, type SubmissionData } from "../lib/forms/rules";
import { planOrStarter, UNLIMITED } from "../lib/plans";
import { normalizePhone } from "../lib/sms/rules";
import type { VoterFields } from "../tables/voters";
import { adjustCounter } from "./counters";
import { onVoterEvent } from "./emailAutomation";
import { insertVoter } from "./voters";
import type { Viewer } from "./viewer";
import { seedDocument } from "./yjs";

type Reader = GenericDatabaseReader<DataModel>;

export function formRoom(id: Id<"forms">): string {
  return `form:${id}`;
}

/** A form definition as stored: trimmed, options cleaned; refuses what the builder would refuse. */
export function cleanDefinition(name: string, description: string | null, fields: FormField[]) {
  const problem = formDefinitionProblem(name, description, fields);
  if (problem)
    throw appError("VALIDATION_ERROR", problem, problem === "Form name required" ? problem : "Error saving form");
  const d = (description ?? "").trim();
  return {
    name: name.trim(),
    description: d === "" ? null : d,
    fields: fields.map((f) => ({
      id: f.id,
      type: f.type,
      label: f.label.trim(),
      required: f.type === "separator" ? false : f.required,
      placeholder: f.placeholder?.trim() ? f.placeholder.trim() : null,
      options: f.options.map((o) => o.trim()).filter(Boolean),
    })),
  };
}

export function activeFormsMessage(planName: string, limit: number): string {
  return `Your ${planName} plan allows ${limit} active forms. Deactivate another form or upgrade your plan to activate this one.`;
}

/** How many forms are active (counted up to 1,000). */
export async function activeFormCount(db: Reader, orgId: Id<"organizations">): Promise<number> {
  return (
    await db
      .query("forms")
      .withIndex("by_org_status", (q) => q.eq("orgId", orgId).eq("status", "active"))
      .take(1000)
  ).length;
}

/** Refuses making one more form active beyond the plan's limit. */
export async function checkActiveLimit(db: Reader, viewer: Pick<Viewer, "orgId" | "org">) {
  const plan = planOrStarter(viewer.org.subscription.tier);
  const limit = plan.limits.activeForms;
  if (limit === UNLIMITED) return;
  const active = await db
    .query("forms")
    .withIndex("by_org_status", (q) => q.eq("orgId", viewer.orgId).eq("status", "active"))
    .take(limit + 1);
  if (active.length >= limit)
    throw appError("VALIDATION_ERROR", activeFormsMessage(plan.name, limit), "Active form limit reached");
}

/** Seeds the co-edited draft with the form's content, from the server, so no two browsers seed it twice. */
export async function seedDraft(
  ctx: MutationCtx,
  viewer: Pick<Viewer, "userId" | "orgId">,
  id: Id<"forms">,
  form: { name: string; description: string | null; fields: FormField[] },
) {
  await seedDocument(ctx, viewer, formRoom(id), id, (doc) =>
    writeDraft(doc, { name: form.name, description: form.description ?? "", fields: form.fields }),
  );
}

/** The voter a submission belongs to: same email (case-insensitive), else same phone number. */
async function matchVoter(
  db: Reader,
  orgId: Id<"organizations">,
  fields: FormField[],
  values: SubmissionData,
  email: string | null,
) {
  if (email) {
    const byEmail = await db
      .query("voters")
      .withIndex("by_org_email", (q) => q.eq("orgId", orgId).eq("emailLower", email))
      .first();
    if (byEmail) return byEmail._id;
  }
  for (const f of fields) {
    const raw = values[f.id];
    if (f.type !== "tel" || typeof raw !== "string") continue;
    const phone = normalizePhone(raw);
    if (!phone) continue;
    const byPhone = await db
      .query("voters")
      .withIndex("by_org_phone", (q) => q.eq("orgId", orgId).eq("phoneKey", phone))
      .first();
    if (byPhone) return byPhone._id;
  }
  return undefined;
}

/**
 * A new contact from a submission that matched nobody: its name from fields labelled First / Last
 * name (or one Name / Full name field, split at the last space), its email and phone from the
 * first email and phone fields. Null when the submission names nobody.
 */
export function contactFrom(form: { name: string; fields: FormField[] }, values: SubmissionData): VoterFields | null {
  const text = (test: (f: FormField) => boolean) => {
    const f = form.fields.find((x) => test(x) && typeof values[x.id] === "string");
    return f ? (values[f.id] as string).trim() : "";
  };
  const label = (f: FormField) => f.label.trim().toLowerCase();
  let first = text((f) => f.type === "text" && /^first( name)?$/.test(label(f)));
  let last = text((f) => f.type === "text" && /^(last( name)?|surname)$/.test(label(f)));
  if (!first || !last) {
    const full = text((f) => f.type === "text" && /^(full )?name$|^your name$/.test(label(f)));
    const cut = full.lastIndexOf(" ");
    if (cut > 0) [first, last] = [full.slice(0, cut).trim(), full.slice(cut + 1).trim()];
  }
  if (!first || !last) return null;
  const email = text((f) => f.type === "email");
  const phone = text((f) => f.type === "tel");
  return {
    first_name: first.slice(0, 100),
    last_name: last.slice(0, 100),
    ...(email ? { email } : {}),
    ...(phone ? { phone } : {}),
    notes: `Created from a submission of the form "${form.name}".`,
  };
}

export type SubmitResult = { ok: true; id: Id<"formSubmissions"> } | { ok: false; errors: Record<string, string> };

/**
 * Records a submission of an active form (a form that is gone or inactive: NOT_FOUND, as the page
 * says "Form not found or no longer available."). Values are checked against the form's published
 * fields; field errors come back for the page to show, nothing is stored.
 */
export async function recordSubmission(
  ctx: MutationCtx,
  form: Doc<"forms"> | null,
  data: Record<string, unknown>,
  meta: { source: "public" | "app"; submitterIp: string | null; signedInEmail?: string | null },
): Promise<SubmitResult> {
  if (!form || form.status !== "active") throw appError("NOT_FOUND", "Form not found or no longer available.");
  const check = checkSubmission(form.fields, data);
  if (Object.keys(check.errors).length > 0) return { ok: false, errors: check.errors };
  const email = meta.source === "app" ? (meta.signedInEmail ?? check.submitterEmail) : check.submitterEmail;
  let voterId = form.matchVoters
    ? await matchVoter(ctx.db, form.orgId, form.fields, check.values, check.submitterEmail)
    : undefined;
  if (form.matchVoters && !voterId && form.createContacts) {
    const contact = contactFrom(form, check.values);
    if (contact) voterId = await insertVoter(ctx, form.orgId, contact);
  }
  const id = await ctx.db.insert("formSubmissions", {
    orgId: form.orgId,
    formId: form._id,
    data: check.values,
    submitterIp: meta.submitterIp,
    submitterEmail: email,
    emailLower: (email ?? "").toLowerCase(),
    source: meta.source,
    ...(voterId ? { voterId } : {}),
  });
  await ctx.db.patch("forms", form._id, { submissionCount: form.submissionCount + 1 });
  await adjustCounter(ctx, form.orgId, "formSubmissions", 1);
  const voter = voterId ? await ctx.db.get("voters", voterId) : null;
  if (voter) await onVoterEvent(ctx, voter, { type: "form_submitted", targetId: form._id });
  return { ok: true, id };
}
