/** Text encoding of an uploaded file: BOM, else strict UTF-8, else Windows-1252 (never mojibake). */

export type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

/** Something with a size whose byte ranges can be read: a browser File/Blob, or Node's openAsBlob. */
export type ByteSource = { size: number; slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> } };

export function bomEncoding(bytes: Uint8Array): { encoding: TextEncodingName; bomLength: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: "utf-8", bomLength: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf-16le", bomLength: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf-16be", bomLength: 2 };
  return null;
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const SCAN_CHUNK = 4 * 1024 * 1024;

/**
 * Reads the whole file once in 4 MB slices (memory stays bounded) through a fatal streaming UTF-8
 * decoder; any invalid sequence means the file is Windows-1252 (what Excel on Windows writes).
 */
export async function detectEncoding(source: ByteSource): Promise<{ encoding: TextEncodingName; bomLength: number }> {
  const head = new Uint8Array(await source.slice(0, Math.min(4, source.size)).arrayBuffer());
  const bom = bomEncoding(head);
  if (bom) return bom;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    for (let start = 0; start < source.size; start += SCAN_CHUNK) {
      const end = Math.min(source.size, start + SCAN_CHUNK);
      decoder.decode(new Uint8Array(await source.slice(start, end).arrayBuffer()), { stream: end < source.size });
    }
    decoder.decode();
  } catch {
    return { encoding: "windows-1252", bomLength: 0 };
  }
  return { encoding: "utf-8", bomLength: 0 };
}

/** Windows-1252's 0x80–0x9F (Node's TextDecoder decodes them as Latin-1 C1 controls; browsers do not). */
const CP1252_C1 =
  "\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178";
const C1_RE = /[\u0080-\u009f]/g;

/** A streaming decoder for the detected encoding, correct for Windows-1252 everywhere. */
export function createTextDecoder(encoding: TextEncodingName): {
  decode(bytes?: Uint8Array, opts?: { stream?: boolean }): string;
} {
  const inner = new TextDecoder(encoding);
  if (encoding !== "windows-1252") return inner;
  return {
    decode(bytes, opts) {
      return inner.decode(bytes, opts).replace(C1_RE, (c) => CP1252_C1[c.charCodeAt(0) - 0x80]);
    },
  };
}

/** Decodes a whole small buffer with the same rule (tests, previews). */
export function decodeBytes(bytes: Uint8Array): { text: string; encoding: TextEncodingName } {
  const bom = bomEncoding(bytes);
  if (bom) return { text: new TextDecoder(bom.encoding).decode(bytes.subarray(bom.bomLength)), encoding: bom.encoding };
  if (isValidUtf8(bytes)) return { text: new TextDecoder("utf-8").decode(bytes), encoding: "utf-8" };
  return { text: createTextDecoder("windows-1252").decode(bytes), encoding: "windows-1252" };
}
