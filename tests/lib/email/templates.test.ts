/**
 * The built-in templates (convex/lib/email/templates.ts): the spec's five, each a document
 * `normalizeBlocks` leaves unchanged, rendering without MJML errors below the size warning, with
 * a footer, only known merge variables and a variety of blocks.
 */
import { createRequire } from "node:module";
import { describe, expect, test } from "vitest";
import { allBlocks, normalizeBlocks } from "@convex/lib/email/blocks";
import { documentTexts, findVariables, SAMPLE_VALUES, substitute, unknownVariables } from "@convex/lib/email/merge";
import { EMAIL_WARN_BYTES, renderEmail, sizeLevel, type MjmlCompiler } from "@convex/lib/email/render";
import { BUILT_IN_TEMPLATES } from "@convex/lib/email/templates";

const require = createRequire(import.meta.url);
const mjml = require("mjml") as MjmlCompiler;

describe("built-in templates", () => {
  test("the spec's five, with stable ids", () => {
    expect(BUILT_IN_TEMPLATES.map((t) => [t.id, t.name, t.category])).toEqual([
      ["builtin:welcome", "Welcome Email", "default"],
      ["builtin:newsletter", "Monthly Newsletter", "default"],
      ["builtin:event", "Event Invitation", "default"],
      ["builtin:fundraising", "Fundraising Appeal", "default"],
      ["builtin:thank-you", "Thank You", "default"],
    ]);
    for (const t of BUILT_IN_TEMPLATES) expect(t.description.length).toBeGreaterThan(20);
  });

  describe.each(BUILT_IN_TEMPLATES)("$name", (template) => {
    test("normalizes unchanged", () => {
      expect(normalizeBlocks(JSON.parse(JSON.stringify(template.blocks)))).toEqual(template.blocks);
      for (const b of allBlocks(template.blocks))
        expect(b.id).toMatch(new RegExp(`^${template.id.slice(8)}-[a-z0-9-]+$`));
    });

    test("renders without MJML errors, below the size warning, with a footer", async () => {
      const { html, text, bytes, errors } = await renderEmail(template.blocks, mjml, { title: template.name });
      expect(errors).toEqual([]);
      expect(bytes).toBeLessThan(EMAIL_WARN_BYTES);
      expect(sizeLevel(bytes)).toBe("ok");
      expect(template.blocks.at(-1)?.type).toBe("footer");
      expect(html).toContain('href="{{unsubscribe_url}}"');
      expect(text).toContain("Unsubscribe: {{unsubscribe_url}}");
      const filled = substitute(html, SAMPLE_VALUES, "html");
      expect(findVariables(filled)).toEqual([]);
      expect(filled).toContain(SAMPLE_VALUES["voter.first_name"]);
    });

    test("personalised with known variables, built from a variety of blocks", () => {
      const texts = documentTexts(template.blocks);
      expect(unknownVariables(texts)).toEqual([]);
      const used = new Set(texts.flatMap(findVariables));
      expect(used.has("voter.first_name")).toBe(true);
      expect(used.has("user.campaign_name")).toBe(true);
      const types = new Set(allBlocks(template.blocks).map((b) => b.type));
      for (const type of ["heading", "text", "button", "footer"] as const) expect(types).toContain(type);
      expect(types.size).toBeGreaterThanOrEqual(7);
      expect(types.has("image")).toBe(false);
    });
  });
});
