/**
 * Event and filter rules (convex/lib/email/rules.ts): the spec's vocabulary, validation of what a
 * client sends, completeness, delays, and matching voters (every field, every operator, empty
 * values, case, ages at a given time, dates).
 */
import { describe, expect, test } from "vitest";
import {
  ageAt,
  MAX_DELAY_MS,
  parseDay,
  parseRules,
  RULE_FIELD_LABELS,
  RULE_FIELDS,
  RULE_OPERATOR_LABELS,
  RULE_OPERATORS,
  ruleComplete,
  ruleDelayMs,
  DISTRICT_FIELD,
  ruleMatches,
  RulesError,
  serializeRules,
  TIME_UNIT_LABELS,
  TIME_UNITS,
  voterMatches,
  type EmailRule,
  type RuleField,
  type RuleOperator,
  type RuleVoter,
} from "@convex/lib/email/rules";

/** 2026-03-15 12:00 UTC */
const NOW = Date.UTC(2026, 2, 15, 12);

const ada: RuleVoter = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "Ada@Example.org",
  phone: "(503) 555-0101",
  status: "Active",
  registration_date: "2019-06-01",
  precinct: "12",
  party_affiliation: "Democrat",
  date_of_birth: "1990-03-15",
  city: "Portland",
  state: "OR",
};
const blank: RuleVoter = { first_name: "Nobody", last_name: "" };

let n = 0;
const rule = (field: RuleField | "", operator: RuleOperator, value = ""): EmailRule => ({
  id: `r${++n}`,
  field,
  operator,
  value,
});
const matches = (voter: RuleVoter, field: RuleField | "", operator: RuleOperator, value = "") =>
  ruleMatches(voter, rule(field, operator, value), NOW);

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(RulesError);
    return (e as Error).message;
  }
  throw new Error("expected a RulesError");
}

describe("vocabulary", () => {
  test("the spec's fields, operators and time units, each with a label", () => {
    expect(RULE_FIELDS).toEqual([
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
    ]);
    expect(RULE_OPERATORS).toEqual([
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
    ]);
    expect(TIME_UNITS).toEqual(["minutes", "hours", "days", "weeks"]);
    expect(Object.keys(RULE_FIELD_LABELS)).toEqual([...RULE_FIELDS]);
    expect(Object.keys(RULE_OPERATOR_LABELS)).toEqual([...RULE_OPERATORS]);
    expect(Object.keys(TIME_UNIT_LABELS)).toEqual([...TIME_UNITS]);
    for (const label of [...Object.values(RULE_FIELD_LABELS), ...Object.values(RULE_OPERATOR_LABELS)])
      expect(label.length).toBeGreaterThan(0);
    expect(RULE_FIELD_LABELS.party).toBe("Party");
    expect(RULE_OPERATOR_LABELS.not_equals).toBe("Does not equal");
  });
});

