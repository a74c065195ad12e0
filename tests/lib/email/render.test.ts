/**
 * The email renderer (convex/lib/email/render.ts) with the real MJML compilers: every block type
 * compiles without MJML errors into the 600 px table layout with its properties where they
 * belong; hostile text, links and colours in every property produce no script, no event handler
 * and no javascript: link; out-of-bounds values are clamped; merge variables come out intact; the
 * browser build of MJML gives the same HTML; the size meter's thresholds.
 */
import { createRequire } from "node:module";
import * as cheerio from "cheerio";
import { describe, expect, test } from "vitest";
import {
  BLOCK_PROPS,
  BLOCK_TYPES,
  DISTRIBUTIONS,
  HEADING_LEVELS,
  LETTER_SPACINGS,
  LINE_HEIGHTS,
  newBlock,
  type BlockType,
  type BlockValue,
  type EmailBlock,
} from "@convex/lib/email/blocks";
import {
  blocksToMjml,
  blocksToText,
  EMAIL_MAX_BYTES,
  EMAIL_WARN_BYTES,
  escapeHtml,
  formatBytes,
  renderEmail,
  sizeLevel,
  type MjmlCompiler,
} from "@convex/lib/email/render";

// mjml and mjml-browser publish no types: required here with the signature render.ts expects.
const require = createRequire(import.meta.url);
const mjml = require("mjml") as MjmlCompiler;
const mjmlBrowser = require("mjml-browser") as MjmlCompiler;

const NOW = new Date(2026, 0, 1);

function b(
  type: BlockType,
  id: string,
  content: Record<string, unknown> = {},
  kids?: EmailBlock[] | EmailBlock[][],
): EmailBlock {
  const block = newBlock(type, id, NOW);
  Object.assign(block.content, content);
  if (kids) block.content[type === "columns" || type === "sidebar" ? "columnChildren" : "children"] = kids;
  return block;
}

/** The HTML with its whitespace between and inside tags collapsed (MJML's layout of attributes varies). */
const flatten = (html: string) => html.replace(/\s+/g, " ").replace(/\s+>/g, ">").replace(/>\s+</g, "><");

async function render(blocks: unknown, opts = {}) {
  const out = await renderEmail(blocks, mjml, opts);
  expect(out.errors).toEqual([]);
  return { ...out, html: flatten(out.html) };
}

/** The rendered HTML's structure: the 600 px body and no web font. */
function expectEmailShell(html: string) {
  expect(html).toMatch(/^<!doctype html>/);
  expect(html).toContain('style="width:600px;" width="600"');
  expect(html).toContain("max-width:600px");
  expect(html).toContain("font-family:Helvetica, Arial, sans-serif");
  expect(html).not.toMatch(/<link|@import|fonts\.googleapis/);
}

