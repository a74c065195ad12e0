/** Password rules shared by sign-up, reset and change-password (spec/1 §5 messages). */
import { Scrypt } from "lucia";
import { TEXTS } from "../lib/texts";

export const MIN_PASSWORD_LENGTH = 6;

/**
 * Reset emails an hour per account (authThrottle.ts), and how long a reset code works. Beyond the
 * budget a request sends nothing; the last code sent went out less than one refill period
 * (60 / 5 = 12 min) ago, and it works longer than that, so the owner's inbox holds a working code.
 */
export const RESET_EMAILS_PER_ACCOUNT_PER_HOUR = 5;
export const RESET_CODE_MAX_AGE_MS = 60 * 60_000;

export const PASSWORD_MESSAGES = {
  same: TEXTS.password.same,
  weak: "Password is too weak. Please use a stronger password with at least 6 characters",
  short: TEXTS.password.short,
  wrongCurrent: "Your current password is incorrect.",
} as const;

const COMMON_PASSWORDS = new Set([
  "123456",
  "1234567",
  "12345678",
  "123456789",
  "password",
  "qwerty",
  "abc123",
  "111111",
  "letmein",
  "000000",
]);

/** Too weak despite its length: one repeated character or one of the most common passwords. */
export function isWeakPassword(password: string): boolean {
  return /^(.)\1*$/.test(password) || COMMON_PASSWORDS.has(password.toLowerCase());
}

/** The refusal for a new password, or null when it is acceptable. */
export function newPasswordProblem(password: string): string | null {
  if (!password || password.length < MIN_PASSWORD_LENGTH) return PASSWORD_MESSAGES.short;
  if (isWeakPassword(password)) return PASSWORD_MESSAGES.weak;
  return null;
}

/**
 * A stored Scrypt hash (same parameters as every account's) of a password nobody uses. Made once
 * offline: hashing it per request would add a second Scrypt run to the unknown-email path.
 */
export const DECOY_PASSWORD_HASH =
  "9380e2157a0c2e64c8571bdd5278e6fc:d4befaed6843bfc1679998416f8324024a7c2556f453ea079f4ef66d9590cfc8bc9a79c7c25a3b940810df5330da13a68c22b9fad38e86ff3b472cf9b4b60db1";

/**
 * Spends the work of a real password check (one Scrypt verify, no hash), so that "no such
 * account" answers after the same work as "wrong password": the answer's timing would otherwise
 * tell which emails have accounts.
 */
export async function hashCheckDecoy(password: string): Promise<void> {
  await new Scrypt().verify(DECOY_PASSWORD_HASH, password);
}
