/**
 * Stored files belong to an organisation (issue 32, items 1 and 5 and the upload findings):
 * - another organisation's storage id is worth nothing: it cannot be handed in, attached, or
 *   deleted through our functions (storage ids are public: they end every image URL);
 * - a file is judged by its bytes, not by its declared type, and a refused file is deleted in a
 *   step of its own (the refusal does not roll the deletion back);
 * - upload URLs are budgeted per member and per organisation, and uploads never handed in or never
 *   attached are swept after the deadline.
 * convex-test keeps no content type for stored files, so what needs a declared type runs on the
 * embedded backend only (as Convex keeps it).
 */
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { sweepUploads, uploadState, UPLOAD_DEADLINE_MS } from "@convex/model/files";
import { createMember, setupTest, type TestConvex } from "./setup";

const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"),
  (c) => c.charCodeAt(0),
);
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const HTML = new TextEncoder().encode(
  "<!doctype html><html><body><script>alert(document.domain)</script></body></html>",
);

const keepsTypes = (t: TestConvex) => "setEnv" in t;
const store = (t: TestConvex, bytes: Uint8Array<ArrayBuffer>, type: string) =>
  t.run((ctx) => ctx.storage.store(new Blob([bytes], { type })));
const exists = (t: TestConvex, id: Id<"_storage">) => t.run(async (ctx) => (await ctx.db.system.get(id)) !== null);

async function twoOrgs() {
  const t = setupTest();
  const a = await createMember(t, ["account_admin", "campaign_manager"]);
  const b = await createMember(t, ["account_admin", "campaign_manager"]);
  return { t, a, b };
}

