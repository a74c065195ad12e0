/**
 * Email builder functions (issue 14): campaigns, versions, templates, images and test sends, with
 * the roles allowed and denied, other organisations and signed-out callers, on both backends.
 */
import * as Y from "yjs";
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { newBlock, type EmailBlock } from "@convex/lib/email/blocks";
import { readEmailDraft } from "@convex/lib/email/draft";
import { BUILT_IN_TEMPLATES } from "@convex/lib/email/templates";
import { joinChunks } from "@convex/model/yjs";
import { roleFixture, setupTest, type Member, type TestConvex } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;
const CAN_VIEW = new Set(["super_admin", "campaign_manager", "viewer"]);
const CAN_MANAGE = new Set(["super_admin", "campaign_manager"]);
const CAN_DEV = new Set(["super_admin", "account_admin"]);

const heading = (id: string, text: string): EmailBlock => ({
  ...newBlock("heading", id),
  content: { ...newBlock("heading", id).content, text },
});
const BLOCKS: EmailBlock[] = [heading("h1", "Hello {{voter.first_name}}"), newBlock("footer", "f1")];
const settings = (over: Partial<Record<string, string>> = {}) => ({
  name: "October newsletter",
  subject: "News for {{voter.first_name}}",
  fromName: "Team Jane",
  fromEmail: "team@jane.org",
  replyTo: "",
  previewText: "",
  ...over,
});

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  const id = await f.campaign_manager.as.mutation(api.emailCampaigns.create, {
    ...settings(),
    blocks: JSON.stringify(BLOCKS),
  });
  return { t, f, id };
}

async function draftOf(t: TestConvex, id: Id<"emailCampaigns">) {
  return await t.run(async (ctx) => {
    const orgId = (await ctx.db.get("emailCampaigns", id))!.orgId;
    const docRow = await ctx.db
      .query("yDocs")
      .withIndex("by_org_doc", (q) => q.eq("orgId", orgId).eq("docId", `emailCampaign:${id}`))
      .unique();
    const updates = await ctx.db
      .query("yUpdates")
      .withIndex("by_doc_seq", (q) => q.eq("docRef", docRow!._id))
      .collect();
    const doc = new Y.Doc();
    for (const u of updates) Y.applyUpdate(doc, joinChunks([u.data]));
    return readEmailDraft(doc);
  });
}

describe("emailCampaigns.list / get / versions (campaigns.view)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f, id } = await fixture();
    const as = f[role].as;
    if (CAN_VIEW.has(role)) {
      expect(await as.query(api.emailCampaigns.list, {})).toMatchObject([
        { id, name: "October newsletter", status: "draft", version: 1 },
      ]);
      expect(JSON.parse((await as.query(api.emailCampaigns.get, { id }))!.blocks)).toHaveLength(2);
      expect(await as.query(api.emailCampaigns.versions, { id })).toMatchObject([{ version: 1 }]);
    } else {
      await expect(as.query(api.emailCampaigns.list, {})).rejects.toThrow(/permission/);
      await expect(as.query(api.emailCampaigns.get, { id })).rejects.toThrow(/permission/);
    }
  });
  test("another organisation sees nothing; signed out is refused", async () => {
    const { t, f, id } = await fixture();
    expect(await f.outsider.as.query(api.emailCampaigns.list, {})).toEqual([]);
    expect(await f.outsider.as.query(api.emailCampaigns.get, { id })).toBeNull();
    await expect(t.query(api.emailCampaigns.list, {})).rejects.toThrow(/log in/);
  });
});

