import { compareValues, convexToJson, type Value } from "convex/values";

function convexToJsonSafe(v: Value | undefined) {
  return v === undefined ? "undefined" : convexToJson(v);
}
import { describe, expect, it } from "vitest";
import {
  DocKeys,
  encodeTuple,
  encodeValue,
  encodeValueLatin1,
  indexKey,
  prefixEnd,
} from "../../../local-backend/src/indexkey";
import { decodeId, encodeId, newInternalId } from "../../../local-backend/src/ids";

// Deterministic PRNG so failures reproduce.
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SPECIAL_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  -0.5,
  1e300,
  -1e300,
  Infinity,
  -Infinity,
  NaN,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  2 ** 53,
];
const SPECIAL_STRINGS = ["", "a", "ab", "a\u0000", "a\u0000b", "\u0000", "é", "z", "日本", "😀", "\uffff", "A"];

function randomValue(r: () => number, depth = 0): Value | undefined {
  const kind = Math.floor(r() * (depth > 2 ? 8 : 10));
  switch (kind) {
    case 0:
      return undefined;
    case 1:
      return null;
    case 2:
      return [0n, 1n, -1n, 2n ** 63n - 1n, -(2n ** 63n), BigInt(Math.floor(r() * 1000) - 500)][Math.floor(r() * 6)];
    case 3:
      return r() < 0.5 ? SPECIAL_NUMBERS[Math.floor(r() * SPECIAL_NUMBERS.length)] : (r() - 0.5) * 1000;
    case 4:
      return r() < 0.5;
    case 5:
      return r() < 0.5
        ? SPECIAL_STRINGS[Math.floor(r() * SPECIAL_STRINGS.length)]
        : Math.random()
            .toString(36)
            .slice(2, 2 + Math.floor(r() * 5));
    case 6:
    case 7: {
      const len = Math.floor(r() * 4);
      const bytes = new Uint8Array(len);
      for (let i = 0; i < len; i++) bytes[i] = [0, 1, 255, 128][Math.floor(r() * 4)];
      return bytes.buffer;
    }
    case 8: {
      const len = Math.floor(r() * 3);
      const arr: Value[] = [];
      for (let i = 0; i < len; i++) {
        const v = randomValue(r, depth + 1);
        arr.push(v === undefined ? null : v);
      }
      return arr;
    }
    default: {
      const obj: Record<string, Value> = {};
      const keys = ["a", "b", "ab", "_x", "z"];
      for (const k of keys) {
        if (r() < 0.4) {
          const v = randomValue(r, depth + 1);
          if (v !== undefined) obj[k] = v;
        }
      }
      return obj;
    }
  }
}

describe("index key encoding", () => {
  it("memcmp order equals Convex value order (property test over mixed values)", () => {
    const r = rng(42);
    const values = Array.from({ length: 1500 }, () => randomValue(r));
    for (let i = 0; i < 20000; i++) {
      const a = values[Math.floor(r() * values.length)];
      const b = values[Math.floor(r() * values.length)];
      const expected = Math.sign(compareValues(a, b));
      const got = Math.sign(Buffer.compare(encodeValue(a), encodeValue(b)));
      if (expected !== got) {
        throw new Error(
          `order mismatch for ${JSON.stringify(convexToJsonSafe(a))} vs ${JSON.stringify(convexToJsonSafe(b))}: expected ${expected}, got ${got}`,
        );
      }
    }
  });

  it("orders types as undefined < null < int64 < float64 < boolean < string < bytes < array < object", () => {
    const ordered: Array<Value | undefined> = [undefined, null, 5n, -1, false, true, "", new ArrayBuffer(0), [], {}];
    for (let i = 1; i < ordered.length; i++) {
      expect(Buffer.compare(encodeValue(ordered[i - 1]), encodeValue(ordered[i]))).toBe(-1);
    }
  });

  it("tuple keys compare field by field and prefixEnd bounds every extension", () => {
    const a = encodeTuple(["x", 1]);
    const b = encodeTuple(["x", 2]);
    const c = encodeTuple(["xa", 0]);
    expect(Buffer.compare(a, b)).toBe(-1);
    expect(Buffer.compare(b, c)).toBe(-1);
    const p = encodeTuple(["x"]);
    expect(Buffer.compare(a, prefixEnd(p))).toBe(-1);
    expect(Buffer.compare(c, prefixEnd(p))).toBe(1);
  });

  it("the writer's latin1 keys are the same bytes, in the same order", () => {
    const r = rng(7);
    const values = [...SPECIAL_STRINGS, ...SPECIAL_NUMBERS, ...Array.from({ length: 500 }, () => randomValue(r))];
    for (const v of values) expect(Buffer.from(encodeValueLatin1(v), "latin1")).toEqual(encodeValue(v));
    for (let i = 0; i < 5000; i++) {
      const a = encodeValueLatin1(values[Math.floor(r() * values.length)]);
      const b = encodeValueLatin1(values[Math.floor(r() * values.length)]);
      const bytes = Math.sign(Buffer.compare(Buffer.from(a, "latin1"), Buffer.from(b, "latin1")));
      expect(a < b ? -1 : a > b ? 1 : 0).toBe(bytes);
    }
    // a document's keys: the first field's encoding then the rest, ending in the id tail
    const id = encodeId(3, newInternalId());
    for (let i = 0; i < 200; i++) {
      const doc = { _id: id, _creationTime: 1_700_000_000_000 + i, a: values[i], b: values[i + 1], c: values[i + 2] };
      const keys = new DocKeys(doc, id);
      for (const fields of [
        ["a", "_creationTime", "_id"],
        ["a", "b", "c", "_creationTime", "_id"],
        ["_creationTime", "_id"],
        ["b", "a"],
      ]) {
        const whole = keys.field(fields[0]) + keys.rest(fields);
        expect(Buffer.from(whole, "latin1")).toEqual(indexKey(doc, fields));
      }
    }
  });
});

describe("document ids", () => {
  it("round-trip and reject tampering", () => {
    for (const table of [1, 2, 127, 128, 10001, 2 ** 20]) {
      const id = encodeId(table, newInternalId());
      expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{31,37}$/);
      expect(decodeId(id)?.tableNumber).toBe(table);
      const flipped = id.slice(0, 10) + (id[10] === "a" ? "b" : "a") + id.slice(11);
      expect(decodeId(flipped)).toBeNull();
    }
    expect(decodeId("not an id")).toBeNull();
    expect(decodeId("")).toBeNull();
  });
});
