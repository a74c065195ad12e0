/** The public pages' calls to the backend's http actions (form and survey submissions). */
import { CONVEX_SITE_URL } from "./config";

/** POSTs JSON to an http action; the status and the JSON answer ({} when there is none). */
export async function postJson(
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${CONVEX_SITE_URL}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  let parsed: Record<string, unknown> = {};
  try {
    parsed = (await res.json()) as Record<string, unknown>;
  } catch {
    // an empty or non-JSON answer: the status says enough
  }
  return { status: res.status, body: parsed };
}
