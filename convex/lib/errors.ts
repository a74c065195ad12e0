/**
 * The shared error catalogue (spec/1 §8): codes, user messages, HTTP/database mapping and the
 * retryable set. Used by the server (ConvexError data) and by every screen.
 */
import { ConvexError } from "convex/values";

export const ERROR_MESSAGES = {
  NETWORK_ERROR: "Unable to connect. Please check your internet connection.",
  UNAUTHORIZED: "Please log in to continue.",
  FORBIDDEN: "You do not have permission to perform this action.",
  NOT_FOUND: "The requested information could not be found.",
  VALIDATION_ERROR: "Please check your input and try again.",
  SERVER_ERROR: "A server error occurred. Please try again later.",
  TIMEOUT: "Request timeout. Please try again.",
  DUPLICATE_ERROR: "This record already exists.",
  RATE_LIMIT: "Too many requests. Please wait a moment and try again.",
  UNKNOWN_ERROR: "An unexpected error occurred.",
  CONFLICT: "A teammate changed this while you were editing.",
} as const;
export type ErrorCode = keyof typeof ERROR_MESSAGES;

/** A wrong, used or expired emailed code: a password reset's or an email verification's (VALIDATION_ERROR). */
export const CODE_REFUSED = "That code is wrong or has expired. Request a new code.";

export const RETRYABLE: ReadonlySet<ErrorCode> = new Set(["NETWORK_ERROR", "TIMEOUT", "SERVER_ERROR", "RATE_LIMIT"]);

/** A field a save could not apply: a teammate's value (null: cleared) and who saved it. */
export type ConflictDetail = { field: string; theirs: string | number | boolean | null | string[]; by: string | null };

/** The payload of every ConvexError the app throws. `message` is what the user reads. */
export type AppErrorData = { code: ErrorCode; message: string; title?: string; conflicts?: ConflictDetail[] };

export function appError(
  code: ErrorCode,
  message?: string,
  title?: string,
  extra: Pick<AppErrorData, "conflicts"> = {},
): ConvexError<AppErrorData> {
  const data: AppErrorData = { code, message: message ?? ERROR_MESSAGES[code] };
  if (title !== undefined) data.title = title;
  if (extra.conflicts) data.conflicts = extra.conflicts;
  return new ConvexError(data);
}

export function codeFromHttpStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return "UNAUTHORIZED";
    case 403:
      return "FORBIDDEN";
    case 404:
      return "NOT_FOUND";
    case 409:
      return "DUPLICATE_ERROR";
    case 422:
      return "VALIDATION_ERROR";
    case 408:
      return "TIMEOUT";
    case 429:
      return "RATE_LIMIT";
    case 500:
    case 502:
    case 503:
    case 504:
      return "SERVER_ERROR";
    default:
      return status >= 400 && status < 500 ? "VALIDATION_ERROR" : "UNKNOWN_ERROR";
  }
}

export function codeFromDatabaseCode(code: string): ErrorCode {
  switch (code) {
    case "PGRST301":
    case "42501":
      return "FORBIDDEN";
    case "PGRST116":
      return "NOT_FOUND";
    case "23505":
      return "DUPLICATE_ERROR";
    case "23503":
      return "VALIDATION_ERROR";
    default:
      return "SERVER_ERROR";
  }
}

export function codeFromMessage(message: string): ErrorCode {
  const m = message.toLowerCase();
  if (m.includes("permission") || m.includes("forbidden")) return "FORBIDDEN";
  if (m.includes("not found")) return "NOT_FOUND";
  if (m.includes("duplicate") || m.includes("already exists")) return "DUPLICATE_ERROR";
  if (m.includes("invalid") || m.includes("validation")) return "VALIDATION_ERROR";
  if (m.includes("timeout") || m.includes("timed out")) return "TIMEOUT";
  if (m.includes("network") || m.includes("failed to fetch") || m.includes("connection")) return "NETWORK_ERROR";
  return "UNKNOWN_ERROR";
}

export type ClassifiedError = { code: ErrorCode; message: string; title?: string; retryable: boolean };

/**
 * Turns anything thrown (a ConvexError from our functions, a fetch failure, an HTTP status) into
 * the catalogue's code and the message a user should read. ConvexError messages are already the
 * spec's texts and are shown as they are.
 */
export function classifyError(error: unknown): ClassifiedError {
  if (
    error instanceof ConvexError ||
    (typeof error === "object" && error !== null && "data" in error && isAppErrorData(error.data))
  ) {
    const data = (error as { data: unknown }).data;
    if (isAppErrorData(data)) return { ...data, retryable: RETRYABLE.has(data.code) };
    if (typeof data === "string") return { code: codeFromMessage(data), message: data, retryable: false };
  }
  if (typeof error === "object" && error !== null) {
    const e = error as { status?: unknown; code?: unknown; message?: unknown };
    if (typeof e.status === "number") {
      const code = codeFromHttpStatus(e.status);
      return { code, message: ERROR_MESSAGES[code], retryable: RETRYABLE.has(code) };
    }
    if (typeof e.code === "string" && /^(PGRST|\d{5})/.test(e.code)) {
      const code = codeFromDatabaseCode(e.code);
      return { code, message: ERROR_MESSAGES[code], retryable: RETRYABLE.has(code) };
    }
    if (typeof e.message === "string") {
      const code = codeFromMessage(e.message);
      return {
        code,
        message: code === "UNKNOWN_ERROR" ? ERROR_MESSAGES.UNKNOWN_ERROR : ERROR_MESSAGES[code],
        retryable: RETRYABLE.has(code),
      };
    }
  }
  return { code: "UNKNOWN_ERROR", message: ERROR_MESSAGES.UNKNOWN_ERROR, retryable: false };
}

function isAppErrorData(d: unknown): d is AppErrorData {
  return (
    typeof d === "object" &&
    d !== null &&
    typeof (d as AppErrorData).code === "string" &&
    typeof (d as AppErrorData).message === "string"
  );
}