describe("parseRules", () => {
  test("reads an array or its JSON text, keeping only the rule's keys in a fixed order", () => {
    const raw = [{ value: "Democrat", operator: "equals", field: "party", id: "a", extra: 1 }];
    const parsed = parseRules(raw);
    expect(parsed).toEqual([{ id: "a", field: "party", operator: "equals", value: "Democrat" }]);
    expect(Object.keys(parsed[0])).toEqual(["id", "field", "operator", "value"]);
    expect(parseRules(JSON.stringify(raw))).toEqual(parsed);
    expect(parseRules("")).toEqual([]);
    expect(parseRules("[]")).toEqual([]);
  });

  test("the stored text reads back to itself", () => {
    const rules = parseRules(
      [{ id: "a", field: "age", operator: "greater_than", value: "30", timeDelay: 2, timeUnit: "hours" }],
      { event: true },
    );
    const text = serializeRules(rules);
    expect(serializeRules(parseRules(text, { event: true }))).toBe(text);
    expect(parseRules(text, { event: true })).toEqual(rules);
  });

  test("draft rules (no field or value yet) are kept; values are kept as typed", () => {
    expect(parseRules([{ id: "a", field: "", operator: "equals", value: "" }])).toEqual([
      { id: "a", field: "", operator: "equals", value: "" },
    ]);
    expect(parseRules([{ id: "a", field: null, operator: "contains" }])).toEqual([
      { id: "a", field: "", operator: "contains", value: "" },
    ]);
    expect(parseRules([{ id: "a", field: "city", operator: "equals", value: " Salem " }])[0].value).toBe(" Salem ");
  });

  test("event rules keep their delay; filter rules drop it", () => {
    const raw = [{ id: "a", field: "city", operator: "equals", value: "Salem", timeDelay: 3, timeUnit: "days" }];
    expect(parseRules(raw, { event: true })).toEqual([
      { id: "a", field: "city", operator: "equals", value: "Salem", timeDelay: 3, timeUnit: "days" },
    ]);
    expect(parseRules(raw)).toEqual([{ id: "a", field: "city", operator: "equals", value: "Salem" }]);
    expect(
      parseRules([{ id: "a", field: "city", operator: "equals", value: "x", timeDelay: 0 }], { event: true })[0],
    ).toMatchObject({ timeDelay: 0 });
    expect(
      parseRules([{ id: "a", field: "city", operator: "equals", value: "x", timeDelay: "", timeUnit: "" }], {
        event: true,
      })[0],
    ).not.toHaveProperty("timeDelay");
  });

  test("invalid input is refused with a clear message", () => {
    expect(refusal(() => parseRules("{not json"))).toBe("The conditions could not be read.");
    expect(refusal(() => parseRules({ id: "a" }))).toBe("The conditions could not be read.");
    expect(refusal(() => parseRules(42))).toBe("The conditions could not be read.");
    expect(refusal(() => parseRules("x".repeat(20_001)))).toBe("The conditions are too long.");
    const many = Array.from({ length: 21 }, (_, i) => ({ id: `r${i}`, field: "city", operator: "equals", value: "x" }));
    expect(refusal(() => parseRules(many))).toBe("At most 20 conditions are allowed.");
    expect(parseRules(many.slice(0, 20))).toHaveLength(20);
    expect(refusal(() => parseRules(["x"]))).toBe("Condition 1 could not be read.");
    expect(refusal(() => parseRules([null]))).toBe("Condition 1 could not be read.");
    expect(refusal(() => parseRules([{ field: "city", operator: "equals", value: "x" }]))).toBe(
      "Condition 1 has no valid id.",
    );
    expect(refusal(() => parseRules([{ id: "x".repeat(65), field: "city", operator: "equals", value: "x" }]))).toBe(
      "Condition 1 has no valid id.",
    );
    expect(
      refusal(() =>
        parseRules([
          { id: "a", field: "city", operator: "equals", value: "x" },
          { id: "a", field: "city", operator: "equals", value: "y" },
        ]),
      ),
    ).toBe("Condition 2 repeats the id of another condition.");
    expect(refusal(() => parseRules([{ id: "a", field: "zip", operator: "equals", value: "x" }]))).toBe(
      "Condition 1 uses an unknown field.",
    );
    expect(refusal(() => parseRules([{ id: "a", field: "party_affiliation", operator: "equals", value: "x" }]))).toBe(
      "Condition 1 uses an unknown field.",
    );
    expect(refusal(() => parseRules([{ id: "a", field: "city", operator: "like", value: "x" }]))).toBe(
      "Condition 1 uses an unknown operator.",
    );
    expect(refusal(() => parseRules([{ id: "a", field: "city", value: "x" }]))).toBe(
      "Condition 1 uses an unknown operator.",
    );
    expect(refusal(() => parseRules([{ id: "a", field: "city", operator: "equals", value: 5 }]))).toBe(
      "The value of condition 1 must be text.",
    );
    expect(refusal(() => parseRules([{ id: "a", field: "city", operator: "equals", value: "x".repeat(201) }]))).toBe(
      "The value of condition 1 is limited to 200 characters.",
    );
    expect(parseRules([{ id: "a", field: "city", operator: "equals", value: "x".repeat(200) }])).toHaveLength(1);
    expect(refusal(() => parseRules([{ id: "a", field: "age", operator: "greater_than", value: "thirty" }]))).toBe(
      "The age in condition 1 must be a whole number.",
    );
    expect(refusal(() => parseRules([{ id: "a", field: "age", operator: "equals", value: "-3" }]))).toBe(
      "The age in condition 1 must be a whole number.",
    );
    expect(parseRules([{ id: "a", field: "age", operator: "is_empty", value: "" }])).toHaveLength(1);
  });

  test("event delays: a number of zero or more, a known unit, at most 365 days", () => {
    const ev = (extra: Record<string, unknown>) => () =>
      parseRules([{ id: "a", field: "city", operator: "equals", value: "x", ...extra }], { event: true });
    expect(refusal(ev({ timeDelay: -1, timeUnit: "days" }))).toBe(
      "The delay of condition 1 must be a number of zero or more.",
    );
    expect(refusal(ev({ timeDelay: "3", timeUnit: "days" }))).toBe(
      "The delay of condition 1 must be a number of zero or more.",
    );
    expect(refusal(ev({ timeDelay: Infinity, timeUnit: "days" }))).toBe(
      "The delay of condition 1 must be a number of zero or more.",
    );
    expect(refusal(ev({ timeDelay: 3, timeUnit: "months" }))).toBe("Condition 1 uses an unknown time unit.");
    expect(refusal(ev({ timeDelay: 3 }))).toBe("Please choose a time unit for the delay of condition 1.");
    expect(refusal(ev({ timeDelay: 366, timeUnit: "days" }))).toBe("The delay of condition 1 is limited to 365 days.");
    expect(refusal(ev({ timeDelay: 53, timeUnit: "weeks" }))).toBe("The delay of condition 1 is limited to 365 days.");
    expect(ev({ timeDelay: 365, timeUnit: "days" })()[0]).toMatchObject({ timeDelay: 365, timeUnit: "days" });
    expect(ev({ timeUnit: "hours" })()[0]).toMatchObject({ timeUnit: "hours" });
  });
});

