/**
 * `withIndex` ranges: checks a range's shape as Convex does (equalities on a prefix of the index
 * fields, then at most one lower and one upper bound on the next field) and encodes it as the
 * half-open key interval [lo, hi).
 */
import type { JSONValue, Value } from "convex/values";
import { encodeIndexField, encodeIndexPrefix, prefixEnd } from "./indexkey.js";
import { decodeQueryValue } from "./json-shape.js";
import type { DbIndexDef } from "./storage-types.js";

export type RangeExpr = { type: "Eq" | "Gt" | "Gte" | "Lt" | "Lte"; fieldPath: string; value: JSONValue };

/** Checks the range shape (eq* then optional lower/upper bound on the next field) and encodes it as [lo, hi). */
export function encodeRange(index: DbIndexDef, range: RangeExpr[]): { lo: Buffer; hi: Buffer } {
  const fields = index.fields;
  const prefixVals: Array<Value | undefined> = [];
  let lower: { v: Value | undefined; inclusive: boolean } | null = null;
  let upper: { v: Value | undefined; inclusive: boolean } | null = null;
  let fieldIndex = 0;
  let state: "eq" | "gt" | "lt" | "done" = "eq";
  let boundField: string | null = null;
  for (const [i, r] of range.entries()) {
    const kind = r.type === "Gt" || r.type === "Gte" ? "gt" : r.type === "Lt" || r.type === "Lte" ? "lt" : "eq";
    if (state === "done") {
      throw new Error(
        `Incorrect operator used in \`withIndex\`, cannot chain more operators after both \`.gt\` and \`.lt\` were already used, got \`.${r.type.toLowerCase()}(${r.fieldPath})\`.`,
      );
    }
    if (state === "eq") {
      if (r.fieldPath !== fields[fieldIndex]) {
        throw new Error(
          `Incorrect field used in \`withIndex\` on index "${index.name}": expected "${fields[fieldIndex] ?? "(no more fields)"}", got "${r.fieldPath}".`,
        );
      }
      fieldIndex++;
      const v = decodeQueryValue(r.value);
      if (kind === "eq") prefixVals.push(v);
      else {
        boundField = r.fieldPath;
        if (kind === "gt") lower = { v, inclusive: r.type === "Gte" };
        else upper = { v, inclusive: r.type === "Lte" };
        state = kind;
      }
      continue;
    }
    if ((state === "gt" && kind === "lt") || (state === "lt" && kind === "gt")) {
      if (r.fieldPath !== boundField) {
        throw new Error(
          `Incorrect field used in \`withIndex\`, \`.gt\` and \`.lt\` must operate on the same field, expected "${boundField}", got "${r.fieldPath}".`,
        );
      }
      const v = decodeQueryValue(r.value);
      if (kind === "gt") lower = { v, inclusive: r.type === "Gte" };
      else upper = { v, inclusive: r.type === "Lte" };
      state = "done";
      continue;
    }
    throw new Error(
      `Incorrect operator used in \`withIndex\`, cannot chain \`.${r.type.toLowerCase()}()\` after \`.${range[i - 1].type.toLowerCase()}()\`.`,
    );
  }
  const prefix = encodeIndexPrefix(fields, prefixVals);
  let lo = prefix;
  let hi = prefixEnd(prefix);
  if (lower) {
    const b = Buffer.concat([prefix, encodeIndexField(fields, prefixVals.length, lower.v)]);
    lo = lower.inclusive ? b : prefixEnd(b);
  }
  if (upper) {
    const b = Buffer.concat([prefix, encodeIndexField(fields, prefixVals.length, upper.v)]);
    hi = upper.inclusive ? prefixEnd(b) : b;
  }
  return { lo, hi };
}

/** The smallest key strictly after `key` (keys are unique, so this bounds "≤ key" exactly). */
export function keySuccessor(key: Buffer): Buffer {
  return Buffer.concat([key, Buffer.from([0])]);
}
