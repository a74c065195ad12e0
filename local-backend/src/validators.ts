/**
 * Runtime checking of Convex validators (the JSON form produced by `v.*().json`, `exportArgs()`,
 * and the schema export) with error texts modelled on Convex's.
 */
import type { Value } from "convex/values";

export type ValidatorJSON =
  | { type: "null" }
  | { type: "number" }
  | { type: "bigint" }
  | { type: "commitTs" }
  | { type: "boolean" }
  | { type: "string" }
  | { type: "bytes" }
  | { type: "any" }
  | { type: "literal"; value: unknown }
  | { type: "id"; tableName: string }
  | { type: "array"; value: ValidatorJSON }
  | { type: "record"; keys: ValidatorJSON; values: { fieldType: ValidatorJSON; optional: boolean } }
  | { type: "object"; value: Record<string, { fieldType: ValidatorJSON; optional: boolean }> }
  | { type: "union"; value: ValidatorJSON[] };

/** Resolves the table an id belongs to, or null when the string is not an id of any table. */
export type IdTableResolver = (id: string) => string | null;

function printValue(v: unknown, depth = 0): string {
  if (v === undefined) return "undefined";
  if (v === null) return "null";
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number") {
    if (Number.isInteger(v) && Math.abs(v) < 1e21) return `${v}`;
    return `${v}`;
  }
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "boolean") return `${v}`;
  if (v instanceof ArrayBuffer) return `ArrayBuffer(${v.byteLength} bytes)`;
  if (depth > 6) return "...";
  if (Array.isArray(v)) return `[${v.map((x) => printValue(x, depth + 1)).join(", ")}]`;
  if (typeof v === "object") {
    if (v.constructor?.name === "CommitTsPlaceholder") return "[unresolved commit timestamp]";
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    return `{${entries.map(([k, x]) => `${k}: ${printValue(x, depth + 1)}`).join(", ")}}`;
  }
  return typeof v === "function" ? "[Function]" : typeof v === "symbol" ? v.toString() : "[unknown]";
}

function printValidator(v: ValidatorJSON): string {
  switch (v.type) {
    case "null":
      return "v.null()";
    case "number":
      return "v.float64()";
    case "bigint":
      return "v.int64()";
    case "commitTs":
      return "v.commitTs()";
    case "boolean":
      return "v.boolean()";
    case "string":
      return "v.string()";
    case "bytes":
      return "v.bytes()";
    case "any":
      return "v.any()";
    case "literal":
      return `v.literal(${printLiteral(v.value)})`;
    case "id":
      return `v.id(${JSON.stringify(v.tableName)})`;
    case "array":
      return `v.array(${printValidator(v.value)})`;
    case "record":
      return `v.record(${printValidator(v.keys)}, ${printValidator(v.values.fieldType)})`;
    case "object":
      return `v.object({${Object.entries(v.value)
        .map(
          ([k, f]) =>
            `${k}: ${f.optional ? `v.optional(${printValidator(f.fieldType)})` : printValidator(f.fieldType)}`,
        )
        .join(", ")}})`;
    case "union":
      return `v.union(${v.value.map(printValidator).join(", ")})`;
  }
}

function printLiteral(json: unknown): string {
  if (json !== null && typeof json === "object" && "$integer" in json) return "BigInt";
  return JSON.stringify(json);
}

function literalMatches(lit: unknown, value: unknown): boolean {
  if (lit !== null && typeof lit === "object" && "$integer" in (lit as Record<string, unknown>)) {
    if (typeof value !== "bigint") return false;
    const b64 = (lit as { $integer: string }).$integer;
    const buf = Buffer.from(b64, "base64");
    return buf.length === 8 && buf.readBigInt64LE(0) === value;
  }
  return lit === value;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof ArrayBuffer) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype || proto?.constructor?.name === "Object";
}

function pathLine(path: string): string {
  return path ? `Path: ${path}\n` : "";
}

function mismatch(path: string, value: unknown, validator: ValidatorJSON): string {
  return `Value does not match validator.\n${pathLine(path)}Value: ${printValue(value)}\nValidator: ${printValidator(validator)}`;
}

type FieldEntries = Array<[string, { fieldType: ValidatorJSON; optional: boolean }]>;
const objectEntries = new WeakMap<object, FieldEntries>();
function fieldEntries(fields: Record<string, { fieldType: ValidatorJSON; optional: boolean }>): FieldEntries {
  let e = objectEntries.get(fields);
  if (!e) objectEntries.set(fields, (e = Object.entries(fields)));
  return e;
}

/**
 * Allocation-free check: true exactly when `checkValue` would return null. The common (valid)
 * case takes this path; the message is built by `checkValue` only on a mismatch.
 */
