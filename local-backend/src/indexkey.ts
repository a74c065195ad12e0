/**
 * Order-preserving binary encoding of Convex values: memcmp order of the encodings equals
 * Convex's total order (undefined < null < int64 < float64 < boolean < string < bytes < array
 * < object). Every encoded value is self-delimiting and never starts with 0x00 or 0xff, so tuple
 * keys are plain concatenations and `prefix ++ 0xff` is a strict upper bound of a prefix.
 */
import type { Value } from "convex/values";
import { decodeId } from "./ids.js";
import type { SearchIndexDef } from "./storage-types.js";

const T_UNDEFINED = 0x10;
const T_NULL = 0x20;
const T_INT = 0x30;
const T_FLOAT = 0x40;
const T_FALSE = 0x50;
const T_TRUE = 0x51;
const T_STRING = 0x60;
const T_BYTES = 0x70;
const T_ARRAY = 0x80;
const T_OBJECT = 0x90;
const T_COMMIT_TS = 0x31; // unresolved commit timestamp: sorts as int64::MAX (after every int)

const MAX_BYTE = 0xff;

/** ASCII without NUL: a string whose UTF-8 bytes are its characters and need no escaping. */
function isPlainAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0 || c > 0x7f) return false;
  }
  return true;
}

class Writer {
  buf = Buffer.allocUnsafe(64);
  len = 0;
  ensure(n: number) {
    if (this.len + n > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
      this.buf.copy(next, 0, 0, this.len);
      this.buf = next;
    }
  }
  byte(b: number) {
    this.ensure(1);
    this.buf[this.len++] = b;
  }
  escaped(bytes: Uint8Array) {
    this.ensure(bytes.length * 2 + 2);
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i];
      this.buf[this.len++] = b;
      if (b === 0) this.buf[this.len++] = 0xff;
    }
    this.buf[this.len++] = 0;
    this.buf[this.len++] = 0;
  }
  escapedString(s: string) {
    // Fast path: ASCII without NUL needs no escaping and no TextEncoder.
    if (isPlainAscii(s)) {
      this.ensure(s.length + 2);
      for (let i = 0; i < s.length; i++) this.buf[this.len++] = s.charCodeAt(i);
      this.buf[this.len++] = 0;
      this.buf[this.len++] = 0;
    } else {
      this.escaped(Buffer.from(s, "utf8"));
    }
  }
  result(): Buffer {
    const out = Buffer.allocUnsafe(this.len);
    this.buf.copy(out, 0, 0, this.len);
    return out;
  }
}

// One scratch writer for every encode call (they are synchronous and never nest), so encoding
// a key allocates only the result.
const scratch = new Writer();
function resetScratch(): Writer {
  if (scratch.buf.length > 1 << 16) scratch.buf = Buffer.allocUnsafe(64);
  scratch.len = 0;
  return scratch;
}

const f64 = new DataView(new ArrayBuffer(8));

function isCommitTsPlaceholder(v: unknown): boolean {
  return typeof v === "object" && v !== null && v.constructor?.name === "CommitTsPlaceholder";
}

function write(w: Writer, v: Value | undefined): void {
  if (v === undefined) return w.byte(T_UNDEFINED);
  if (v === null) return w.byte(T_NULL);
  switch (typeof v) {
    case "bigint": {
      w.byte(T_INT);
      w.ensure(8);
      w.buf.writeBigUInt64BE(BigInt.asUintN(64, v) ^ 0x8000000000000000n, w.len);
      w.len += 8;
      return;
    }
    case "number": {
      w.byte(T_FLOAT);
      f64.setFloat64(0, v);
      const hi = f64.getUint32(0);
      const lo = f64.getUint32(4);
      w.ensure(8);
      if (hi & 0x80000000) {
        // negative (including -0 and negative NaNs): flip every bit so larger magnitudes sort first
        w.buf.writeUInt32BE(~hi >>> 0, w.len);
        w.buf.writeUInt32BE(~lo >>> 0, w.len + 4);
      } else {
        w.buf.writeUInt32BE((hi | 0x80000000) >>> 0, w.len);
        w.buf.writeUInt32BE(lo, w.len + 4);
      }
      w.len += 8;
      return;
    }
    case "boolean":
      return w.byte(v ? T_TRUE : T_FALSE);
    case "string":
      w.byte(T_STRING);
      return w.escapedString(v);
    case "object": {
      if (v instanceof ArrayBuffer) {
        w.byte(T_BYTES);
        return w.escaped(new Uint8Array(v));
      }
      if (Array.isArray(v)) {
        w.byte(T_ARRAY);
        for (const item of v) write(w, item);
        return w.byte(0);
      }
      if (isCommitTsPlaceholder(v)) {
        return w.byte(T_COMMIT_TS);
      }
      w.byte(T_OBJECT);
      const keys = Object.keys(v).sort(compareKeyStrings);
      for (const k of keys) {
        const item = (v as Record<string, Value | undefined>)[k];
        if (item === undefined) continue;
        w.byte(1);
        w.escapedString(k);
        write(w, item);
      }
      return w.byte(0);
    }
    default:
      throw new Error(`Cannot encode ${typeof v} as a Convex value`);
  }
}

// Object keys compare by UTF-8 bytes like every other string.
function compareKeyStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

export function encodeValue(v: Value | undefined): Buffer {
  const w = resetScratch();
  write(w, v);
  return w.result();
}

export function encodeTuple(values: ReadonlyArray<Value | undefined>): Buffer {
  const w = resetScratch();
  for (const v of values) write(w, v);
  return w.result();
}

