// @vitest-environment jsdom
/**
 * A CTA design drawn as SVG (convex/lib/cta/svg.ts): the markup of each element type, stacking,
 * wrapping, shadows and links; and hostile values in every property (text, name, links, images,
 * colours, fonts, enums, numbers, ids) never producing a script, an event attribute or an unsafe
 * URL, while the text stays visible, escaped. Every output is parsed as XML (DOMParser from the
 * jsdom environment, strict for image/svg+xml) to prove it well formed.
 */
import { describe, expect, test } from "vitest";
import { DesignError, newElement, type CtaDesign, type CtaElement } from "@convex/lib/cta/design";
import { ctaToSvg, escapeXml, wrapText } from "@convex/lib/cta/svg";

/** The SVG's root element; fails when the markup is not well-formed XML. */
function parse(svg: string): Element {
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
  expect(doc.getElementsByTagName("parsererror")).toHaveLength(0);
  expect(doc.documentElement.nodeName).toBe("svg");
  return doc.documentElement;
}

function design(
  elements: Array<Partial<CtaElement> & Pick<CtaElement, "id" | "type">>,
  settings: Partial<CtaDesign> = {},
): CtaDesign {
  return {
    name: "Rally",
    description: "",
    width: 400,
    height: 300,
    backgroundColor: "#ffffff",
    gridSize: 10,
    snapToGrid: true,
    elements: elements.map((e, i) => ({ ...newElement(e.type, e.id, { zIndex: i + 1 }), ...e })),
    ...settings,
  };
}
const all = (root: Element, selector: string) => [...root.querySelectorAll(selector)];
/** The drawn content (defs and title aside), in document order. */
const drawn = (root: Element) => [...root.children].filter((c) => c.nodeName !== "defs" && c.nodeName !== "title");

