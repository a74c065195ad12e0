/**
 * How a voter's phone is stored, whichever way it arrives (the voter form, an import): US numbers
 * as (NNN) NNN-NNNN (a leading 1 dropped, an extension kept as " xNNN"); anything else keeps its
 * digits and extension as typed. Texting uses lib/sms/rules.ts normalizePhone (E.164) on top of this.
 */
export function formatPhone(value: string): string {
  const v = value.trim();
  const [main, ext] = v.split(/\s*(?:x|ext\.?|extension)\s*/i);
  let digits = main.replace(/\D/g, "");
  if (digits.length === 11 && digits.startsWith("1")) digits = digits.slice(1);
  if (digits.length === 10) {
    const out = `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
    return ext ? `${out} x${ext.replace(/\D/g, "")}` : out;
  }
  return v;
}
