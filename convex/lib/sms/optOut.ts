/**
 * Which text replies revoke consent (the FCC's 2025 consent-revocation rule: any reasonable means,
 * with STOP, QUIT, END, REVOKE, OPT OUT, CANCEL and UNSUBSCRIBE named) and the confirmation text.
 *
 * The rule, on the reply normalised (accents dropped, case folded, apostrophes removed, any other
 * punctuation a space, repeats of one word collapsed, "please" / "thanks" / "por favor" around it
 * dropped):
 * - the whole reply is a keyword: STOP, STOPALL / STOP ALL, QUIT, END, REVOKE, OPT OUT / OPTOUT,
 *   CANCEL, UNSUBSCRIBE, or Spanish PARA, ALTO, BASTA, CANCELAR, DETENER, NO MAS, BAJA; or
 * - the whole reply is an obvious opt-out sentence: "stop texting / messaging / sending / contacting
 *   (me …)", "don't / do not / no more text(s) / message(s) / contact (me …)", "remove me / take me
 *   off (…)", "unsubscribe me", "opt me out", "I want to unsubscribe / opt out / stop", "leave me
 *   alone", "wrong number", and Spanish "no me (escriban | manden | envien …)", "no mas mensajes",
 *   "deja(n) de (escribirme | enviarme | mandarme …)", "dar(me) de baja".
 * Anything else is not an opt-out: a keyword inside a longer message ("Stop by the office?",
 * "Cancel my appointment", "Don't stop", "Is this the end?", "Para mí sí") is ambiguous and kept
 * as a reply for the team to read (the SMS center's log and the voter's page show it). Erring this
 * way keeps a conversation from silently unsubscribing someone who did not ask; the sentences above
 * cover the unambiguous ways people say it.
 */

/** The single-word keywords the provider (Twilio, on long codes, by default) handles itself: it sends its own confirmation. */
export const PROVIDER_OPT_OUT_WORDS = [
  "STOP",
  "STOPALL",
  "UNSUBSCRIBE",
  "CANCEL",
  "END",
  "QUIT",
  "REVOKE",
  "OPTOUT",
] as const;

/** Whole-message opt-out keywords (normalised). */
const KEYWORDS = new Set([
  ...PROVIDER_OPT_OUT_WORDS,
  "STOP ALL",
  "OPT OUT",
  "PARA",
  "ALTO",
  "BASTA",
  "CANCELAR",
  "DETENER",
  "NO MAS",
  "BAJA",
]);

/** Obvious opt-out sentences (normalised, whole message). */
const SENTENCES: RegExp[] = [
  /^(STOP|QUIT) (TEXTING|TEXT|MESSAGING|MESSAGE|SENDING|CONTACTING|CONTACT|SPAMMING|TXTING)( .*)?$/,
  /^(DONT|DO NOT|NO MORE|NEVER) (TEXT|TEXTS|TXT|MESSAGE|MESSAGES|CONTACT|SMS)( .*)?$/,
  /^(I DONT WANT|I DO NOT WANT) (ANY )?(MORE )?(TEXTS|MESSAGES|TEXT MESSAGES)( .*)?$/,
  /^(REMOVE|DELETE) (ME|MY NUMBER|THIS NUMBER)( .*)?$/,
  /^TAKE (ME|MY NUMBER|THIS NUMBER) OFF( .*)?$/,
  /^(UNSUBSCRIBE|OPT OUT|OPTOUT|STOP) (ME|MY NUMBER|THIS NUMBER)( .*)?$/,
  /^OPT ME OUT( .*)?$/,
  /^(I WANT TO|I WANNA|ID LIKE TO|I WOULD LIKE TO) (UNSUBSCRIBE|OPT OUT|STOP)( .*)?$/,
  /^LEAVE ME ALONE( .*)?$/,
  /^WRONG (NUMBER|PERSON)$/,
  /^NO (ME|NOS) (ESCRIBAN|ESCRIBAS|MANDEN|MANDES|ENVIEN|ENVIES|CONTACTEN|CONTACTES|TEXTEEN)( .*)?$/,
  /^NO MAS (MENSAJES|TEXTOS|SMS)( .*)?$/,
  /^(DEJA|DEJEN|DEJE) DE (ESCRIBIRME|ENVIARME|MANDARME|CONTACTARME|ESCRIBIR|ENVIAR|MANDAR)( .*)?$/,
  /^(DAR|DARME|DENME|DAME) DE BAJA( .*)?$/,
];

/** Courtesies around a keyword that do not change what it says. */
const COURTESY =
  /^(?:(?:PLEASE|PLS|PLZ|THANKS|THANK YOU|THX|NOW|POR FAVOR|FAVOR|GRACIAS|YA|OK|OKAY) )*(.*?)(?: (?:PLEASE|PLS|PLZ|THANKS|THANK YOU|THX|NOW|POR FAVOR|GRACIAS|YA))*$/;

/** A reply as the rule reads it: no accents, upper case, apostrophes removed, other punctuation a space, single spaces. */
export function normalizeReply(body: string): string {
  return body
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase()
    .replace(/['\u2018\u2019`]/g, "")
    .replace(/[^A-Z0-9]+/g, " ")
    .trim();
}

/**
 * The opt-out a reply expresses, normalised ("STOP", "NO MAS", "STOP TEXTING ME"), or null when it
 * is not one. "Stop please" and "STOP!!" give "STOP".
 */
export function optOutKeyword(body: string): string | null {
  const words = normalizeReply(body.slice(0, 320)).split(" ");
  // "STOP STOP STOP": one word repeated says it once
  const text = words.filter((w, i) => w !== "" && w !== words[i - 1]).join(" ");
  const core = COURTESY.exec(text)?.[1] ?? text;
  if (core === "") return null;
  if (KEYWORDS.has(core)) return core;
  if (SENTENCES.some((re) => re.test(core))) return core.slice(0, 60);
  return null;
}

/** Whether the provider confirms this opt-out itself (the reply is exactly one of its keywords), so we must not confirm it again. */
export function providerConfirms(body: string): boolean {
  return (PROVIDER_OPT_OUT_WORDS as readonly string[]).includes(body.trim().toUpperCase());
}

/** The one confirmation of an opt-out by text (organisations whose texts the number no longer gets). */
export function optOutConfirmation(orgNames: string[]): string {
  const who = orgNames.length > 0 ? orgNames.join(", ") : "these";
  return `You have been unsubscribed from ${who} texts. No more messages will be sent. Reply START to resubscribe.`;
}
