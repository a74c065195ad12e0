/**
 * Convex's size and shape rules for values and documents (crates/value/src/size.rs, array.rs,
 * object.rs; crates/common/src/document.rs): the size of a value (null 1, number/int64 9,
 * boolean 1, string and bytes 2 + bytes, array 2 + elements, object 2 + Σ(name + 1 + value)),
 * its nesting, array lengths, field counts, and the checks a written document must pass, with
 * Convex's messages. `jsonValueSize` measures a value from its `convexToJson` text without
 * building it (stored documents are read as text).
 */
import type { Value } from "convex/values";
import type { Doc } from "./json-shape.js";
import {
  LimitError,
  MAX_ARRAY_LENGTH,
  MAX_DOCUMENT_NESTING,
  MAX_DOCUMENT_SIZE,
  MAX_OBJECT_FIELDS,
  MAX_VALUE_NESTING,
  MAX_VALUE_SIZE,
  messages,
} from "./limits.js";

/** UTF-8 bytes of a JavaScript string (a lone surrogate counts 3, as its replacement would). */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

/** The system fields of a stored document: `_creationTime` (float) and `_id` (a string of `idLen`). */
function systemFieldsSize(idLen: number): number {
  return "_creationTime".length + 1 + 9 + "_id".length + 1 + 2 + idLen;
}

type Shape = { size: number; nesting: number };

/** A value the checks refused: the message, and the value path for context. */
class ShapeError extends Error {}

/** Size and nesting of a value; throws a ShapeError with Convex's message on a refused one. */
function measure(v: Value | undefined): Shape {
  if (v === null) return { size: 1, nesting: 0 };
  switch (typeof v) {
    case "boolean":
      return { size: 1, nesting: 0 };
    case "number":
    case "bigint":
      return { size: 9, nesting: 0 };
    case "string": {
      const size = 2 + utf8Length(v);
      if (size > MAX_VALUE_SIZE) throw new ShapeError(messages.valueTooLarge(size));
      return { size, nesting: 0 };
    }
    case "object":
      break;
    default:
      // Not a Convex value (the library refuses these before they reach us); count nothing.
      return { size: 0, nesting: 0 };
  }
  if (v instanceof ArrayBuffer) return { size: 2 + v.byteLength, nesting: 0 };
  let size = 2;
  let inner = 0;
  if (Array.isArray(v)) {
    if (v.length > MAX_ARRAY_LENGTH) throw new ShapeError(messages.arrayTooLong(v.length));
    for (const x of v) {
      const s = measure(x);
      size += s.size;
      if (s.nesting > inner) inner = s.nesting;
    }
  } else {
    let fields = 0;
    for (const k in v) {
      const x = (v as Record<string, Value | undefined>)[k];
      if (x === undefined) continue;
      fields++;
      const s = measure(x);
      size += utf8Length(k) + 1 + s.size;
      if (s.nesting > inner) inner = s.nesting;
    }
    if (fields > MAX_OBJECT_FIELDS) throw new ShapeError(messages.tooManyFields(fields));
  }
  const nesting = inner + 1;
  if (nesting > MAX_VALUE_NESTING) throw new ShapeError(messages.valueTooNested(nesting));
  if (size > MAX_VALUE_SIZE) throw new ShapeError(messages.valueTooLarge(size));
  return { size, nesting };
}

/** Convex's size of a value (no checks beyond those conversion applies). */
export function valueSize(v: Value): number {
  return measure(v).size;
}

/**
 * Checks a document a function writes (`body`: its fields without `_id`/`_creationTime` when
 * `idLen` is given, else the whole document) the way Convex converts and validates it, and returns
 * its size with the system fields (checked by `checkDocumentSize`, after schema validation, as
 * Convex does). `method` names the call in argument errors ("db.insert").
 */
export function checkDocument(body: Doc, method: string, idLen?: number): number {
  let shape: Shape;
  try {
    shape = measure(body);
  } catch (e) {
    if (e instanceof ShapeError) throw new LimitError(`Invalid argument \`value\` for \`${method}\`: ${e.message}`);
    throw e;
  }
  const size = idLen === undefined ? shape.size : shape.size + systemFieldsSize(idLen);
  // ResolvedDocument::validate: nesting and top-level system fields, all violations reported.
  const violations: string[] = [];
  if (shape.nesting > MAX_DOCUMENT_NESTING) violations.push(messages.documentTooNested(shape.nesting));
  for (const k in body) {
    if (k === "_id" || k === "_creationTime" || body[k] === undefined) continue;
    if (k.startsWith("_")) violations.push(messages.systemField(k));
  }
  if (violations.length > 0) {
    throw new LimitError(
      `Document(value: ${displayValue(body, idLen)}) isn't a valid document: ${violations.join("\n ")}`,
    );
  }
  return size;
}

/** `Document::check_user_size`: a stored document is at most 1 MiB, system fields included. */
export function checkDocumentSize(size: number) {
  if (size > MAX_DOCUMENT_SIZE) throw new LimitError(messages.documentTooLarge(size));
}

// ----- Convex's Display of a value (for InvalidDocumentError messages) -----

function displayFloat(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  const abs = Math.abs(n);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e16)) return n.toExponential().replace("e+", "e");
  return Number.isInteger(n) ? `${Object.is(n, -0) ? "-" : ""}${Math.abs(n)}.0` : String(n);
}

