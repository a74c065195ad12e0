/**
 * Event and filter rules of the email area (spec/2 §3 "Event or filter rule"): the vocabulary,
 * validation of what a client sends, and matching a voter. Pure: the browser (rule editors) and the
 * server (segment refresh, automations, send checks) use the same code.
 *
 * A voter matches a rule list when it matches every complete rule. Text compares ignore case and
 * surrounding spaces; a phone compares on its digits; "age" is computed from the date of birth at
 * the given time; greater_than / less_than compare ages as numbers, registration dates as dates,
 * other values as numbers when both sides are numbers, else as text. A voter without a value
 * matches not_equals, not_contains and is_empty, and no other operator.
 */

export const RULE_FIELDS = [
  "first_name",
  "last_name",
  "email",
  "phone",
  "status",
  "registration_date",
  "precinct",
  "party",
  "age",
  "city",
  "state",
] as const;
/**
 * Beyond the spec's fields: a district's voters (value "kind:key", lib/districts.ts
 * districtFilter). A segment made from a district (/districts) carries it; editors offer it for
 * such a rule alone. Wherever rules are evaluated — a segment's refresh, a blast's extra filter,
 * an automation's event and filter rules — rules holding one read the voters' districts first
 * (model/emailAudience.ts ruleSubjects); without them a district rule would match nobody.
 */
export const DISTRICT_FIELD = "district";
export const DISTRICT_FIELD_LABEL = "District";
export type RuleField = (typeof RULE_FIELDS)[number];
export type AnyRuleField = RuleField | typeof DISTRICT_FIELD;

export const RULE_OPERATORS = [
  "equals",
  "not_equals",
  "contains",
  "not_contains",
  "starts_with",
  "ends_with",
  "greater_than",
  "less_than",
  "is_empty",
  "is_not_empty",
] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];

export const TIME_UNITS = ["minutes", "hours", "days", "weeks"] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

export const RULE_FIELD_LABELS: Record<RuleField, string> = {
  first_name: "First Name",
  last_name: "Last Name",
  email: "Email",
  phone: "Phone",
  status: "Status",
  registration_date: "Registration Date",
  precinct: "Precinct",
  party: "Party",
  age: "Age",
  city: "City",
  state: "State",
};

export const RULE_OPERATOR_LABELS: Record<RuleOperator, string> = {
  equals: "Equals",
  not_equals: "Does not equal",
  contains: "Contains",
  not_contains: "Does not contain",
  starts_with: "Starts with",
  ends_with: "Ends with",
  greater_than: "Greater than",
  less_than: "Less than",
  is_empty: "Is empty",
  is_not_empty: "Is not empty",
};

export const TIME_UNIT_LABELS: Record<TimeUnit, string> = {
  minutes: "Minutes",
  hours: "Hours",
  days: "Days",
  weeks: "Weeks",
};

/** Operators that take no value. */
export const VALUELESS_OPERATORS: ReadonlySet<RuleOperator> = new Set(["is_empty", "is_not_empty"]);

export const MAX_RULES = 20;
export const MAX_RULE_VALUE = 200;
export const MAX_RULE_ID = 64;
/** The longest JSON text of a rule list read (20 rules of 200 characters, escaped, fit). */
export const MAX_RULES_TEXT = 20_000;
const MINUTE = 60_000;
const UNIT_MS: Record<TimeUnit, number> = {
  minutes: MINUTE,
  hours: 60 * MINUTE,
  days: 1440 * MINUTE,
  weeks: 7 * 1440 * MINUTE,
};
/** The longest delay an event rule may ask for. */
export const MAX_DELAY_MS = 365 * UNIT_MS.days;

export type EmailRule = {
  id: string;
  /** "" while the user has not chosen one yet (a draft rule) */
  field: AnyRuleField | "";
  operator: RuleOperator;
  value: string;
  /** event rules only: wait this long after the event */
  timeDelay?: number;
  timeUnit?: TimeUnit;
};

/** The voter fields rules read. */
export type RuleVoter = {
  first_name: string;
  last_name: string;
  email?: string;
  phone?: string;
  status?: string;
  registration_date?: string;
  precinct?: string;
  party_affiliation?: string;
  date_of_birth?: string;
  city?: string;
  state?: string;
  /** the voter's districts ("kind:key"), loaded only where a rule asks (model/emailAudience.ts ruleSubjects) */
  districts?: string[];
};

/** Rules a client sent that cannot be stored; `message` is for the user. */
export class RulesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RulesError";
  }
}

const isField = (x: unknown): x is AnyRuleField =>
  typeof x === "string" && (x === DISTRICT_FIELD || (RULE_FIELDS as readonly string[]).includes(x));
const isOperator = (x: unknown): x is RuleOperator =>
  typeof x === "string" && (RULE_OPERATORS as readonly string[]).includes(x);
const isUnit = (x: unknown): x is TimeUnit => typeof x === "string" && (TIME_UNITS as readonly string[]).includes(x);