describe("ruleComplete and ruleDelayMs", () => {
  test("a rule is complete with a field and, unless the operator takes none, a value", () => {
    expect(ruleComplete(rule("city", "equals", "Salem"))).toBe(true);
    expect(ruleComplete(rule("city", "equals", ""))).toBe(false);
    expect(ruleComplete(rule("city", "equals", "   "))).toBe(false);
    expect(ruleComplete(rule("", "equals", "Salem"))).toBe(false);
    expect(ruleComplete(rule("city", "is_empty"))).toBe(true);
    expect(ruleComplete(rule("city", "is_not_empty"))).toBe(true);
    expect(ruleComplete(rule("", "is_empty"))).toBe(false);
  });

  test("delays in milliseconds per unit, 0 without one, capped at 365 days", () => {
    expect(ruleDelayMs({})).toBe(0);
    expect(ruleDelayMs({ timeDelay: 0, timeUnit: "days" })).toBe(0);
    expect(ruleDelayMs({ timeDelay: -5, timeUnit: "days" })).toBe(0);
    expect(ruleDelayMs({ timeDelay: 5, timeUnit: "minutes" })).toBe(5 * 60_000);
    expect(ruleDelayMs({ timeDelay: 2, timeUnit: "hours" })).toBe(2 * 3_600_000);
    expect(ruleDelayMs({ timeDelay: 3, timeUnit: "days" })).toBe(3 * 86_400_000);
    expect(ruleDelayMs({ timeDelay: 1, timeUnit: "weeks" })).toBe(7 * 86_400_000);
    expect(ruleDelayMs({ timeDelay: 10 })).toBe(10 * 60_000);
    expect(ruleDelayMs({ timeDelay: 10_000, timeUnit: "weeks" })).toBe(MAX_DELAY_MS);
    expect(MAX_DELAY_MS).toBe(365 * 86_400_000);
  });
});

describe("dates and ages", () => {
  test("calendar dates: ISO (with or without a time) and M/D/YYYY; impossible dates refused", () => {
    expect(parseDay("2020-02-29")).toEqual([2020, 2, 29]);
    expect(parseDay("2020-2-3")).toEqual([2020, 2, 3]);
    expect(parseDay("2020-02-29T10:00:00Z")).toEqual([2020, 2, 29]);
    expect(parseDay("3/15/1990")).toEqual([1990, 3, 15]);
    expect(parseDay("2021-02-29")).toBeNull();
    expect(parseDay("2021-13-01")).toBeNull();
    expect(parseDay("2021-00-10")).toBeNull();
    expect(parseDay("yesterday")).toBeNull();
    expect(parseDay("")).toBeNull();
  });

  test("age in whole years at `now`, turning on the birthday", () => {
    expect(ageAt("1990-03-15", NOW)).toBe(36);
    expect(ageAt("1990-03-16", NOW)).toBe(35);
    expect(ageAt("1990-03-14", NOW)).toBe(36);
    expect(ageAt("1990-12-31", NOW)).toBe(35);
    expect(ageAt("3/15/1990", NOW)).toBe(36);
    expect(ageAt("2026-03-15", NOW)).toBe(0);
    expect(ageAt("2027-01-01", NOW)).toBeNull();
    expect(ageAt("not a date", NOW)).toBeNull();
    expect(ageAt(undefined, NOW)).toBeNull();
    expect(ageAt("2008-02-29", Date.UTC(2026, 1, 28))).toBe(17);
    expect(ageAt("2008-02-29", Date.UTC(2026, 2, 1))).toBe(18);
  });
});

