/**
 * Personalisation (convex/lib/email/merge.ts): finding variables, flagging unknown ones,
 * substituting them as text or into rendered HTML — escaped, and checked where a value would
 * become a link — and building a recipient's values.
 */
import { createRequire } from "node:module";
import * as cheerio from "cheerio";
import { describe, expect, test } from "vitest";
import { newBlock, type BlockType, type EmailBlock } from "@convex/lib/email/blocks";
import {
  documentTexts,
  emptyLinks,
  findVariables,
  formatAddress,
  KNOWN_VARIABLES,
  mergeValues,
  previewValues,
  SAMPLE_VALUES,
  substitute,
  unknownVariables,
  VARIABLE_LABELS,
  type MergeVariable,
} from "@convex/lib/email/merge";
import { renderEmail, type MjmlCompiler } from "@convex/lib/email/render";

const require = createRequire(import.meta.url);
const mjml = require("mjml") as MjmlCompiler;

function b(type: BlockType, id: string, content: Record<string, unknown> = {}, children?: EmailBlock[]): EmailBlock {
  const block = newBlock(type, id, new Date(2026, 0, 1));
  Object.assign(block.content, content);
  if (children) block.content.children = children;
  return block;
}

const values = (extra: Partial<Record<MergeVariable, string>>) => ({ ...SAMPLE_VALUES, ...extra });

describe("variables", () => {
  test("the spec's voter, campaign and system variables, each with a label and a sample value", () => {
    expect(KNOWN_VARIABLES).toEqual([
      "voter.first_name",
      "voter.last_name",
      "voter.email",
      "voter.phone",
      "voter.address",
      "voter.precinct",
      "voter.party_affiliation",
      "voter.status",
      "user.campaign_name",
      "user.name",
      "user.first_name",
      "user.last_name",
      "user.district",
      "user.office",
      "user.party",
      "user.website",
      "user.email",
      "unsubscribe_url",
    ]);
    for (const name of KNOWN_VARIABLES) {
      expect(VARIABLE_LABELS[name]).toMatch(/^[A-Z]/);
      expect(SAMPLE_VALUES[name]).not.toBe("");
    }
    expect(SAMPLE_VALUES["voter.first_name"]).toBe("Jane");
    expect(SAMPLE_VALUES["voter.last_name"]).toBe("Doe");
  });

  test("findVariables: distinct names in order, spaces inside the braces allowed", () => {
    expect(
      findVariables(
        "Hi {{voter.first_name}}, {{ voter.first_name }} of {{user.campaign_name}}! {{  unsubscribe_url }}",
      ),
    ).toEqual(["voter.first_name", "user.campaign_name", "unsubscribe_url"]);
    expect(findVariables("no variables { here } {single}")).toEqual([]);
  });

  test("unknownVariables flags misspelt, differently cased and empty variables", () => {
    expect(
      unknownVariables([
        "Hi {{voter.first_name}}",
        "{{voter.nickname}} {{ Voter.First_Name }}",
        "{{}} and {{voter.nickname}}",
      ]),
    ).toEqual(["voter.nickname", "Voter.First_Name", ""]);
    expect(unknownVariables(KNOWN_VARIABLES.map((v) => `{{${v}}}`))).toEqual([]);
  });

  test("documentTexts: every string property of every block, nested ones too, and the extra texts", () => {
    const doc = [
      b("header", "h", { title: "{{user.campaign_name}}" }),
      b("section", "s", {}, [
        b("text", "t", { text: "Hi {{voter.nickname}}" }),
        b("button", "bt", { url: "https://x.org/?e={{voter.email}}" }),
      ]),
    ];
    const texts = documentTexts(doc, ["Subject {{voter.first_name}}"]);
    expect(texts[0]).toBe("Subject {{voter.first_name}}");
    expect(texts).toContain("{{user.campaign_name}}");
    expect(texts).toContain("Hi {{voter.nickname}}");
    expect(texts).toContain("https://x.org/?e={{voter.email}}");
    expect(unknownVariables(texts)).toEqual(["voter.nickname"]);
  });
});