/**
 * Checks rules a client sent (an array, or its JSON text) and returns them in the stored form
 * (keys id, field, operator, value, then timeDelay and timeUnit for event rules; anything else
 * dropped). Draft rules (no field or value yet) are accepted: whether every rule is complete is
 * the caller's check (ruleComplete), with its own message. Throws RulesError.
 */
export function parseRules(raw: unknown, opts: { event?: boolean } = {}): EmailRule[] {
  let input = raw;
  if (typeof raw === "string") {
    if (raw.length > MAX_RULES_TEXT) throw new RulesError("The conditions are too long.");
    try {
      input = raw.trim() === "" ? [] : JSON.parse(raw);
    } catch {
      throw new RulesError("The conditions could not be read.");
    }
  }
  if (!Array.isArray(input)) throw new RulesError("The conditions could not be read.");
  if (input.length > MAX_RULES) throw new RulesError(`At most ${MAX_RULES} conditions are allowed.`);
  const ids = new Set<string>();
  return input.map((item: unknown, i): EmailRule => {
    const n = i + 1;
    if (typeof item !== "object" || item === null || Array.isArray(item))
      throw new RulesError(`Condition ${n} could not be read.`);
    const r = item as Record<string, unknown>;
    if (typeof r.id !== "string" || r.id === "" || r.id.length > MAX_RULE_ID)
      throw new RulesError(`Condition ${n} has no valid id.`);
    if (ids.has(r.id)) throw new RulesError(`Condition ${n} repeats the id of another condition.`);
    ids.add(r.id);
    const field = r.field === undefined || r.field === null ? "" : r.field;
    if (field !== "" && !isField(field)) throw new RulesError(`Condition ${n} uses an unknown field.`);
    if (!isOperator(r.operator)) throw new RulesError(`Condition ${n} uses an unknown operator.`);
    const value = r.value === undefined || r.value === null ? "" : r.value;
    if (typeof value !== "string") throw new RulesError(`The value of condition ${n} must be text.`);
    if (value.length > MAX_RULE_VALUE)
      throw new RulesError(`The value of condition ${n} is limited to ${MAX_RULE_VALUE} characters.`);
    if (
      field === "age" &&
      !VALUELESS_OPERATORS.has(r.operator) &&
      value.trim() !== "" &&
      !/^\d{1,3}$/.test(value.trim())
    ) {
      throw new RulesError(`The age in condition ${n} must be a whole number.`);
    }
    const rule: EmailRule = { id: r.id, field, operator: r.operator, value };
    if (!opts.event) return rule;
    const delay = r.timeDelay === undefined || r.timeDelay === null || r.timeDelay === "" ? undefined : r.timeDelay;
    const unit = r.timeUnit === undefined || r.timeUnit === null || r.timeUnit === "" ? undefined : r.timeUnit;
    if (delay !== undefined) {
      if (typeof delay !== "number" || !Number.isFinite(delay) || delay < 0)
        throw new RulesError(`The delay of condition ${n} must be a number of zero or more.`);
      rule.timeDelay = delay;
    }
    if (unit !== undefined) {
      if (!isUnit(unit)) throw new RulesError(`Condition ${n} uses an unknown time unit.`);
      rule.timeUnit = unit;
    }
    if ((rule.timeDelay ?? 0) > 0 && rule.timeUnit === undefined)
      throw new RulesError(`Please choose a time unit for the delay of condition ${n}.`);
    if (
      rule.timeDelay !== undefined &&
      rule.timeUnit !== undefined &&
      rule.timeDelay * UNIT_MS[rule.timeUnit] > MAX_DELAY_MS
    ) {
      throw new RulesError(`The delay of condition ${n} is limited to 365 days.`);
    }
    return rule;
  });
}

/** The stored JSON text of rules (what parseRules returns, serialised); parseRules of it gives them back. */
export function serializeRules(rules: EmailRule[]): string {
  return JSON.stringify(rules);
}

/** A rule the user finished: it has a field, and a value unless its operator takes none. */
export function ruleComplete(rule: Pick<EmailRule, "field" | "operator" | "value">): boolean {
  return rule.field !== "" && (VALUELESS_OPERATORS.has(rule.operator) || rule.value.trim() !== "");
}

/** An event rule's delay in milliseconds (0 without one), at most 365 days. */
export function ruleDelayMs(rule: Pick<EmailRule, "timeDelay" | "timeUnit">): number {
  const d = rule.timeDelay;
  if (typeof d !== "number" || !Number.isFinite(d) || d <= 0) return 0;
  return Math.min(MAX_DELAY_MS, d * UNIT_MS[rule.timeUnit ?? "minutes"]);
}

/** A calendar date (YYYY-MM-DD, optionally followed by a time; or M/D/YYYY) as [year, month, day], or null. */
export function parseDay(s: string): [number, number, number] | null {
  const t = s.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T ])/.exec(t);
  const us = iso ? null : /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  const [y, m, d] = iso ? [+iso[1], +iso[2], +iso[3]] : us ? [+us[3], +us[1], +us[2]] : [NaN, NaN, NaN];
  if (!Number.isInteger(y) || m < 1 || m > 12 || d < 1) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days ? [y, m, d] : null;
}

