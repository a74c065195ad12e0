/**
 * Event, filter and segment rules as the editors hold them (lib/email/rules.ts is the model): a
 * list shown with at least one row, JSON text in forms, ids for React keys.
 */
import { VALUELESS_OPERATORS, type EmailRule } from "@convex/lib/email/rules";
import { countOf } from "@/lib/plural";

export { MAX_RULES } from "@convex/lib/email/rules";

function newRuleId(): string {
  return crypto.randomUUID().replace(/-/g, "").slice(0, 12);
}

export function blankRule(event: boolean, id = newRuleId()): EmailRule {
  return event
    ? { id, field: "", operator: "equals", value: "", timeDelay: 0, timeUnit: "minutes" }
    : { id, field: "", operator: "equals", value: "" };
}

/** A rule can be removed only when more than one remains (spec/2 §5). */
export function canRemoveRule(rules: readonly EmailRule[]): boolean {
  return rules.length > 1;
}

/** Operators that compare against nothing: their value input is hidden. */
export function needsValue(rule: Pick<EmailRule, "operator">): boolean {
  return !VALUELESS_OPERATORS.has(rule.operator);
}

/** Rules as a form field's text (the stored JSON). */
export function rulesToText(rules: readonly EmailRule[]): string {
  return JSON.stringify(rules);
}

/** A form field's text back to rules ([] when blank or unreadable). */
/** How many rules a stored rules text holds ("2 rules"), as a conflict shows a teammate's rules. */
export function rulesCount(text: string | undefined): string {
  return countOf(rulesFromText(text).length, "rule");
}

export function rulesFromText(text: string | undefined): EmailRule[] {
  if (!text) return [];
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? (v as EmailRule[]) : [];
  } catch {
    return [];
  }
}

/** The rows an editor shows: the rules, or one blank rule when there are none yet. */
export function shownRules(rules: readonly EmailRule[], event: boolean): EmailRule[] {
  return rules.length > 0 ? [...rules] : [blankRule(event, "first")];
}
