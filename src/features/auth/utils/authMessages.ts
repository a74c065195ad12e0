/** Login, registration and reset texts of spec/3 §5 and §8, and the mapping of Convex Auth errors to them. */
import { CODE_REFUSED } from "@convex/lib/errors";
import { TEXTS } from "@convex/lib/texts";

export const LOGIN_MESSAGES = {
  missing: "Please enter both email and password",
  invalid: TEXTS.auth.invalidCredentials,
  unconfirmed: "Please confirm your email before logging in.",
  tooMany: TEXTS.auth.tooManyAttempts,
  network: "Network error. Please check your connection and try again.",
  noSession: "Login failed. Please check your credentials.",
  default: "Login failed",
} as const;

const MIN_PASSWORD_LENGTH = 6;

export type RegistrationValues = {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
};

/** The modal and the page word the same rules differently (spec/3 §5). */
const REGISTRATION_MESSAGES = {
  modal: {
    missing: "All fields are required",
    mismatch: "Passwords do not match",
    short: "Password must be at least 6 characters",
  },
  page: {
    missing: "Please fill in all fields",
    mismatch: "Passwords do not match",
    short: "Password should be at least 6 characters",
  },
} as const;

export function validateRegistration(values: RegistrationValues, variant: "modal" | "page"): string | null {
  const m = REGISTRATION_MESSAGES[variant];
  if (
    [values.firstName, values.lastName, values.email, values.password, values.confirmPassword].some(
      (v) => v.trim() === "",
    )
  )
    return m.missing;
  if (values.password !== values.confirmPassword) return m.mismatch;
  if (values.password.length < MIN_PASSWORD_LENGTH) return m.short;
  return null;
}

export const RESET_MESSAGES = {
  missing: "Please fill in all fields",
  mismatch: "Passwords do not match",
  short: "Password must be at least 6 characters",
  weak: "Password is too weak. Please choose a stronger password.",
  expired: "Session expired. Please request a new password reset link.",
  verifyError: "Error verifying recovery link",
} as const;

export function validateNewPassword(password: string, confirm: string): string | null {
  if (password === "" || confirm === "") return RESET_MESSAGES.missing;
  if (password !== confirm) return RESET_MESSAGES.mismatch;
  if (password.length < MIN_PASSWORD_LENGTH) return RESET_MESSAGES.short;
  return null;
}

/** The text of an error: a ConvexError's data.message first (its .message is the JSON of its data). */
function rawMessage(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const data = (error as { data?: unknown }).data;
    if (typeof data === "string") return data;
    if (typeof data === "object" && data !== null && typeof (data as { message?: unknown }).message === "string")
      return (data as { message: string }).message;
  }
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  return "";
}

/** The server answers an unknown email and a wrong password alike (convex/auth.ts). */
export function loginErrorMessage(error: unknown): string {
  const m = rawMessage(error);
  if (m === LOGIN_MESSAGES.invalid || /InvalidAccountId|InvalidSecret|Invalid credentials|Invalid login/i.test(m))
    return LOGIN_MESSAGES.invalid;
  if (/TooManyFailedAttempts|too many|rate limit/i.test(m)) return LOGIN_MESSAGES.tooMany;
  if (/not confirmed|unverified|confirm your email/i.test(m)) return LOGIN_MESSAGES.unconfirmed;
  if (/network|failed to fetch|connection|websocket|offline/i.test(m)) return LOGIN_MESSAGES.network;
  return LOGIN_MESSAGES.default;
}

/** Sign-up failures: the server's refusal (worded so as not to confirm an account), its password rules. */
export function registrationErrorMessage(error: unknown): string {
  const m = rawMessage(error);
  if (/could not create an account/i.test(m)) return m;
  if (/too weak/i.test(m)) return m;
  if (/too many/i.test(m)) return m;
  if (/at least 6 characters/i.test(m)) return "Password must be at least 6 characters";
  if (/network|failed to fetch|connection/i.test(m)) return LOGIN_MESSAGES.network;
  return "Registration failed. Please try again.";
}

/** The server's refusal of a wrong, used or expired reset code (convex/auth.ts). */
export function isCodeRefused(error: unknown): boolean {
  return rawMessage(error) === CODE_REFUSED;
}

/** A failed reset-verification: the code was used, expired or wrong. */
export function resetErrorMessage(error: unknown): string {
  const m = rawMessage(error);
  if (m === CODE_REFUSED) return CODE_REFUSED;
  if (/at least 6 characters/i.test(m)) return RESET_MESSAGES.short;
  if (/weak/i.test(m)) return RESET_MESSAGES.weak;
  if (/network|failed to fetch|connection/i.test(m)) return LOGIN_MESSAGES.network;
  return TEXTS.auth.recoveryLinkInvalid;
}