describe("substitute", () => {
  test("text mode: values as they are, missing values and unknown variables become empty", () => {
    const v = { "voter.first_name": "Jane <b>", "user.campaign_name": "Rivera & Co" };
    expect(
      substitute(
        "Hi {{ voter.first_name }} from {{user.campaign_name}}{{voter.last_name}}{{voter.nickname}}!",
        v,
        "text",
      ),
    ).toBe("Hi Jane <b> from Rivera & Co!");
  });

  test("html mode: hostile voter values are escaped in text and attributes", () => {
    const hostile = "<script>alert(1)</script>\"><img src=x onerror=alert(1)>'";
    const html = substitute(
      '<p title="{{voter.first_name}}">Dear {{voter.first_name}}</p>',
      values({ "voter.first_name": hostile }),
      "html",
    );
    expect(html).not.toMatch(/<script|<img/);
    const $ = cheerio.load(html);
    expect($("p").text()).toBe(`Dear ${hostile}`);
    expect($("p").attr("title")).toBe(hostile);
  });

  test("html mode: a value opening a link must be a safe address", () => {
    const tpl =
      '<a href="{{unsubscribe_url}}">Unsubscribe</a><a href=\'{{user.website}}\'>Site</a><td background="{{user.website}}" style="background:url(\'{{user.website}}\')">';
    for (const bad of [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "data:text/html,<script>",
      "{{voter.email}}",
      "//evil.example",
      'https://x.org/"onmouseover="alert(1)',
    ]) {
      const html = substitute(tpl, values({ unsubscribe_url: bad, "user.website": bad }), "html");
      expect(html).toBe(
        '<a href="">Unsubscribe</a><a href=\'\'>Site</a><td background="" style="background:url(\'\')">',
      );
    }
    const ok = substitute(
      tpl,
      values({ unsubscribe_url: "https://app.example.org/u/abc?t=1&x=2", "user.website": "https://example.org/a(b)" }),
      "html",
    );
    expect(ok).toBe(
      '<a href="https://app.example.org/u/abc?t=1&amp;x=2">Unsubscribe</a><a href=\'https://example.org/a%28b%29\'>Site</a><td background="https://example.org/a%28b%29" style="background:url(\'https://example.org/a%28b%29\')">',
    );
  });

  test("html mode: a value inside an address is one encoded component", () => {
    const tpl =
      '<a href="https://x.org/?name={{voter.first_name}}&amp;e={{ voter.email }}">Go</a><a href="mailto:{{user.email}}">Mail</a>';
    const html = substitute(
      tpl,
      values({ "voter.first_name": 'Jane "J" <x>&y=1\'()', "voter.email": "jane@example.com" }),
      "html",
    );
    expect(html).toBe(
      '<a href="https://x.org/?name=Jane%20%22J%22%20%3Cx%3E%26y%3D1%27%28%29&amp;e=jane@example.com">Go</a><a href="mailto:team@example.org">Mail</a>',
    );
  });

  test("text that only mentions href= or url( stays text", () => {
    const html = substitute(
      "<p>href=&quot;{{voter.first_name}} href={{voter.first_name}} url({{voter.first_name}})</p>",
      values({ "voter.first_name": "Jane Doe" }),
      "html",
    );
    expect(html).toBe("<p>href=&quot;Jane Doe href=Jane Doe url(Jane Doe)</p>");
  });

  test("one pass: a value that looks like a variable is not filled in again", () => {
    expect(substitute("Hi {{voter.first_name}}", values({ "voter.first_name": "{{user.email}}" }), "text")).toBe(
      "Hi {{user.email}}",
    );
  });

  test("a rendered email: every variable filled, nothing else touched", async () => {
    const doc = [
      b("hero", "hero", { heroTitle: "Hi {{voter.first_name}}", backgroundImage: "{{user.website}}" }),
      b("text", "t", { text: "From {{user.campaign_name}} {{voter.nickname}}" }),
      b("button", "bt", { url: "https://example.org/?e={{voter.email}}" }),
      b("card", "c", { shadow: "lg" }, [b("text", "ct", { text: "In {{voter.precinct}}" })]),
      b("footer", "f"),
    ];
    const { html, text } = await renderEmail(doc, mjml, { title: "For {{voter.first_name}}" });
    const v = values({ unsubscribe_url: "https://app.example.org/unsubscribe/xyz" });
    const out = substitute(html, v, "html");
    expect(findVariables(out)).toEqual([]);
    // only the variables changed: the rest of the document is byte for byte the same
    expect(
      out.replace(
        /Jane|Friends of Alex Rivera|Precinct 12|https:\/\/example\.org|jane\.doe@example\.com|https:\/\/app\.example\.org\/unsubscribe\/xyz/g,
        "",
      ),
    ).toBe(html.replace(/\{\{[^{}]*\}\}/g, "").replace(/https:\/\/example\.org/g, ""));
    const $ = cheerio.load(out);
    expect($("title").text()).toBe("For Jane");
    expect($("h1").text()).toBe("Hi Jane");
    expect($('a[href="https://app.example.org/unsubscribe/xyz"]').text()).toBe("Unsubscribe");
    expect($('a[href="https://example.org/?e=jane.doe@example.com"]').length).toBe(1);
    expect(out).toContain("url('https://example.org')");
    expect(out).toContain("From Friends of Alex Rivera </div>");
    const plain = substitute(text, v, "text");
    expect(plain).toContain("Hi Jane");
    expect(plain).toContain("Unsubscribe: https://app.example.org/unsubscribe/xyz");
    expect(plain).not.toContain("{{");
  });
});

