/**
 * Email addresses typed into the email area (test recipients, from and reply-to): one check, used
 * by the browser before sending and by the server, which decides. Stricter than a form field's
 * pattern: no quotes, angle brackets, commas or semicolons, since the address goes into a header.
 */

/** A simple address pattern (spec/2 §5: test recipients, from and reply-to). */
export function isEmailAddress(s: string): boolean {
  return s.length <= 254 && /^[^\s@<>"',;]+@[^\s@<>"',;]+\.[^\s@<>"',;]+$/.test(s);
}

/** Splits test recipients on commas and newlines (spec/2 §5); the bad ones are listed. */
export function parseRecipients(input: string): { valid: string[]; invalid: string[] } {
  const parts = input
    .split(/[,\n;]/)
    .map((p) => p.trim())
    .filter(Boolean);
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const p of parts) {
    const lower = p.toLowerCase();
    if (!isEmailAddress(p)) invalid.push(p.slice(0, 80));
    else if (!valid.includes(lower)) valid.push(lower);
  }
  return { valid, invalid };
}
