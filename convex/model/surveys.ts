/**
 * Surveys: the organisation's survey settings, the plan's survey limit, the draft's seed, and
 * recording a submission (checked against the published pages with skip logic, one per respondent
 * unless the survey allows several, the notification email queued).
 */
import type { GenericDatabaseReader } from "convex/server";
import type { DataModel, Doc, Id } from "../_generated/dataModel";
import type { MutationCtx } from "../_generated/server";
import { appError } from "../lib/errors";
import { INVALID_EMAIL } from "../lib/forms/rules";
import { planOrStarter, UNLIMITED } from "../lib/plans";
import { writeSurveyDraft } from "../lib/surveys/draft";
import {
  answerText,
  checkResponses,
  DEFAULT_ORG_SURVEY_SETTINGS,
  emailFromAnswers,
  RESPONDENT_EMAIL_REQUIRED,
  surveyDefinitionProblem,
  type OrgSurveySettings,
  type SurveyPage,
  type SurveySettings,
} from "../lib/surveys/rules";
import { readCounters } from "./counters";
import { onVoterEvent } from "./emailAutomation";
import { queueEmail } from "./emails";
import { addressWants } from "./preferences";
import type { Viewer } from "./viewer";
import { seedDocument } from "./yjs";

type Reader = GenericDatabaseReader<DataModel>;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function surveyRoom(id: Id<"surveys">): string {
  return `survey:${id}`;
}

export async function orgSurveySettings(db: Reader, orgId: Id<"organizations">): Promise<OrgSurveySettings> {
  const row = await db
    .query("surveySettings")
    .withIndex("by_org", (q) => q.eq("orgId", orgId))
    .unique();
  return row?.settings ?? DEFAULT_ORG_SURVEY_SETTINGS;
}

export function cleanEmail(raw: string | null | undefined, what: string): string | null {
  const e = (raw ?? "").trim();
  if (!e) return null;
  if (e.length > 254 || !EMAIL_PATTERN.test(e))
    throw appError("VALIDATION_ERROR", `${what}: please enter a valid email address.`);
  return e;
}

/** A survey definition as stored; refuses what the survey maker would refuse. */
export function cleanSurvey(def: { name: string; description: string | null; pages: SurveyPage[] }) {
  const problem = surveyDefinitionProblem(def);
  if (problem) throw appError("VALIDATION_ERROR", problem, "Error saving survey");
  const d = (def.description ?? "").trim();
  return {
    name: def.name.trim(),
    description: d === "" ? null : d.slice(0, 2000),
    pages: def.pages.map((p) => ({
      ...p,
      title: p.title.trim(),
      fields: p.fields.map((f) => ({
        ...f,
        label: f.label.trim(),
        options: f.options.map((o) => o.trim()).filter(Boolean),
      })),
    })),
  };
}

/** Refuses a survey beyond the plan's limit. */
export async function checkSurveyLimit(ctx: MutationCtx, viewer: Pick<Viewer, "orgId" | "org">) {
  const plan = planOrStarter(viewer.org.subscription.tier);
  if (plan.limits.surveys === UNLIMITED) return;
  const { surveys } = await readCounters(ctx, viewer.orgId);
  if (surveys >= plan.limits.surveys) {
    throw appError(
      "VALIDATION_ERROR",
      `Your ${plan.name} plan allows ${plan.limits.surveys} surveys. Delete a survey or upgrade your plan to create another.`,
      "Survey limit reached",
    );
  }
}

/** Seeds the co-edited draft from the server, so no two browsers seed it twice. */
export async function seedSurveyDraft(
  ctx: MutationCtx,
  viewer: Pick<Viewer, "userId" | "orgId">,
  id: Id<"surveys">,
  s: {
    name: string;
    description: string | null;
    recipient: string | null;
    pages: SurveyPage[];
    settings: SurveySettings;
  },
) {
  await seedDocument(ctx, viewer, surveyRoom(id), id, (doc) => writeSurveyDraft(doc, s));
}

