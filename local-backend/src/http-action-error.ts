/**
 * The response of an http action that threw, as Convex sends it (application/src/redaction.rs,
 * `RedactedJsError::to_http_response_parts` of a dev deployment): status 500, JSON
 * `{ code: "[Request ID: <id>] Server Error: <message>", trace: "<message>\n<frames>", data? }`,
 * `data` being a ConvexError's data (convexToJson-encoded, as Convex's internal JSON). So an
 * http-action caller receives a ConvexError's data, which a text/plain body loses.
 */
import type { JSONValue } from "convex/values";

export type HttpActionFailure = {
  /** Convex's error message, e.g. `Uncaught ConvexError: {"code":"QUOTA"}` */
  errorMessage: string;
  /** a ConvexError's data, convexToJson-encoded */
  errorData?: JSONValue;
  /** the user's stack frames, one line each (`    at handler (../convex/http.ts:3:9)`) */
  frames?: string[];
};

export function httpActionErrorBody(f: HttpActionFailure, requestId: string): Record<string, JSONValue> {
  const body: Record<string, JSONValue> = {
    code: `[Request ID: ${requestId}] Server Error: ${f.errorMessage}`,
    trace: `${f.errorMessage}\n${(f.frames ?? []).map((l) => `${l}\n`).join("")}`,
  };
  if (f.errorData !== undefined) body.data = f.errorData;
  return body;
}

/** What `runHttpAction` answers when the action threw (instead of a text/plain 500). */
export function httpActionErrorResponse(f: HttpActionFailure, requestId: string): Response {
  return new Response(JSON.stringify(httpActionErrorBody(f, requestId)), {
    status: 500,
    headers: { "Content-Type": "application/json" },
  });
}
