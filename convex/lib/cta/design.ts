/**
 * A call-to-action design (spec/3 §3.3, §5, §9.4) as pure data, shared by the creator (which edits
 * it through a Yjs document, lib/cta/draft.ts), the server (which validates every saved design with
 * `normalizeDesign`), the embed renderer (lib/cta/svg.ts) and the built-in templates.
 *
 * A design is a canvas (width × height, background) holding elements: text, image, rectangle,
 * circle. Every element keeps its properties flat (x, y, width, height, fill, …) so concurrent edits
 * of different properties merge; stacking order is `zIndex` (ties by id).
 */
import { v, type Infer } from "convex/values";
import { isHexColor } from "../colors";

export const ELEMENT_TYPES = ["text", "image", "rectangle", "circle"] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

export const FONT_FAMILIES = [
  "Arial",
  "Helvetica",
  "Georgia",
  "Times New Roman",
  "Verdana",
  "Trebuchet MS",
  "Courier New",
  "Tahoma",
] as const;
export const FONT_WEIGHTS = ["normal", "bold"] as const;
export const TEXT_ALIGNS = ["left", "center", "right"] as const;
export const SHADOWS = ["none", "sm", "md", "lg"] as const;
export const BACKGROUNDS = [
  "transparent",
  "#ffffff",
  "#f8f9fa",
  "#000000",
  "#6366f1",
  "#10b981",
  "#f59e0b",
  "#ef4444",
  "#3b82f6",
  "#8b5cf6",
] as const;
export const TEMPLATE_CATEGORIES = [
  "Business",
  "Marketing",
  "Newsletter",
  "Social Media",
  "E-commerce",
  "Event",
  "Other",
] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
export const DEFAULT_CATEGORY: TemplateCategory = "Business";
/** the default palette offered under Brand Colors */
export const BRAND_COLORS = ["#6366f1", "#10b981", "#f59e0b"] as const;

export const BOUNDS = {
  grid: { min: 5, max: 50, def: 10 },
  width: { min: 100, max: 1200, def: 400 },
  height: { min: 50, max: 800, def: 300 },
  zIndex: { min: -999, max: 999 },
  fontSize: { min: 8, max: 72, def: 16 },
  borderRadius: { min: 0, max: 50 },
  /** an element's size */
  size: { min: 5, max: 1200 },
} as const;

export const MAX_ELEMENTS = 200;
export const MAX_TEXT = 500;
export const MAX_URL = 2_048;
export const MAX_NAME = 120;
export const MAX_DESCRIPTION = 500;

const oneOf = <T extends string>(values: readonly T[]) => v.union(...values.map((x) => v.literal(x)));

/** One element of a design (also what the embed receives: ctas.publicCta). */
export const vCtaElement = v.object({
  id: v.string(),
  type: oneOf(ELEMENT_TYPES),
  x: v.number(),
  y: v.number(),
  width: v.number(),
  height: v.number(),
  fill: v.string(),
  borderRadius: v.number(),
  zIndex: v.number(),
  shadow: oneOf(SHADOWS),
  /** where a click goes (any element may link; buttons are rectangles or text with a link) */
  link: v.string(),
  /** text */
  text: v.optional(v.string()),
  fontSize: v.optional(v.number()),
  color: v.optional(v.string()),
  fontFamily: v.optional(oneOf(FONT_FAMILIES)),
  fontWeight: v.optional(oneOf(FONT_WEIGHTS)),
  textAlign: v.optional(oneOf(TEXT_ALIGNS)),
  /** image */
  src: v.optional(v.string()),
});
export type CtaElement = Infer<typeof vCtaElement>;

export type CtaDesign = {
  name: string;
  description: string;
  width: number;
  height: number;
  backgroundColor: string;
  gridSize: number;
  snapToGrid: boolean;
  elements: CtaElement[];
};

export { isHexColor };

/** A colour an element may use: #rgb / #rrggbb or transparent. */
export function isColor(v: string): boolean {
  return v === "transparent" || isHexColor(v);
}

