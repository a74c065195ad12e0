/**
 * The public survey endpoint on the real backend over HTTP: CORS for other sites' origins, the
 * answers checked with skip logic, a 1 MB body, an unknown survey, spam rules, one response per
 * respondent, a flood from one address.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { MIN_FILL_MS, SUBMIT_RATE_PER_ADDRESS } from "@convex/model/publicSubmit";
import { DEFAULT_SURVEY_SETTINGS, newSurveyField, type SurveyPage } from "@convex/lib/surveys/rules";
import { startAppBackendInProcess, type InProcessAppBackend } from "../../support/appBackend";

const PAGES: SurveyPage[] = [
  {
    id: "page_1",
    title: "Page 1",
    condition: null,
    fields: [
      { ...newSurveyField("rating", "field_rate"), label: "Rate us", required: true },
      { ...newSurveyField("radio", "field_more"), label: "More?", options: ["Yes", "No"], required: true },
    ],
  },
  {
    id: "page_2",
    title: "Page 2",
    condition: { fieldId: "field_more", op: "equals", value: "Yes" },
    fields: [{ ...newSurveyField("textarea", "field_why"), label: "Why", required: true }],
  },
];

let app: InProcessAppBackend;
let surveyId: Id<"surveys">;
let token: string;
const ORIGIN = "http://127.0.0.1:9";

async function post(path: string, body: unknown) {
  const res = await fetch(`${app.backend.siteUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: ORIGIN },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return {
    status: res.status,
    cors: res.headers.get("Access-Control-Allow-Origin"),
    body: (await res.json()) as Record<string, unknown>,
  };
}
const stored = () => app.run((ctx) => ctx.db.query("surveySubmissions").collect());

beforeAll(async () => {
  app = await startAppBackendInProcess({ scheduler: false });
  const m = await app.member(["campaign_manager"]);
  surveyId = await app.run((ctx) =>
    ctx.db.insert("surveys", {
      orgId: m.orgId,
      name: "Feedback",
      description: null,
      recipient: null,
      pages: PAGES,
      settings: DEFAULT_SURVEY_SETTINGS,
      version: 1,
      submissionCount: 0,
      createdBy: m.userId,
      updatedAt: Date.now(),
      updatedBy: m.userId,
    }),
  );
  const started = await post("/api/surveys/start", { surveyId });
  expect(started.status).toBe(200);
  token = started.body.token as string;
  await new Promise((r) => setTimeout(r, MIN_FILL_MS + 100));
}, 60_000);

afterAll(async () => {
  await app?.stop();
});

describe("POST /api/survey-submissions", () => {
  test("another site's page may ask (CORS preflight and answers for any origin, without credentials)", async () => {
    const pre = await fetch(`${app.backend.siteUrl}/api/survey-submissions`, {
      method: "OPTIONS",
      headers: {
        Origin: ORIGIN,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(pre.headers.get("Access-Control-Allow-Credentials")).toBeNull();
  });

  test("a good submission is stored with the respondent's email and address", async () => {
    const r = await post("/api/survey-submissions", {
      surveyId,
      token,
      email: "rosa@example.org",
      responses: { field_rate: 4, field_more: "Yes", field_why: "Good people" },
      submittedAt: new Date().toISOString(),
      timestamp: Date.now(),
    });
    expect(r).toMatchObject({ status: 200, cors: "*", body: { ok: true } });
    expect(await stored()).toMatchObject([
      {
        email: "rosa@example.org",
        submitterIp: "127.0.0.1",
        source: "public",
        responses: { field_rate: 4, field_more: "Yes", field_why: "Good people" },
      },
    ]);
  });

  test("answers are checked with skip logic; a second response from the same email is refused", async () => {
    const hidden = await post("/api/survey-submissions", {
      surveyId,
      token,
      email: "b@x.org",
      responses: { field_rate: 4, field_more: "No", field_why: "sneaky" },
    });
    expect(hidden).toMatchObject({
      status: 422,
      body: { errors: { field_why: "This question was not shown for your answers." } },
    });
    const required = await post("/api/survey-submissions", {
      surveyId,
      token,
      email: "b@x.org",
      responses: { field_rate: 9, field_more: "Yes" },
    });
    expect(required.body.errors).toEqual({
      field_rate: "Please choose a rating.",
      field_why: "This field is required",
    });
    const anonymous = await post("/api/survey-submissions", {
      surveyId,
      token,
      responses: { field_rate: 4, field_more: "No" },
    });
    expect(anonymous.body.errors).toEqual({ respondentEmail: "Please enter your email address" });
    const again = await post("/api/survey-submissions", {
      surveyId,
      token,
      email: "ROSA@example.org",
      responses: { field_rate: 2, field_more: "No" },
    });
    expect(again).toMatchObject({ status: 422, body: { error: "You have already responded to this survey." } });
    const shape = await post("/api/survey-submissions", { surveyId, token, responses: { field_rate: { $gt: 1 } } });
    expect(shape.status).toBe(400);
    expect(await stored()).toHaveLength(1);
  });

  test("a 1 MB body, an unknown survey, a forged token, the honeypot and a too-fast submission", async () => {
    expect(
      (
        await post(
          "/api/survey-submissions",
          JSON.stringify({ surveyId, token, responses: { field_why: "x".repeat(1 << 20) } }),
        )
      ).status,
    ).toBe(413);
    const unknown = await post("/api/surveys/start", { surveyId: "nope" });
    await new Promise((r) => setTimeout(r, MIN_FILL_MS + 100));
    expect(
      (await post("/api/survey-submissions", { surveyId: "nope", token: unknown.body.token, responses: {} })).status,
    ).toBe(404);
    expect(
      (await post("/api/survey-submissions", { surveyId, token: `${token.slice(0, -3)}abc`, responses: {} })).status,
    ).toBe(403);
    expect(
      (
        await post("/api/survey-submissions", {
          surveyId,
          token,
          website: "spam",
          email: "bot@x.org",
          responses: { field_rate: 1, field_more: "No" },
        })
      ).body,
    ).toEqual({ ok: true });
    const fresh = await post("/api/surveys/start", { surveyId });
    expect(
      (
        await post("/api/survey-submissions", {
          surveyId,
          token: fresh.body.token,
          email: "fast@x.org",
          responses: { field_rate: 1, field_more: "No" },
        })
      ).body,
    ).toEqual({ ok: true });
    expect(await stored()).toHaveLength(1);
  });

  test("a flood from one address is cut off", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < SUBMIT_RATE_PER_ADDRESS + 3; i++)
      statuses.push(
        (
          await post("/api/survey-submissions", {
            surveyId,
            token,
            email: `f${i}@x.org`,
            responses: { field_rate: 3, field_more: "No" },
          })
        ).status,
      );
    expect(statuses.at(-1)).toBe(429);
    expect((await stored()).length).toBeLessThanOrEqual(SUBMIT_RATE_PER_ADDRESS + 1);
  });
});