describe("emailCampaigns.create / save / remove (campaigns.manage)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f, id } = await fixture();
    const as = f[role].as;
    if (CAN_MANAGE.has(role)) {
      expect(
        await as.mutation(api.emailCampaigns.save, {
          id,
          ...settings({ name: "Renamed" }),
          blocks: JSON.stringify(BLOCKS),
        }),
      ).toEqual({ version: 2 });
      const copy = await as.mutation(api.emailCampaigns.create, {
        ...settings({ name: "October newsletter (Copy)" }),
        blocks: JSON.stringify(BLOCKS),
      });
      await as.mutation(api.emailCampaigns.remove, { id: copy });
      expect((await as.query(api.emailCampaigns.list, {})).map((c) => c.name)).toEqual(["Renamed"]);
    } else {
      await expect(
        as.mutation(api.emailCampaigns.create, { ...settings(), blocks: JSON.stringify(BLOCKS) }),
      ).rejects.toThrow(/permission/);
      await expect(
        as.mutation(api.emailCampaigns.save, { id, ...settings(), blocks: JSON.stringify(BLOCKS) }),
      ).rejects.toThrow(/permission/);
      await expect(as.mutation(api.emailCampaigns.remove, { id })).rejects.toThrow(/permission/);
    }
  });
  test("another organisation cannot save or delete it; signed out is refused", async () => {
    const { t, f, id } = await fixture();
    await expect(
      f.outsider.as.mutation(api.emailCampaigns.save, {
        id,
        ...settings({ name: "Hacked" }),
        blocks: JSON.stringify(BLOCKS),
      }),
    ).rejects.toThrow(/no longer exists|could not be found/);
    await expect(f.outsider.as.mutation(api.emailCampaigns.remove, { id })).rejects.toThrow(/could not be found/);
    await expect(t.mutation(api.emailCampaigns.create, { ...settings(), blocks: "[]" })).rejects.toThrow(/log in/);
    expect((await f.campaign_manager.as.query(api.emailCampaigns.get, { id }))!.name).toBe("October newsletter");
  });
  test("the builder's save rules, in the spec's words", async () => {
    const { f, id } = await fixture();
    const cm = f.campaign_manager.as;
    await expect(
      cm.mutation(api.emailCampaigns.create, { ...settings({ name: "  " }), blocks: JSON.stringify(BLOCKS) }),
    ).rejects.toThrow(/campaign name/i);
    await expect(cm.mutation(api.emailCampaigns.save, { id, ...settings(), blocks: "[]" })).rejects.toThrow(
      /Add at least one component/,
    );
    await expect(
      cm.mutation(api.emailCampaigns.save, {
        id,
        ...settings(),
        blocks: JSON.stringify([{ id: "x", type: "script", content: {} }]),
      }),
    ).rejects.toThrow(/Unknown block type/);
    await expect(
      cm.mutation(api.emailCampaigns.save, {
        id,
        ...settings(),
        blocks: JSON.stringify([newBlock("footer", "a"), newBlock("footer", "a")]),
      }),
    ).rejects.toThrow(/appears twice/);
    // a footer cannot go inside a column
    const cols = newBlock("columns", "c");
    (cols.content.columnChildren as EmailBlock[][])[0].push(newBlock("footer", "f"));
    await expect(
      cm.mutation(api.emailCampaigns.save, { id, ...settings(), blocks: JSON.stringify([cols]) }),
    ).rejects.toThrow(/cannot go there/);
    await expect(
      cm.mutation(api.emailCampaigns.save, {
        id,
        ...settings({ subject: "Hi {{voter.nickname}}" }),
        blocks: JSON.stringify(BLOCKS),
      }),
    ).rejects.toThrow(/Unknown personalization variable: \{\{voter.nickname\}\}/);
    await expect(
      cm.mutation(api.emailCampaigns.save, {
        id,
        ...settings({ fromEmail: "not an address" }),
        blocks: JSON.stringify(BLOCKS),
      }),
    ).rejects.toThrow(/email address format is invalid/);
  });
  test("hostile and out-of-range values are stored within bounds", async () => {
    const { f, id } = await fixture();
    const cm = f.campaign_manager.as;
    const button = newBlock("button", "b");
    button.content = {
      ...button.content,
      url: "javascript:alert(1)",
      backgroundColor: "red;background:url(x)",
      padding: 999,
    };
    await cm.mutation(api.emailCampaigns.save, { id, ...settings(), blocks: JSON.stringify([button]) });
    const stored = JSON.parse((await cm.query(api.emailCampaigns.get, { id }))!.blocks) as EmailBlock[];
    expect(stored[0].content).toMatchObject({ url: "", backgroundColor: "#2563eb", padding: 40 });
  });
  test("the shared draft is seeded once from the server; every save keeps a version that can be read back", async () => {
    const { t, f, id } = await fixture();
    const draft = await draftOf(t, id);
    expect(draft.meta).toMatchObject({ name: "October newsletter", subject: "News for {{voter.first_name}}" });
    expect(draft.blocks.map((b) => b.id)).toEqual(["h1", "f1"]);
    const cm = f.campaign_manager.as;
    await cm.mutation(api.emailCampaigns.save, {
      id,
      ...settings(),
      blocks: JSON.stringify([heading("h2", "Second")]),
    });
    await cm.mutation(api.emailCampaigns.save, {
      id,
      ...settings({ subject: "Third" }),
      blocks: JSON.stringify([heading("h3", "Third")]),
    });
    expect((await cm.query(api.emailCampaigns.versions, { id })).map((v) => v.version)).toEqual([3, 2, 1]);
    const v1 = await f.viewer.as.query(api.emailCampaigns.version, { id, version: 1 });
    expect(JSON.parse(v1.blocks)[0].content.text).toBe("Hello {{voter.first_name}}");
    expect(v1.subject).toBe("News for {{voter.first_name}}");
    await expect(f.outsider.as.query(api.emailCampaigns.version, { id, version: 1 })).rejects.toThrow(/no longer kept/);
  });
});