describe("structure", () => {
  test("a standalone SVG of the canvas size with its background, elements back to front", () => {
    const svg = ctaToSvg(
      design([
        { id: "top", type: "circle", zIndex: 9 },
        { id: "bottom", type: "rectangle", zIndex: 2 },
      ]),
    );
    const root = parse(svg);
    expect(root.getAttribute("xmlns")).toBe("http://www.w3.org/2000/svg");
    expect([root.getAttribute("width"), root.getAttribute("height"), root.getAttribute("viewBox")]).toEqual([
      "400",
      "300",
      "0 0 400 300",
    ]);
    expect(root.querySelector("title")!.textContent).toBe("Rally");
    expect(drawn(root).map((c) => `${c.nodeName}:${c.getAttribute("fill")}`)).toEqual([
      "rect:#ffffff",
      "rect:#6366f1",
      "ellipse:#10b981",
    ]);
  });

  test("fluid (the embed): scales to its container's width by the viewBox, keeping the proportions, never wider than the design", () => {
    const root = parse(
      ctaToSvg(design([{ id: "r", type: "rectangle" }], { width: 640, height: 300 }), { fluid: true }),
    );
    expect([root.getAttribute("width"), root.getAttribute("height"), root.getAttribute("viewBox")]).toEqual([
      "100%",
      null,
      "0 0 640 300",
    ]);
    expect(root.getAttribute("style")).toBe(
      "display:block;width:100%;height:auto;max-width:640px;aspect-ratio:640/300",
    );
  });

  test("a transparent background draws nothing; a transparent shape has no fill", () => {
    const root = parse(
      ctaToSvg(
        design([{ id: "r", type: "rectangle", fill: "transparent" }], { backgroundColor: "transparent", name: "" }),
      ),
    );
    expect(drawn(root)).toHaveLength(1);
    expect(drawn(root)[0].getAttribute("fill")).toBe("none");
    expect(root.querySelector("title")).toBeNull();
  });

  test("rectangles with their corner radius; circles as an ellipse in their box", () => {
    const root = parse(
      ctaToSvg(
        design([
          { id: "r", type: "rectangle", x: 10, y: 20, width: 100, height: 50, borderRadius: 8, fill: "#ef4444" },
          { id: "c", type: "circle", x: 100, y: 100, width: 80, height: 40 },
        ]),
      ),
    );
    const rect = root.querySelector("rect:not([width='400'])")!;
    expect(["x", "y", "width", "height", "rx", "fill"].map((a) => rect.getAttribute(a))).toEqual([
      "10",
      "20",
      "100",
      "50",
      "8",
      "#ef4444",
    ]);
    const ellipse = root.querySelector("ellipse")!;
    expect(["cx", "cy", "rx", "ry"].map((a) => ellipse.getAttribute(a))).toEqual(["140", "120", "40", "20"]);
  });

  test("text in its font, colour and alignment, wrapped into its box and clipped to it", () => {
    const text = {
      type: "text" as const,
      x: 20,
      y: 10,
      width: 100,
      height: 40,
      fontSize: 10,
      fontFamily: "Georgia" as const,
      fontWeight: "bold" as const,
      color: "#ff0000",
    };
    // 100 / (0.55 × 10) → 18 characters a line; 40 px hold lines starting at 0, 12, 24 and 36
    const words = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
    const root = parse(
      ctaToSvg(
        design([
          { ...text, id: "l", text: words },
          { ...text, id: "c", text: "hi", textAlign: "center" },
          { ...text, id: "r", text: "hi", textAlign: "right" },
        ]),
        { idPrefix: "p1-" },
      ),
    );
    const [left, middle, right] = all(root, "text");
    expect(["font-family", "font-size", "font-weight", "fill", "text-anchor"].map((a) => left.getAttribute(a))).toEqual(
      ["Georgia, serif", "10", "bold", "#ff0000", "start"],
    );
    const spans = all(left, "tspan");
    expect(spans.map((s) => s.textContent)).toEqual([
      "alpha beta gamma",
      "delta epsilon zeta",
      "eta theta iota",
      "kappa",
    ]);
    expect(spans.map((s) => [s.getAttribute("x"), s.getAttribute("y")])).toEqual([
      ["20", "20"],
      ["20", "32"],
      ["20", "44"],
      ["20", "56"],
    ]);
    expect([middle.getAttribute("text-anchor"), middle.querySelector("tspan")!.getAttribute("x")]).toEqual([
      "middle",
      "70",
    ]);
    expect([right.getAttribute("text-anchor"), right.querySelector("tspan")!.getAttribute("x")]).toEqual([
      "end",
      "120",
    ]);
    const clip = root.querySelector("clipPath#p1-clip-l rect")!;
    expect(["x", "y", "width", "height"].map((a) => clip.getAttribute(a))).toEqual(["20", "10", "100", "40"]);
    expect(left.parentElement!.getAttribute("clip-path")).toBe("url(#p1-clip-l)");
    const short = parse(ctaToSvg(design([{ ...text, id: "s", height: 20, text: words }])));
    expect(all(short, "tspan").map((s) => s.textContent)).toEqual(["alpha beta gamma", "delta epsilon zeta"]);
  });

  test("images only from a safe address, sized to their box", () => {
    const root = parse(
      ctaToSvg(
        design([
          { id: "ok", type: "image", x: 5, y: 6, width: 70, height: 80, src: "https://example.org/a.png?x=1&y=2" },
          { id: "bad", type: "image", src: "javascript:alert(1)" },
          { id: "data", type: "image", src: "data:image/svg+xml,<svg onload=alert(1)>" },
        ]),
      ),
    );
    const images = all(root, "image");
    expect(images).toHaveLength(1);
    expect(["href", "x", "y", "width", "height"].map((a) => images[0].getAttribute(a))).toEqual([
      "https://example.org/a.png?x=1&y=2",
      "5",
      "6",
      "70",
      "80",
    ]);
  });

  test("shadows are filters, each defined once", () => {
    const root = parse(
      ctaToSvg(
        design([
          { id: "a", type: "rectangle", shadow: "md" },
          { id: "b", type: "circle", shadow: "md" },
          { id: "c", type: "text", shadow: "lg" },
          { id: "d", type: "rectangle", shadow: "sm" },
          { id: "e", type: "rectangle" },
        ]),
      ),
    );
    expect(all(root, "defs filter").map((f) => f.id)).toEqual(["cta-shadow-md", "cta-shadow-lg", "cta-shadow-sm"]);
    expect(all(root, "[filter]").map((e) => `${e.nodeName}:${e.getAttribute("filter")}`)).toEqual([
      "rect:url(#cta-shadow-md)",
      "ellipse:url(#cta-shadow-md)",
      "g:url(#cta-shadow-lg)",
      "rect:url(#cta-shadow-sm)",
    ]);
  });

  test("linked elements are wrapped in <a target=_top>, through linkHref when given", () => {
    const els = design([
      { id: "btn", type: "rectangle", link: "https://example.org/join?a=1&b=2" },
      { id: "label", type: "text", link: "mailto:team@example.org", fill: "transparent" },
      { id: "plain", type: "circle" },
    ]);
    const own = parse(ctaToSvg(els));
    expect(
      all(own, "a").map((a) => [a.getAttribute("href"), a.getAttribute("target"), a.firstElementChild!.nodeName]),
    ).toEqual([
      ["https://example.org/join?a=1&b=2", "_top", "rect"],
      ["mailto:team@example.org", "_top", "g"],
    ]);
    // a transparent linked text box still takes clicks across its area
    expect(own.querySelector("a g rect")!.getAttribute("pointer-events")).toBe("all");
    const counted = parse(
      ctaToSvg(els, { linkHref: (el) => (el.id === "btn" ? `https://precinct.example/c/1?e=${el.id}` : null) }),
    );
    expect(all(counted, "a").map((a) => a.getAttribute("href"))).toEqual([
      "https://precinct.example/c/1?e=btn",
      "mailto:team@example.org",
    ]);
    const unsafe = parse(ctaToSvg(els, { linkHref: () => "javascript:alert(1)" }));
    expect(all(unsafe, "a")).toHaveLength(0);
  });
});

