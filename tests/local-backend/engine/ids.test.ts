/**
 * Document ids: every id encodeId writes decodes to its table and internal id, and a string
 * decodes only when it is exactly what encodeId writes for what it decodes to (the canonical form:
 * one id, one string), checked against re-encoding over mutated strings.
 */
import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, decodeId, encodeId, newInternalId } from "../../../local-backend/src/ids";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

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

/** What a canonical decoder must answer: the decoded id only if re-encoding gives the string back. */
function reference(s: string): { tableNumber: number; internalId: Uint8Array } | null {
  const d = decodeId(s);
  if (!d) return null;
  return encodeId(d.tableNumber, d.internalId) === s ? d : null;
}

describe("document ids", () => {
  it("round-trip for table numbers of one to three varint bytes", () => {
    const r = rng(7);
    const written: Array<{ table: number; internal: Uint8Array; id: string }> = [];
    for (const table of [0, 1, 127, 128, 300, 16383, 16384, 40000]) {
      for (let i = 0; i < 50; i++) {
        const internal = newInternalId();
        if (i % 2) for (let j = 0; j < 16; j++) internal[j] = Math.floor(r() * 256);
        const id = encodeId(table, internal);
        written.push({ table, internal: internal.slice(), id });
        // the caller's bytes are its own: changing them later changes nothing decoded
        internal[0] ^= 0xff;
      }
    }
    // decoded from what encoding remembered, and from the string alone (5,000 more ids push them out)
    for (let pass = 0; pass < 2; pass++) {
      for (const { table, internal, id } of written) {
        const d = decodeId(id);
        expect(d?.tableNumber).toBe(table);
        expect(Buffer.from(d!.internalId).equals(Buffer.from(internal))).toBe(true);
      }
      for (let i = 0; i < 5000; i++) encodeId(1, newInternalId());
    }
  });

  it("a string decodes only in its canonical form (mutated, extended and shortened ids)", () => {
    const r = rng(11);
    let refused = 0;
    for (let n = 0; n < 3000; n++) {
      const id = encodeId(Math.floor(r() * 20000), newInternalId());
      const pos = Math.floor(r() * id.length);
      const ch = ALPHABET[Math.floor(r() * 32)];
      const variants = [
        id.slice(0, pos) + ch + id.slice(pos + 1),
        id + ch,
        id.slice(0, -1),
        id.slice(0, pos) + id.slice(pos + 1),
        id.toUpperCase(),
        `${id.slice(0, -1)}é`,
      ];
      for (const s of variants) {
        const d = decodeId(s);
        if (d === null) refused++;
        // anything that decodes re-encodes to the same string
        if (d) expect(encodeId(d.tableNumber, d.internalId)).toBe(s);
        expect(d === null).toBe(reference(s) === null);
      }
    }
    expect(refused).toBeGreaterThan(10_000);
  });

  it("a table number written with more varint bytes than it needs is refused", () => {
    const internal = newInternalId();
    const canonical = encodeId(5, internal);
    // the same table number as [0x85, 0x00]: two bytes where one does
    const head = Uint8Array.from([0x85, 0x00, ...internal]);
    let a = 0;
    let b = 0;
    for (const byte of head) {
      a = (a + byte) % 255;
      b = (b + a) % 255;
    }
    const padded = base32Encode(Uint8Array.from([...head, a, b]));
    expect(decodeId(canonical)?.tableNumber).toBe(5);
    expect(base32Decode(padded)).not.toBeNull();
    expect(decodeId(padded)).toBeNull();
  });
});
