/**
 * A call-to-action design drawn as a standalone SVG (spec/3 §2.10 embed code and preview): the
 * background, then the elements back to front — rectangles, circles (an ellipse in their box),
 * text (wrapped into its box, clipped to it) and images — with shadows as SVG filters and any
 * element with a link wrapped in `<a target="_top">`.
 *
 * The design is hostile input (any staffer, or a forged save, wrote it): it first goes through
 * `normalizeDesign`, and every value reaching the markup is escaped (text and attributes), colours
 * only when valid, links and images only when safe, numbers as numbers.
 */
import { isColor, isSafeImage, isSafeLink, normalizeDesign, type CtaDesign, type CtaElement } from "./design";

export type CtaSvgOptions = {
  /** the address a click goes to (the embed counts clicks through its own URL); the element's link when null or absent */
  linkHref?: (el: CtaElement) => string | null;
  /** prefixes the ids of filters and clip paths, so several CTAs can share one page */
  idPrefix?: string;
  /**
   * scaled to the width of its container (the viewBox keeps the proportions), never wider than the
   * design: the embed, whose frame is narrower than the design on a phone
   */
  fluid?: boolean;
};

/** Approximate glyph width, as a share of the font size, for wrapping without measuring. */
const CHAR_WIDTH = 0.55;
const LINE_HEIGHT = 1.2;
const SHADOW = {
  sm: { dy: 1, blur: 1, opacity: 0.15 },
  md: { dy: 4, blur: 3, opacity: 0.2 },
  lg: { dy: 10, blur: 8, opacity: 0.25 },
} as const;
const GENERIC: Record<string, string> = { Georgia: "serif", "Times New Roman": "serif", "Courier New": "monospace" };
const ANCHOR = { left: "start", center: "middle", right: "end" } as const;

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Characters XML 1.0 does not allow even escaped: controls other than tab and newlines, lone surrogates, U+FFFE/U+FFFF. */
const NOT_XML = new RegExp(
  "[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]",
  "g",
);

/** Text or an attribute value, escaped for XML. */
export function escapeXml(value: string): string {
  return value.replace(NOT_XML, "").replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

const num = (v: number): string => String(Number.isFinite(v) ? Math.round(v * 100) / 100 : 0);
const paint = (v: string | undefined): string => (v && isColor(v) && v !== "transparent" ? v : "none");

type Attr = string | number | undefined;
/** One element's markup: attributes escaped, numbers formatted, undefined ones left out. */
function tag(name: string, attrs: Record<string, Attr>, inner?: string): string {
  let out = `<${name}`;
  for (const [k, v] of Object.entries(attrs))
    if (v !== undefined) out += ` ${k}="${typeof v === "number" ? num(v) : escapeXml(v)}"`;
  return inner === undefined ? `${out}/>` : `${out}>${inner}</${name}>`;
}

/**
 * Words wrapped into lines of at most `max` characters (counted by code point); a word longer than
 * a line is broken; newlines in the text start a new line.
 */
export function wrapText(text: string, max: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n?|\n/)) {
    let line: string[] = [];
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      let chars = Array.from(word);
      while (chars.length > max) {
        if (line.length) lines.push(line.join(""));
        lines.push(chars.slice(0, max).join(""));
        chars = chars.slice(max);
        line = [];
      }
      if (!chars.length) continue;
      if (line.length && line.length + 1 + chars.length > max) {
        lines.push(line.join(""));
        line = [];
      }
      line = line.length ? [...line, " ", ...chars] : chars;
    }
    lines.push(line.join(""));
  }
  return lines;
}

/** Filters, clip paths and elements of one drawing. */
class Drawing {
  private defs: string[] = [];
  private shadows = new Set<string>();
  constructor(private prefix: string) {}

  shadow(el: CtaElement): string | undefined {
    if (el.shadow === "none") return undefined;
    const id = `${this.prefix}shadow-${el.shadow}`;
    if (!this.shadows.has(id)) {
      this.shadows.add(id);
      const s = SHADOW[el.shadow];
      const drop = tag("feDropShadow", {
        dx: 0,
        dy: s.dy,
        stdDeviation: s.blur,
        "flood-color": "#000000",
        "flood-opacity": s.opacity,
      });
      this.defs.push(tag("filter", { id, x: "-50%", y: "-50%", width: "200%", height: "200%" }, drop));
    }
    return `url(#${id})`;
  }

  clip(el: CtaElement): string {
    const id = `${this.prefix}clip-${el.id}`;
    this.defs.push(
      tag(
        "clipPath",
        { id },
        tag("rect", { x: el.x, y: el.y, width: el.width, height: el.height, rx: el.borderRadius || undefined }),
      ),
    );
    return `url(#${id})`;
  }

  definitions(): string {
    return this.defs.length ? tag("defs", {}, this.defs.join("")) : "";
  }
}

/** A transparent shape with a link still takes clicks across its area. */
const hit = (el: CtaElement) => (el.link && paint(el.fill) === "none" ? "all" : undefined);