function displayValue(v: Value | undefined, idLen?: number): string {
  if (v === null || v === undefined) return "null";
  switch (typeof v) {
    case "boolean":
      return String(v);
    case "number":
      return displayFloat(v);
    case "bigint":
      return v.toString();
    case "string":
      return JSON.stringify(v);
    default:
      break;
  }
  if (v instanceof ArrayBuffer) return `b${JSON.stringify(Buffer.from(v).toString("base64"))}`;
  if (Array.isArray(v)) return `[${v.map((x) => displayValue(x)).join(", ")}]`;
  const o = v as Record<string, Value | undefined>;
  const keys = Object.keys(o).filter((k) => o[k] !== undefined);
  if (idLen !== undefined) keys.push("_creationTime", "_id");
  keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const parts = keys.map((k) => {
    if (idLen !== undefined && k === "_id" && o._id === undefined) return `_id: "…"`;
    if (idLen !== undefined && k === "_creationTime" && o._creationTime === undefined) return `_creationTime: …`;
    return `${k}: ${displayValue(o[k])}`;
  });
  return `{${parts.join(", ")}}`;
}

// ----- sizes from convexToJson text -----

/**
 * `valueSize(jsonToConvex(JSON.parse(text)))` for the JSON text of a `convexToJson` value (as
 * documents are stored), scanning the text once: `{"$integer": …}` and `{"$float": …}` are 9,
 * `{"$bytes": b64}` is 2 + the decoded length, strings count their UTF-8 bytes.
 */
export function jsonValueSize(text: string): number {
  const s = new JsonSizer(text);
  return s.value();
}

class JsonSizer {
  pos = 0;
  constructor(readonly text: string) {}

  private ws() {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return;
      this.pos++;
    }
  }

  value(): number {
    this.ws();
    const c = this.text.charCodeAt(this.pos);
    if (c === 123 /* { */) return this.object();
    if (c === 91 /* [ */) return this.array();
    if (c === 34 /* " */) return 2 + this.string();
    if (c === 116 /* t */) {
      this.pos += 4;
      return 1;
    }
    if (c === 102 /* f */) {
      this.pos += 5;
      return 1;
    }
    if (c === 110 /* n */) {
      this.pos += 4;
      return 1;
    }
    // a number
    const t = this.text;
    this.pos++;
    while (this.pos < t.length) {
      const d = t.charCodeAt(this.pos);
      if ((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) this.pos++;
      else break;
    }
    return 9;
  }

  /** Consumes a string token; returns its UTF-8 length. */
  private string(): number {
    const t = this.text;
    let i = this.pos + 1;
    let n = 0;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 34) break;
      if (c === 92 /* \ */) {
        const e = t.charCodeAt(i + 1);
        if (e === 117 /* u */) {
          const u = parseInt(t.slice(i + 2, i + 6), 16);
          i += 6;
          if (u >= 0xd800 && u <= 0xdbff && t.charCodeAt(i) === 92 && t.charCodeAt(i + 1) === 117) {
            const lo = parseInt(t.slice(i + 2, i + 6), 16);
            if (lo >= 0xdc00 && lo <= 0xdfff) {
              n += 4;
              i += 6;
              continue;
            }
          }
          n += u < 0x80 ? 1 : u < 0x800 ? 2 : 3;
          continue;
        }
        n += 1;
        i += 2;
        continue;
      }
      if (c < 0x80) n += 1;
      else if (c < 0x800) n += 2;
      else if (c >= 0xd800 && c <= 0xdbff && (t.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        n += 4;
        i++;
      } else n += 3;
      i++;
    }
    this.pos = i + 1;
    return n;
  }

  private array(): number {
    this.pos++;
    let size = 2;
    this.ws();
    if (this.text.charCodeAt(this.pos) === 93) {
      this.pos++;
      return size;
    }
    for (;;) {
      size += this.value();
      this.ws();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 93) return size;
      // c === 44 (,)
    }
  }

  private object(): number {
    const start = this.pos;
    this.pos++;
    this.ws();
    if (this.text.charCodeAt(this.pos) === 125) {
      this.pos++;
      return 2;
    }
    // `{"$integer": …}`, `{"$float": …}`, `{"$bytes": …}`: user field names never start with `$`.
    if (this.text.charCodeAt(this.pos + 1) === 36) {
      const keyStart = this.pos + 1;
      this.string();
      const key = this.text.slice(keyStart, this.pos - 1);
      this.ws();
      this.pos++; // :
      this.ws();
      const valueStart = this.pos;
      this.value();
      const valueEnd = this.pos;
      this.ws();
      if (this.text.charCodeAt(this.pos) === 125) {
        this.pos++;
        if (key === "$integer" || key === "$float") return 9;
        if (key === "$bytes") {
          const b64 = this.text.slice(valueStart + 1, valueEnd - 1);
          const pad = b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0;
          return 2 + Math.floor((b64.length * 3) / 4) - pad;
        }
      }
    }
    // an object (also one whose only key merely starts like a special encoding)
    this.pos = start + 1;
    let size = 2;
    for (;;) {
      this.ws();
      size += this.string() + 1;
      this.ws();
      this.pos++; // :
      size += this.value();
      this.ws();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 125) return size;
    }
  }
}