describe("stored files are organisation-scoped", () => {
  test("another organisation's image cannot be registered, attached to a petition page, or deleted with our petition", async () => {
    const { t, a, b } = await twoOrgs();
    if (!keepsTypes(t)) return;
    const aFile = await store(t, PNG, "image/png");
    const { url } = await a.as.action(api.images.register, { storageId: aFile, purpose: "cta" });
    expect(url).toMatch(/^https?:\/\//);

    await expect(b.as.action(api.images.register, { storageId: aFile, purpose: "email" })).rejects.toThrow(
      /did not arrive/,
    );
    await expect(b.as.action(api.petitions.acceptPageFile, { fileId: aFile })).rejects.toThrow(/did not arrive/);
    const petitionId = await b.as.mutation(api.petitions.create, {
      name: "B's",
      signaturesNeeded: 10,
      deadline: "2027-01-01",
      state: "OR",
      county: null,
      mode: "full",
    });
    await expect(
      b.as.mutation(api.petitions.addPage, { petitionId, fileId: aFile, fileName: "stolen.png" }),
    ).rejects.toThrow(/did not arrive/);

    // Even a page that references A's file (written before files were owned) never deletes it.
    await t.run(async (ctx) => {
      await ctx.db.insert("petitionPages", {
        orgId: b.orgId,
        petitionId,
        pageNumber: 1,
        fileId: aFile,
        fileName: "legacy",
        contentType: "image/png",
        status: "completed",
        lineCount: 0,
        pendingCount: 0,
      });
    });
    await b.as.mutation(api.petitions.remove, { id: petitionId });
    await t.finishAllScheduledFunctions(() => {});
    expect(await exists(t, aFile)).toBe(true);
  });

  test("an organisation's own page scan is handed in, attached once, and deleted with its petition", async () => {
    const { t, b } = await twoOrgs();
    if (!keepsTypes(t)) return;
    const file = await store(t, PNG, "image/png");
    await b.as.action(api.petitions.acceptPageFile, { fileId: file });
    await b.as.action(api.petitions.acceptPageFile, { fileId: file }); // handing in again is harmless
    const petitionId = await b.as.mutation(api.petitions.create, {
      name: "Ours",
      signaturesNeeded: 10,
      deadline: "2027-01-01",
      state: "OR",
      county: null,
      mode: "full",
    });
    await b.as.mutation(api.petitions.addPage, { petitionId, fileId: file, fileName: "scan.png" });
    await expect(
      b.as.mutation(api.petitions.addPage, { petitionId, fileId: file, fileName: "again.png" }),
    ).rejects.toThrow(/did not arrive/);
    const pages = await b.as.query(api.petitions.pages, { petitionId });
    expect(pages.map((p) => [p.contentType, p.url !== null])).toEqual([["image/png", true]]);
    await b.as.mutation(api.petitions.remove, { id: petitionId });
    await t.finishAllScheduledFunctions(() => {});
    expect(await exists(t, file)).toBe(false);
  });

  test("a page attached without being handed in is refused", async () => {
    const { t, b } = await twoOrgs();
    const file = await store(t, PNG, "image/png");
    const petitionId = await b.as.mutation(api.petitions.create, {
      name: "Ours",
      signaturesNeeded: 10,
      deadline: "2027-01-01",
      state: "OR",
      county: null,
      mode: "full",
    });
    await expect(
      b.as.mutation(api.petitions.addPage, { petitionId, fileId: file, fileName: "scan.png" }),
    ).rejects.toThrow(/did not arrive/);
  });
});

describe("files are judged by their bytes; refused files are deleted", () => {
  test.each([
    ["an SVG with script typed image/png", SVG, "image/png"],
    ["an HTML page typed image/gif", HTML, "image/gif"],
    ["a text file typed image/png", new TextEncoder().encode("hello, not an image"), "image/png"],
    ["a PNG declared as text/html (storage would serve it as HTML)", PNG, "text/html"],
  ])("image upload: %s is refused and deleted", async (_name, bytes, type) => {
    const { t, a } = await twoOrgs();
    const id = await store(t, bytes, type);
    await expect(a.as.action(api.images.register, { storageId: id, purpose: "email" })).rejects.toThrow(
      /File must be an image/,
    );
    expect(await exists(t, id)).toBe(false);
  });

  test("petition page: an HTML page typed application/pdf is refused and deleted", async () => {
    const { t, a } = await twoOrgs();
    const id = await store(t, HTML, "application/pdf");
    await expect(a.as.action(api.petitions.acceptPageFile, { fileId: id })).rejects.toThrow(
      /images \(PNG, JPEG, GIF, WebP\) or PDF/,
    );
    expect(await exists(t, id)).toBe(false);
  });

  test("an image of 5 MB or more is refused and deleted", async () => {
    const { t, a } = await twoOrgs();
    const big = new Uint8Array(5_242_880);
    big.set(PNG);
    const id = await store(t, big, "image/png");
    await expect(a.as.action(api.images.register, { storageId: id, purpose: "email" })).rejects.toThrow(
      /File size must be less than 5MB/,
    );
    expect(await exists(t, id)).toBe(false);
  });

  test("a refused file another organisation owns is left alone", async () => {
    const { t, a, b } = await twoOrgs();
    if (!keepsTypes(t)) return;
    const aFile = await store(t, PNG, "image/png");
    await a.as.action(api.petitions.acceptPageFile, { fileId: aFile });
    await expect(b.as.action(api.images.register, { storageId: aFile, purpose: "email" })).rejects.toThrow(
      /did not arrive/,
    );
    expect(await exists(t, aFile)).toBe(true);
  });
});

describe("upload budgets and the sweep", () => {
  test("upload URLs are budgeted per member (30 at once, then refused), whatever the purpose", async () => {
    const { t, a } = await twoOrgs();
    const teammate = await createMember(t, ["campaign_manager"], { orgId: a.orgId });
    for (let i = 0; i < 15; i++) await a.as.action(api.images.generateUploadUrl, {});
    for (let i = 0; i < 15; i++) await a.as.action(api.petitions.generateUploadUrl, {});
    await expect(a.as.action(api.petitions.generateUploadUrl, {})).rejects.toThrow(/Too many uploads/);
    await expect(a.as.action(api.images.generateUploadUrl, {})).rejects.toThrow(/Too many uploads/);
    expect(typeof (await teammate.as.action(api.images.generateUploadUrl, {}))).toBe("string");
  });

  test("upload URLs are budgeted per organisation (200 at once)", async () => {
    const { t, a } = await twoOrgs();
    const members = [a];
    for (let i = 0; i < 7; i++) members.push(await createMember(t, ["campaign_manager"], { orgId: a.orgId }));
    let issued = 0;
    let refused = 0;
    for (const m of members) {
      for (let i = 0; i < 30; i++) {
        try {
          await m.as.action(api.images.generateUploadUrl, {});
          issued++;
        } catch (e) {
          expect(String(e)).toMatch(/Too many uploads/);
          refused++;
        }
      }
    }
    expect(issued).toBe(200);
    expect(refused).toBe(40);
    const elsewhere = await createMember(t, ["campaign_manager"]);
    expect(typeof (await elsewhere.as.action(api.images.generateUploadUrl, {}))).toBe("string");
  });

  test("after the deadline the sweep deletes uploads nobody handed in and handed-in files nothing attached; attached and older files stay", async () => {
    const { t, a } = await twoOrgs();
    // The first sweep only marks its time: files stored before uploads were owned are never strays.
    // Its `now` can be a fraction of a millisecond before the newest upload's creation time.
    const legacy = await store(t, PNG, "image/png");
    const legacyAt = await t.run(async (ctx) => (await ctx.db.system.get(legacy))!._creationTime);
    await t.run((ctx) => sweepUploads(ctx, Math.min(Date.now(), Math.ceil(legacyAt) - 1)));
    const stray = await store(t, HTML, "image/png");
    const later = Date.now() + UPLOAD_DEADLINE_MS + 1_000;
    if (!keepsTypes(t)) {
      await t.run((ctx) => sweepUploads(ctx, later));
      expect([await exists(t, legacy), await exists(t, stray)]).toEqual([true, false]);
      return;
    }
    const handedIn = await store(t, PNG, "image/png");
    await a.as.action(api.petitions.acceptPageFile, { fileId: handedIn });
    const attached = await store(t, PNG, "image/png");
    await a.as.action(api.images.register, { storageId: attached, purpose: "email" });
    const fresh = await store(t, PNG, "image/png");

    // past its deadline an unowned upload can no longer be handed in
    expect((await t.run((ctx) => uploadState(ctx.db, a.orgId, fresh, later))).state).toBe("expired");
    await t.run((ctx) => sweepUploads(ctx, Date.now()));
    expect([
      await exists(t, stray),
      await exists(t, handedIn),
      await exists(t, attached),
      await exists(t, fresh),
    ]).toEqual([true, true, true, true]);
    await t.run((ctx) => sweepUploads(ctx, later));
    expect([
      await exists(t, legacy),
      await exists(t, stray),
      await exists(t, handedIn),
      await exists(t, attached),
    ]).toEqual([true, false, false, true]);
  });
});
