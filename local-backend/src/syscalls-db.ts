/**
 * Database syscalls: `1.0/get`, `insert`, `shallowMerge` (patch), `replace`, `remove`,
 * `db/normalizeId` and `queryPage`, with Convex's argument checks and messages. Each works on the
 * run's transaction; the syscall runner (syscalls.ts) dispatches to them.
 */
import { convexToJson, jsonToConvex, type JSONValue } from "convex/values";
import { FIRST_USER_TABLE_NUMBER, validateDocument, validateFields, type Catalog } from "./catalog.js";
import type { RunOptions } from "./engine-host.js";
import { decodeId, idLength } from "./ids.js";
import { jsonToConvexShared, type Doc } from "./json-shape.js";
import type { QueryManager } from "./query.js";
import type { Tx } from "./transaction.js";
import { checkDocument, checkDocumentSize } from "./value-size.js";

const TABLE_NAME_RE = /^[a-zA-Z][a-zA-Z0-9_]*$/;

/** `1.0/db/normalizeId`: the id when it is one of `table`'s, else null. */
export function normalizeId(catalog: Catalog, args: { table: string; idString: string }): string {
  const { table, idString } = args;
  const tn = catalog.tableNumber(table);
  const d = typeof idString === "string" ? decodeId(idString) : null;
  return JSON.stringify({ id: d && tn !== undefined && d.tableNumber === tn ? idString : null });
}

function resolveTable(
  catalog: Catalog,
  idArg: unknown,
  tableArg: unknown,
  method: string,
): { id: string; table: string } {
  const id = jsonToConvex(idArg as JSONValue);
  if (typeof id !== "string")
    throw new Error(`Invalid argument \`id\` for \`db.${method}\`, expected string but got '${typeof id}'`);
  const decoded = decodeId(id);
  const table = decoded ? catalog.names.get(decoded.tableNumber) : undefined;
  if (!decoded || table === undefined) {
    throw new Error(
      `Invalid argument \`id\` for \`db.${method}\`: Unable to decode ID: "${id}" is not a valid document ID.`,
    );
  }
  if (typeof tableArg === "string" && tableArg !== table) {
    throw new Error(
      `Invalid argument \`id\` for \`db.${method}\`: expected an ID for table "${tableArg}" but got an ID for table "${table}".`,
    );
  }
  return { id, table };
}

/**
 * `1.0/get`, and `db.system.get` (`isSystem`): each refuses ids of the other namespace with
 * Convex's SystemTableError texts (isolate's system_table_guard).
 */
export function dbGet(tx: Tx, catalog: Catalog, args: { id: JSONValue; table?: string; isSystem?: boolean }): string {
  const method = args.isSystem ? "db.system.get" : "db.get";
  const id = jsonToConvex(args.id);
  if (typeof id !== "string")
    throw new Error(`Invalid argument \`id\` for \`${method}\`, expected string but got '${typeof id}'`);
  const decoded = decodeId(id);
  // Convex returns null for ids of tables that do not exist; undecodable strings are errors.
  if (!decoded)
    throw new Error(
      `Invalid argument \`id\` for \`${method}\`: Unable to decode ID: "${id}" is not a valid document ID.`,
    );
  const table = catalog.names.get(decoded.tableNumber);
  if (table !== undefined) {
    const system = table.startsWith("_");
    if (args.isSystem && !system) throw new Error("User tables cannot be accessed with db.system.");
    if (!args.isSystem && system) throw new Error("System tables can only be accessed with db.system.");
  }
  if (typeof args.table === "string" && table !== undefined && table !== args.table) {
    throw new Error(
      `Invalid argument \`id\` for \`${method}\`: expected an ID for table "${args.table}" but got an ID for table "${table}".`,
    );
  }
  const r = tx.get(id);
  if (!r) return "null";
  return r.json ?? JSON.stringify(convexToJson(r.doc));
}

/** `1.0/insert`; `argsStr` is the syscall's argument text */
export function dbInsert(tx: Tx, catalog: Catalog, args: { table: string; value: JSONValue }, argsStr: string): string {
  const table = args.table;
  if (typeof table !== "string" || !TABLE_NAME_RE.test(table)) {
    if (typeof table === "string" && table.startsWith("_"))
      throw new Error("System tables (prefixed with `_`) are read-only.");
    throw new Error(`Invalid table name: "${table}". Table names must be valid identifiers.`);
  }
  const value = jsonToConvexShared(args.value) as Doc;
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new Error("insert() expects an object");
  // Convex's value and document checks (nesting, arrays, fields, no "_" fields), then the schema,
  // then the size, then the transaction's write limits.
  const size = checkDocument(value, "db.insert", idLength(catalog.tableNumber(table) ?? FIRST_USER_TABLE_NUMBER));
  // `value` holds no system fields (checked above), so it is the document minus _id/_creationTime.
  validateFields(catalog, table, value);
  checkDocumentSize(size);
  tx.metrics.write(table, size);
  // args.value is convexToJson(value) (the client encoded it): the stored JSON is built from it
  // once, here, and also tells whether the value holds a commit-timestamp placeholder.
  const id = tx.insert(
    table,
    value,
    undefined,
    args.value as Record<string, JSONValue>,
    insertValueText(argsStr, table, args),
  );
  tx.metrics.insertedDocument(id);
  return `{"_id":"${id}"}`;
}

