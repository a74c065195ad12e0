/** The CTA embed snippet (src/lib/embed.ts): the design's size, shrinking on a narrow page with its proportions kept (issue 33 item 10). */
import { describe, expect, test } from "vitest";
import { ctaEmbedSnippet } from "@/lib/embed";

describe("ctaEmbedSnippet", () => {
  test("the design's own size, at most the page's width, its height following the proportions", () => {
    const html = ctaEmbedSnippet("https://app.example.org", "abc123", 'Rally "now" <b>', 640, 300);
    expect(html).toBe(
      '<iframe src="https://app.example.org/embed/cta/abc123" width="640" height="300" style="border:0;width:100%;max-width:640px;height:auto;aspect-ratio:640/300" title="Rally now b" loading="lazy"></iframe>',
    );
  });
});
