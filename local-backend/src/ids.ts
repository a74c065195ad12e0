/**
 * Convex-shaped document ids: base32( VInt(tableNumber) ++ 16-byte internal id ++ fletcher16 footer ).
 * The alphabet is sorted ASCII, so within one table (fixed-length prefix) string order equals
 * byte order of the internal id.
 */
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
/** character code → digit (-1: not in the alphabet); every id of every document goes through it */
const INVERSE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INVERSE[ALPHABET.charCodeAt(i)] = i;
const ALPHABET_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const INTERNAL_ID_LEN = 16;

/** base32 of `bytes[0, len)` into `out` as character codes; returns how many were written. */
function base32Into(bytes: Uint8Array, len: number, out: Uint8Array): number {
  let o = 0;
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < len; i++) {
    buffer = ((buffer << 8) | bytes[i]) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      out[o++] = ALPHABET_CODES[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out[o++] = ALPHABET_CODES[(buffer << (5 - bits)) & 31];
  return o;
}

/**
 * Decodes base32 `s` into `out`: the bytes written, or -1 when `s` holds a character outside the
 * alphabet, nonzero padding bits (two strings would decode to one id) or more bytes than `out`.
 */
function base32DecodeInto(s: string, out: Uint8Array): number {
  let o = 0;
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? INVERSE[c] : -1;
    if (v < 0) return -1;
    buffer = ((buffer << 5) | v) & 0x1fff;
    bits += 5;
    if (bits >= 8) {
      if (o >= out.length) return -1;
      out[o++] = (buffer >>> (bits - 8)) & 0xff;
      bits -= 8;
    }
  }
  return (buffer & ((1 << bits) - 1)) === 0 ? o : -1;
}

export function base32Encode(data: Uint8Array): string {
  const out = Buffer.allocUnsafe(Math.ceil((data.length * 8) / 5));
  return out.toString("latin1", 0, base32Into(data, data.length, out));
}

export function base32Decode(s: string): Uint8Array | null {
  const out = new Uint8Array((s.length * 5) >>> 3);
  return base32DecodeInto(s, out) < 0 ? null : out;
}

/** Fletcher-16 of `bytes[0, len)`: the footer's two bytes, [a, b]. */
function fletcher16(bytes: Uint8Array, len: number): [number, number] {
  let a = 0;
  let b = 0;
  for (let i = 0; i < len; i++) {
    a = (a + bytes[i]) % 255;
    b = (b + a) % 255;
  }
  return [a, b];
}

function vintEncode(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

let pool = Buffer.alloc(0);
let poolPos = 0;
let lastMs = 0;
let counter = 0;

/**
 * Internal ids start with a millisecond timestamp and a counter so that new documents land at
 * the end of the primary-key B-tree (cheap inserts); the rest is random.
 */
export function newInternalId(): Uint8Array {
  const id = new Uint8Array(INTERNAL_ID_LEN);
  const now = Date.now();
  if (now === lastMs) counter++;
  else {
    lastMs = now;
    counter = 0;
  }
  let t = now;
  for (let i = 5; i >= 0; i--) {
    id[i] = t % 256;
    t = Math.floor(t / 256);
  }
  id[6] = (counter >>> 16) & 0xff;
  id[7] = (counter >>> 8) & 0xff;
  id[8] = counter & 0xff;
  if (poolPos + 7 > pool.length) {
    pool = randomBytes(4096);
    poolPos = 0;
  }
  id.set(pool.subarray(poolPos, poolPos + 7), 9);
  poolPos += 7;
  return id;
}

/** Length of the ids of a table: base32 of VInt(tableNumber) + 16 bytes + a 2-byte footer. */
export function idLength(tableNumber: number): number {
  const vintLength = tableNumber < 128 ? 1 : tableNumber < 16384 ? 2 : vintEncode(tableNumber).length;
  return Math.ceil(((vintLength + INTERNAL_ID_LEN + 2) * 8) / 5);
}

/** Scratch bytes of one id (encodeId / decodeId run synchronously and never nest). */
const idScratch = new Uint8Array(5 + INTERNAL_ID_LEN + 2);
const idText = Buffer.allocUnsafe(Math.ceil((idScratch.length * 8) / 5));

export function encodeId(tableNumber: number, internalId: Uint8Array): string {
  const bytes = idScratch;
  let pos = 0;
  let n = tableNumber;
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    bytes[pos++] = byte;
  } while (n > 0);
  bytes.set(internalId, pos);
  const headLen = pos + INTERNAL_ID_LEN;
  const [a, b] = fletcher16(bytes, headLen);
  bytes[headLen] = a;
  bytes[headLen + 1] = b;
  const o = base32Into(bytes, headLen + 2, idText);
  const id = idText.toString("latin1", 0, o);
  // a new document's id is decoded again right away (its index keys end in it): known already
  remember(id, { tableNumber, internalId: internalId.slice() });
  return id;
}

export type DecodedId = { tableNumber: number; internalId: Uint8Array };

/** Decoded ids are immutable facts about the string: a small cache spares repeated decoding. */
const decodeCache = new Map<string, Readonly<DecodedId> | null>();
const DECODE_CACHE_MAX = 4096;

function remember(id: string, d: DecodedId | null) {
  if (decodeCache.size >= DECODE_CACHE_MAX) decodeCache.clear();
  decodeCache.set(id, d);
}

export function decodeId(id: string): Readonly<DecodedId> | null {
  if (typeof id !== "string" || id.length < 31 || id.length > 37) return null;
  const hit = decodeCache.get(id);
  if (hit !== undefined) return hit;
  const d = decodeIdUncached(id);
  remember(id, d);
  return d;
}

function decodeIdUncached(id: string): DecodedId | null {
  // into the scratch bytes (ids are at most 37 characters: 23 bytes)
  const bytes = idScratch;
  const len = base32DecodeInto(id, bytes);
  if (len < 19) return null;
  let tableNumber = 0;
  let mult = 1;
  let pos = 0;
  for (;;) {
    if (pos >= 5 || pos >= len) return null;
    const b = bytes[pos++];
    tableNumber += (b & 0x7f) * mult;
    mult *= 128;
    if ((b & 0x80) === 0) break;
  }
  if (len !== pos + INTERNAL_ID_LEN + 2) return null;
  const [a, b] = fletcher16(bytes, pos + INTERNAL_ID_LEN);
  if (bytes[pos + INTERNAL_ID_LEN] !== a || bytes[pos + INTERNAL_ID_LEN + 1] !== b) return null;
  // Only the canonical form decodes (what encodeId writes for these bytes): no characters past
  // the bytes' own length (padding was checked to be zero), and the shortest table number.
  if (Math.ceil((len * 8) / 5) !== id.length) return null;
  if (pos > 1 && bytes[pos - 1] === 0) return null;
  return { tableNumber, internalId: bytes.slice(pos, pos + INTERNAL_ID_LEN) };
}