describe("emailTemplates", () => {
  test.each(ROLES)("list / create / remove: %s", async (role) => {
    const { f } = await fixture();
    const as = f[role].as;
    if (CAN_MANAGE.has(role)) {
      const tid = await as.mutation(api.emailTemplates.create, {
        name: "Rally invite",
        blocks: JSON.stringify(BLOCKS),
      });
      await expect(
        as.mutation(api.emailTemplates.create, { name: "Rally invite", blocks: JSON.stringify(BLOCKS) }),
      ).rejects.toThrow(/already exists/);
      expect((await as.query(api.emailTemplates.list, {})).map((x) => x.name)).toEqual(["Rally invite"]);
      await as.mutation(api.emailTemplates.remove, { id: tid });
      expect(await as.query(api.emailTemplates.list, {})).toEqual([]);
    } else {
      await expect(
        as.mutation(api.emailTemplates.create, { name: "X", blocks: JSON.stringify(BLOCKS) }),
      ).rejects.toThrow(/permission/);
      if (!CAN_VIEW.has(role)) await expect(as.query(api.emailTemplates.list, {})).rejects.toThrow(/permission/);
    }
  });
  test.each(ROLES)("developer page (settings.manage): %s", async (role) => {
    const { f } = await fixture();
    const as = f[role].as;
    if (CAN_DEV.has(role)) {
      const tid = await as.mutation(api.emailTemplates.devInsert, { builtInId: BUILT_IN_TEMPLATES[0].id });
      await as.mutation(api.emailTemplates.devInsert, { builtInId: BUILT_IN_TEMPLATES[0].id });
      expect((await as.query(api.emailTemplates.devList, {})).map((x) => x.name)).toEqual([
        `${BUILT_IN_TEMPLATES[0].name} (test 2)`,
        `${BUILT_IN_TEMPLATES[0].name} (test 1)`,
      ]);
      await as.mutation(api.emailTemplates.devRemove, { id: tid });
      expect(await as.query(api.emailTemplates.devList, {})).toHaveLength(1);
    } else {
      await expect(as.query(api.emailTemplates.devList, {})).rejects.toThrow(/permission/);
      await expect(as.mutation(api.emailTemplates.devInsert, { builtInId: BUILT_IN_TEMPLATES[0].id })).rejects.toThrow(
        /permission/,
      );
    }
  });
  test("another organisation's templates stay apart", async () => {
    const { f } = await fixture();
    const tid = await f.campaign_manager.as.mutation(api.emailTemplates.create, {
      name: "Ours",
      blocks: JSON.stringify(BLOCKS),
    });
    expect(await f.outsider.as.query(api.emailTemplates.list, {})).toEqual([]);
    await expect(f.outsider.as.mutation(api.emailTemplates.remove, { id: tid })).rejects.toThrow(
      /no longer exists|could not be found/,
    );
  });
});

