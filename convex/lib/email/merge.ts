/**
 * Personalisation (spec/2 §3 "Personalisation (merge) variables"): the variables an email may
 * use (`{{voter.first_name}}`, `{{user.campaign_name}}`, the system's `{{unsubscribe_url}}`),
 * finding them in a design, and filling them in per recipient. Pure TypeScript, shared by the
 * builder's variable picker, the server's checks and the sender.
 *
 * An unknown variable is never sent raw: saving refuses it (`unknownVariables`) and
 * `substitute` replaces it by "" should one get through.
 */
import { allBlocks, isSafeUrl, MAX_URL_LENGTH, type EmailBlock } from "./blocks";
import { cssSafeUrl, escapeHtml } from "./render";

export const VOTER_VARIABLES = [
  "voter.first_name",
  "voter.last_name",
  "voter.email",
  "voter.phone",
  "voter.address",
  "voter.precinct",
  "voter.party_affiliation",
  "voter.status",
] as const;
export const USER_VARIABLES = [
  "user.campaign_name",
  "user.name",
  "user.first_name",
  "user.last_name",
  "user.district",
  "user.office",
  "user.party",
  "user.website",
  "user.email",
] as const;
export const SYSTEM_VARIABLES = ["unsubscribe_url"] as const;
export const KNOWN_VARIABLES = [...VOTER_VARIABLES, ...USER_VARIABLES, ...SYSTEM_VARIABLES] as const;
export type MergeVariable = (typeof KNOWN_VARIABLES)[number];
export type MergeValues = Partial<Record<string, string>>;

/** The variable picker's labels. */
export const VARIABLE_LABELS: Record<MergeVariable, string> = {
  "voter.first_name": "Voter first name",
  "voter.last_name": "Voter last name",
  "voter.email": "Voter email",
  "voter.phone": "Voter phone",
  "voter.address": "Voter address",
  "voter.precinct": "Voter precinct",
  "voter.party_affiliation": "Voter party affiliation",
  "voter.status": "Voter status",
  "user.campaign_name": "Campaign name",
  "user.name": "Your name",
  "user.first_name": "Your first name",
  "user.last_name": "Your last name",
  "user.district": "District",
  "user.office": "Office",
  "user.party": "Party",
  "user.website": "Campaign website",
  "user.email": "Campaign email",
  unsubscribe_url: "Unsubscribe link",
};

const KNOWN = new Set<string>(KNOWN_VARIABLES);

/** Anything in double braces (spaces inside allowed): known or not, it is a variable to fill or drop. */
const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;

export function isKnownVariable(name: string): name is MergeVariable {
  return KNOWN.has(name);
}

/** The distinct variable names used in `text`, in order of first use ("voter.first_name"). */
export function findVariables(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(VARIABLE)) out.add(m[1]);
  return [...out];
}

/** The variables in `texts` that no recipient has a value for. */
export function unknownVariables(texts: string[]): string[] {
  return [...new Set(texts.flatMap(findVariables))].filter((name) => !KNOWN.has(name));
}

/** Every string property of every block (and `extra`, e.g. the subject and preview text): what a whole design personalises. */
export function documentTexts(blocks: EmailBlock[], extra: string[] = []): string[] {
  const out = [...extra];
  for (const b of allBlocks(blocks))
    for (const value of Object.values(b.content)) if (typeof value === "string" && value !== "") out.push(value);
  return out;
}