function matches(validator: ValidatorJSON, value: Value | undefined, resolveIdTable: IdTableResolver): boolean {
  switch (validator.type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "id":
      return typeof value === "string" && resolveIdTable(value) === validator.tableName;
    case "object": {
      if (!isPlainObject(value)) return false;
      const fields = validator.value;
      const entries = fieldEntries(fields);
      for (let i = 0; i < entries.length; i++) {
        const [k, field] = entries[i];
        const item = (value as Record<string, Value | undefined>)[k];
        if (item === undefined) {
          if (!field.optional) return false;
          continue;
        }
        if (!matches(field.fieldType, item, resolveIdTable)) return false;
      }
      for (const k in value) {
        if (!Object.prototype.hasOwnProperty.call(value, k)) continue;
        if ((value as Record<string, unknown>)[k] === undefined) continue;
        if (!(k in fields)) return false;
      }
      return true;
    }
    case "array": {
      if (!Array.isArray(value)) return false;
      for (let i = 0; i < value.length; i++) if (!matches(validator.value, value[i], resolveIdTable)) return false;
      return true;
    }
    case "record": {
      if (!isPlainObject(value)) return false;
      for (const k in value) {
        if (!Object.prototype.hasOwnProperty.call(value, k)) continue;
        const item = (value as Record<string, Value | undefined>)[k];
        if (item === undefined) continue;
        if (!matches(validator.keys, k, resolveIdTable)) return false;
        if (!matches(validator.values.fieldType, item, resolveIdTable)) return false;
      }
      return true;
    }
    case "union": {
      for (const member of validator.value) if (matches(member, value, resolveIdTable)) return true;
      return false;
    }
    default:
      return checkValueSlow(validator, value, resolveIdTable, "") === null;
  }
}

/** Returns null when `value` matches, else a Convex-style explanation. */
export function checkValue(
  validator: ValidatorJSON,
  value: Value | undefined,
  resolveIdTable: IdTableResolver,
  path = "",
): string | null {
  if (matches(validator, value, resolveIdTable)) return null;
  return checkValueSlow(validator, value, resolveIdTable, path);
}

function checkValueSlow(
  validator: ValidatorJSON,
  value: Value | undefined,
  resolveIdTable: IdTableResolver,
  path: string,
): string | null {
  switch (validator.type) {
    case "any":
      return value === undefined ? mismatch(path, value, validator) : null;
    case "null":
      return value === null ? null : mismatch(path, value, validator);
    case "number":
      return typeof value === "number" ? null : mismatch(path, value, validator);
    case "bigint":
      return typeof value === "bigint" ? null : mismatch(path, value, validator);
    case "commitTs":
      return typeof value === "bigint" ||
        (typeof value === "object" && value?.constructor?.name === "CommitTsPlaceholder")
        ? null
        : mismatch(path, value, validator);
    case "boolean":
      return typeof value === "boolean" ? null : mismatch(path, value, validator);
    case "string":
      return typeof value === "string" ? null : mismatch(path, value, validator);
    case "bytes":
      return value instanceof ArrayBuffer ? null : mismatch(path, value, validator);
    case "literal":
      return literalMatches(validator.value, value) ? null : mismatch(path, value, validator);
    case "id": {
      if (typeof value !== "string") return mismatch(path, value, validator);
      const table = resolveIdTable(value);
      if (table === null) return mismatch(path, value, validator);
      if (table !== validator.tableName) {
        return `Found ID "${value}" from table \`${table}\`, which does not match the table name in validator \`${printValidator(validator)}\`.\n${pathLine(path)}`.trimEnd();
      }
      return null;
    }
    case "array": {
      if (!Array.isArray(value)) return mismatch(path, value, validator);
      for (let i = 0; i < value.length; i++) {
        const err = checkValue(validator.value, value[i], resolveIdTable, `${path}[${i}]`);
        if (err) return err;
      }
      return null;
    }
    case "record": {
      if (!isPlainObject(value)) return mismatch(path, value, validator);
      for (const [k, item] of Object.entries(value)) {
        if (item === undefined) continue;
        const keyErr = checkValue(validator.keys, k, resolveIdTable, `${path}.${k}`);
        if (keyErr) return keyErr;
        const err = checkValue(validator.values.fieldType, item, resolveIdTable, `${path}.${k}`);
        if (err) return err;
      }
      return null;
    }
    case "object": {
      if (!isPlainObject(value)) return mismatch(path, value, validator);
      for (const [k, field] of Object.entries(validator.value)) {
        const item = value[k];
        if (item === undefined) {
          if (!field.optional) {
            return `Object is missing the required field \`${k}\`. Consider wrapping the field validator in \`v.optional(...)\` if this is expected.\n\n${pathLine(path)}Object: ${printValue(value)}\nValidator: ${printValidator(validator)}`;
          }
          continue;
        }
        const err = checkValue(field.fieldType, item, resolveIdTable, `${path}.${k}`);
        if (err) return err;
      }
      for (const [k, item] of Object.entries(value)) {
        if (item === undefined) continue;
        if (!(k in validator.value)) {
          return `Object contains extra field \`${k}\` that is not in the validator.\n\n${pathLine(path)}Object: ${printValue(value)}\nValidator: ${printValidator(validator)}`;
        }
      }
      return null;
    }
    case "union": {
      for (const member of validator.value) {
        if (checkValue(member, value, resolveIdTable, path) === null) return null;
      }
      return mismatch(path, value, validator);
    }
  }
}