/** Whole years from a date of birth to `now` (UTC calendar), or null when the date cannot be read or lies ahead. */
export function ageAt(dateOfBirth: string | undefined, now: number): number | null {
  const dob = dateOfBirth ? parseDay(dateOfBirth) : null;
  if (!dob) return null;
  const today = new Date(now);
  const [y, m, d] = [today.getUTCFullYear(), today.getUTCMonth() + 1, today.getUTCDate()];
  const age = y - dob[0] - (m < dob[1] || (m === dob[1] && d < dob[2]) ? 1 : 0);
  return age >= 0 ? age : null;
}

/** The voter's value for a rule field, as text ("" when absent). */
function fieldValue(voter: RuleVoter, field: RuleField, now: number): string {
  switch (field) {
    case "party":
      return voter.party_affiliation ?? "";
    case "age": {
      const age = ageAt(voter.date_of_birth, now);
      return age === null ? "" : String(age);
    }
    default:
      return voter[field] ?? "";
  }
}

/** A phone's digits, without the leading country code 1 of an 11-digit number. */
function phoneDigits(s: string): string {
  const d = s.replace(/\D/g, "");
  return d.length === 11 && d.startsWith("1") ? d.slice(1) : d;
}

const dayNumber = (s: string) => {
  const p = parseDay(s);
  return p ? Date.UTC(p[0], p[1] - 1, p[2]) : null;
};

const asNumber = (s: string) => (/^-?\d+(\.\d+)?$/.test(s) ? Number(s) : null);

/** -1, 0 or 1: how the voter's value compares with the rule's, by the field's kind. */
function compare(field: RuleField, actual: string, wanted: string): number {
  if (field === "registration_date") {
    const [a, b] = [dayNumber(actual), dayNumber(wanted)];
    if (a !== null && b !== null) return Math.sign(a - b);
  }
  const [a, b] = [asNumber(actual), asNumber(wanted)];
  if (a !== null && b !== null) return Math.sign(a - b);
  return actual < wanted ? -1 : actual > wanted ? 1 : 0;
}

/** Whether one rule holds for the voter (an incomplete rule holds: it does not filter yet). */
export function ruleMatches(voter: RuleVoter, rule: EmailRule, now: number): boolean {
  if (!ruleComplete(rule) || rule.field === "") return true;
  if (rule.field === DISTRICT_FIELD) return districtMatches(voter.districts ?? [], rule);
  const field = rule.field;
  const raw = fieldValue(voter, field, now).trim();
  const empty = raw === "";
  if (rule.operator === "is_empty") return empty;
  if (rule.operator === "is_not_empty") return !empty;
  const phone = field === "phone" && /\d/.test(rule.value);
  const actual = phone ? phoneDigits(raw) : raw.toLowerCase();
  const wanted = phone ? phoneDigits(rule.value) : rule.value.trim().toLowerCase();
  switch (rule.operator) {
    case "equals":
      return !empty && compare(field, actual, wanted) === 0;
    case "not_equals":
      return empty || compare(field, actual, wanted) !== 0;
    case "contains":
      return !empty && actual.includes(wanted);
    case "not_contains":
      return empty || !actual.includes(wanted);
    case "starts_with":
      return !empty && actual.startsWith(wanted);
    case "ends_with":
      return !empty && actual.endsWith(wanted);
    case "greater_than":
      return !empty && compare(field, actual, wanted) > 0;
    case "less_than":
      return !empty && compare(field, actual, wanted) < 0;
  }
}

/** A district rule: the voter is (equals) or is not (not_equals) in the district; in any (is_not_empty) or none. */
function districtMatches(districts: string[], rule: EmailRule): boolean {
  const wanted = rule.value.trim();
  switch (rule.operator) {
    case "equals":
      return districts.includes(wanted);
    case "not_equals":
      return !districts.includes(wanted);
    case "is_empty":
      return districts.length === 0;
    case "is_not_empty":
      return districts.length > 0;
    case "contains":
      return districts.some((d) => d.includes(wanted));
    case "not_contains":
      return !districts.some((d) => d.includes(wanted));
    case "starts_with":
      return districts.some((d) => d.startsWith(wanted));
    case "ends_with":
      return districts.some((d) => d.endsWith(wanted));
    default:
      return false;
  }
}

/** Whether a rule reads the voters' districts (they are loaded only then). */
export function isDistrictRule(rule: EmailRule): boolean {
  return rule.field === DISTRICT_FIELD;
}

/** Whether the voter matches every rule (an empty list matches everyone). */
export function voterMatches(voter: RuleVoter, rules: EmailRule[], now: number): boolean {
  return rules.every((r) => ruleMatches(voter, r, now));
}