// A variable that opens a link or image address (href="{{…}}", src=, background=, a url(…) in a
// style attribute) decides its scheme; one further inside an address (https://x.org/?n={{…}}) is
// part of it. Text typed by users cannot look like either: its quotes are escaped.
const URL_START = /(?:\b(?:href|src|background)\s*=\s*["']|\bstyle\s*=\s*"[^"]*url\(\s*(?:'|&#39;|&quot;)?)$/i;
const IN_URL =
  /(?:\b(?:href|src|background)\s*=\s*(?:"[^"]*|'[^']*)|\bstyle\s*=\s*"[^"]*url\(\s*(?:'|&#39;|&quot;)?[^'")\s]*)$/i;
/** How far back a variable's context is looked for: an address is at most MAX_URL_LENGTH, escaped. */
const LOOKBEHIND = 6 * MAX_URL_LENGTH;

/** A value that stands for a whole address: http(s) or mailto as isSafeUrl accepts it, else "". */
function wholeUrl(value: string): string {
  const v = value.trim();
  if (!/^(?:https?:|mailto:)/i.test(v) || !isSafeUrl(v)) return "";
  return escapeHtml(cssSafeUrl(v));
}

/** A value inside an address: one URL component, so a voter's data cannot change where the link goes. */
function urlPart(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%40/g, "@");
}

/**
 * `template` with every variable filled in: known ones by their value ("" when missing), unknown
 * ones by "". In "text" mode values go in as they are (subject, plain-text part).
 *
 * In "html" mode (`template` is rendered HTML) every value is HTML-escaped, and where it sits in a
 * link or image address it is checked for that place:
 * - opening the address (`href="{{unsubscribe_url}}"`, `{{user.website}}` as a button's link, a
 *   CSS `url('{{…}}')`): the value must be a whole http(s) or mailto address that isSafeUrl
 *   accepts, otherwise "" — so no value can make a `javascript:` link;
 * - further inside (`https://x.org/?n={{voter.first_name}}`, `mailto:{{user.email}}`): the
 *   address's scheme is already fixed and safe (the renderer checked it), the value is
 *   percent-encoded as one component ("@" kept for mail addresses).
 * The replacement is one pass: a value that itself looks like `{{…}}` is not filled in again.
 */
export function substitute(template: string, values: MergeValues, mode: "html" | "text"): string {
  return template.replace(VARIABLE, (_match, name: string, offset: number) => {
    const value = KNOWN.has(name) ? (values[name] ?? "") : "";
    if (mode === "text" || value === "") return value;
    const before = template.slice(Math.max(0, offset - LOOKBEHIND), offset);
    if (URL_START.test(before)) return wholeUrl(value);
    if (IN_URL.test(before)) return urlPart(value);
    return escapeHtml(value);
  });
}

/** Fixed placeholder values for previews and test sends (spec/2 §5: test sends are personalised with them). */
export const SAMPLE_VALUES: Record<MergeVariable, string> = {
  "voter.first_name": "Jane",
  "voter.last_name": "Doe",
  "voter.email": "jane.doe@example.com",
  "voter.phone": "(555) 010-0123",
  "voter.address": "123 Main Street, Springfield, IL 62701",
  "voter.precinct": "Precinct 12",
  "voter.party_affiliation": "Independent",
  "voter.status": "Active",
  "user.campaign_name": "Friends of Alex Rivera",
  "user.name": "Alex Rivera",
  "user.first_name": "Alex",
  "user.last_name": "Rivera",
  "user.district": "District 7",
  "user.office": "City Council",
  "user.party": "Independent",
  "user.website": "https://example.org",
  "user.email": "team@example.org",
  unsubscribe_url: "https://example.org/unsubscribe",
};

type Text = string | null | undefined;
export type MergeVoter = {
  first_name?: Text;
  last_name?: Text;
  email?: Text;
  phone?: Text;
  /** the street line (or a whole address) */
  address?: Text;
  street?: Text;
  city?: Text;
  state?: Text;
  zip?: Text;
  precinct?: Text;
  party_affiliation?: Text;
  status?: Text;
};
export type MergeUser = Partial<
  Record<
    "campaign_name" | "name" | "first_name" | "last_name" | "district" | "office" | "party" | "website" | "email",
    Text
  >
>;

const clean = (value: Text) => (value ?? "").trim();

/** One line: "12 Oak St, Springfield, IL 62701" (parts already in the street line are not repeated). */
export function formatAddress(voter: MergeVoter): string {
  const street = clean(voter.address) || clean(voter.street);
  const has = (part: string) => part !== "" && street.toLowerCase().includes(part.toLowerCase());
  const city = has(clean(voter.city)) ? "" : clean(voter.city);
  const stateZip = [clean(voter.state), clean(voter.zip)].filter((p) => p !== "" && !has(p)).join(" ");
  return [street, city, stateZip].filter((p) => p !== "").join(", ");
}

/** The values of one recipient: the voter's, the sending campaign's and the system's. */
export function mergeValues(
  voter: MergeVoter,
  user: MergeUser,
  extra: { unsubscribe_url?: string },
): Record<MergeVariable, string> {
  const firstName = clean(user.first_name);
  const lastName = clean(user.last_name);
  return {
    "voter.first_name": clean(voter.first_name),
    "voter.last_name": clean(voter.last_name),
    "voter.email": clean(voter.email),
    "voter.phone": clean(voter.phone),
    "voter.address": formatAddress(voter),
    "voter.precinct": clean(voter.precinct),
    "voter.party_affiliation": clean(voter.party_affiliation),
    "voter.status": clean(voter.status),
    "user.campaign_name": clean(user.campaign_name),
    "user.name": clean(user.name) || [firstName, lastName].filter(Boolean).join(" "),
    "user.first_name": firstName,
    "user.last_name": lastName,
    "user.district": clean(user.district),
    "user.office": clean(user.office),
    "user.party": clean(user.party),
    "user.website": clean(user.website),
    "user.email": clean(user.email),
    unsubscribe_url: clean(extra.unsubscribe_url),
  };
}

/** The addresses of a design that a link or an image stands on, with what names it for people. */
function linkPlaces(blocks: EmailBlock[]): Array<{ url: string; label: string }> {
  const out: Array<{ url: string; label: string }> = [];
  const str = (b: EmailBlock, key: string) => (typeof b.content[key] === "string" ? String(b.content[key]).trim() : "");
  for (const b of allBlocks(blocks)) {
    if (b.type === "button") out.push({ url: str(b, "url"), label: str(b, "text") || "Button" });
    if (b.type === "image") {
      out.push({ url: str(b, "href"), label: `the link of image “${str(b, "alt") || "without alt text"}”` });
      out.push({ url: str(b, "src"), label: `image “${str(b, "alt") || "without alt text"}”` });
    }
    if (b.type === "header") out.push({ url: str(b, "logoUrl"), label: "the header's logo" });
    if (b.type === "hero") out.push({ url: str(b, "backgroundImage"), label: "the hero's background image" });
    if (b.type === "footer") {
      if (b.content.showPrivacy === true)
        out.push({ url: str(b, "privacyUrl"), label: str(b, "privacyText") || "Privacy Policy" });
      if (b.content.showContact === true)
        out.push({ url: str(b, "contactUrl"), label: str(b, "contactText") || "Contact Us" });
    }
  }
  return out;
}

const WHOLE_VARIABLE = /^\{\{\s*([^{}]*?)\s*\}\}$/;

/**
 * The links and images (their labels: a button's text, a footer link's text) whose whole address
 * is a sender variable (`{{user.website}}`) with no usable value for `sender`: sent, they would be
 * `href=""`. Voter variables differ per recipient and are not judged here.
 */
export function emptyLinks(blocks: EmailBlock[], sender: MergeUser): string[] {
  const values = mergeValues({}, sender, {});
  const labels: string[] = [];
  for (const { url, label } of linkPlaces(blocks)) {
    const name = WHOLE_VARIABLE.exec(url)?.[1];
    if (!name || !(USER_VARIABLES as readonly string[]).includes(name)) continue;
    if (wholeUrl(values[name as MergeVariable]) === "" && !labels.includes(label)) labels.push(label);
  }
  return labels;
}

/** The refusal's message for `emptyLinks`' labels (spec/2 §5's tone). */
export function emptyLinksMessage(labels: string[]): string {
  return `The link is empty for: ${labels.join(", ")}. It points to a campaign value with no web address set (such as the Website in your organisation's information); fill that in or change the link.`;
}

/**
 * What a preview and a test send fill in: sample voter values (every recipient differs) and,
 * once known, the sender's real values, empty ones staying empty, so the preview shows what
 * recipients will get; the unsubscribe link is a sample (each recipient has their own).
 */
export function previewValues(sender: MergeUser | null | undefined): Record<MergeVariable, string> {
  if (!sender) return { ...SAMPLE_VALUES };
  const real = mergeValues({}, sender, {});
  const out = { ...SAMPLE_VALUES };
  for (const name of USER_VARIABLES) out[name] = real[name];
  return out;
}