describe("mergeValues", () => {
  test("a voter, the sending campaign and the unsubscribe link", () => {
    const v = mergeValues(
      {
        first_name: " Ana ",
        last_name: "Lopez",
        email: "ana@example.com",
        phone: null,
        address: "12 Oak St",
        city: "Springfield",
        state: "IL",
        zip: "62701",
        precinct: "P-4",
        party_affiliation: "Green Party",
        status: "Active",
      },
      {
        campaign_name: "Rivera 2026",
        first_name: "Alex",
        last_name: "Rivera",
        website: "https://rivera.example",
        email: "team@rivera.example",
      },
      { unsubscribe_url: "https://app.example.org/u/1" },
    );
    expect(v).toEqual({
      "voter.first_name": "Ana",
      "voter.last_name": "Lopez",
      "voter.email": "ana@example.com",
      "voter.phone": "",
      "voter.address": "12 Oak St, Springfield, IL 62701",
      "voter.precinct": "P-4",
      "voter.party_affiliation": "Green Party",
      "voter.status": "Active",
      "user.campaign_name": "Rivera 2026",
      "user.name": "Alex Rivera",
      "user.first_name": "Alex",
      "user.last_name": "Rivera",
      "user.district": "",
      "user.office": "",
      "user.party": "",
      "user.website": "https://rivera.example",
      "user.email": "team@rivera.example",
      unsubscribe_url: "https://app.example.org/u/1",
    });
  });

  test("addresses joined sensibly", () => {
    expect(formatAddress({ street: "12 Oak St", city: "Springfield", zip: "62701" })).toBe(
      "12 Oak St, Springfield, 62701",
    );
    expect(
      formatAddress({ address: "12 Oak St, Springfield, IL 62701", city: "Springfield", state: "IL", zip: "62701" }),
    ).toBe("12 Oak St, Springfield, IL 62701");
    expect(formatAddress({ city: "Springfield", state: "IL" })).toBe("Springfield, IL");
    expect(formatAddress({ address: "  ", street: undefined })).toBe("");
  });
});

describe("links whose address is an empty sender value", () => {
  const design = [
    b("button", "rsvp", { text: "RSVP Now", url: "{{user.website}}" }),
    b("button", "inside", { text: "More", url: "https://example.org/?from={{user.website}}" }),
    b("button", "voter", { text: "Mine", url: "{{voter.email}}" }),
    b("image", "img", { src: "https://example.org/a.png", alt: "Rally", href: "{{ user.website }}" }),
    b("footer", "ft", {
      showContact: true,
      contactText: "Write to us",
      contactUrl: "{{user.email}}",
      showPrivacy: false,
      privacyUrl: "{{user.website}}",
    }),
  ];
  test("are named by their labels; a value inside an address or a voter's value is not judged; hidden footer links neither", () => {
    expect(emptyLinks(design, { website: "", email: "team@example.org" })).toEqual([
      "RSVP Now",
      "the link of image “Rally”",
      "Write to us",
    ]);
    expect(emptyLinks(design, { website: "https://jane.example.org", email: "team@example.org" })).toEqual([
      "Write to us",
    ]);
    expect(emptyLinks(design, { website: "javascript:alert(1)" })).toContain("RSVP Now");
  });
  test("the preview fills in the sender's real values, empty ones empty: recipients' href=\"\" shows, not example.org", async () => {
    const rendered = await renderEmail([design[0]], mjml);
    const withSample = substitute(rendered.html, previewValues(undefined), "html");
    expect(cheerio.load(withSample)("a").first().attr("href")).toBe("https://example.org");
    const real = previewValues({ website: "", name: "Jane Doe", campaign_name: "Jane for Council" });
    expect(real["user.website"]).toBe("");
    expect(real["user.campaign_name"]).toBe("Jane for Council");
    expect(real["voter.first_name"]).toBe(SAMPLE_VALUES["voter.first_name"]);
    const $ = cheerio.load(substitute(rendered.html, real, "html"));
    expect($("a").first().attr("href") ?? "").toBe("");
  });
});
