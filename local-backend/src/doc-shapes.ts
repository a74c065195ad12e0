/**
 * Documents stored without their field names. A document's JSON text is `{"k1":v1,"k2":v2,...}`;
 * most documents of a table share their list of fields (their shape), so the database keeps each
 * shape once (the `shapes` table) and a document as `[shape,v1,v2,...]`: its values, and not its
 * `_id`, which the row's id column already holds. Reading puts the same text back together, byte
 * for byte, from slices of the stored text: nothing is parsed or printed again.
 *
 * A voter's 25 fields cost about 300 bytes of names and 40 of `_id` in every row. A row stored
 * before this layout (it starts with `{`) is read as it is; writing it again stores it compactly.
 * Text that is not a plain object printed without spaces, or whose `_id` is not the row's id, is
 * stored as it is.
 */
import type Database from "better-sqlite3";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * Shapes are kept in memory by every connection: past this many, new shapes are not made (a
 * schema's tables have a few hundred; a table of free-form fields could have one per document).
 * With MAX_SHAPE_TEXT that bounds their memory to about 100 MB on the worst day, a few hundred KB
 * on a normal one.
 */
export const MAX_SHAPES = 16_384;
/** A shape's field names (as JSON text) longer than this are stored in the document itself. */
const MAX_SHAPE_TEXT = 4_096;

/** End (exclusive) of the JSON string whose opening quote is at `i`; -1 when it never closes. */
function stringEnd(s: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = s.indexOf('"', from);
    if (q < 0) return -1;
    let slashes = 0;
    for (let b = q - 1; s.charCodeAt(b) === BACKSLASH; b--) slashes++;
    if ((slashes & 1) === 0) return q + 1;
    from = q + 1;
  }
}

/** End (exclusive) of the JSON value that starts at `i` (printed without spaces); -1 when malformed. */
function valueEnd(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === QUOTE) return stringEnd(s, i);
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
    let depth = 0;
    for (let j = i; j < s.length; j++) {
      const d = s.charCodeAt(j);
      if (d === QUOTE) {
        const e = stringEnd(s, j);
        if (e < 0) return -1;
        j = e - 1;
      } else if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
      else if (d === CLOSE_OBJECT || d === CLOSE_ARRAY) {
        if (--depth === 0) return j + 1;
      }
    }
    return -1;
  }
  // a number, true, false or null: up to the next separator
  let j = i;
  for (; j < s.length; j++) {
    const d = s.charCodeAt(j);
    if (d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY) break;
    if (d <= 0x20) return -1;
  }
  return j > i ? j : -1;
}

/**
 * The elements of a JSON array printed without spaces, as slices of its text; null when `s` is
 * not one.
 */
export function splitArray(s: string): string[] | null {
  if (s.charCodeAt(0) !== OPEN_ARRAY) return null;
  const out: string[] = [];
  if (s.length === 2 && s.charCodeAt(1) === CLOSE_ARRAY) return out;
  let i = 1;
  for (;;) {
    const e = valueEnd(s, i);
    if (e < 0) return null;
    out.push(s.slice(i, e));
    const sep = s.charCodeAt(e);
    if (sep === CLOSE_ARRAY) return e === s.length - 1 ? out : null;
    if (sep !== COMMA) return null;
    i = e + 1;
  }
}

type Shape = {
  /** each field's `"name":` prefix, in order */
  prefixes: string[];
  /** the position of `_id` among the fields (-1: none) */
  idAt: number;
};

function shapeOf(id: number, keysText: string): Shape {
  const keys = splitArray(keysText);
  if (!keys) throw new Error(`Stored shape ${id} is not a JSON array of field names`);
  return { prefixes: keys.map((k) => `${k}:`), idAt: keys.indexOf('"_id"') };
}

/** A plain object's JSON text split into its fields: each name's JSON text and each value's. */
export type SplitObject = { keys: string[]; values: string[] };

/** The fields of a JSON object printed without spaces, as slices of its text; null when `json` is not one. */
export function splitObject(json: string): SplitObject | null {
  if (json.charCodeAt(0) !== OPEN_OBJECT) return null;
  const out: SplitObject = { keys: [], values: [] };
  if (json.charCodeAt(1) === CLOSE_OBJECT) return json.length === 2 ? out : null;
  let i = 1;
  for (;;) {
    if (json.charCodeAt(i) !== QUOTE) return null;
    const k = stringEnd(json, i);
    if (k < 0 || json.charCodeAt(k) !== COLON) return null;
    const e = valueEnd(json, k + 1);
    if (e < 0) return null;
    out.keys.push(json.slice(i, k));
    out.values.push(json.slice(k + 1, e));
    const sep = json.charCodeAt(e);
    if (sep === CLOSE_OBJECT) return e === json.length - 1 ? out : null;
    if (sep !== COMMA) return null;
    i = e + 1;
  }
}