describe("matching one rule", () => {
  test("every field reads its voter value (party: party_affiliation, age: from the date of birth)", () => {
    const expected: Record<RuleField, string> = {
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.org",
      phone: "503-555-0101",
      status: "active",
      registration_date: "2019-06-01",
      precinct: "12",
      party: "democrat",
      age: "36",
      city: "portland",
      state: "or",
    };
    for (const field of RULE_FIELDS) {
      expect(matches(ada, field, "equals", expected[field]), field).toBe(true);
      expect(matches(ada, field, "not_equals", expected[field]), field).toBe(false);
      expect(matches(ada, field, "is_not_empty"), field).toBe(true);
      expect(matches(ada, field, "is_empty"), field).toBe(false);
      expect(matches(blank, field, "is_empty"), field).toBe(field !== "first_name");
      expect(matches(blank, field, "equals", expected[field]), field).toBe(false);
    }
  });

  test("equals / not_equals ignore case and surrounding spaces", () => {
    expect(matches(ada, "city", "equals", "  PORTLAND ")).toBe(true);
    expect(matches(ada, "city", "equals", "Port")).toBe(false);
    expect(matches(ada, "city", "not_equals", "Salem")).toBe(true);
    expect(matches(ada, "city", "not_equals", "portland")).toBe(false);
    expect(matches({ ...ada, city: "  Portland  " }, "city", "equals", "portland")).toBe(true);
  });

  test("contains / not_contains / starts_with / ends_with", () => {
    expect(matches(ada, "email", "contains", "EXAMPLE")).toBe(true);
    expect(matches(ada, "email", "contains", "gmail")).toBe(false);
    expect(matches(ada, "email", "not_contains", "gmail")).toBe(true);
    expect(matches(ada, "email", "not_contains", "example")).toBe(false);
    expect(matches(ada, "last_name", "starts_with", "love")).toBe(true);
    expect(matches(ada, "last_name", "starts_with", "lace")).toBe(false);
    expect(matches(ada, "last_name", "ends_with", "LACE")).toBe(true);
    expect(matches(ada, "last_name", "ends_with", "love")).toBe(false);
    expect(matches(ada, "email", "ends_with", "@example.org")).toBe(true);
  });

  test("a voter without the value matches not_equals, not_contains and is_empty only", () => {
    const results = Object.fromEntries(RULE_OPERATORS.map((op) => [op, matches(blank, "city", op, "x")]));
    expect(results).toEqual({
      equals: false,
      not_equals: true,
      contains: false,
      not_contains: true,
      starts_with: false,
      ends_with: false,
      greater_than: false,
      less_than: false,
      is_empty: true,
      is_not_empty: false,
    });
    expect(matches({ ...ada, city: "   " }, "city", "is_empty")).toBe(true);
    expect(matches({ ...ada, city: "" }, "city", "is_not_empty")).toBe(false);
  });

  test("greater_than / less_than: ages as numbers at `now`", () => {
    expect(matches(ada, "age", "greater_than", "35")).toBe(true);
    expect(matches(ada, "age", "greater_than", "36")).toBe(false);
    expect(matches(ada, "age", "less_than", "37")).toBe(true);
    expect(matches(ada, "age", "less_than", "100")).toBe(true);
    expect(matches(ada, "age", "less_than", "36")).toBe(false);
    expect(matches(ada, "age", "equals", "036")).toBe(true);
    // the day before the birthday the voter is still 35
    expect(ruleMatches(ada, rule("age", "greater_than", "35"), Date.UTC(2026, 2, 14, 23))).toBe(false);
    expect(matches({ ...ada, date_of_birth: "unknown" }, "age", "less_than", "200")).toBe(false);
    expect(matches({ ...ada, date_of_birth: undefined }, "age", "is_empty")).toBe(true);
  });

  test("greater_than / less_than: registration dates as dates, in either notation", () => {
    expect(matches(ada, "registration_date", "greater_than", "2019-05-31")).toBe(true);
    expect(matches(ada, "registration_date", "greater_than", "2019-06-01")).toBe(false);
    expect(matches(ada, "registration_date", "less_than", "2020-01-01")).toBe(true);
    expect(matches(ada, "registration_date", "less_than", "12/31/2018")).toBe(false);
    expect(matches(ada, "registration_date", "greater_than", "1/5/2019")).toBe(true);
    expect(matches(ada, "registration_date", "equals", "6/1/2019")).toBe(true);
    expect(matches({ ...ada, registration_date: "2019-6-1" }, "registration_date", "equals", "2019-06-01")).toBe(true);
  });

  test("greater_than / less_than: numbers when both sides are numbers, else text", () => {
    expect(matches(ada, "precinct", "greater_than", "9")).toBe(true);
    expect(matches(ada, "precinct", "less_than", "100")).toBe(true);
    expect(matches({ ...ada, precinct: "P-12" }, "precinct", "greater_than", "P-09")).toBe(true);
    expect(matches(ada, "last_name", "greater_than", "king")).toBe(true);
    expect(matches(ada, "last_name", "less_than", "KING")).toBe(false);
    expect(matches(ada, "last_name", "less_than", "Zed")).toBe(true);
  });

  test("phones compare on their digits when the value has digits", () => {
    expect(matches(ada, "phone", "equals", "+1 503 555 0101")).toBe(true);
    expect(matches(ada, "phone", "equals", "5035550101")).toBe(true);
    expect(matches(ada, "phone", "equals", "5035550102")).toBe(false);
    expect(matches(ada, "phone", "starts_with", "(503)")).toBe(true);
    expect(matches(ada, "phone", "contains", "555-01")).toBe(true);
    expect(matches(ada, "phone", "ends_with", "0101")).toBe(true);
    expect(matches(ada, "phone", "contains", "(")).toBe(true);
  });

  test("an incomplete rule does not filter", () => {
    expect(matches(blank, "", "equals", "x")).toBe(true);
    expect(matches(blank, "city", "equals", "")).toBe(true);
  });
});

