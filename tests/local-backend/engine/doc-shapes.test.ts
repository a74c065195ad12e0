/**
 * Documents stored by shape (doc-shapes.ts): the stored text is the values alone, and reading puts
 * the exact JSON text back together, whatever the values hold.
 */
import Database from "better-sqlite3";
import { convexToJson } from "convex/values";
import { describe, expect, it } from "vitest";
import { DocShapes, MAX_SHAPES, compactDoc, splitArray, splitObject } from "../../../local-backend/src/doc-shapes";

const ID = "m97038je704rt0014c271pvkmqkfa74d";

function memoryDb() {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE shapes(id INTEGER PRIMARY KEY, keys TEXT NOT NULL UNIQUE)");
  return db;
}

/** A stored document's JSON text as the engine prints it (storedJson). */
function printed(fields: Record<string, unknown>, id = ID): string {
  return JSON.stringify({ _creationTime: 1796608625161.0078, _id: id, ...fields });
}

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomValue(r: () => number, depth: number): unknown {
  const pick = Math.floor(r() * (depth > 2 ? 6 : 8));
  const chars = ['"', "\\", "a", "Z", ",", "}", "]", ":", " ", "é", "\u2028", "\n", "{", "[", "0", "\ud83d\ude00"];
  const str = () => Array.from({ length: Math.floor(r() * 8) }, () => chars[Math.floor(r() * chars.length)]).join("");
  switch (pick) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return (r() - 0.5) * 10 ** Math.floor(r() * 40 - 20);
    case 3:
      return Math.floor(r() * 1000) - 500;
    case 4:
    case 5:
      return str();
    case 6:
      return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(r() * 4) }, () => [str() || "k", randomValue(r, depth + 1)]),
      );
  }
}

