/**
 * CTA creator and database (issue 18): CTAs per organisation, custom templates for super admins
 * only, the public embed and its click counter, on both backends.
 */
import * as Y from "yjs";
import { describe, expect, test } from "vitest";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { newElement, type CtaDesign } from "@convex/lib/cta/design";
import { readCtaDoc } from "@convex/lib/cta/draft";
import { BUILT_IN_CTA_TEMPLATES } from "@convex/lib/cta/templates";
import { joinChunks } from "@convex/model/yjs";
import { createMember, roleFixture, setupTest, type TestConvex } from "./setup";

const ROLES = ["super_admin", "account_admin", "campaign_manager", "volunteer", "viewer"] as const;
const CAN_VIEW = new Set(["super_admin", "campaign_manager", "viewer"]);
const CAN_MANAGE = new Set(["super_admin", "campaign_manager"]);

const button = { ...newElement("rectangle", "btn", { x: 20, y: 20 }), link: "https://example.org/volunteer" };
const label = { ...newElement("text", "label", { x: 30, y: 30, zIndex: 2 }), text: "Volunteer" };
const design = (over: Partial<CtaDesign> = {}): string =>
  JSON.stringify({
    name: "Volunteer button",
    description: "Home page",
    width: 300,
    height: 100,
    backgroundColor: "#ffffff",
    gridSize: 10,
    snapToGrid: true,
    elements: [button, label],
    ...over,
  });

async function fixture() {
  const t = setupTest();
  const f = await roleFixture(t);
  const id = await f.campaign_manager.as.mutation(api.ctas.create, { design: design() });
  return { t, f, id };
}

async function draftOf(t: TestConvex, id: Id<"ctas">) {
  return await t.run(async (ctx) => {
    const orgId = (await ctx.db.get("ctas", id))!.orgId;
    const docRow = await ctx.db
      .query("yDocs")
      .withIndex("by_org_doc", (q) => q.eq("orgId", orgId).eq("docId", `cta:${id}`))
      .unique();
    const updates = await ctx.db
      .query("yUpdates")
      .withIndex("by_doc_seq", (q) => q.eq("docRef", docRow!._id))
      .collect();
    const doc = new Y.Doc();
    for (const u of updates) Y.applyUpdate(doc, joinChunks([u.data]));
    return readCtaDoc(doc);
  });
}

describe("ctas.list / get (campaigns.view)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f, id } = await fixture();
    const as = f[role].as;
    if (CAN_VIEW.has(role)) {
      expect(await as.query(api.ctas.list, {})).toMatchObject([
        { id, name: "Volunteer button", width: 300, height: 100, elementCount: 2, clicks: 0 },
      ]);
      expect(JSON.parse((await as.query(api.ctas.get, { id }))!.design).elements).toHaveLength(2);
    } else await expect(as.query(api.ctas.list, {})).rejects.toThrow(/permission/);
  });
  test("another organisation sees nothing; signed out is refused", async () => {
    const { t, f, id } = await fixture();
    expect(await f.outsider.as.query(api.ctas.list, {})).toEqual([]);
    expect(await f.outsider.as.query(api.ctas.get, { id })).toBeNull();
    await expect(t.query(api.ctas.list, {})).rejects.toThrow(/log in/);
  });
});