/** Smallest key strictly greater than every key that starts with `prefix`. */
export function prefixEnd(prefix: Buffer): Buffer {
  return Buffer.concat([prefix, Buffer.from([MAX_BYTE])]);
}

export function getFieldPath(doc: Record<string, unknown>, path: string): Value | undefined {
  if (!path.includes(".")) return doc[path] as Value | undefined;
  let cur: unknown = doc;
  for (const part of path.split(".")) {
    if (cur === null || typeof cur !== "object" || Array.isArray(cur) || cur instanceof ArrayBuffer) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur as Value | undefined;
}

/**
 * Every index but by_id ends in the system tie-breaker `_id`, whose values are ids of the index's
 * own table: base32 of the table number, a 16-byte internal id and a checksum, all of one length,
 * so their string order is the internal ids' byte order. Keys hold that tail as T_ID_TAIL and the
 * 16 bytes (17 bytes instead of the string's 34): the same order, half the bytes, in every entry.
 */
const T_ID_TAIL = 0x65;
const INTERNAL_ID_BYTES = 16;

export function hasIdTail(fields: ReadonlyArray<string>): boolean {
  return fields.length > 1 && fields[fields.length - 1] === "_id";
}

function writeIdTail(w: Writer, v: Value | undefined): void {
  const d = typeof v === "string" ? decodeId(v) : null;
  if (!d)
    throw new Error(
      `Invalid index range: ${JSON.stringify(v ?? null)} is not a document id (the last field of an index is \`_id\`).`,
    );
  w.byte(T_ID_TAIL);
  w.ensure(INTERNAL_ID_BYTES);
  w.buf.set(d.internalId, w.len);
  w.len += INTERNAL_ID_BYTES;
}

/** The value of field `i` of an index, written as that field is in its keys. */
function writeField(w: Writer, fields: ReadonlyArray<string>, i: number, v: Value | undefined): void {
  if (i === fields.length - 1 && hasIdTail(fields)) writeIdTail(w, v);
  else write(w, v);
}

/** `values` for the first fields of an index (a range's equalities), encoded as its keys begin. */
export function encodeIndexPrefix(fields: ReadonlyArray<string>, values: ReadonlyArray<Value | undefined>): Buffer {
  const w = resetScratch();
  for (let i = 0; i < values.length; i++) writeField(w, fields, i, values[i]);
  return w.result();
}

/** A range bound's value on field `position` of an index, encoded as that field is in its keys. */
export function encodeIndexField(fields: ReadonlyArray<string>, position: number, value: Value | undefined): Buffer {
  const w = resetScratch();
  writeField(w, fields, position, value);
  return w.result();
}

/** Index key of a document: its index fields (ending in _creationTime and _id, see hasIdTail). */
export function indexKey(doc: Record<string, unknown>, fields: ReadonlyArray<string>): Buffer {
  const w = resetScratch();
  for (let i = 0; i < fields.length; i++) writeField(w, fields, i, getFieldPath(doc, fields[i]));
  return w.result();
}

/**
 * `encodeValue(v)` as a latin1 string (one character per byte, so string order is the bytes'
 * order and `Buffer.from(s, "latin1")` gives the bytes back). Plain strings, the usual index
 * field, are written without a buffer.
 */
export function encodeValueLatin1(v: Value | undefined): string {
  if (typeof v === "string") {
    if (isPlainAscii(v)) return `\x60${v}\x00\x00`;
  } else if (v === undefined) return "\x10";
  else if (v === null) return "\x20";
  else if (typeof v === "boolean") return v ? "\x51" : "\x50";
  return encodeValue(v).toString("latin1");
}

/**
 * A document's index keys as latin1 strings (indexKey's bytes), each field encoded once however
 * many of its indexes read it: the storage writer derives a document's every index entry at once.
 */
export class DocKeys {
  private fields = new Map<string, string>();
  private tail: string | null = null;

  constructor(
    private readonly doc: Record<string, unknown>,
    private readonly id: string,
  ) {}

  /** field `path`'s value, encoded */
  field(path: string): string {
    let s = this.fields.get(path);
    if (s === undefined) this.fields.set(path, (s = encodeValueLatin1(getFieldPath(this.doc, path))));
    return s;
  }

  /** the `_id` tail (hasIdTail) */
  idTail(): string {
    if (this.tail === null) {
      const d = decodeId(this.id);
      if (!d) throw new Error(`Invalid index range: ${JSON.stringify(this.id)} is not a document id.`);
      this.tail = `\x65${Buffer.from(d.internalId.buffer, d.internalId.byteOffset, INTERNAL_ID_BYTES).toString("latin1")}`;
    }
    return this.tail;
  }

  /** The key of index `fields` after its first field (`fields` has two or more: every index but by_id ends in _id). */
  rest(fields: ReadonlyArray<string>): string {
    const last = fields.length - 1;
    let s = "";
    for (let i = 1; i < last; i++) s += this.field(fields[i]);
    return s + (hasIdTail(fields) ? this.idTail() : this.field(fields[last]));
  }
}

/**
 * A search index's filter value as one opaque FTS token (position-tagged hex), so equality filters
 * are index lookups.
 */
export function filterToken(position: number, value: Value | undefined): string {
  return `f${position}x${encodeValue(value).toString("hex")}`.slice(0, 200);
}

/** What a document puts into a search index: its text and filter tokens (null: not indexed). */
export function searchEntry(
  def: SearchIndexDef,
  doc: Record<string, unknown>,
): { text: string; filters: string } | null {
  const text = getFieldPath(doc, def.searchField);
  if (typeof text !== "string") return null;
  const filters = def.filterFields.map((f, i) => filterToken(i, getFieldPath(doc, f))).join(" ");
  return { text, filters };
}