/** A link or image address a design may carry: http(s) only (mailto: and tel: for links). */
export function isSafeLink(v: string): boolean {
  return v.length <= MAX_URL && /^(https?:\/\/[^\s"'<>\\]+|mailto:[^\s"'<>\\]+|tel:[+\d\s().-]+)$/i.test(v);
}
export function isSafeImage(v: string): boolean {
  return v.length <= MAX_URL && /^https?:\/\/[^\s"'<>\\]+$/i.test(v);
}

const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, n));
const num = (v: unknown, def: number) => (typeof v === "number" && Number.isFinite(v) ? v : def);
const pick = <T extends string>(v: unknown, options: readonly T[], def: T): T =>
  options.includes(v as T) ? (v as T) : def;
const str = (v: unknown, max: number, def = "") => (typeof v === "string" ? v.slice(0, max) : def);

/** Where an element may sit on a canvas: x at most width − 50, y at most height − 20, never negative. */
export function clampPosition(
  x: number,
  y: number,
  canvas: { width: number; height: number },
): { x: number; y: number } {
  return {
    x: Math.round(clamp(x, 0, Math.max(0, canvas.width - 50))),
    y: Math.round(clamp(y, 0, Math.max(0, canvas.height - 20))),
  };
}

/** Snaps a coordinate to the grid. */
export function snap(v: number, grid: number): number {
  return Math.round(v / grid) * grid;
}

/** A new element with the spec's defaults (rectangle 100 × 50 at 50,50; text 'Your Text Here' size 16). */
export function newElement(
  type: ElementType,
  id: string,
  at: { x?: number; y?: number; zIndex?: number } = {},
): CtaElement {
  const base = {
    id,
    type,
    x: at.x ?? 50,
    y: at.y ?? 50,
    borderRadius: 0,
    zIndex: at.zIndex ?? 1,
    shadow: "none" as const,
    link: "",
  };
  switch (type) {
    case "text":
      return {
        ...base,
        width: 200,
        height: 30,
        fill: "transparent",
        text: "Your Text Here",
        fontSize: BOUNDS.fontSize.def,
        color: "#111827",
        fontFamily: "Arial",
        fontWeight: "normal",
        textAlign: "left",
      };
    case "image":
      return { ...base, width: 120, height: 80, fill: "transparent", src: "" };
    case "rectangle":
      return { ...base, width: 100, height: 50, fill: BRAND_COLORS[0] };
    case "circle":
      return { ...base, width: 80, height: 80, fill: BRAND_COLORS[1] };
  }
}

/** An element brought within bounds (unknown properties dropped, unsafe links and images emptied). */
export function normalizeElement(raw: unknown, canvas: { width: number; height: number }): CtaElement | null {
  if (typeof raw !== "object" || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== "string" || !/^[\w-]{1,64}$/.test(r.id)) return null;
  const type = pick(r.type, ELEMENT_TYPES, "rectangle");
  if (r.type !== type) return null;
  const d = newElement(type, r.id);
  const pos = clampPosition(num(r.x, d.x), num(r.y, d.y), canvas);
  const link = str(r.link, MAX_URL).trim();
  const el: CtaElement = {
    ...pos,
    id: r.id,
    type,
    width: Math.round(clamp(num(r.width, d.width), BOUNDS.size.min, BOUNDS.size.max)),
    height: Math.round(clamp(num(r.height, d.height), BOUNDS.size.min, BOUNDS.size.max)),
    fill: typeof r.fill === "string" && isColor(r.fill) ? r.fill : d.fill,
    borderRadius: Math.round(clamp(num(r.borderRadius, 0), BOUNDS.borderRadius.min, BOUNDS.borderRadius.max)),
    zIndex: Math.round(clamp(num(r.zIndex, 0), BOUNDS.zIndex.min, BOUNDS.zIndex.max)),
    shadow: pick(r.shadow, SHADOWS, "none"),
    link: link && isSafeLink(link) ? link : "",
  };
  if (type === "text") {
    el.text = str(r.text, MAX_TEXT, d.text);
    el.fontSize = Math.round(clamp(num(r.fontSize, d.fontSize!), BOUNDS.fontSize.min, BOUNDS.fontSize.max));
    el.color = typeof r.color === "string" && isHexColor(r.color) ? r.color : d.color;
    el.fontFamily = pick(r.fontFamily, FONT_FAMILIES, "Arial");
    el.fontWeight = pick(r.fontWeight, FONT_WEIGHTS, "normal");
    el.textAlign = pick(r.textAlign, TEXT_ALIGNS, "left");
  }
  if (type === "image") {
    const src = str(r.src, MAX_URL).trim();
    el.src = src && isSafeImage(src) ? src : "";
  }
  return el;
}

export class DesignError extends Error {}

/** A design as the server stores it: every value within bounds; throws DesignError for what cannot be repaired. */
export function normalizeDesign(raw: unknown): CtaDesign {
  if (typeof raw !== "object" || raw === null) throw new DesignError("The design could not be read.");
  const r = raw as Record<string, unknown>;
  const width = Math.round(clamp(num(r.width, BOUNDS.width.def), BOUNDS.width.min, BOUNDS.width.max));
  const height = Math.round(clamp(num(r.height, BOUNDS.height.def), BOUNDS.height.min, BOUNDS.height.max));
  const list = Array.isArray(r.elements) ? r.elements : [];
  if (list.length > MAX_ELEMENTS) throw new DesignError(`A CTA holds at most ${MAX_ELEMENTS} elements.`);
  const seen = new Set<string>();
  const elements: CtaElement[] = [];
  for (const e of list) {
    const el = normalizeElement(e, { width, height });
    if (!el) throw new DesignError("An element of the design is not valid.");
    if (seen.has(el.id)) throw new DesignError(`Element ${el.id} appears twice.`);
    seen.add(el.id);
    elements.push(el);
  }
  return {
    name: str(r.name, MAX_NAME).trim(),
    description: str(r.description, MAX_DESCRIPTION).trim(),
    width,
    height,
    backgroundColor: pick(r.backgroundColor, BACKGROUNDS, "#ffffff"),
    gridSize: Math.round(clamp(num(r.gridSize, BOUNDS.grid.def), BOUNDS.grid.min, BOUNDS.grid.max)),
    snapToGrid: typeof r.snapToGrid === "boolean" ? r.snapToGrid : true,
    elements: sortByZ(elements),
  };
}

/** Back to front: by zIndex, then id (every client and the embed draw the same order). */
export function sortByZ<T extends { id: string; zIndex: number }>(elements: T[]): T[] {
  return [...elements].sort((a, b) => a.zIndex - b.zIndex || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