describe("documents stored by shape", () => {
  it("stores a document's values without its field names or _id, and reads back the same text", () => {
    const shapes = new DocShapes(memoryDb());
    const json = printed({ city: "LACYFIELD", first_name: "ALYSA", orgId: "k17038je7022t00004x4m06e8srdraqj" });
    const stored = shapes.compact(ID, json);
    expect(stored).toBe('[1,1796608625161.0078,"LACYFIELD","ALYSA","k17038je7022t00004x4m06e8srdraqj"]');
    expect(shapes.expand(ID, stored)).toBe(json);
    // a second document of the same shape shares it
    const other = printed({ city: "X", first_name: "Y", orgId: "Z" }, "zs7038je70wbw003x06bdbnn041e4sys");
    expect(shapes.compact("zs7038je70wbw003x06bdbnn041e4sys", other)).toMatch(/^\[1,/);
  });

  it("reads back every kind of value exactly: escapes, nesting, separators inside strings, numbers", () => {
    const db = memoryDb();
    const writer = new DocShapes(db);
    const reader = new DocShapes(db);
    const samples: Array<Record<string, unknown>> = [
      {},
      { a: 'quote " and \\ backslash \\" , } ] :', b: [1, [2, [3, {}]], { "x,y": "}" }] },
      { 'key with "quote"': 1, "2": "integer-like key", "10": true, z: null },
      { n: -0.000001234, e: 1e300, i: -42, t: true, f: false },
      { big: convexToJson(123n), bytes: convexToJson(new Uint8Array([1, 2, 3]).buffer) },
      { s: "\u2028\u2029 é 😀 \u0000 \t" },
    ];
    const r = random(7);
    for (let i = 0; i < 300; i++) {
      const doc: Record<string, unknown> = {};
      for (let f = 0; f < Math.floor(r() * 6); f++) doc[`f${Math.floor(r() * 8)}`] = randomValue(r, 0);
      samples.push(doc);
    }
    for (const fields of samples) {
      const json = printed(fields);
      const stored = writer.compact(ID, json);
      expect(stored.startsWith("[")).toBe(true);
      expect(stored).not.toContain(ID);
      expect(reader.expand(ID, stored)).toBe(json);
      // the writer reads index fields from the same slices
      const split = splitObject(json)!;
      expect(Object.fromEntries(split.keys.map((k, f) => [JSON.parse(k), JSON.parse(split.values[f])]))).toEqual(
        JSON.parse(json),
      );
    }
  });

  it("stores as it is what is not a plain object printed without spaces, or whose _id is another's", () => {
    const shapes = new DocShapes(memoryDb());
    for (const json of [
      '{ "a": 1 }',
      '{"a":1} ',
      "[1,2]",
      '{"a":1,}',
      '{"a" :1}',
      '{"_id":"another","a":1}',
      '{"a":"unterminated}',
    ]) {
      expect(shapes.compact(ID, json)).toBe(json);
      if (json.startsWith("{")) expect(shapes.expand(ID, json)).toBe(json);
    }
  });

  it("reads a row stored before shapes (an object's text) as it is", () => {
    const shapes = new DocShapes(memoryDb());
    const json = printed({ a: 1 });
    expect(shapes.expand(ID, json)).toBe(json);
  });

  it("forgets the shapes of a transaction that rolled back, and the next one numbers its own", () => {
    const db = memoryDb();
    const shapes = new DocShapes(db);
    expect(() =>
      db.transaction(() => {
        shapes.compact(ID, printed({ gone: 1 }));
        throw new Error("the batch failed");
      })(),
    ).toThrow("the batch failed");
    shapes.rolledBack();
    const stored = shapes.compact(ID, printed({ kept: 2 }));
    shapes.committed();
    expect(stored).toBe("[1,1796608625161.0078,2]");
    expect(new DocShapes(db).expand(ID, stored)).toBe(printed({ kept: 2 }));
    // the rolled-back shape is made again when it is needed
    expect(shapes.compact(ID, printed({ gone: 1 }))).toBe("[2,1796608625161.0078,1]");
  });

  it("stops making shapes at MAX_SHAPES and then stores documents as they are", () => {
    const db = memoryDb();
    const insert = db.prepare("INSERT INTO shapes(keys) VALUES (?)");
    db.transaction(() => {
      for (let i = 0; i < MAX_SHAPES; i++) insert.run(`["f${i}"]`);
    })();
    const shapes = new DocShapes(db);
    expect(shapes.compact(ID, '{"f7":1}')).toBe("[8,1]");
    expect(shapes.compact(ID, '{"new":1}')).toBe('{"new":1}');
  });

  it("stores as it is a document whose field names alone take more than 4 KB", () => {
    const shapes = new DocShapes(memoryDb());
    const json = JSON.stringify({ [`f${"x".repeat(4100)}`]: 1 });
    expect(shapes.compact(ID, json)).toBe(json);
    expect(shapes.compact(ID, JSON.stringify({ [`f${"x".repeat(4000)}`]: 1 }))).toBe("[1,1]");
  });

  it("refuses stored text that does not match its shape", () => {
    const db = memoryDb();
    const shapes = new DocShapes(db);
    shapes.compact(ID, printed({ a: 1, b: 2 }));
    expect(() => new DocShapes(db).expand(ID, "[1,1796608625161.0078,1]")).toThrow(/does not match its shape 1/);
    expect(() => new DocShapes(db).expand(ID, "[9,1]")).toThrow("Stored shape 9 is missing");
  });

  it("splits arrays into their elements' text", () => {
    expect(splitArray("[]")).toEqual([]);
    expect(splitArray('["a,b",{"c":[1,2]},3]')).toEqual(['"a,b"', '{"c":[1,2]}', "3"]);
    expect(splitArray("[1,]")).toBeNull();
    expect(splitArray("{}")).toBeNull();
    expect(compactDoc(ID, splitObject("{}")!, () => 3)).toBe("[3]");
    expect(splitObject('{"a":[1,{"b":"}"}],"c\\"d":null}')).toEqual({
      keys: ['"a"', '"c\\"d"'],
      values: ['[1,{"b":"}"}]', "null"],
    });
  });
});
