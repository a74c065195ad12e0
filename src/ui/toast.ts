/**
 * Toasts with the spec's durations (3 to 8 s; errors 5 s unless a screen says otherwise), and the
 * app's one way to present a failure (`toast.failure`): the catalogue's message for the app's own
 * errors (validation, conflicts, not found…), a calm generic message for anything else — never a
 * raw server message with its request id, stack frames or file paths. Unexpected errors go, with
 * their details, to the error reporter the app installs (`setUnexpectedErrorSink`); expected
 * refusals are not reported. The same failure shown twice at once (two subscriptions failing
 * together) is one toast.
 */
import { toast as sonner } from "sonner";
import { classifyError } from "@convex/lib/errors";

type ToastOptions = { description?: string; duration?: number };

type Sink = (error: unknown, context: { title: string }) => void;
let unexpectedSink: Sink | null = null;

/** Where unexpected errors go with their details (the app's error reporter; installed at start). */
export function setUnexpectedErrorSink(sink: Sink | null): void {
  unexpectedSink = sink;
}

/** Whether an error is one of the app's own, expected refusals (it carries the catalogue's data). */
export function isAppError(error: unknown): boolean {
  const data = typeof error === "object" && error !== null ? (error as { data?: unknown }).data : undefined;
  return (
    typeof data === "object" &&
    data !== null &&
    typeof (data as { code?: unknown }).code === "string" &&
    typeof (data as { message?: unknown }).message === "string"
  );
}

export const toast = {
  success: (title: string, opts: ToastOptions = {}) => sonner.success(title, { duration: 3000, ...opts }),
  info: (title: string, opts: ToastOptions = {}) => sonner.info(title, { duration: 3000, ...opts }),
  warning: (title: string, opts: ToastOptions = {}) => sonner.warning(title, { duration: 5000, ...opts }),
  error: (title: string, opts: ToastOptions = {}) => sonner.error(title, { duration: 5000, ...opts }),
  /** A failure, presented: the catalogue's message as description, details only to the reporter. */
  failure: (title: string, error: unknown, opts: ToastOptions = {}) => {
    const description = opts.description ?? classifyError(error).message;
    if (!isAppError(error)) unexpectedSink?.(error, { title });
    return sonner.error(title, { duration: 5000, ...opts, description, id: `failure:${title}:${description}` });
  },
};

/** The user-facing message of anything thrown by a Convex call. */
export function errorMessage(error: unknown): string {
  return classifyError(error).message;
}
