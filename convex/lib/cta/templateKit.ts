/**
 * The kit the built-in CTA templates (templates.ts) are drawn with: the palette, the site they
 * link to, and builders for shapes, text, buttons, discs and bullets; `template` sets each
 * element's zIndex from its place in the list (back to front).
 */
import type { CtaDesign, CtaElement, TemplateCategory } from "./design";

export type BuiltInCtaTemplate = { id: string; name: string; category: TemplateCategory; design: CtaDesign };

export const SITE = "https://example.org";

// A few harmonious colours; text keeps WCAG contrast with its background (4.5:1, 3:1 for large text).
export const WHITE = "#ffffff";
export const INK = "#111827";
export const SLATE = "#475569";
export const LINE = "#cbd5e1";
export const NAVY = "#1e3a8a";
export const RED = "#dc2626";
export const DEEP_RED = "#b91c1c";
export const INDIGO = "#4f46e5";
export const INDIGO_DARK = "#3730a3";
export const INDIGO_LIGHT = "#e0e7ff";
export const GREEN = "#047857";
export const GREEN_DARK = "#065f46";
export const GREEN_LIGHT = "#d1fae5";
export const AMBER = "#f59e0b";
export const AMBER_LIGHT = "#fef3c7";
export const YELLOW = "#facc15";
export const BLUE = "#2563eb";
export const BLUE_LIGHT = "#dbeafe";
export const VIOLET = "#6d28d9";
export const VIOLET_LIGHT = "#ede9fe";

export type Shape = { radius?: number; shadow?: CtaElement["shadow"]; link?: string };
export type TextStyle = {
  size?: number;
  color?: string;
  bold?: boolean;
  align?: CtaElement["textAlign"];
  font?: CtaElement["fontFamily"];
  link?: string;
};

/** zIndex is set by `template` from the element's place in the list. */
export function shape(
  type: "rectangle" | "circle",
  id: string,
  x: number,
  y: number,
  width: number,
  height: number,
  fill: string,
  o: Shape,
): CtaElement {
  return {
    id,
    type,
    x,
    y,
    width,
    height,
    fill,
    borderRadius: o.radius ?? 0,
    zIndex: 0,
    shadow: o.shadow ?? "none",
    link: o.link ?? "",
  };
}
export function rect(
  id: string,
  x: number,
  y: number,
  width: number,
  height: number,
  fill: string,
  o: Shape = {},
): CtaElement {
  return shape("rectangle", id, x, y, width, height, fill, o);
}
export function circle(id: string, x: number, y: number, size: number, fill: string, o: Shape = {}): CtaElement {
  return shape("circle", id, x, y, size, size, fill, o);
}

/** The height of a one-line text box at a font size. */
export const lineHeight = (size: number) => Math.round(size * 1.4);

/** One line of text; the box is `lineHeight(size)` tall. */
export function text(id: string, x: number, y: number, width: number, content: string, s: TextStyle = {}): CtaElement {
  const size = s.size ?? 16;
  return {
    id,
    type: "text",
    x,
    y,
    width,
    height: lineHeight(size),
    fill: "transparent",
    borderRadius: 0,
    zIndex: 0,
    shadow: "none",
    link: s.link ?? "",
    text: content,
    fontSize: size,
    color: s.color ?? INK,
    fontFamily: s.font ?? "Arial",
    fontWeight: s.bold ? "bold" : "normal",
    textAlign: s.align ?? "left",
  };
}

/** Lines of text one under another (ids `<id>-1`, `<id>-2`, …), `gap` apart (default the line height). */
export function lines(
  id: string,
  x: number,
  y: number,
  width: number,
  contents: string[],
  s: TextStyle & { gap?: number } = {},
): CtaElement[] {
  const gap = s.gap ?? lineHeight(s.size ?? 16);
  return contents.map((c, i) => text(`${id}-${i + 1}`, x, y + i * gap, width, c, s));
}

export type ButtonStyle = {
  fill: string;
  color: string;
  link: string;
  size?: number;
  radius?: number;
  shadow?: CtaElement["shadow"];
  font?: CtaElement["fontFamily"];
};

/** A button: a rounded rectangle `<id>-bg` and its centred bold label `<id>-label`, both linking. */
export function button(
  id: string,
  x: number,
  y: number,
  width: number,
  height: number,
  label: string,
  b: ButtonStyle,
): CtaElement[] {
  const size = b.size ?? 18;
  const labelHeight = lineHeight(size);
  return [
    rect(`${id}-bg`, x, y, width, height, b.fill, { radius: b.radius ?? 8, shadow: b.shadow ?? "sm", link: b.link }),
    text(`${id}-label`, x, y + Math.round((height - labelHeight) / 2), width, label, {
      size,
      color: b.color,
      bold: true,
      align: "center",
      font: b.font,
      link: b.link,
    }),
  ];
}

/** A circle `<id>` with a short label `<id>-label` centred in it (a step number, initials, a logo). */
export function disc(
  id: string,
  x: number,
  y: number,
  size: number,
  fill: string,
  label: string,
  s: TextStyle & { shadow?: CtaElement["shadow"] },
): CtaElement[] {
  const top = y + Math.round((size - lineHeight(s.size ?? 16)) / 2);
  return [
    circle(id, x, y, size, fill, { shadow: s.shadow, link: s.link }),
    text(`${id}-label`, x, top, size, label, { bold: true, ...s, align: "center" }),
  ];
}

/** A small round bullet vertically centred on a line of text at `y` (font size `size`). */
export function bullet(id: string, x: number, y: number, size: number, fill: string): CtaElement {
  const d = Math.round(size * 0.6);
  return circle(id, x, y + Math.round((lineHeight(size) - d) / 2), d, fill);
}

export function template(
  slug: string,
  name: string,
  category: TemplateCategory,
  description: string,
  size: { width: number; height: number; background: string },
  elements: Array<CtaElement | CtaElement[]>,
): BuiltInCtaTemplate {
  const flat = elements.flat().map((e, i) => ({ ...e, zIndex: i + 1 }));
  return {
    id: `builtin:${slug}`,
    name,
    category,
    design: {
      name,
      description,
      width: size.width,
      height: size.height,
      backgroundColor: size.background,
      gridSize: 10,
      snapToGrid: true,
      elements: flat,
    },
  };
}
