/**
 * Global error handling (spec/3 §8): unhandled promise rejections tell the user a background
 * process failed; window errors and rejections (except those of browser extensions) are reported.
 */
import { CONVEX_SITE_URL } from "@/lib/config";
import { setUnexpectedErrorSink, toast } from "@/ui/toast";
import {
  appendStored,
  createErrorReporter,
  CRITICAL_ERRORS_KEY,
  CRITICAL_STORE_MAX,
  isExtensionError,
  RETRY_DELAY_MS,
  type ErrorEntry,
  type ErrorReporter,
} from "./errorReporter";

const BACKGROUND_FAILURE_MESSAGE =
  "A background process failed. Please try refreshing the page if you experience issues.";

let reporter: ErrorReporter | null = null;

function sessionId(): string {
  const key = "precinct.errorSessionId";
  try {
    const existing = sessionStorage.getItem(key);
    if (existing) return existing;
    const id = crypto.randomUUID();
    sessionStorage.setItem(key, id);
    return id;
  } catch {
    return crypto.randomUUID();
  }
}

function describe(reason: unknown): { message: string; stack?: string } {
  if (reason instanceof Error) return { message: reason.message || reason.name, stack: reason.stack };
  if (typeof reason === "string") return { message: reason };
  try {
    return { message: JSON.stringify(reason) ?? String(reason) };
  } catch {
    return { message: String(reason) };
  }
}

function baseContext(): Pick<ErrorEntry, "url" | "userAgent"> {
  return { url: window.location.href, userAgent: navigator.userAgent };
}

/** Sends queued reports now (with the user's token), e.g. before the crash screen reloads the page. */
export async function flushErrorReports(): Promise<void> {
  await reporter?.flush();
}

/** Reports an error (used by the error boundary too). Crashes are also kept locally (last 10). */
export function reportError(entry: ErrorEntry, critical = false): void {
  const full = { ...baseContext(), ...entry };
  if (critical)
    appendStored(
      localStorage,
      CRITICAL_ERRORS_KEY,
      [{ ...full, timestamp: new Date().toISOString() }],
      CRITICAL_STORE_MAX,
    );
  reporter?.report(full);
}

let authToken: string | null = null;

/** The signed-in user's token, so reports are stored for their organisation's admins. */
export function setErrorReportToken(token: string | null): void {
  authToken = token;
}

function withAuth(init: RequestInit): RequestInit {
  if (!authToken) return init;
  return { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${authToken}` } };
}

export function installGlobalErrorHandler(): void {
  if (reporter || typeof window === "undefined") return;
  reporter = createErrorReporter({
    endpoint: `${CONVEX_SITE_URL}/api/errors`,
    sessionId: sessionId(),
    fetch: (url, init) => window.fetch(url, withAuth(init)),
    storage: localStorage,
    schedule: (fn, ms) => void window.setTimeout(fn, ms),
    sendBeacon: (url, body) =>
      navigator.sendBeacon ? navigator.sendBeacon(url, new Blob([body], { type: "application/json" })) : false,
  });
  const r = reporter;
  // failures a screen presented (toast.failure) that were not the app's own refusals: details here, never on screen
  setUnexpectedErrorSink((error, { title }) =>
    r.report({ ...baseContext(), ...describe(error), context: { type: "presented", title } }),
  );

  window.addEventListener("unhandledrejection", (event) => {
    const info = describe(event.reason);
    if (isExtensionError(info)) return;
    toast.error(BACKGROUND_FAILURE_MESSAGE);
    r.report({ ...baseContext(), ...info, context: { type: "unhandledrejection" } });
  });
  window.addEventListener("error", (event) => {
    const info = event.error ? describe(event.error) : { message: event.message || "Unknown error" };
    if (isExtensionError({ ...info, filename: event.filename })) return;
    r.report({
      ...baseContext(),
      ...info,
      context: { type: "error", filename: event.filename, line: event.lineno, column: event.colno },
    });
  });
  window.addEventListener("pagehide", () => r.beacon());
  window.addEventListener("beforeunload", () => r.beacon());
  window.setTimeout(() => void r.retryStored(), RETRY_DELAY_MS);
}
