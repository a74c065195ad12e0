/** Card helpers that run only in the browser: the full number and CVC never leave the form. */

export type CardBrand = "visa" | "mastercard" | "amex" | "discover" | "diners" | "jcb" | "unionpay" | "unknown";

/** The brand from the number's prefix (IIN ranges); "unknown" when none matches. */
export function detectCardBrand(number: string): CardBrand {
  const n = number.replace(/\D/g, "");
  if (/^4/.test(n)) return "visa";
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(n)) return "mastercard";
  if (/^3[47]/.test(n)) return "amex";
  if (/^(6011|65|64[4-9])/.test(n)) return "discover";
  if (/^3(0[0-5]|[689])/.test(n)) return "diners";
  if (/^35/.test(n)) return "jcb";
  if (/^62/.test(n)) return "unionpay";
  return "unknown";
}

export const BRAND_LABELS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
  unknown: "Card",
};

/** The last four digits of what was typed (digits only). */
export function lastFour(number: string): string {
  return number.replace(/\D/g, "").slice(-4);
}

/** The expiry years offered: this year and the nine after it. */
export function expiryYears(now = new Date()): string[] {
  const y = now.getFullYear();
  return Array.from({ length: 10 }, (_, i) => String(y + i));
}

export const EXPIRY_MONTHS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, "0"));