/** `1.0/shallowMerge` (patch) and `1.0/replace` */
export function dbPatchOrReplace(
  tx: Tx,
  catalog: Catalog,
  args: { id: JSONValue; value: JSONValue; table?: string },
  mode: "patch" | "replace",
): string {
  const method = mode === "patch" ? "patch" : "replace";
  const { id, table } = resolveTable(catalog, args.id, args.table, method);
  if (table.startsWith("_")) throw new Error("System tables (prefixed with `_`) are read-only.");
  const current = tx.get(id);
  if (!current) throw new Error(`${mode === "patch" ? "Patch" : "Replace"} on nonexistent document ID ${id}`);
  const raw = args.value as Record<string, JSONValue>;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new Error(`Invalid argument \`value\` for \`db.${method}\`: expected an object`);
  }
  const next: Doc =
    mode === "patch"
      ? Object.assign({}, current.doc)
      : { _id: current.doc._id, _creationTime: current.doc._creationTime };
  for (const [k, vJson] of Object.entries(raw)) {
    const isUndef = vJson !== null && typeof vJson === "object" && !Array.isArray(vJson) && "$undefined" in vJson;
    if (k === "_id" || k === "_creationTime") {
      const given = isUndef ? undefined : jsonToConvex(vJson);
      if (given !== undefined && given !== current.doc[k]) {
        throw new Error(
          `Provided \`${k}\` field value ${JSON.stringify(vJson)} does not match the document's ${k === "_id" ? "ID" : "creation time"}.`,
        );
      }
      continue;
    }
    if (isUndef) delete next[k];
    else next[k] = jsonToConvex(vJson);
  }
  const size = checkDocument(next, `db.${method}`);
  validateDocument(catalog, table, next);
  checkDocumentSize(size);
  tx.metrics.write(table, size);
  tx.write(id, table, next, JSON.stringify(raw).includes('"$commitTs"'));
  return JSON.stringify({});
}

/** `1.0/remove` */
export function dbRemove(tx: Tx, catalog: Catalog, args: { id: JSONValue; table?: string }): string {
  const { id, table } = resolveTable(catalog, args.id, args.table, "delete");
  if (table.startsWith("_")) throw new Error("System tables (prefixed with `_`) are read-only.");
  if (!tx.get(id)) throw new Error(`Delete on nonexistent document ID ${id}`);
  tx.metrics.write(table, 0);
  tx.write(id, table, null, false);
  return JSON.stringify({});
}

/**
 * `1.0/queryPage`. A top-level query paginating without `endCursor` gets a journal holding its
 * end cursor (`journal` in the result); a re-run with that journal ends exactly there.
 */
export function queryPage(
  qm: QueryManager,
  args: any,
  o: Pick<RunOptions, "kind" | "depth" | "journal">,
): { json: string; journal?: string } {
  qm.paginateCalls++;
  if (qm.paginateCalls > 1) {
    throw new Error(
      "This query or mutation function ran multiple paginated queries. Convex only supports a single paginated query in each function.",
    );
  }
  let endCursor: string | null = args.endCursor ?? null;
  const journaled = endCursor === null && o.journal ? o.journal.endCursor : null;
  if (journaled) endCursor = journaled;
  const { json, continueCursor } = qm.page({ ...args, endCursor });
  if (o.kind === "query" && o.depth === 0 && args.endCursor == null) {
    return { json, journal: JSON.stringify({ endCursor: journaled ?? continueCursor }) };
  }
  return { json };
}

/**
 * The text of `args.value` inside the insert syscall's argument text, which the library built
 * with `JSON.stringify({table, value})`; undefined when the text does not have exactly that shape.
 */
function insertValueText(argsStr: string, table: string, args: object): string | undefined {
  const head = `{"table":${JSON.stringify(table)},"value":{`;
  if (
    !argsStr.startsWith(head) ||
    argsStr.charCodeAt(argsStr.length - 1) !== 125 ||
    argsStr.charCodeAt(argsStr.length - 2) !== 125
  )
    return undefined;
  let n = 0;
  for (const k in args) if (++n > 2 || (k !== "table" && k !== "value")) return undefined;
  return argsStr.slice(head.length - 1, -1);
}
