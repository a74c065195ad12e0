/**
 * File storage: `_storage` documents (sha256, size, contentType) plus blobs in `dataDir/files`.
 * Upload URLs carry an HMAC-signed token (one hour, valid across restarts); uploads stream to a
 * temp file, hashed on the way, then move into place when the document commits. Serve URLs,
 * metadata, delete (in a mutation the blob goes only if it commits) and the action-side store/get.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Catalog } from "./catalog.js";
import { decodeId } from "./ids.js";
import type { FileSyscalls, StorageBlob, StorageMetadata } from "./engine-host.js";
import type { Doc } from "./json-shape.js";
import { realNow } from "./runtime.js";
import type { Tx } from "./transaction.js";

const UPLOAD_TOKEN_TTL_MS = 60 * 60 * 1000;
/** files being received in `dataDir/files`; leftovers of a crash are removed at start */
const UPLOAD_TMP_PREFIX = ".upload-";

function sha256Base64(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("base64");
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An error with Convex's short code (the HTTP layer answers with it). */
class StorageError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What the HTTP layer serves for a storage path (see `storageFile`). */
export type StorageFile = { path: string; size: number; contentType: string | null; sha256: string };

/** Upload token states, with Convex's refusals (keybroker's check_store_file_authorization). */
export type UploadTokenStatus = "valid" | "invalid" | "expired";

/** What file storage needs of the engine. */
export type FileStorageHost = {
  readonly catalog: Pick<Catalog, "tableName">;
  /** URLs of served files and upload URLs start with it */
  readonly cloudUrl: string;
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  isStopped(): boolean;
  readTx(): Tx;
  withReadLock<T>(fn: () => T | Promise<T>): Promise<T>;
  systemWrite<T>(fn: (tx: Tx) => T): Promise<T>;
};

export class FileStorage implements FileSyscalls {
  /** signs upload tokens; kept in the database so tokens stay valid across restarts */
  private readonly secret: Buffer;

  constructor(
    private readonly host: FileStorageHost,
    readonly filesDir: string,
  ) {
    fs.mkdirSync(filesDir, { recursive: true });
    let secret = host.getMeta("secret");
    if (!secret) {
      secret = randomBytes(32).toString("hex");
      host.setMeta("secret", secret);
    }
    this.secret = Buffer.from(secret, "hex");
  }

  /** Removes uploads a crash left half-received. */
  removeTempFiles() {
    for (const f of fs.readdirSync(this.filesDir)) {
      if (f.startsWith(UPLOAD_TMP_PREFIX)) fs.rmSync(path.join(this.filesDir, f), { force: true });
    }
  }

  generateUploadUrl(): string {
    const payload = Buffer.from(
      JSON.stringify({ exp: realNow() + UPLOAD_TOKEN_TTL_MS, n: randomBytes(8).toString("hex") }),
    ).toString("base64url");
    const mac = createHmac("sha256", this.secret).update(payload).digest("base64url");
    return `${this.host.cloudUrl}/api/storage/upload?token=${payload}.${mac}`;
  }

  private tokenStatus(token: string): UploadTokenStatus {
    const [payload, mac] = String(token).split(".");
    if (!payload || !mac) return "invalid";
    const expected = createHmac("sha256", this.secret).update(payload).digest();
    const given = Buffer.from(mac, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "invalid";
    try {
      const { exp } = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      if (typeof exp !== "number") return "invalid";
      return exp > realNow() ? "valid" : "expired";
    } catch {
      return "invalid";
    }
  }

  private verifyToken(token: string): boolean {
    return this.tokenStatus(token) === "valid";
  }

  checkUploadToken(token: string): boolean {
    return this.verifyToken(token);
  }

  uploadTokenStatus(token: string): UploadTokenStatus {
    return this.tokenStatus(token);
  }

  async storeUpload(token: string, body: Uint8Array, contentType: string | null): Promise<string> {
    if (!this.verifyToken(token)) throw new Error("Invalid or expired upload token");
    return this.storeBytes(body, contentType);
  }

  /**
   * `expectedSha256`: the base64 digest of an upload's `Digest: sha-256=…` header; a body that
   * hashes otherwise is refused (Convex's `Sha256Mismatch`) and nothing is stored.
   */
  async storeUploadStream(
    token: string,
    body: AsyncIterable<Uint8Array>,
    contentType: string | null,
    expectedSha256?: string,
  ): Promise<string> {
    if (!this.verifyToken(token)) throw new Error("Invalid or expired upload token");
    // straight to a temp file next to the blobs, hashed on the way: memory stays bounded
    const tmp = path.join(this.filesDir, `${UPLOAD_TMP_PREFIX}${randomUUID()}`);
    const hash = createHash("sha256");
    let size = 0;
    try {
      await pipeline(
        body,
        async function* (source: AsyncIterable<Uint8Array>) {
          for await (const chunk of source) {
            hash.update(chunk);
            size += chunk.byteLength;
            yield chunk;
          }
        },
        fs.createWriteStream(tmp, { flags: "wx" }),
      );
    } catch (e) {
      await fs.promises.rm(tmp, { force: true });
      throw e;
    }
    const actual = hash.digest("base64");
    if (expectedSha256 !== undefined && expectedSha256 !== actual) {
      await fs.promises.rm(tmp, { force: true });
      throw new StorageError("Sha256Mismatch", `Sha256 mismatch. Expected: ${expectedSha256} Actual: ${actual}`);
    }
    return this.commitFile(tmp, actual, size, contentType);
  }

  async storeBytes(body: Uint8Array, contentType: string | null, expectedSha?: string): Promise<string> {
    const sha256 = sha256Base64(body);
    if (expectedSha && expectedSha !== sha256) {
      throw new Error(`Hash mismatch: the provided sha256 ${expectedSha} does not match the content's ${sha256}`);
    }
    const tmp = path.join(this.filesDir, `${UPLOAD_TMP_PREFIX}${randomUUID()}`);
    await fs.promises.writeFile(tmp, body);
    return this.commitFile(tmp, sha256, body.byteLength, contentType);
  }

  /** Adds the `_storage` document for a complete temp file and moves the file into place. */
  private async commitFile(tmp: string, sha256: string, size: number, contentType: string | null): Promise<string> {
    try {
      return await this.host.systemWrite((tx) => {
        const fields: Doc = { sha256, size };
        if (contentType) fields.contentType = contentType;
        const id = tx.insert("_storage", fields, false);
        // Durable rename before the document commits: a crash leaves at most an orphan file.
        fs.renameSync(tmp, path.join(this.filesDir, id));
        return id;
      });
    } catch (e) {
      await fs.promises.rm(tmp, { force: true });
      throw e;
    }
  }

  private storageDoc(tx: Tx, storageId: string): Doc | null {
    if (typeof storageId !== "string") return null;
    if (this.host.catalog.tableName(storageId) !== "_storage") return null;
    return tx.get(storageId)?.doc ?? null;
  }

  /**
   * Convex's checks of a storage id handed to `ctx.storage.*` (model/file_storage: an id of
   * `_storage` or a legacy UUID). Returns false for a UUID: this backend never issued one, so it
   * names no file.
   */
  private checkStorageId(storageId: unknown, method: string): storageId is string {
    const id = String(storageId);
    if (UUID_RE.test(id)) return false;
    if (typeof storageId !== "string" || !decodeId(storageId)) {
      throw new Error(
        `Invalid argument \`storageId\` for \`${method}\`: Invalid storage ID: "${id}". Storage ID should be an\n                    Id of '_storage' table, or a UUID string.`,
      );
    }
    if (this.host.catalog.tableName(storageId) !== "_storage") {
      throw new Error("Invalid storage ID. Storage ID cannot be an ID on any table other than '_storage'.");
    }
    return true;
  }

  storageUrl(tx: Tx, storageId: string): string | null {
    if (!this.checkStorageId(storageId, "storage.getUrl")) return null;
    const doc = this.storageDoc(tx, storageId);
    return doc ? `${this.host.cloudUrl}/api/storage/${storageId}` : null;
  }

  /** `storage.getMetadata`: `sha256` in hex, as Convex's syscall returns it (the document keeps base64). */
  storageMetadata(tx: Tx, storageId: string): StorageMetadata | null {
    if (!this.checkStorageId(storageId, "storage.getMetadata")) return null;
    const doc = this.storageDoc(tx, storageId);
    if (!doc) return null;
    const sha256 = Buffer.from(doc.sha256 as string, "base64").toString("hex");
    return { storageId, sha256, size: doc.size, contentType: doc.contentType ?? null };
  }

  deleteStorage(tx: Tx, storageId: string) {
    const doc = this.checkStorageId(storageId, "storage.delete") ? this.storageDoc(tx, storageId) : null;
    if (!doc) throw new Error(`storage id ${String(storageId)} not found`);
    tx.write(storageId, "_storage", null, false);
    tx.afterCommit.push(() => fs.rmSync(path.join(this.filesDir, storageId), { force: true }));
  }

  /**
   * The file a storage URL path names: "invalid" when the path is no storage id (Convex answers
   * 400 `InvalidStoragePath`), null when there is no such file (404 `FileNotFound`).
   */
  async storageFile(storageId: string): Promise<StorageFile | "invalid" | null> {
    if (!decodeId(storageId) && !UUID_RE.test(storageId)) return "invalid";
    if (this.host.isStopped() || this.host.catalog.tableName(storageId) !== "_storage") return null;
    const doc = await this.host.withReadLock(() => this.storageDoc(this.host.readTx(), storageId));
    if (!doc) return null;
    const file = path.join(this.filesDir, storageId);
    try {
      const stat = await fs.promises.stat(file);
      return {
        path: file,
        size: stat.size,
        contentType: (doc.contentType as string | undefined) ?? null,
        sha256: doc.sha256 as string,
      };
    } catch {
      return null;
    }
  }

  async getStorageBlob(storageId: string): Promise<StorageBlob | null> {
    if (this.host.isStopped() || !this.checkStorageId(storageId, "storage.get")) return null;
    const doc = await this.host.withReadLock(() => this.storageDoc(this.host.readTx(), storageId));
    if (!doc) return null;
    try {
      const body = await fs.promises.readFile(path.join(this.filesDir, storageId));
      return { body: new Uint8Array(body), contentType: (doc.contentType as string | undefined) ?? null };
    } catch {
      return null;
    }
  }

  /**
   * `ctx.storage.store` inside an ad-hoc mutation (see functions.ts): the file joins the
   * transaction; its path is added to `written`, which the caller removes when the mutation fails.
   */
  storeInTx(tx: Tx, a: { blob: string; sha256?: string; contentType?: string }, written: string[]): string {
    const bytes = Buffer.from(a.blob, "base64");
    const sha256 = sha256Base64(bytes);
    const fields: Doc = { sha256, size: bytes.byteLength };
    if (a.sha256 && a.sha256 !== sha256)
      throw new Error(`Hash mismatch: the provided sha256 ${a.sha256} does not match the content's ${sha256}`);
    if (a.contentType) fields.contentType = a.contentType;
    const id = tx.insert("_storage", fields, false);
    written.push(path.join(this.filesDir, id));
    fs.writeFileSync(written[written.length - 1], bytes);
    return id;
  }

  /** `ctx.storage.get` inside an ad-hoc mutation: the blob as the action syscall returns it, or null. */
  getInTx(tx: Tx, storageId: unknown): { blob: string; contentType: unknown } | null {
    const doc = this.storageDoc(tx, storageId as string);
    const file = path.join(this.filesDir, String(storageId));
    if (!doc || !fs.existsSync(file)) return null;
    return { blob: fs.readFileSync(file).toString("base64"), contentType: doc.contentType ?? null };
  }

  /** Removes every stored file (the documents are deleted by the caller). */
  removeAllFiles() {
    for (const f of fs.readdirSync(this.filesDir))
      fs.rmSync(path.join(this.filesDir, f), { force: true, recursive: true });
  }
}