describe("ctas.create / save / duplicate / remove (campaigns.manage)", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f, id } = await fixture();
    const as = f[role].as;
    if (CAN_MANAGE.has(role)) {
      expect(await as.mutation(api.ctas.save, { id, design: design({ name: "Renamed" }) })).toEqual({ version: 2 });
      const copy = await as.mutation(api.ctas.duplicate, { id });
      const rows = await as.query(api.ctas.list, {});
      expect(rows.map((r) => r.name).sort()).toEqual(["Renamed", "Renamed (Copy)"]);
      expect(rows.find((r) => r.id === copy)!.createdAt).toBeGreaterThanOrEqual(
        rows.find((r) => r.id === id)!.createdAt,
      );
      await as.mutation(api.ctas.remove, { id: copy });
    } else {
      await expect(as.mutation(api.ctas.create, { design: design() })).rejects.toThrow(/permission/);
      await expect(as.mutation(api.ctas.save, { id, design: design() })).rejects.toThrow(/permission/);
      await expect(as.mutation(api.ctas.duplicate, { id })).rejects.toThrow(/permission/);
      await expect(as.mutation(api.ctas.remove, { id })).rejects.toThrow(/permission/);
    }
  });
  test("another organisation cannot change it; signed out is refused", async () => {
    const { t, f, id } = await fixture();
    await expect(f.outsider.as.mutation(api.ctas.save, { id, design: design({ name: "Hacked" }) })).rejects.toThrow(
      /no longer exists|could not be found/,
    );
    await expect(f.outsider.as.mutation(api.ctas.duplicate, { id })).rejects.toThrow(
      /no longer exists|could not be found/,
    );
    await expect(t.mutation(api.ctas.create, { design: design() })).rejects.toThrow(/log in/);
  });
  test("a name is needed; hostile and out-of-bounds values are stored within bounds", async () => {
    const { f, id } = await fixture();
    const cm = f.campaign_manager.as;
    await expect(cm.mutation(api.ctas.create, { design: design({ name: "  " }) })).rejects.toThrow(/name for the CTA/);
    await expect(cm.mutation(api.ctas.save, { id, design: "{not json" })).rejects.toThrow(/could not be read/);
    await expect(cm.mutation(api.ctas.save, { id, design: design({ elements: [button, button] }) })).rejects.toThrow(
      /appears twice/,
    );
    const hostile = {
      ...button,
      x: 5000,
      y: -40,
      fill: "red;background:url(x)",
      link: "javascript:alert(1)",
      zIndex: 5000,
      borderRadius: 99,
    };
    await cm.mutation(api.ctas.save, {
      id,
      design: design({ width: 99_999, gridSize: 1, backgroundColor: "#123456", elements: [hostile] }),
    });
    const stored = JSON.parse((await cm.query(api.ctas.get, { id }))!.design) as CtaDesign;
    expect(stored).toMatchObject({ width: 1200, gridSize: 5, backgroundColor: "#ffffff" });
    expect(stored.elements[0]).toMatchObject({ x: 1150, y: 0, link: "", zIndex: 999, borderRadius: 50 });
    expect(stored.elements[0].fill).toMatch(/^#/);
  });
  test("the shared draft is seeded once from the server with the saved design", async () => {
    const { t, id } = await fixture();
    const draft = await draftOf(t, id);
    expect(draft).toMatchObject({ name: "Volunteer button", width: 300, height: 100 });
    expect(draft.elements.map((e) => e.id)).toEqual(["btn", "label"]);
  });
});

