/**
 * The built-in CTA templates (convex/lib/cta/templates.ts, spec/3 §3.3, §5): the 25 names in the
 * spec's order; each design exactly as `normalizeDesign` leaves it; every element within the
 * canvas where `clampPosition` keeps it; text readable against what lies under it (WCAG contrast:
 * 4.5:1, or 3:1 for large text), boxes large enough for one line of their text and not
 * overlapping each other; unique ids; no images; only safe links, and buttons whose label and
 * shape go to the same place.
 */
import { describe, expect, test } from "vitest";
import {
  BOUNDS,
  clampPosition,
  isSafeLink,
  normalizeDesign,
  TEMPLATE_CATEGORIES,
  type CtaDesign,
  type CtaElement,
} from "@convex/lib/cta/design";
import { BUILT_IN_CTA_TEMPLATES } from "@convex/lib/cta/templates";

const NAMES = [
  "Button",
  "Card",
  "Banner",
  "Newsletter",
  "Social",
  "App",
  "Event",
  "Contact",
  "Trial",
  "Webinar",
  "Promotion",
  "Demo",
  "Survey",
  "Launch",
  "Quote",
  "Membership",
  "Information",
  "Consultation",
  "Education",
  "Download",
  "Support",
  "Feedback",
  "Appointment",
  "Resources",
  "Partnership",
];