export type SurveySubmitResult =
  { ok: true; id: Id<"surveySubmissions"> } | { ok: false; errors: Record<string, string>; message?: string };

/**
 * Records a submission: answers checked against the published pages with skip logic; the
 * respondent's email required unless the organisation allows anonymous submissions; one
 * submission per email unless the survey allows several; the notification queued when on.
 */
export async function recordSurveySubmission(
  ctx: MutationCtx,
  survey: Doc<"surveys">,
  responses: Record<string, unknown>,
  meta: {
    email: string | null;
    userAgent: string | null;
    submitterIp: string | null;
    source: "public" | "preview" | "canvass";
    /** canvass: the voter who answered at the door */
    voterId?: Id<"voters"> | null;
  },
): Promise<SurveySubmitResult> {
  // answers recorded at a door (issue 38) are the canvasser's record of a conversation with a known
  // voter: the same answer checks, but no respondent email, no one-per-email rule (a voter is asked
  // again on a later visit) and no notification email per door
  const canvass = meta.source === "canvass";
  const settings = await orgSurveySettings(ctx.db, survey.orgId);
  const check = checkResponses(survey.pages, responses);
  const errors = { ...check.errors };
  const email = (meta.email ?? "").trim() || emailFromAnswers(survey.pages, check.values) || "";
  if (!email && !settings.allowAnonymous && !canvass) errors.respondentEmail = RESPONDENT_EMAIL_REQUIRED;
  else if (email && (email.length > 254 || !EMAIL_PATTERN.test(email))) errors.respondentEmail = INVALID_EMAIL;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const emailLower = email ? email.toLowerCase() : null;
  if (emailLower && !survey.settings.allowMultipleSubmissions && !canvass) {
    const earlier = await ctx.db
      .query("surveySubmissions")
      .withIndex("by_survey_email", (q) => q.eq("surveyId", survey._id).eq("emailLower", emailLower))
      .first();
    if (earlier) return { ok: false, errors: {}, message: "You have already responded to this survey." };
  }
  const id = await ctx.db.insert("surveySubmissions", {
    orgId: survey.orgId,
    surveyId: survey._id,
    responses: check.values,
    email: email || null,
    emailLower,
    userAgent: meta.userAgent ? meta.userAgent.slice(0, 300) : null,
    submitterIp: meta.submitterIp,
    source: meta.source,
    ...(meta.voterId ? { voterId: meta.voterId } : {}),
  });
  // a door's answers are counted by the canvass rollup shortly after (many canvassers answer the
  // same survey at once: each patching it made their syncs conflict)
  if (!canvass) await ctx.db.patch("surveys", survey._id, { submissionCount: survey.submissionCount + 1 });
  // email automations: the respondent, when the address is a voter's
  if (canvass && meta.voterId) {
    const voter = await ctx.db.get("voters", meta.voterId);
    if (voter) await onVoterEvent(ctx, voter, { type: "survey_submitted", targetId: survey._id });
  } else if (emailLower) {
    const voter = await ctx.db
      .query("voters")
      .withIndex("by_org_email", (q) => q.eq("orgId", survey.orgId).eq("emailLower", emailLower))
      .first();
    if (voter) await onVoterEvent(ctx, voter, { type: "survey_submitted", targetId: survey._id });
  }
  const to = survey.recipient ?? settings.defaultRecipient;
  if (
    !canvass &&
    settings.emailNotifications &&
    to &&
    (await addressWants(ctx.db, survey.orgId, to, "surveyResponses"))
  ) {
    const lines = survey.pages
      .flatMap((p) => p.fields)
      .filter((f) => check.values[f.id] !== undefined)
      .map((f) => `${f.label}: ${answerText(f, check.values[f.id])}`);
    await queueEmail(ctx, {
      orgId: survey.orgId,
      to,
      kind: "survey_submission",
      subject: `New response to "${survey.name}"`,
      text: [
        `A new response to the survey "${survey.name}" arrived${email ? ` from ${email}` : " (anonymous)"}.`,
        "",
        ...lines,
      ].join("\n"),
    });
  }
  return { ok: true, id };
}
