/**
 * Stored files are served from the backend's own origin with the type their uploader declared:
 * the storage GET must not let an upload render as a page there. Every file gets `nosniff`;
 * images and PDFs are shown `inline`, everything else is an `attachment`; anything that could
 * render active content (HTML, SVG, XML, JavaScript, unknown types) is served as
 * `application/octet-stream`; every file but a PDF carries a sandboxing CSP. Over HTTP, for
 * whole files, byte ranges and HEAD.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyApi } from "convex/server";
import { ConvexHttpClient } from "convex/browser";
import { startFixture } from "../../local-backend/protocol/helpers";

const CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";
const PAGE = Buffer.from("<!doctype html><script>fetch('/api/query')</script><h1>hi</h1>");

let backend: Awaited<ReturnType<typeof startFixture>>;

/** Uploads `body` declaring `contentType` (none when null) and returns its storage URL. */
async function upload(contentType: string | null, body: Buffer = PAGE): Promise<string> {
  const http = new ConvexHttpClient(backend.cloudUrl);
  const uploadUrl: string = await http.mutation(anyApi.files.generateUploadUrl, {});
  const res = await fetch(uploadUrl, {
    method: "POST",
    headers: contentType === null ? {} : { "Content-Type": contentType },
    body: new Uint8Array(body),
  });
  expect(res.status).toBe(200);
  const { storageId } = (await res.json()) as { storageId: string };
  return `${backend.cloudUrl}/api/storage/${storageId}`;
}

function shown(res: Response) {
  return {
    type: res.headers.get("content-type"),
    disposition: res.headers.get("content-disposition"),
    nosniff: res.headers.get("x-content-type-options"),
    csp: res.headers.get("content-security-policy"),
  };
}

beforeAll(async () => {
  backend = await startFixture();
});

afterAll(async () => {
  await backend?.stop();
});

describe("stored files cannot render active content in the backend's origin", () => {
  it.each([
    "text/html",
    "text/html; charset=utf-8",
    "TEXT/HTML",
    "application/xhtml+xml",
    "image/svg+xml",
    "text/xml",
    "application/xml",
    "application/rss+xml",
    "text/javascript",
    "application/javascript",
    "text/xsl",
    "multipart/x-mixed-replace; boundary=x",
    "application/x-unknown",
    "text/plain, text/html",
  ])("%s is served as a sandboxed application/octet-stream download", async (declared) => {
    const res = await fetch(await upload(declared));
    expect(res.status).toBe(200);
    expect(shown(res)).toEqual({
      type: "application/octet-stream",
      disposition: "attachment",
      nosniff: "nosniff",
      csp: CSP,
    });
    // the bytes are the uploader's, unchanged
    expect(Buffer.from(await res.arrayBuffer()).equals(PAGE)).toBe(true);
  });

  it("a file uploaded without a type is a sandboxed download too", async () => {
    const res = await fetch(await upload(null));
    expect(shown(res)).toEqual({
      type: "application/octet-stream",
      disposition: "attachment",
      nosniff: "nosniff",
      csp: CSP,
    });
    await res.arrayBuffer();
  });

  it.each(["image/png", "image/jpeg", "image/gif", "image/webp", "IMAGE/PNG"])(
    "%s is shown inline, sandboxed",
    async (declared) => {
      const res = await fetch(await upload(declared));
      expect(shown(res)).toEqual({ type: declared.toLowerCase(), disposition: "inline", nosniff: "nosniff", csp: CSP });
      await res.arrayBuffer();
    },
  );

  it("a PDF is shown inline with nosniff, without the sandbox that stops browsers' PDF viewers", async () => {
    const res = await fetch(await upload("application/pdf"));
    expect(shown(res)).toEqual({ type: "application/pdf", disposition: "inline", nosniff: "nosniff", csp: null });
    await res.arrayBuffer();
  });

  it.each([
    ["text/plain; charset=utf-8", "text/plain; charset=utf-8"],
    ["text/csv", "text/csv"],
    ["application/json", "application/json"],
    ["audio/ogg", "audio/ogg"],
    ["application/zip", "application/zip"],
  ])("inert %s keeps its type but is a sandboxed download", async (declared, type) => {
    const res = await fetch(await upload(declared));
    expect(shown(res)).toEqual({ type, disposition: "attachment", nosniff: "nosniff", csp: CSP });
    await res.arrayBuffer();
  });

  it("byte ranges, HEAD and unsatisfiable ranges carry the same headers", async () => {
    const url = await upload("text/html");
    const expected = { type: "application/octet-stream", disposition: "attachment", nosniff: "nosniff", csp: CSP };
    const part = await fetch(url, { headers: { Range: "bytes=0-9" } });
    expect(part.status).toBe(206);
    expect(shown(part)).toEqual(expected);
    await part.arrayBuffer();
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(shown(head)).toEqual(expected);
    const past = await fetch(url, { headers: { Range: "bytes=100000-" } });
    expect(past.status).toBe(416);
    expect(shown(past)).toEqual(expected);
    await past.arrayBuffer();
  });
});