describe("voterMatches", () => {
  test("every rule must match; no rules match everyone", () => {
    expect(voterMatches(ada, [], NOW)).toBe(true);
    expect(voterMatches(blank, [], NOW)).toBe(true);
    const dems = [
      rule("party", "equals", "democrat"),
      rule("age", "greater_than", "30"),
      rule("email", "is_not_empty"),
    ];
    expect(voterMatches(ada, dems, NOW)).toBe(true);
    expect(voterMatches({ ...ada, party_affiliation: "Republican" }, dems, NOW)).toBe(false);
    expect(voterMatches({ ...ada, date_of_birth: "2000-01-01" }, dems, NOW)).toBe(false);
    expect(voterMatches({ ...ada, email: undefined }, dems, NOW)).toBe(false);
    expect(voterMatches(blank, dems, NOW)).toBe(false);
  });

  test("rules read back from stored text match the same voters", () => {
    const rules = parseRules(
      JSON.stringify([
        { id: "a", field: "state", operator: "equals", value: "or" },
        { id: "b", field: "city", operator: "starts_with", value: "port" },
      ]),
    );
    expect(voterMatches(ada, rules, NOW)).toBe(true);
    expect(voterMatches({ ...ada, city: "Salem" }, rules, NOW)).toBe(false);
  });
});

describe("a district rule (segments made on /districts)", () => {
  test("matches the voter's districts as loaded by the segment's refresh; none loaded: no district", () => {
    const rule = (operator: EmailRule["operator"], value = "precinct:10"): EmailRule => ({
      id: "d",
      field: DISTRICT_FIELD,
      operator,
      value,
    });
    const voter = { first_name: "A", last_name: "B", districts: ["precinct:10", "county:17167"] };
    expect(ruleMatches(voter, rule("equals"), NOW)).toBe(true);
    expect(ruleMatches(voter, rule("equals", "precinct:1"), NOW)).toBe(false);
    expect(ruleMatches(voter, rule("not_equals"), NOW)).toBe(false);
    expect(ruleMatches(voter, rule("is_not_empty"), NOW)).toBe(true);
    expect(ruleMatches({ first_name: "A", last_name: "B" }, rule("equals"), NOW)).toBe(false);
    expect(ruleMatches({ first_name: "A", last_name: "B" }, rule("is_empty"), NOW)).toBe(true);
    expect(parseRules([rule("equals")])).toEqual([rule("equals")]);
    // the spec's vocabulary (the editors' list) stays as it was
    expect(RULE_FIELDS).not.toContain(DISTRICT_FIELD);
  });
});