/**
 * The stored form of a document split by `splitObject` (`id`: the row's id); null when it is
 * stored as it is (its `_id` is not the row's, or `shapeId` makes no shape).
 */
export function compactDoc(id: string, doc: SplitObject, shapeId: (keysText: string) => number | null): string | null {
  let values = "";
  for (let f = 0; f < doc.keys.length; f++) {
    if (doc.keys[f] === '"_id"') {
      // the row's id column holds it: the value must be that id
      if (doc.values[f] !== `"${id}"`) return null;
    } else values += `,${doc.values[f]}`;
  }
  const shape = shapeId(`[${doc.keys.join(",")}]`);
  return shape === null ? null : `[${shape}${values}]`;
}

/**
 * One connection's shapes: `expand` turns stored text back into the document's JSON text, and
 * `compact` (the writer's side) stores new shapes in the connection's current transaction.
 */
export class DocShapes {
  private byId = new Map<number, Shape>();
  private byKeys = new Map<string, number>();
  /** shapes created in the open transaction: forgotten again if it rolls back */
  private pending: string[] = [];
  private readonly get: Database.Statement;
  /** the writer's side, prepared on its first document */
  private insert: Database.Statement | null = null;
  private count = 0;

  constructor(private readonly db: Database.Database) {
    this.get = db.prepare("SELECT keys FROM shapes WHERE id = ?");
  }

  /** The document's JSON text from its stored text (`id`: the row's id). */
  expand(id: string, stored: string): string {
    if (stored.charCodeAt(0) !== OPEN_ARRAY) return stored;
    let i = 1;
    let shapeNo = 0;
    for (; ; i++) {
      const d = stored.charCodeAt(i) - 0x30;
      if (d < 0 || d > 9) break;
      shapeNo = shapeNo * 10 + d;
    }
    const { prefixes, idAt } = this.shape(shapeNo);
    let out = "{";
    for (let f = 0; f < prefixes.length; f++) {
      if (f > 0) out += ",";
      if (f === idAt) {
        out += `${prefixes[f]}"${id}"`;
        continue;
      }
      if (stored.charCodeAt(i) !== COMMA) throw this.corrupt(id, shapeNo);
      const e = valueEnd(stored, i + 1);
      if (e < 0) throw this.corrupt(id, shapeNo);
      out += prefixes[f] + stored.slice(i + 1, e);
      i = e;
    }
    if (i !== stored.length - 1 || stored.charCodeAt(i) !== CLOSE_ARRAY) throw this.corrupt(id, shapeNo);
    return `${out}}`;
  }

  private corrupt(id: string, shape: number): Error {
    return new Error(`Stored document ${id} does not match its shape ${shape}`);
  }

  private shape(id: number): Shape {
    let s = this.byId.get(id);
    if (!s) {
      const row = this.get.get(id) as { keys: string } | undefined;
      if (!row) throw new Error(`Stored shape ${id} is missing`);
      s = shapeOf(id, row.keys);
      this.byId.set(id, s);
    }
    return s;
  }

  /**
   * The stored form of a document (writer side: run inside the batch's transaction); `split`:
   * its text split by `splitObject` when the caller has done so.
   */
  compact(id: string, json: string, split: SplitObject | null = splitObject(json)): string {
    return (split && compactDoc(id, split, this.shapeId)) ?? json;
  }

  private readonly shapeId = (keysText: string): number | null => {
    const insert = this.insert ?? this.load();
    const known = this.byKeys.get(keysText);
    if (known !== undefined) return known;
    if (this.count >= MAX_SHAPES || keysText.length > MAX_SHAPE_TEXT) return null;
    const id = Number(insert.run(keysText).lastInsertRowid);
    this.byKeys.set(keysText, id);
    this.byId.set(id, shapeOf(id, keysText));
    this.pending.push(keysText);
    this.count++;
    return id;
  };

  private load(): Database.Statement {
    const rows = this.db.prepare("SELECT id, keys FROM shapes").all() as Array<{ id: number; keys: string }>;
    for (const r of rows) this.byKeys.set(r.keys, r.id);
    this.count = rows.length;
    return (this.insert = this.db.prepare("INSERT INTO shapes(keys) VALUES (?)"));
  }

  /** The open transaction committed: its shapes are the database's. */
  committed() {
    this.pending = [];
  }

  /** The open transaction rolled back: its shapes were never stored. */
  rolledBack() {
    for (const keys of this.pending) {
      const id = this.byKeys.get(keys);
      this.byKeys.delete(keys);
      if (id !== undefined) this.byId.delete(id);
      this.count--;
    }
    this.pending = [];
  }
}
