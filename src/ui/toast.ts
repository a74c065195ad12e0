/** Toasts with the spec's durations (3 to 8 s; errors 5 s unless a screen says otherwise). */
import { toast as sonner } from "sonner";
import { classifyError } from "@convex/lib/errors";

type ToastOptions = { description?: string; duration?: number };

export const toast = {
  success: (title: string, opts: ToastOptions = {}) => sonner.success(title, { duration: 3000, ...opts }),
  info: (title: string, opts: ToastOptions = {}) => sonner.info(title, { duration: 3000, ...opts }),
  warning: (title: string, opts: ToastOptions = {}) => sonner.warning(title, { duration: 5000, ...opts }),
  error: (title: string, opts: ToastOptions = {}) => sonner.error(title, { duration: 5000, ...opts }),
  /** An error toast whose description is the error's message, per the shared catalogue. */
  failure: (title: string, error: unknown, opts: ToastOptions = {}) =>
    sonner.error(title, { duration: 5000, description: classifyError(error).message, ...opts }),
};

/** The user-facing message of anything thrown by a Convex call. */
export function errorMessage(error: unknown): string {
  return classifyError(error).message;
}