// ---- contrast (WCAG 2.x relative luminance) ----
function luminance(hex: string): number {
  const h =
    hex.length === 4
      ? hex
          .slice(1)
          .split("")
          .map((c) => c + c)
          .join("")
      : hex.slice(1);
  const [r, g, b] = [0, 2, 4]
    .map((i) => parseInt(h.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** WCAG large text: 18 pt (24 px), or 14 pt (≈ 18.66 px) bold. */
const isLarge = (e: CtaElement) => e.fontSize! >= 24 || (e.fontWeight === "bold" && e.fontSize! >= 19);
/** Approximate rendered width of a line (average glyph ≈ 0.55 em, a little wider in bold). */
const textWidth = (e: CtaElement) => [...e.text!].length * e.fontSize! * (e.fontWeight === "bold" ? 0.6 : 0.55);

function contains(e: CtaElement, px: number, py: number): boolean {
  if (e.type === "circle") {
    const rx = e.width / 2,
      ry = e.height / 2;
    return ((px - e.x - rx) / rx) ** 2 + ((py - e.y - ry) / ry) ** 2 <= 1;
  }
  return px >= e.x && px <= e.x + e.width && py >= e.y && py <= e.y + e.height;
}

/** The colour behind a point under element `index`: the topmost filled shape there, else the canvas. */
function colourUnder(design: CtaDesign, index: number, px: number, py: number): string {
  for (let i = index - 1; i >= 0; i--) {
    const e = design.elements[i];
    if ((e.type === "rectangle" || e.type === "circle") && e.fill !== "transparent" && contains(e, px, py))
      return e.fill;
  }
  return design.backgroundColor;
}

/** Points along the middle of where a text's glyphs are drawn (its alignment within the box). */
function samplePoints(e: CtaElement): Array<[number, number]> {
  const w = Math.min(textWidth(e), e.width);
  const left = e.textAlign === "center" ? e.x + (e.width - w) / 2 : e.textAlign === "right" ? e.x + e.width - w : e.x;
  const y = e.y + e.height / 2;
  return [0.02, 0.25, 0.5, 0.75, 0.98].map((f) => [left + f * w, y]);
}

const overlap = (a: CtaElement, b: CtaElement) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe("built-in CTA templates (spec/3 §3.3)", () => {
  test("exactly the spec's 25 names, in order, with ids, categories and descriptions", () => {
    expect(BUILT_IN_CTA_TEMPLATES.map((t) => t.name)).toEqual(NAMES);
    for (const t of BUILT_IN_CTA_TEMPLATES) {
      expect(t.id).toBe(`builtin:${t.name.toLowerCase()}`);
      expect(TEMPLATE_CATEGORIES).toContain(t.category);
      expect(t.design.name).toBe(t.name);
      expect(t.design.description.length).toBeGreaterThan(10);
      expect(t.design.elements.length).toBeGreaterThan(0);
    }
    expect(new Set(BUILT_IN_CTA_TEMPLATES.map((t) => t.id)).size).toBe(25);
  });

  test("the contrast helper (WCAG): black on white 21:1; white on the indigo background just under 4.5:1", () => {
    expect(contrast("#000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#ffffff", "#6366f1")).toBeGreaterThan(4.4);
    expect(contrast("#ffffff", "#6366f1")).toBeLessThan(4.5);
  });

  describe.each(BUILT_IN_CTA_TEMPLATES.map((t) => [t.name, t] as const))("%s", (_name, t) => {
    const d = t.design;

    test("is a design exactly as normalizeDesign stores it", () => {
      expect(normalizeDesign(structuredClone(d))).toStrictEqual(d);
      expect(d.width).toBeGreaterThanOrEqual(BOUNDS.width.min);
      expect(d.width).toBeLessThanOrEqual(BOUNDS.width.max);
      expect(d.height).toBeGreaterThanOrEqual(BOUNDS.height.min);
      expect(d.height).toBeLessThanOrEqual(BOUNDS.height.max);
    });

    test("unique ids, no images", () => {
      expect(new Set(d.elements.map((e) => e.id)).size).toBe(d.elements.length);
      expect(d.elements.filter((e) => e.type === "image")).toEqual([]);
    });

    test("every element within the canvas, where clampPosition keeps it", () => {
      for (const e of d.elements) {
        const where = `${e.id} at ${e.x},${e.y} ${e.width}×${e.height}`;
        expect(e.x >= 0 && e.y >= 0 && e.x + e.width <= d.width && e.y + e.height <= d.height, where).toBe(true);
        expect(clampPosition(e.x, e.y, d), where).toEqual({ x: e.x, y: e.y });
      }
    });

    test("text boxes hold their text on one line and do not overlap", () => {
      const texts = d.elements.filter((e) => e.type === "text");
      for (const e of texts) {
        expect(e.text!.trim(), e.id).not.toBe("");
        expect(e.text, e.id).not.toMatch(/\n/);
        expect(e.width, `${e.id} "${e.text}" is ~${Math.ceil(textWidth(e))} px wide`).toBeGreaterThanOrEqual(
          textWidth(e),
        );
        expect(e.height, e.id).toBeGreaterThanOrEqual(e.fontSize! * 1.25);
      }
      for (const [i, a] of texts.entries())
        for (const b of texts.slice(i + 1)) expect(overlap(a, b), `${a.id} overlaps ${b.id}`).toBe(false);
    });

    test("text is readable against what lies under it", () => {
      d.elements.forEach((e, i) => {
        if (e.type !== "text") return;
        const min = isLarge(e) ? 3 : 4.5;
        for (const [px, py] of samplePoints(e)) {
          const under = colourUnder(d, i, px, py);
          expect(under, `${e.id} sits on a transparent canvas`).not.toBe("transparent");
          const ratio = contrast(e.color!, under);
          expect(
            ratio,
            `${e.id} ${e.color} on ${under} at ${Math.round(px)},${Math.round(py)}: ${ratio.toFixed(2)}`,
          ).toBeGreaterThanOrEqual(min);
        }
      });
    });

    test("links are safe; a button's label goes where its shape goes", () => {
      const linked = d.elements.filter((e) => e.link);
      expect(linked.length).toBeGreaterThan(0);
      for (const e of linked) expect(isSafeLink(e.link), `${e.id}: ${e.link}`).toBe(true);
      d.elements.forEach((e, i) => {
        if (e.type !== "text" || !e.link) return;
        const cx = e.x + e.width / 2,
          cy = e.y + e.height / 2;
        const shape = d.elements
          .slice(0, i)
          .reverse()
          .find((s) => s.type !== "text" && s.fill !== "transparent" && contains(s, cx, cy));
        if (shape?.link) expect(shape.link, `${e.id} on ${shape.id}`).toBe(e.link);
      });
      // a button: `<id>-bg`, a rounded linked rectangle, under its centred label `<id>-label`
      for (const label of d.elements.filter((e) => e.id.endsWith("-label") && e.type === "text")) {
        const bg = d.elements.find((e) => e.id === label.id.replace(/-label$/, "-bg"));
        if (!bg) continue;
        expect(bg.type, bg.id).toBe("rectangle");
        expect(bg.borderRadius, bg.id).toBeGreaterThan(0);
        expect(bg.link, bg.id).not.toBe("");
        expect(label.link, label.id).toBe(bg.link);
        expect(label.textAlign, label.id).toBe("center");
        expect([label.x, label.width], label.id).toEqual([bg.x, bg.width]);
        expect(Math.abs(label.y + label.height / 2 - (bg.y + bg.height / 2)), label.id).toBeLessThanOrEqual(1);
      }
    });
  });
});
