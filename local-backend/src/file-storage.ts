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
    const payload = Buffer.from(JSON.stringify({ exp: realNow() + UPLOAD_TOKEN_TTL_MS, n: randomBytes(8).toString("hex") })).toString("base64url");
    const mac = createHmac("sha256", this.secret).update(payload).digest("base64url");
    return `${this.host.cloudUrl}/api/storage/upload?token=${payload}.${mac}`;
  }

  private verifyToken(token: string): boolean {
    const [payload, mac] = String(token).split(".");
    if (!payload || !mac) return false;
    const expected = createHmac("sha256", this.secret).update(payload).digest();
    const given = Buffer.from(mac, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    try {
      const { exp } = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      return typeof exp === "number" && exp > realNow();
    } catch {
      return false;
    }
  }

  checkUploadToken(token: string): boolean {
    return this.verifyToken(token);
  }

  async storeUpload(token: string, body: Uint8Array, contentType: string | null): Promise<string> {
    if (!this.verifyToken(token)) throw new Error("Invalid or expired upload token");
    return this.storeBytes(body, contentType);
  }

  async storeUploadStream(token: string, body: AsyncIterable<Uint8Array>, contentType: string | null): Promise<string> {
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
    return this.commitFile(tmp, hash.digest("base64"), size, contentType);
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

  storageUrl(tx: Tx, storageId: string): string | null {
    const doc = this.storageDoc(tx, storageId);
    return doc ? `${this.host.cloudUrl}/api/storage/${storageId}` : null;
  }

  storageMetadata(tx: Tx, storageId: string): StorageMetadata | null {
    const doc = this.storageDoc(tx, storageId);
    if (!doc) return null;
    return { storageId, sha256: doc.sha256, size: doc.size, contentType: doc.contentType ?? null };
  }

  deleteStorage(tx: Tx, storageId: string) {
    const doc = this.storageDoc(tx, storageId);
    if (!doc) throw new Error(`Storage ID "${storageId}" not found`);
    tx.write(storageId, "_storage", null, false);
    tx.afterCommit.push(() => fs.rmSync(path.join(this.filesDir, storageId), { force: true }));
  }

  async getStorageBlob(storageId: string): Promise<StorageBlob | null> {
    if (this.host.isStopped()) return null;
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
    if (a.sha256 && a.sha256 !== sha256) throw new Error(`Hash mismatch: the provided sha256 ${a.sha256} does not match the content's ${sha256}`);
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
    for (const f of fs.readdirSync(this.filesDir)) fs.rmSync(path.join(this.filesDir, f), { force: true, recursive: true });
  }
}