describe("images (email and CTA uploads)", () => {
  const PNG = Uint8Array.from(
    atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"),
    (c) => c.charCodeAt(0),
  );
  const store = (t: TestConvex, bytes: Uint8Array<ArrayBuffer>, type: string) =>
    t.run((ctx) => ctx.storage.store(new Blob([bytes], { type })));
  test("an image under 5 MB gets a public URL; other files and large ones are refused with the spec's messages", async () => {
    const { t, f } = await fixture();
    const cm = f.campaign_manager.as;
    expect(typeof (await cm.action(api.images.generateUploadUrl, {}))).toBe("string");
    await expect(
      cm.action(api.images.register, {
        storageId: await store(t, new Uint8Array(1000), "text/html"),
        purpose: "email",
      }),
    ).rejects.toThrow(/File must be an image/);
    const big = new Uint8Array(5_242_880);
    big.set(PNG);
    await expect(
      cm.action(api.images.register, { storageId: await store(t, big, "image/jpeg"), purpose: "email" }),
    ).rejects.toThrow(/File size must be less than 5MB/);
    // convex-test keeps no content type for stored files; the embedded backend does, as Convex does
    if (!("setEnv" in t)) return;
    const ok = await cm.action(api.images.register, { storageId: await store(t, PNG, "image/png"), purpose: "email" });
    expect(ok.url).toMatch(/^https?:\/\//);
    await expect(
      cm.action(api.images.register, {
        storageId: await store(
          t,
          new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"),
          "image/svg+xml",
        ),
        purpose: "email",
      }),
    ).rejects.toThrow(/File must be an image/);
  });
  test.each(ROLES)("denied without campaigns.manage: %s", async (role) => {
    const { t, f } = await fixture();
    if (CAN_MANAGE.has(role)) return;
    await expect(f[role].as.action(api.images.generateUploadUrl, {})).rejects.toThrow(/permission/);
    await expect(
      f[role].as.action(api.images.register, { storageId: await store(t, PNG, "image/png"), purpose: "email" }),
    ).rejects.toThrow(/permission/);
  });
});

describe("emailTest.sendTest (demo mode)", () => {
  const { name: _name, ...testSettings } = settings();
  const send = (as: Member["as"], over: Record<string, string> = {}) =>
    as.action(api.emailTest.sendTest, {
      recipients: "a@example.org,\nb@example.org",
      ...testSettings,
      blocks: JSON.stringify(BLOCKS),
      ...over,
    });
  test("renders, personalises with sample values, prefixes [TEST] and records one outbox message per recipient", async () => {
    const { t, f } = await fixture();
    const r = await send(f.campaign_manager.as);
    expect(r).toMatchObject({ demo: true, sent: 2, message: null });
    const outbox = await t.run((ctx) => ctx.db.query("emailOutbox").collect());
    expect(outbox.map((m) => m.to).sort()).toEqual(["a@example.org", "b@example.org"]);
    const m = outbox[0];
    expect(m).toMatchObject({ kind: "test_email", from: '"Team Jane" <team@jane.org>' });
    expect(m.subject).toBe("[TEST] News for Jane");
    expect(m.html).toMatch(/<html[\s\S]*Hello Jane[\s\S]*<\/html>/);
    expect(m.text).toContain("Hello Jane");
    expect(m.html).not.toContain("{{");
    expect(m.text).not.toContain("{{");
  });
  test("bad input gets the spec's messages", async () => {
    const { f } = await fixture();
    const cm = f.campaign_manager.as;
    await expect(send(cm, { recipients: " , " })).rejects.toThrow(/at least one email address/);
    await expect(send(cm, { recipients: "a@example.org, nope, also bad" })).rejects.toThrow(
      /Please check: nope, also bad/,
    );
    await expect(send(cm, { subject: "" })).rejects.toThrow(/Subject and from email are required/);
    await expect(send(cm, { blocks: JSON.stringify([heading("x", "Hi {{voter.shoe_size}}")]) })).rejects.toThrow(
      /Unknown personalization variable/,
    );
  });
  test.each(ROLES)("denied without campaigns.manage: %s", async (role) => {
    const { f } = await fixture();
    if (CAN_MANAGE.has(role)) return;
    await expect(send(f[role].as)).rejects.toThrow(/permission/);
  });
});