describe("every block type", () => {
  test("text: size, colour, alignment, line height, letter spacing, line breaks", async () => {
    const { html, text } = await render([
      b("text", "t", {
        text: "Line one\nLine two",
        fontSize: 18,
        color: "#aa0000",
        align: "justify",
        lineHeight: 2,
        letterSpacing: "0.1em",
      }),
    ]);
    expectEmailShell(html);
    expect(html).toContain('<td align="justify" style="font-size:0px;padding:8px 0;word-break:break-word;">');
    expect(html).toContain(
      'font-size:18px;letter-spacing:0.1em;line-height:2;text-align:justify;color:#aa0000;">Line one<br />Line two</div>',
    );
    expect(text).toBe("Line one\nLine two\n");
    // every line height and letter spacing the panel offers is valid MJML
    const all = LINE_HEIGHTS.map((lineHeight, i) =>
      b("text", `t${i}`, { text: `${i}`, lineHeight, letterSpacing: LETTER_SPACINGS[i] }),
    );
    const every = await render(all);
    for (const [i, lh] of LINE_HEIGHTS.entries())
      expect(every.html).toContain(`letter-spacing:${LETTER_SPACINGS[i]};line-height:${lh};`);
  });

  test("heading: the level is the real tag, styled", async () => {
    for (const level of HEADING_LEVELS) {
      const { html } = await render([
        b("heading", "h", { text: "Vote early", level, fontSize: 40, color: "#123456", align: "center" }),
      ]);
      expect(html).toContain(
        `<${level} style="margin:0;font-size:40px;line-height:1.5;letter-spacing:0em;color:#123456;font-weight:bold;">Vote early</${level}>`,
      );
      expect(html).toMatch(/text-align:center;color:#123456;/);
    }
  });

  test("header: logo, title, tagline, colours, alignment", async () => {
    const { html, text } = await render([
      b("header", "hd", {
        title: "Rivera for Council",
        tagline: "Ward 3",
        logoUrl: "https://cdn.example.org/logo.png",
        backgroundColor: "#102030",
        textColor: "#fafafa",
        align: "right",
      }),
    ]);
    expectEmailShell(html);
    expect(html).toContain('src="https://cdn.example.org/logo.png"');
    expect(html).toContain('alt="Rivera for Council"');
    expect(html).toMatch(
      /<td align="right" [^>]*><table [^>]*><tbody><tr><td style="width:120px;"><img alt="Rivera for Council" src="https:\/\/cdn.example.org\/logo.png"/,
    );
    expect(html).toContain("background-color:#102030");
    expect(html).toMatch(/text-align:right;color:#fafafa;">Rivera for Council<\/div>/);
    expect(html).toMatch(/color:#fafafa;">Ward 3<\/div>/);
    expect(text).toBe("Rivera for Council\nWard 3\n");
  });

  test("image: address, alt, width, alignment, link; left out without an address", async () => {
    const { html, text } = await render([
      b("image", "i", {
        src: "https://cdn.example.org/a.jpg",
        alt: "Rally",
        width: 300,
        align: "left",
        href: "https://example.org/rally",
      }),
    ]);
    expect(html).toMatch(
      /<td align="left" [^>]*><table [^>]*><tbody><tr><td style="width:300px;"><a href="https:\/\/example.org\/rally" target="_blank"><img alt="Rally" src="https:\/\/cdn.example.org\/a.jpg" [^>]*width="300"/,
    );
    expect(text).toBe("Rally: https://example.org/rally\n");
    const empty = await render([b("image", "i", { src: "", alt: "Nothing" })]);
    expect(empty.html).not.toContain("<img");
  });

  test("button: link, colours, alignment, padding, corners", async () => {
    const { html, text } = await render([
      b("button", "bt", {
        text: "Donate",
        url: "https://example.org/give",
        backgroundColor: "#dc2626",
        textColor: "#fefefe",
        align: "right",
        padding: 14,
        borderRadius: 10,
      }),
    ]);
    expect(html).toMatch(
      /<td align="right" [^>]*><table [^>]*><tbody><tr><td align="center" bgcolor="#dc2626" [^>]*style="border:none;border-radius:10px;cursor:auto;mso-padding-alt:14px 28px;/,
    );
    expect(html).toMatch(
      /<a href="https:\/\/example.org\/give" style="display:inline-block;background:#dc2626;color:#fefefe;[^"]*padding:14px 28px;[^"]*border-radius:10px;" target="_blank"> Donate <\/a>/,
    );
    expect(text).toBe("Donate: https://example.org/give\n");
  });

  test("spacer and divider", async () => {
    const { html, text } = await render([
      b("spacer", "s", { height: 50 }),
      b("divider", "d", { borderColor: "#ff0000", borderWidth: 3, margin: 30 }),
    ]);
    expect(html).toContain('<div style="height:50px;line-height:50px;">');
    expect(html).toContain("border-top:solid 3px #ff0000");
    expect(html).toMatch(/padding:30px 0;/);
    expect(text).toBe("-".repeat(40) + "\n");
  });

  test("columns: 1 to 4 columns, every distribution, gap, stacking on phones", async () => {
    const widths: Record<string, string[]> = {
      equal: ["50"],
      "1-2": ["33-33", "66-67"],
      "2-1": ["66-67", "33-33"],
      "1-3": ["25", "75"],
      "3-1": ["75", "25"],
    };
    for (const distribution of DISTRIBUTIONS) {
      const { html } = await render([
        b("columns", "c", { columns: 2, gap: 0, distribution }, [
          [b("text", "l", { text: "Left" })],
          [b("text", "r", { text: "Right" })],
        ]),
      ]);
      const classes = [...html.matchAll(/class="mj-column-per-([\d-]+) mj-outlook-group-fix"/g)].map((m) => m[1]);
      expect(classes).toEqual(widths[distribution].length === 1 ? ["50", "50"] : widths[distribution]);
      expect(html.indexOf("Left")).toBeLessThan(html.indexOf("Right"));
      expect(html).toContain("@media only screen and (min-width:480px)");
    }
    for (const [n, cls] of [
      [1, "100"],
      [3, "33-33"],
      [4, "25"],
    ] as const) {
      const cols = Array.from({ length: n }, (_, i) => [b("text", `t${i}`, { text: `Col ${i}` })]);
      const { html, text } = await render([b("columns", "c", { columns: n, gap: 0, distribution: "1-3" }, cols)]);
      expect([...html.matchAll(/class="mj-column-per-([\d-]+) mj-outlook-group-fix"/g)].map((m) => m[1])).toEqual(
        Array(n).fill(cls),
      );
      expect(text).toBe(cols.map((_, i) => `Col ${i}`).join("\n\n") + "\n");
    }
    const gap = await render([b("columns", "c", { columns: 2, gap: 20 }, [[b("text", "l")], [b("text", "r")]])]);
    // Outlook's table: 552 px less the gap, halved; elsewhere the same as percentages
    expect(gap.html).toContain('style="vertical-align:top;width:276px;padding:0px 10px 0px 0px;"');
    expect(gap.html).toContain('style="vertical-align:top;width:276px;padding:0px 0px 0px 10px;"');
    expect(gap.html).toMatch(/class="mj-column-per-48-\d+ mj-column-gutter-2-1-per-3-\d+ mj-outlook-group-fix"/);
  });

  test("section: background, padding, corners around its children", async () => {
    const { html } = await render([
      b("section", "sec", { backgroundColor: "#eff6ff", padding: 30, borderRadius: 12 }, [
        b("heading", "h", { text: "Inside" }),
        b("columns", "c", {}, [[b("text", "a")], [b("text", "z")]]),
      ]),
    ]);
    expect(html).toMatch(
      /<div style="background:#eff6ff;background-color:#eff6ff;margin:0px auto;max-width:600px;border-radius:12px;overflow:hidden;">/,
    );
    expect(html).toContain(
      '<td style="border-radius:12px;direction:ltr;font-size:0px;padding:30px;text-align:center;">',
    );
    expect(html).toContain(">Inside</h2>");
    // the children are 600 - 2 × 30 wide
    expect(html).toContain("max-width:540px");
  });

  test("hero: image, colour, height, padding, alignment, overlay, title and subtitle", async () => {
    const hero = {
      heroTitle: "Make your voice heard",
      heroSubtitle: "Early voting\nstarts Monday",
      backgroundImage: "https://cdn.example.org/crowd.jpg",
      backgroundColor: "#1e3a8a",
      textColor: "#fffff0",
      height: 400,
      padding: 50,
      textAlign: "right",
      overlay: true,
      overlayOpacity: 0.6,
    };
    const { html, text } = await render([b("hero", "hero", hero)]);
    expectEmailShell(html);
    const $ = cheerio.load(html);
    const cell = $(".pc-hero-1 > table > tbody > tr > td");
    expect(cell.attr("background")).toBe("https://cdn.example.org/crowd.jpg");
    expect(cell.attr("height")).toBe("300");
    const style = cell.attr("style") ?? "";
    expect(style).toContain(
      "background: #1e3a8a url('https://cdn.example.org/crowd.jpg') no-repeat center center / cover",
    );
    expect(style).toContain(
      "background-image: linear-gradient(rgba(0,0,0,0.6),rgba(0,0,0,0.6)), url('https://cdn.example.org/crowd.jpg')",
    );
    expect(style).toMatch(/padding: 50px 50px;.*vertical-align: middle; height: 300px/);
    expect(html).toContain(
      '<v:image style="border:0;mso-position-horizontal:center;position:absolute;top:0;width:600px;z-index:-3;" src="https://cdn.example.org/crowd.jpg"',
    );
    expect(html).toMatch(
      /text-align:right;color:#fffff0;"><h1 style="margin:0;font-size:36px;line-height:1.2;color:#fffff0;font-weight:bold;">Make your voice heard<\/h1>/,
    );
    // juice (MJML's inliner, run for the overlay) writes <br> for <br />
    expect(html).toContain("Early voting<br>starts Monday");
    expect(text).toBe("Make your voice heard\n\nEarly voting\nstarts Monday\n");

    const plain = await render([b("hero", "hero", { ...hero, overlay: false })]);
    expect(plain.html).not.toContain("linear-gradient");
    const noImage = await render([b("hero", "hero", { ...hero, backgroundImage: "" })]);
    expect(noImage.html).not.toContain("linear-gradient");
    expect(noImage.html).toContain("background:#1e3a8a;");
  });

  test("card: each shadow as a box-shadow with a border fallback", async () => {
    for (const shadow of ["sm", "md", "lg", "xl"]) {
      const { html } = await render([
        b("card", "card", { shadow, backgroundColor: "#fdfdfd", padding: 28, borderRadius: 16 }, [
          b("text", "t", { text: "In the card" }),
        ]),
      ]);
      const div = cheerio.load(html)(`.pc-shadow-${shadow}`);
      expect(div.attr("style")).toMatch(
        /^box-shadow: 0 \d+px .*rgba\(0,0,0,0\.\d+\);.* background-color: #fdfdfd; .*border-radius: 16px;/,
      );
      expect(html).toContain("border:1px solid #e5e7eb;border-radius:16px;");
      expect(html).toContain("padding:28px;");
      expect(html).toContain("In the card");
    }
    const flat = await render([b("card", "card", { shadow: "none" }, [b("text", "t")])]);
    expect(flat.html).not.toContain("box-shadow");
    expect(flat.html).not.toContain("#e5e7eb");
  });

  test("sidebar: width, position, gap, backgrounds", async () => {
    const side = [b("text", "s", { text: "Side" })];
    const main = [b("text", "m", { text: "Main" })];
    const left = await render([
      b(
        "sidebar",
        "sb",
        { sidebarWidth: 30, sidebarPosition: "left", gap: 0, sidebarBackground: "#eeeeee", mainBackground: "#fafafa" },
        [side, main],
      ),
    ]);
    expect(
      [...left.html.matchAll(/class="mj-column-per-(\d+) mj-outlook-group-fix" style="[^"]*"/g)].map((m) => m[1]),
    ).toEqual(["30", "70"]);
    expect(left.html.indexOf("Side")).toBeLessThan(left.html.indexOf("Main"));
    expect(left.html.indexOf("#eeeeee")).toBeLessThan(left.html.indexOf("#fafafa"));
    const right = await render([
      b("sidebar", "sb", { sidebarWidth: 30, sidebarPosition: "right", gap: 24 }, [side, main]),
    ]);
    expect(right.html.indexOf("Main")).toBeLessThan(right.html.indexOf("Side"));
    expect(right.html).toContain("padding:0px 12px 0px 0px;");
    expect(right.text).toBe("Side\n\nMain\n");
  });

  test("container: max width, padding, margin, background", async () => {
    const { html } = await render([
      b("container", "box", { maxWidth: 400, padding: 32, margin: 20, backgroundColor: "#fff7ed" }, [
        b("text", "t", { text: "Boxed" }),
      ]),
    ]);
    expect(html).toContain("padding:20px 100px;text-align:center;");
    expect(html).toMatch(/<div style="background:#fff7ed;background-color:#fff7ed;margin:0px auto;max-width:400px;">/);
    expect(html).toContain("padding:32px 32px 32px;");
    expect(html).toContain("Boxed");
    // the margin wins over a max width the email cannot give
    const wide = await render([b("container", "box", { maxWidth: 600, margin: 40 }, [])]);
    expect(wide.html).toContain("padding:40px 40px;text-align:center;");
    expect(wide.html).toContain("max-width:520px");
  });

  test("footer: company, year, address, unsubscribe, privacy and contact links, colours, padding", async () => {
    const footer = {
      companyName: "Rivera for Council",
      copyrightYear: 2025,
      address: "1 Civic Plaza, Springfield",
      privacyUrl: "https://example.org/privacy",
      contactUrl: "mailto:team@example.org",
      backgroundColor: "#111111",
      textColor: "#cccccc",
      linkColor: "#00ff00",
      padding: 36,
    };
    const { html, text } = await render([b("footer", "f", footer)]);
    expect(html).toContain("background-color:#111111");
    expect(html).toContain("padding:36px 24px 36px;");
    expect(html).toMatch(
      /color:#cccccc;">&copy; 2025 Rivera for Council<br \/>1 Civic Plaza, Springfield<br \/><a href="\{\{unsubscribe_url\}\}" style="color:#00ff00;text-decoration:underline;">Unsubscribe<\/a>/,
    );
    expect(html).toContain(
      '<a href="https://example.org/privacy" style="color:#00ff00;text-decoration:underline;">Privacy Policy</a>',
    );
    expect(html).toContain(
      '<a href="mailto:team@example.org" style="color:#00ff00;text-decoration:underline;">Contact Us</a>',
    );
    expect(text).toBe(
      "© 2025 Rivera for Council\n1 Civic Plaza, Springfield\nUnsubscribe: {{unsubscribe_url}}\nPrivacy Policy: https://example.org/privacy\nContact Us: mailto:team@example.org\n",
    );
    const bare = await render([
      b("footer", "f", { ...footer, showUnsubscribe: false, showPrivacy: false, showContact: true, contactUrl: "" }),
    ]);
    expect(bare.html).not.toContain("<a ");
    expect(bare.text).not.toContain("Unsubscribe");
  });

  test("the plain-text part: reading order, containers and columns included, no HTML", () => {
    const doc = [
      b("header", "hd", { title: "Rivera <for> Council", tagline: "" }),
      b("section", "s", {}, [
        b("heading", "h", { text: "News & notes" }),
        b("columns", "c", { columns: 2 }, [
          [b("text", "l", { text: "Left" })],
          [b("button", "bt", { text: "Go", url: "" })],
        ]),
      ]),
      b("card", "card", {}, [
        b("image", "i", { src: "https://x.org/a.png", alt: "" }),
        b("spacer", "sp"),
        b("text", "t", { text: "  Card text  " }),
      ]),
      b("footer", "f", { companyName: "", address: "", showPrivacy: false, showContact: false }),
    ];
    expect(blocksToText(doc)).toBe(
      "Rivera <for> Council\n\nNews & notes\n\nLeft\n\nGo\n\nCard text\n\n© 2026\nUnsubscribe: {{unsubscribe_url}}\n",
    );
  });

  test("title, preview text and the MJML document", async () => {
    const blocks = [b("text", "t", { text: "Hi" })];
    const source = blocksToMjml(blocks, { title: "News & views", previewText: "This month <b>" });
    expect(source).toMatch(
      /^<mjml lang="en" dir="ltr"><mj-head><mj-attributes><mj-all font-family="Helvetica, Arial, sans-serif" \/><\/mj-attributes>/,
    );
    expect(source).toContain('<mj-body width="600px" background-color="#f3f4f6">');
    const { html } = await render(blocks, { title: "News & views", previewText: "This month <b>" });
    expect(html).toContain("<title>News &amp; views</title>");
    expect(html).toContain(">This month &lt;b&gt;</div>");
  });
});

// ----- hostile input -----

const HOSTILE = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "</style><script>alert(1)</script>",
  'O\'Brien "quoted" & co',
];

/** One of every block type (containers with children), each text, link and colour property set to `value`. */
function hostileDocument(value: string): EmailBlock[] {
  let n = 0;
  const make = (type: BlockType, kids?: EmailBlock[] | EmailBlock[][]) => {
    // every property but the switches (numbers too: the renderer must not take a string for one)
    const content: Record<string, BlockValue> = {};
    for (const [key, spec] of Object.entries(BLOCK_PROPS[type])) if (spec.kind !== "boolean") content[key] = value;
    return b(type, `${type}-${n++}`, content, kids);
  };
  const leaves = () => (["text", "heading", "image", "button", "spacer", "divider"] as const).map((t) => make(t));
  return [
    make("header"),
    make("hero"),
    ...leaves(),
    make("columns", [leaves(), leaves()]),
    make("sidebar", [leaves(), leaves()]),
    make("section", [...leaves(), make("columns", [leaves(), leaves()])]),
    make("card", leaves()),
    make("container", [...leaves(), make("sidebar", [leaves(), leaves()])]),
    make("footer"),
    // an image that is shown, for its alt text
    b("image", "shown", { src: "https://cdn.example.org/a.png", alt: value, href: value }),
  ];
}

const URL_ATTRIBUTES = new Set(["href", "src", "background", "srcset", "action", "formaction", "poster"]);

/**
 * No script element, no event-handler attribute, no javascript: address (links, images, CSS
 * backgrounds), no tag or style broken open. The payloads' words may be visible as text.
 */
function expectInert(html: string) {
  expect(html).not.toMatch(/<script|<img src=x|<\/style><script/i);
  const $ = cheerio.load(html);
  expect($("script").length).toBe(0);
  $("*").each((_, el) => {
    for (const [name, value] of Object.entries((el as unknown as { attribs: Record<string, string> }).attribs)) {
      expect(name.toLowerCase().startsWith("on"), `attribute ${name}`).toBe(false);
      if (URL_ATTRIBUTES.has(name.toLowerCase()))
        expect(value).toMatch(/^(https:\/\/|mailto:|\{\{unsubscribe_url\}\}$)/);
      if (name === "style") expect(value.toLowerCase()).not.toMatch(/javascript:|expression\(|url\((?!'https:\/\/)/);
    }
  });
  $("style").each((_, el) => expect($(el).text()).not.toMatch(/[<>]/));
}

describe("hostile values in every property of every block type", () => {
  test.each(HOSTILE)("%s", async (value) => {
    const doc = hostileDocument(value);
    expect(new Set(doc.map((x) => x.type))).toEqual(new Set(BLOCK_TYPES));
    const { html, text } = await render(doc, { title: value, previewText: value });
    expectInert(html);
    expect(text).toContain(value);
    // read back by an HTML parser, text and attributes hold exactly what was typed
    const $ = cheerio.load(html);
    expect($("title").text()).toBe(value);
    expect($('[role="article"]').attr("aria-label")).toBe(value);
    expect($("h1").first().text()).toBe(value);
    expect($("h2").first().text()).toBe(value);
    expect($('img[src="https://cdn.example.org/a.png"]').attr("alt")).toBe(value);
    expect($("a").last().text()).toBe(value);
    const escaped = escapeHtml(value);
    // visible, escaped, in the text blocks, headings, buttons, header, hero, footer and as alt text
    const count = html.split(escaped).length - 1;
    expect(count).toBeGreaterThan(40);
    // colours, choices and numbers fell back to their defaults
    expect(html).toContain("color:#333333");
    expect(html).toContain('<h2 style="margin:0;font-size:28px;');
    expect(html).toContain("height:24px");
  });

  test("out-of-bounds numbers are clamped, bad colours and choices defaulted", async () => {
    const { html } = await render([
      b("text", "t", {
        text: "x",
        fontSize: 1000,
        color: "red;background:url(x)",
        align: "middle",
        lineHeight: 99,
        letterSpacing: "1in",
      }),
      b("heading", "h", { text: "y", level: "h9", fontSize: -4 }),
      b("image", "i", { src: "https://example.org/a.png", width: 5000 }),
      b("spacer", "s", { height: 1e9 }),
      b("button", "bt", { padding: "40; color: red", borderRadius: Infinity }),
      b("columns", "c", { columns: 9, gap: -10, distribution: "9-1" }, [[], [], [], [], [], []]),
      b("hero", "hero", { height: 5, padding: 500, overlayOpacity: 7, backgroundImage: "https://example.org/b.jpg" }),
    ]);
    expect(html).toMatch(/font-size:48px;letter-spacing:0em;line-height:1\.5;text-align:left;color:#333333;">x</);
    expect(html).toContain('<h2 style="margin:0;font-size:12px;');
    expect(html).toContain('width="552"');
    expect(html).toContain("height:200px");
    expect(html).toContain("padding:12px 24px;");
    expect(html).toContain("border-radius:6px;");
    expect([...html.matchAll(/mj-column-per-25 mj-outlook-group-fix/g)]).toHaveLength(4);
    expect(html).toContain("rgba(0,0,0,1)");
    // height 120 at least; the padding cannot exceed half of it
    expect(html).toMatch(/padding: 60px 80px;.*height: 0px;/);
  });

  test("an address cannot close its CSS url( ) and add a background of its own", async () => {
    const sneaky = "https://example.org/a.jpg),url(https://evil.example/x.jpg";
    const { html } = await render([
      b("hero", "hero", { backgroundImage: sneaky }),
      b("image", "i", { src: sneaky, href: sneaky }),
    ]);
    expect(html).not.toContain("url(https://evil");
    expect(html).toContain("url('https://example.org/a.jpg%29,url%28https://evil.example/x.jpg')");
    expect(html).toContain('src="https://example.org/a.jpg%29,url%28https://evil.example/x.jpg"');
  });

  test("a document that cannot be repaired is refused", async () => {
    await expect(renderEmail([{ id: "x", type: "script", content: {} }], mjml)).rejects.toThrow(/Unknown block type/);
    await expect(renderEmail([b("text", "a"), b("text", "a")], mjml)).rejects.toThrow(/appears twice/);
    await expect(renderEmail([b("section", "s", {}, [b("hero", "h")])], mjml)).rejects.toThrow(/cannot go there/);
  });
});

describe("merge variables", () => {
  test("pass through MJML intact in text, links, images and the hero background", async () => {
    const doc = [
      b("hero", "hero", { heroTitle: "Hi {{voter.first_name}}", backgroundImage: "{{user.website}}" }),
      b("text", "t", { text: "Dear {{ voter.first_name }}, welcome to {{user.campaign_name}}." }),
      b("button", "bt", { text: "Open", url: "https://example.org/?email={{voter.email}}&src=mail" }),
      b("image", "i", { src: "{{user.website}}", alt: "{{user.name}}", href: "{{user.website}}" }),
      b("footer", "f"),
    ];
    const { html, text } = await render(doc, { title: "For {{voter.first_name}}" });
    expect(html).toContain("<title>For {{voter.first_name}}</title>");
    expect(html).toContain(">Hi {{voter.first_name}}</h1>");
    expect(html).toContain("url('{{user.website}}')");
    expect(html).toContain("Dear {{ voter.first_name }}, welcome to {{user.campaign_name}}.");
    expect(html).toContain('href="https://example.org/?email={{voter.email}}&amp;src=mail"');
    expect(html).toContain('<img alt="{{user.name}}" src="{{user.website}}"');
    expect(html).toContain('href="{{unsubscribe_url}}"');
    expect(text).toContain("Dear {{ voter.first_name }}, welcome to {{user.campaign_name}}.");
    expect(text).toContain("Open: https://example.org/?email={{voter.email}}&src=mail");
    expect(text).toContain("Unsubscribe: {{unsubscribe_url}}");
  });
});

describe("the browser build of MJML", () => {
  test("compiles the same document to the same HTML", async () => {
    const doc = hostileDocument("Vote {{voter.first_name}} & friends");
    const source = blocksToMjml(doc, { title: "Same" });
    const options = { validationLevel: "soft", fonts: {}, minify: false, beautify: false };
    const [node, browser] = await Promise.all([mjml(source, options), mjmlBrowser(source, options)]);
    expect(browser.errors).toEqual([]);
    expect(browser.html).toBe(node.html);
  });
});

describe("size", () => {
  test("the meter's thresholds", () => {
    expect(sizeLevel(0)).toBe("ok");
    expect(sizeLevel(90 * 1024 - 1)).toBe("ok");
    expect(sizeLevel(90 * 1024)).toBe("warn");
    expect(sizeLevel(102 * 1024)).toBe("warn");
    expect(sizeLevel(102 * 1024 + 1)).toBe("over");
    expect(EMAIL_WARN_BYTES).toBe(92_160);
    expect(EMAIL_MAX_BYTES).toBe(104_448);
    expect(formatBytes(12.34 * 1024)).toBe("12.3 KB");
  });

  test("bytes counts UTF-8", async () => {
    const { html, bytes } = await renderEmail([b("text", "t", { text: "Grüße – ✓" })], mjml);
    expect(bytes).toBe(Buffer.byteLength(html, "utf8"));
    expect(bytes).toBeGreaterThan(html.length);
  });

  test("a document of 300 blocks compiles in reasonable time", async () => {
    const doc: EmailBlock[] = [];
    for (let i = 0; i < 60; i++) {
      doc.push(
        b("section", `s${i}`, {}, [
          b("heading", `h${i}`, { text: `Story ${i}` }),
          b("text", `t${i}`, { text: "Lorem ipsum dolor sit amet. ".repeat(8) }),
          b("button", `b${i}`, { url: "https://example.org" }),
        ]),
      );
      doc.push(b("divider", `d${i}`));
    }
    const started = performance.now();
    const { bytes } = await render(doc);
    const ms = performance.now() - started;
    console.info(`300 blocks: ${formatBytes(bytes)} in ${Math.round(ms)} ms`);
    expect(sizeLevel(bytes)).toBe("over");
    expect(ms).toBeLessThan(15_000);
  });
});
