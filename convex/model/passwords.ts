/** Password rules shared by sign-up, reset and change-password (spec/1 §5 messages). */
import { Scrypt } from "lucia";

export const MIN_PASSWORD_LENGTH = 6;

export const PASSWORD_MESSAGES = {
  same: "New password cannot be the same as your current password",
  weak: "Password is too weak. Please use a stronger password with at least 6 characters",
  short: "Password must be at least 6 characters long",
  wrongCurrent: "Your current password is incorrect.",
} as const;

const COMMON_PASSWORDS = new Set(["123456", "1234567", "12345678", "123456789", "password", "qwerty", "abc123", "111111", "letmein", "000000"]);

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

let dummyHash: Promise<string> | null = null;

/**
 * Spends the time a real password check takes, so that "no such account" answers no faster
 * than "wrong password" (the answer's timing would otherwise tell which emails have accounts).
 */
export async function hashCheckDecoy(password: string): Promise<void> {
  dummyHash ??= new Scrypt().hash("precinct-timing-decoy");
  await new Scrypt().verify(await dummyHash, password);
}
