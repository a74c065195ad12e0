/**
 * Convex's size of a value (crates/value/src/size.rs; `getConvexSize` in `convex/values` follows
 * it): the engine measures stored documents from their JSON text without parsing them, and
 * formats sizes in messages as the backend does (`common::fmt::format_bytes`, humansize BINARY).
 */
import { convexToJson, getConvexSize, type Value } from "convex/values";
import { describe, expect, it } from "vitest";
import { formatBytes, humanSize } from "../../../local-backend/src/limits";
import { jsonValueSize, valueSize } from "../../../local-backend/src/value-size";

/** A pseudo-random Convex value (seeded: the test is reproducible). */
function randomValue(rand: () => number, depth: number): Value {
  const pick = Math.floor(rand() * (depth > 4 ? 7 : 9));
  const str = () =>
    Array.from(
      { length: Math.floor(rand() * 12) },
      () => ["a", "Z", "é", "中", "😀", '"', "\\", "\n", "\u0001", " "][Math.floor(rand() * 10)],
    ).join("");
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return [0, -0, 1.5, -3, 1e300, NaN, Infinity, 2 ** 60][Math.floor(rand() * 8)];
    case 3:
      return BigInt(Math.floor(rand() * 1e9)) * (rand() < 0.5 ? -1n : 1n);
    case 4:
      return str();
    case 5:
      return new Uint8Array(Array.from({ length: Math.floor(rand() * 10) }, (_, i) => i)).buffer;
    case 6:
      return "$notspecial";
    case 7:
      return Array.from({ length: Math.floor(rand() * 5) }, () => randomValue(rand, depth + 1));
    default: {
      const o: Record<string, Value> = {};
      for (let i = Math.floor(rand() * 5); i > 0; i--)
        o[`${str().replace(/[^ -~]|\$/g, "k")}${i}`] = randomValue(rand, depth + 1);
      return o;
    }
  }
}

describe("value sizes", () => {
  it("measures values from their JSON text as convex/values' getConvexSize does", () => {
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2_000; i++) {
      const v = randomValue(rand, 0);
      const text = JSON.stringify(convexToJson(v));
      expect({ text, size: jsonValueSize(text) }).toEqual({ text, size: getConvexSize(v) });
      expect(valueSize(v)).toBe(getConvexSize(v));
    }
  });

  it("formats sizes like the backend's messages", () => {
    expect([0, 1000, 1024, 1534, 4_718_592, 8_388_608, 16_777_216].map(formatBytes)).toEqual([
      "0 bytes",
      "1 KB",
      "1 KiB",
      "1534 bytes",
      "4.5 MiB",
      "8 MiB",
      "16 MiB",
    ]);
    expect([512, 1536, 1_048_576, 1_048_577, 33_554_432].map(humanSize)).toEqual([
      "512 B",
      "1.50 KiB",
      "1 MiB",
      "1.00 MiB",
      "32 MiB",
    ]);
  });
});
