/**
 * Documents as Convex values and as JSON text: the `Doc` type, parsing stored JSON, building a
 * new document's stored JSON from its encoded fields, and the shape checks that let plain JSON
 * arguments skip a decode/encode round trip (`jsonShape`, `jsonToConvexShared`).
 */
import { jsonToConvex, type JSONValue, type Value } from "convex/values";

export type Doc = Record<string, Value>;

export function parseDoc(json: string): Doc {
  return jsonToConvex(JSON.parse(json)) as Doc;
}

/**
 * `JSON.stringify(convexToJson({...value, _id, _creationTime}))` given `encoded` =
 * `convexToJson(value)` (user fields only): convexToJson sorts object keys, and JavaScript lists
 * array-index-like keys first, so the system fields go before the first other key above "_id".
 * Returns undefined when the creation time would not print as a plain JSON number.
 */
export function storedJson(
  encoded: Record<string, JSONValue>,
  id: string,
  creationTime: number,
  encodedText?: string,
): string | undefined {
  if (!Number.isFinite(creationTime) || Object.is(creationTime, -0)) return undefined;
  // ids are base32 ([0-9a-z]): no escaping needed.
  const sys = `"_creationTime":${creationTime},"_id":"${id}"`;
  let full = encodedText ?? JSON.stringify(encoded);
  let before = 0;
  let found = false;
  for (const k in encoded) {
    if (k > "_id" && !isIntegerKey(k)) {
      found = true;
      break;
    }
    before++;
  }
  if (!found) return full === "{}" ? `{${sys}}` : `${full.slice(0, -1)},${sys}}`;
  if (before === 0) return `{${sys},${full.slice(1)}`;
  // Rare: keys sorting before "_" (upper case, digits): measure the entries ahead of the system fields.
  if (encodedText !== undefined) full = JSON.stringify(encoded);
  let pos = 1;
  let i = 0;
  for (const k in encoded) {
    if (i++ === before) break;
    pos += JSON.stringify(k).length + 1 + JSON.stringify(encoded[k]).length + 1;
  }
  return `${full.slice(0, pos)}${sys},${full.slice(pos)}`;
}

/** A JSON value from a query (bound, literal): `{$undefined: null}` means a missing field. */
export function decodeQueryValue(json: JSONValue): Value | undefined {
  if (json !== null && typeof json === "object" && !Array.isArray(json) && "$undefined" in json) return undefined;
  return jsonToConvex(json);
}

/** jsonToConvex(v) would return a deep copy of v (plain JSON, valid field names, no `$` types) */
export const PLAIN = 1;
/** and JSON.stringify(convexToJson(that copy)) === JSON.stringify(v) (keys in convexToJson order, no -0 / non-finite numbers) */
export const CANONICAL = 2;

/** PLAIN | CANONICAL flags of a JSON value (0: neither). */
export function jsonShape(v: unknown): number {
  switch (typeof v) {
    case "string":
    case "boolean":
      return PLAIN | CANONICAL;
    case "number":
      return Number.isFinite(v) && !Object.is(v, -0) ? PLAIN | CANONICAL : PLAIN;
    case "object": {
      if (v === null) return PLAIN | CANONICAL;
      let flags = PLAIN | CANONICAL;
      if (Array.isArray(v)) {
        if (Object.getPrototypeOf(v) !== Array.prototype) return 0;
        for (let i = 0; i < v.length; i++) {
          flags &= jsonShape(v[i]);
          if (flags === 0) return 0;
        }
        return flags;
      }
      if (Object.getPrototypeOf(v) !== Object.prototype) return 0;
      let prev: string | null = null;
      const o = v as Record<string, unknown>;
      for (const k in o) {
        if (!Object.prototype.hasOwnProperty.call(o, k) || !isPlainFieldName(k)) return 0;
        if ((flags & CANONICAL) !== 0 && !isIntegerKey(k)) {
          if (prev !== null && !(prev < k)) flags &= ~CANONICAL;
          prev = k;
        }
        flags &= jsonShape(o[k]);
        if (flags === 0) return 0;
      }
      return flags;
    }
    default:
      return 0;
  }
}
/** A field name jsonToConvex accepts that is not a `$` type tag. */
function isPlainFieldName(k: string): boolean {
  if (k.length > 1024 || k.charCodeAt(0) === 36 /* $ */) return false;
  for (let i = 0; i < k.length; i++) {
    const c = k.charCodeAt(i);
    if (c < 32 || c >= 127) return false;
  }
  return true;
}
/** jsonToConvex(v), without copying v when it is plain JSON already (v must not be modified later). */
export function jsonToConvexShared(v: JSONValue): Value {
  return (jsonShape(v) & PLAIN) !== 0 ? v : jsonToConvex(v);
}
const INTEGER_KEY_RE = /^(?:0|[1-9][0-9]*)$/;
/** A key JavaScript lists before the others (an array index): convexToJson's key order skips it. */
function isIntegerKey(k: string): boolean {
  return k.length < 11 && INTEGER_KEY_RE.test(k) && Number(k) < 4294967295;
}