describe("ctaTemplates: super administrators only", () => {
  test.each(ROLES)("%s", async (role) => {
    const { f } = await fixture();
    const as = f[role].as;
    const t = BUILT_IN_CTA_TEMPLATES[0];
    const call = as.mutation(api.ctaTemplates.create, {
      name: "Rally button",
      category: "Event",
      design: JSON.stringify(t.design),
    });
    if (role === "super_admin") {
      const id = await call;
      const base = (await as.query(api.ctaTemplates.list, {}))[0].updatedAt;
      await as.mutation(api.ctaTemplates.update, {
        id,
        baseUpdatedAt: base,
        name: "Rally button v2",
        category: "Marketing",
        design: JSON.stringify(t.design),
      });
      expect(await f.viewer.as.query(api.ctaTemplates.list, {})).toMatchObject([
        { name: "Rally button v2", category: "Marketing" },
      ]);
      // platform-wide: another organisation's members see it too
      expect((await f.outsider.as.query(api.ctaTemplates.list, {})).map((x) => x.name)).toEqual(["Rally button v2"]);
      await as.mutation(api.ctaTemplates.remove, { id });
    } else {
      await expect(call).rejects.toThrow(/Only Super Administrators can create templates/);
    }
  });
  test("two super admins editing one template: the later save from an older base is refused with the teammate's name, not overwriting", async () => {
    const { t, f } = await fixture();
    const other = await createMember(t, ["super_admin"], { orgId: f.orgId });
    const tpl = JSON.stringify(BUILT_IN_CTA_TEMPLATES[0].design);
    const id = await f.super_admin.as.mutation(api.ctaTemplates.create, {
      name: "Shared",
      category: "Event",
      design: tpl,
    });
    const base = (await f.super_admin.as.query(api.ctaTemplates.list, {}))[0].updatedAt;
    const next = await other.as.mutation(api.ctaTemplates.update, {
      id,
      baseUpdatedAt: base,
      name: "Theirs",
      category: "Event",
      design: tpl,
    });
    expect(next).toBeGreaterThan(base);
    await expect(
      f.super_admin.as.mutation(api.ctaTemplates.update, {
        id,
        baseUpdatedAt: base,
        name: "Mine",
        category: "Event",
        design: tpl,
      }),
    ).rejects.toThrow(/saved this template while you were editing it/);
    expect((await f.viewer.as.query(api.ctaTemplates.list, {}))[0].name).toBe("Theirs");
    // from the new base, saving works again
    await f.super_admin.as.mutation(api.ctaTemplates.update, {
      id,
      baseUpdatedAt: next,
      name: "Mine",
      category: "Event",
      design: tpl,
    });
    expect((await f.viewer.as.query(api.ctaTemplates.list, {}))[0].name).toBe("Mine");
  });
  test("template rules: a name and at least one element; an allowed category", async () => {
    const { f } = await fixture();
    const sa = f.super_admin.as;
    await expect(
      sa.mutation(api.ctaTemplates.create, { name: " ", category: "Event", design: design() }),
    ).rejects.toThrow(/Please enter a name for the template/);
    await expect(
      sa.mutation(api.ctaTemplates.create, { name: "Empty", category: "Event", design: design({ elements: [] }) }),
    ).rejects.toThrow(/at least one element/);
    await expect(
      sa.mutation(api.ctaTemplates.create, { name: "X", category: "Nope", design: design() }),
    ).rejects.toThrow(/Choose a category/);
  });
  test("a super admin impersonating another role is refused like that role", async () => {
    const { f } = await fixture();
    await f.super_admin.as.mutation(api.viewer.startImpersonation, { roleId: "campaign_manager" });
    await expect(
      f.super_admin.as.mutation(api.ctaTemplates.create, { name: "X", category: "Event", design: design() }),
    ).rejects.toThrow(/Only Super Administrators/);
  });
});

describe("embed: publicCta and click counting", () => {
  test("anyone with the id gets the saved design, nothing else; unknown ids get null", async () => {
    const { t, f, id } = await fixture();
    const pub = await t.query(api.ctas.publicCta, { id });
    expect(pub).toMatchObject({ id, name: "Volunteer button", width: 300, height: 100 });
    expect(Object.keys(pub!).sort()).toEqual(["backgroundColor", "elements", "height", "id", "name", "width"]);
    expect(await t.query(api.ctas.publicCta, { id: "nope" })).toBeNull();
    await f.campaign_manager.as.mutation(api.ctas.remove, { id });
    expect(await t.query(api.ctas.publicCta, { id })).toBeNull();
  });
  test("a click redirects to the element's stored link and is counted; other ids are 404, never an open redirect", async () => {
    const { t, f, id } = await fixture();
    const res = await t.fetch(`/api/cta/click?c=${id}&e=btn`, { method: "GET", redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("https://example.org/volunteer");
    await t.fetch(`/api/cta/click?c=${id}&e=btn`, { method: "GET", redirect: "manual" });
    expect((await f.viewer.as.query(api.ctas.list, {}))[0].clicks).toBe(2);
    expect((await t.fetch(`/api/cta/click?c=${id}&e=label`, { method: "GET", redirect: "manual" })).status).toBe(404);
    expect(
      (
        await t.fetch(`/api/cta/click?c=${id}&e=btn&to=https://evil.example`, { method: "GET", redirect: "manual" })
      ).headers.get("Location"),
    ).toBe("https://example.org/volunteer");
    expect((await t.fetch(`/api/cta/click?c=nope&e=btn`, { method: "GET", redirect: "manual" })).status).toBe(404);
  });
});