describe("links for keyboards and screen readers", () => {
  test("a button's shape under its linked label is not a second stop; a linked shape alone is named", () => {
    const root = parse(
      ctaToSvg(
        design(
          [
            {
              id: "bg",
              type: "rectangle",
              x: 10,
              y: 10,
              width: 200,
              height: 50,
              link: "https://example.org/v",
              zIndex: 1,
            },
            {
              id: "label",
              type: "text",
              x: 20,
              y: 20,
              width: 180,
              height: 30,
              text: "Volunteer",
              link: "https://example.org/v",
              zIndex: 2,
            },
            {
              id: "dot",
              type: "circle",
              x: 250,
              y: 10,
              width: 40,
              height: 40,
              link: "https://example.org/donate",
              zIndex: 3,
            },
          ],
          { name: "Home page CTA" },
        ),
      ),
    );
    const [bg, label, dot] = all(root, "a");
    expect(bg.getAttribute("aria-hidden")).toBe("true");
    expect(bg.getAttribute("tabindex")).toBe("-1");
    expect(label.getAttribute("aria-hidden")).toBeNull();
    expect(label.textContent).toContain("Volunteer");
    expect(dot.getAttribute("aria-label")).toBe("Home page CTA: https://example.org/donate");
  });
});

describe("hostile input", () => {
  const SCRIPT = `<script>alert(1)</script>" onload="alert(2)' onclick='x' ]]> &amp; <!-- -->`;
  const hostile = design(
    [
      {
        id: "t",
        type: "text",
        width: 1_200,
        text: SCRIPT,
        color: `#000" onload="x`,
        fontFamily: `Arial" onload="x` as never,
        fontWeight: "bold onload" as never,
        textAlign: `center" x="` as never,
        link: "javascript:alert(1)",
        shadow: `md" onload="x` as never,
      },
      {
        id: "r",
        type: "rectangle",
        fill: `red" onmouseover="alert(1)`,
        link: `https://example.org/" onclick="alert(1)`,
        x: `10" onload="x` as never,
        borderRadius: "5 onload" as never,
      },
      {
        id: "c",
        type: "circle",
        fill: "url(javascript:alert(1))",
        link: "data:text/html,<script>alert(1)</script>",
        width: Number.NaN,
      },
      { id: "i", type: "image", src: `https://example.org/a.png" onerror="alert(1)`, link: "JaVaScRiPt:alert(1)" },
      {
        id: "q",
        type: "text",
        width: 1_200,
        text: 'it\'s "quoted" & <b>bold</b>',
        link: "https://example.org/?q='x'&r=<y>",
      },
    ],
    {
      name: `</title><script>alert(1)</script>`,
      backgroundColor: `#fff" onload="alert(1)`,
      width: `500" onload="x` as never,
    },
  );

  test("no script, no event attribute, no unsafe URL, numbers as numbers; the text is visible, escaped", () => {
    const svg = ctaToSvg(hostile, { idPrefix: `x" onload="alert(1)` });
    expect(svg).not.toMatch(/<script/i);
    expect(svg).not.toMatch(/javascript:|data:/i);
    expect(svg).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    const root = parse(svg);
    for (const el of [root, ...all(root, "*")]) {
      expect(el.nodeName).not.toMatch(/script|foreignObject|iframe/i);
      for (const attr of [...el.attributes]) {
        expect(attr.name).not.toMatch(/^on/i);
        if (/href$/i.test(attr.name)) expect(attr.value).toMatch(/^(https?:|mailto:|tel:)/);
        if (["x", "y", "width", "height", "rx", "ry", "cx", "cy", "font-size"].includes(attr.name))
          expect(attr.value).toMatch(/^-?\d+(\.\d+)?%?$/);
        if (attr.name === "fill") expect(attr.value).toMatch(/^(none|#[0-9a-f]{3}|#[0-9a-f]{6})$/i);
        if (attr.name === "id") expect(attr.value).toMatch(/^[\w-]+$/);
      }
    }
    expect(root.querySelector("title")!.textContent).toBe("</title><script>alert(1)</script>");
    const texts = all(root, "text");
    expect(texts[0].textContent).toBe(SCRIPT.split(/\s+/).join(" "));
    expect(texts[0].getAttribute("font-family")).toBe("Arial, sans-serif");
    expect(texts[1].textContent).toBe('it\'s "quoted" & <b>bold</b>');
    // every link was unsafe: nothing is wrapped
    expect(all(root, "a").map((a) => a.getAttribute("href"))).toEqual([]);
    expect(root.getAttribute("width")).toBe("400");
    expect(drawn(root)[0].getAttribute("fill")).toBe("#ffffff");
  });

  test("a safe link with & is escaped in the markup and intact once parsed", () => {
    const root = parse(ctaToSvg(design([{ id: "r", type: "rectangle", link: "https://example.org/?a=1&b=2" }])));
    expect(root.querySelector("a")!.getAttribute("href")).toBe("https://example.org/?a=1&b=2");
    expect(ctaToSvg(design([{ id: "r", type: "rectangle", link: "https://example.org/?a=1&b=2" }]))).toContain(
      'href="https://example.org/?a=1&amp;b=2"',
    );
  });

  test("characters XML forbids are dropped; others (emoji included) kept", () => {
    const root = parse(
      ctaToSvg(design([{ id: "t", type: "text", width: 600, text: "a\u0000b\u0007c\uFFFE \uD800x 🎉" }])),
    );
    expect(root.querySelector("text")!.textContent).toBe("abc x 🎉");
    expect(escapeXml(`<&>"'`)).toBe("&lt;&amp;&gt;&quot;&#39;");
  });

  test("an invalid or repeated element id is refused, not drawn", () => {
    expect(() => ctaToSvg(design([{ id: `x" onload="alert(1)`, type: "rectangle" }]))).toThrow(DesignError);
    expect(() =>
      ctaToSvg(
        design([
          { id: "a", type: "rectangle" },
          { id: "a", type: "circle" },
        ]),
      ),
    ).toThrow(DesignError);
    expect(() => ctaToSvg(design([{ id: "a", type: "script" as never }]))).toThrow(DesignError);
  });
});

describe("wrapText", () => {
  test("words into lines; a long word broken by code point; newlines kept", () => {
    expect(wrapText("one two three", 7)).toEqual(["one two", "three"]);
    expect(wrapText("ab abcdefgh", 3)).toEqual(["ab", "abc", "def", "gh"]);
    expect(wrapText("🎉🎉🎉🎉", 2)).toEqual(["🎉🎉", "🎉🎉"]);
    expect(wrapText("a\n\nb", 10)).toEqual(["a", "", "b"]);
  });
});