function shape(el: CtaElement, d: Drawing): string {
  const common = { fill: paint(el.fill), filter: d.shadow(el), "pointer-events": hit(el) };
  if (el.type === "circle")
    return tag("ellipse", {
      cx: el.x + el.width / 2,
      cy: el.y + el.height / 2,
      rx: el.width / 2,
      ry: el.height / 2,
      ...common,
    });
  return tag("rect", {
    x: el.x,
    y: el.y,
    width: el.width,
    height: el.height,
    rx: el.borderRadius || undefined,
    ...common,
  });
}

/** A text or image element: its box (when filled or linked) and content, clipped to the box, the shadow outside the clip. */
function boxed(el: CtaElement, d: Drawing, content: string): string {
  const fill = paint(el.fill);
  const box =
    fill !== "none" || el.link
      ? tag("rect", {
          x: el.x,
          y: el.y,
          width: el.width,
          height: el.height,
          rx: el.borderRadius || undefined,
          fill,
          "pointer-events": hit(el),
        })
      : "";
  const clipped = tag("g", { "clip-path": d.clip(el) }, box + content);
  const filter = d.shadow(el);
  return filter ? tag("g", { filter }, clipped) : clipped;
}

function text(el: CtaElement, d: Drawing): string {
  const size = el.fontSize!;
  const lineHeight = size * LINE_HEIGHT;
  const perLine = Math.max(1, Math.floor(el.width / (size * CHAR_WIDTH)));
  const align = el.textAlign ?? "left";
  const x = align === "center" ? el.x + el.width / 2 : align === "right" ? el.x + el.width : el.x;
  const spans = wrapText(el.text ?? "", perLine)
    .map((line, i) => ({ line, top: i * lineHeight }))
    .filter(({ line, top }) => line && top < el.height)
    .map(({ line, top }) => tag("tspan", { x, y: el.y + top + size }, escapeXml(line)))
    .join("");
  const family = el.fontFamily ?? "Arial";
  const attrs = {
    "font-family": `${family}, ${GENERIC[family] ?? "sans-serif"}`,
    "font-size": size,
    "font-weight": el.fontWeight === "bold" ? "bold" : "normal",
    fill: paint(el.color),
    "text-anchor": ANCHOR[align],
  };
  return boxed(el, d, spans ? tag("text", attrs, spans) : "");
}

function image(el: CtaElement, d: Drawing): string {
  const src = el.src && isSafeImage(el.src) ? el.src : "";
  const img = src
    ? tag("image", {
        href: src,
        x: el.x,
        y: el.y,
        width: el.width,
        height: el.height,
        preserveAspectRatio: "xMidYMid slice",
      })
    : "";
  return boxed(el, d, img);
}

/** The text element with the same link lying on `shape` (its centre inside the shape), if any. */
function labelOn(shape: CtaElement, elements: CtaElement[]): CtaElement | null {
  return (
    elements.find((t) => {
      if (t.type !== "text" || t.link !== shape.link || t.zIndex < shape.zIndex) return false;
      const cx = t.x + t.width / 2;
      const cy = t.y + t.height / 2;
      return cx >= shape.x && cx <= shape.x + shape.width && cy >= shape.y && cy <= shape.y + shape.height;
    }) ?? null
  );
}

/**
 * The design as SVG markup (viewBox 0 0 width height). Throws DesignError for a design
 * `normalizeDesign` cannot repair (an invalid or repeated element id, too many elements).
 */
export function ctaToSvg(design: CtaDesign, opts: CtaSvgOptions = {}): string {
  const cta = normalizeDesign(design);
  const prefix = (opts.idPrefix ?? "cta-").replace(/[^\w-]/g, "");
  const d = new Drawing(/^[A-Za-z_]/.test(prefix) || prefix === "" ? prefix : `c${prefix}`);
  const body = cta.elements.map((el) => {
    const drawn = el.type === "text" ? text(el, d) : el.type === "image" ? image(el, d) : shape(el, d);
    if (!el.link) return drawn;
    const href = opts.linkHref?.(el) ?? el.link;
    if (!isSafeLink(href)) return drawn;
    if (el.type === "text") return tag("a", { href, target: "_top" }, drawn);
    // a shape under a text with the same link (a button) is the same link again: clickable, but
    // not a second stop for the keyboard or a screen reader; any other shape is named for where it goes
    const label = labelOn(el, cta.elements);
    return label === null
      ? tag("a", { href, target: "_top", "aria-label": cta.name ? `${cta.name}: ${el.link}` : el.link }, drawn)
      : tag("a", { href, target: "_top", tabindex: "-1", "aria-hidden": "true" }, drawn);
  });
  const title = cta.name ? tag("title", {}, escapeXml(cta.name)) : "";
  const background =
    cta.backgroundColor === "transparent"
      ? ""
      : tag("rect", { width: cta.width, height: cta.height, fill: paint(cta.backgroundColor) });
  const viewBox = `0 0 ${cta.width} ${cta.height}`;
  const size = opts.fluid
    ? {
        xmlns: "http://www.w3.org/2000/svg",
        width: "100%",
        viewBox,
        style: `display:block;width:100%;height:auto;max-width:${cta.width}px;aspect-ratio:${cta.width}/${cta.height}`,
      }
    : { xmlns: "http://www.w3.org/2000/svg", width: cta.width, height: cta.height, viewBox };
  return tag("svg", size, title + d.definitions() + background + body.join(""));
}
