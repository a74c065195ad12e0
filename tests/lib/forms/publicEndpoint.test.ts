/**
 * The public form endpoint on the real backend over HTTP: what a bot or a hand-made request can
 * and cannot do (unknown fields, wrong types, a 1 MB body, an inactive form, the honeypot, a
 * too-fast submission, another form's token, a flood from one address), and a good submission
 * stored with the client's address.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { MIN_FILL_MS, SUBMIT_RATE_PER_ADDRESS } from "@convex/model/publicSubmit";
import type { FormField } from "@convex/lib/forms/rules";
import { startAppBackendInProcess, type InProcessAppBackend } from "../../support/appBackend";

const FIELDS: FormField[] = [
  { id: "field_name", type: "text", label: "Full name", required: true, placeholder: null, options: [] },
  { id: "field_email", type: "email", label: "Email", required: true, placeholder: null, options: [] },
  { id: "field_ok", type: "checkbox", label: "Keep me informed", required: false, placeholder: null, options: [] },
];

let app: InProcessAppBackend;
let orgId: Id<"organizations">;
let formId: Id<"forms">;
let inactiveId: Id<"forms">;
let token: string;

async function post(path: string, body: unknown) {
  const res = await fetch(`${app.backend.siteUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const stored = () => app.run((ctx) => ctx.db.query("formSubmissions").collect());

beforeAll(async () => {
  app = await startAppBackendInProcess({ scheduler: false });
  const m = await app.member(["campaign_manager"]);
  orgId = m.orgId;
  const form = (status: "active" | "inactive") =>
    app.run((ctx) =>
      ctx.db.insert("forms", {
        orgId,
        name: "Signup",
        description: null,
        fields: FIELDS,
        status,
        matchVoters: false,
        version: 1,
        submissionCount: 0,
        createdBy: m.userId,
        updatedAt: Date.now(),
        updatedBy: m.userId,
      }),
    );
  formId = await form("active");
  inactiveId = await form("inactive");
  const started = await post("/api/forms/start", { formId });
  expect(started.status).toBe(200);
  token = started.body.token as string;
  await new Promise((r) => setTimeout(r, MIN_FILL_MS + 100));
}, 60_000);

afterAll(async () => {
  await app?.stop();
});

describe("POST /api/forms/submit", () => {
  test("a good submission is stored with the submitter's email from the first email field and the client address", async () => {
    const r = await post("/api/forms/submit", {
      formId,
      token,
      data: { field_name: "Rosa Parks", field_email: "Rosa@Example.org", field_ok: true },
      website: "",
    });
    expect(r).toEqual({ status: 200, body: { ok: true } });
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      formId,
      source: "public",
      submitterEmail: "rosa@example.org",
      submitterIp: "127.0.0.1",
      data: { field_name: "Rosa Parks", field_email: "Rosa@Example.org", field_ok: true },
    });
  });

  test("unknown fields, wrong types and missing required values are refused field by field", async () => {
    const unknown = await post("/api/forms/submit", {
      formId,
      token,
      data: { field_name: "A", field_email: "a@b.org", field_admin: "x" },
    });
    expect(unknown).toEqual({ status: 422, body: { errors: { field_admin: "This field is not part of the form." } } });
    const wrongType = await post("/api/forms/submit", {
      formId,
      token,
      data: { field_name: 42, field_email: "a@b.org", field_ok: "yes" },
    });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors).toEqual({
      field_name: "Please enter text in this field.",
      field_ok: "Please tick or untick this box.",
    });
    const missing = await post("/api/forms/submit", { formId, token, data: { field_email: "nope" } });
    expect(missing.body.errors).toEqual({
      field_name: "Full name is required",
      field_email: "Please enter a valid email address",
    });
    const shape = await post("/api/forms/submit", { formId, token, data: { field_name: { nested: true } } });
    expect(shape.status).toBe(400);
    const extraKey = await post("/api/forms/submit", { formId, token, data: {}, orgId });
    expect(extraKey.status).toBe(400);
    expect(await stored()).toHaveLength(1);
  });

  test("a 1 MB body is refused before it is read into a function", async () => {
    const big = JSON.stringify({ formId, token, data: { field_name: "x".repeat(1024 * 1024) } });
    const r = await post("/api/forms/submit", big);
    expect(r.status).toBe(413);
    expect(await stored()).toHaveLength(1);
  });

  test("an inactive or unknown form is not found; a token of another form is refused", async () => {
    const inactive = await post("/api/forms/start", { formId: inactiveId });
    await new Promise((r) => setTimeout(r, MIN_FILL_MS + 100));
    const r = await post("/api/forms/submit", {
      formId: inactiveId,
      token: inactive.body.token,
      data: { field_name: "A", field_email: "a@b.org" },
    });
    expect(r).toEqual({ status: 404, body: { error: "Form not found or no longer available." } });
    const crossed = await post("/api/forms/submit", {
      formId: inactiveId,
      token,
      data: { field_name: "A", field_email: "a@b.org" },
    });
    expect(crossed.status).toBe(403);
    const forged = await post("/api/forms/submit", {
      formId,
      token: `${token.slice(0, -2)}xx`,
      data: { field_name: "A", field_email: "a@b.org" },
    });
    expect(forged.status).toBe(403);
  });

  test("a filled honeypot or a submission faster than a person is answered OK and dropped", async () => {
    const hp = await post("/api/forms/submit", {
      formId,
      token,
      data: { field_name: "Bot", field_email: "bot@spam.biz" },
      website: "http://spam.biz",
    });
    expect(hp).toEqual({ status: 200, body: { ok: true } });
    const fresh = await post("/api/forms/start", { formId });
    const fast = await post("/api/forms/submit", {
      formId,
      token: fresh.body.token,
      data: { field_name: "Bot", field_email: "bot@spam.biz" },
    });
    expect(fast).toEqual({ status: 200, body: { ok: true } });
    expect((await stored()).map((s) => s.data.field_name)).toEqual(["Rosa Parks"]);
  });

  test("a flood from one address is cut off by the per-address limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < SUBMIT_RATE_PER_ADDRESS + 5; i++) {
      statuses.push(
        (
          await post("/api/forms/submit", {
            formId,
            token,
            data: { field_name: `Flood ${i}`, field_email: `f${i}@x.org` },
          })
        ).status,
      );
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
    expect(statuses.at(-1)).toBe(429);
    expect((await stored()).length).toBeLessThanOrEqual(SUBMIT_RATE_PER_ADDRESS + 1);
  });
});
