/**
 * The pure half of the CTA canvas (components/CtaCanvas.tsx): how an element of the design
 * (@convex/lib/cta/design) maps onto fabric object options, how a drag or resize folds back into the
 * model, and which fabric objects a new design adds, updates, replaces, removes or restacks. Nothing
 * here touches fabric itself, so it is tested without a canvas.
 *
 * The drawing follows the embed renderer (lib/cta/svg.ts): text top-aligned in its box with a line
 * height of 1.2, the box filled and rounded; images cover their box; the same three shadows.
 */
import type { CSSProperties } from "react";
import {
  BOUNDS,
  clampPosition,
  isSafeImage,
  snap,
  sortByZ,
  type CtaDesign,
  type CtaElement,
} from "@convex/lib/cta/design";

export type ShadowSpec = { color: string; blur: number; offsetX: number; offsetY: number };

/** svg.ts draws feDropShadow with stdDeviation `blur`; a canvas shadowBlur is about twice that. */
const SHADOW_SPECS: Record<Exclude<CtaElement["shadow"], "none">, ShadowSpec> = {
  sm: { color: "rgba(0,0,0,0.15)", blur: 2, offsetX: 0, offsetY: 1 },
  md: { color: "rgba(0,0,0,0.2)", blur: 6, offsetX: 0, offsetY: 4 },
  lg: { color: "rgba(0,0,0,0.25)", blur: 16, offsetX: 0, offsetY: 10 },
};

export function shadowSpec(shadow: CtaElement["shadow"]): ShadowSpec | null {
  return shadow === "none" ? null : (SHADOW_SPECS[shadow] ?? null);
}

/** fabric multiplies lineHeight by 1.13 (its font size multiplier): this gives 1.2 × fontSize per line, as the embed does. */
const TEXT_LINE_HEIGHT = 1.2 / 1.13;
const PLACEHOLDER_FILL = "#e5e7eb";
/** the selection frame drawn by fabric around the active object */
const SELECTION_STYLE = {
  borderColor: "#6366f1",
  cornerColor: "#6366f1",
  cornerStrokeColor: "#ffffff",
  cornerSize: 9,
  transparentCorners: false,
  borderScaleFactor: 1.5,
  padding: 0,
} as const;

/** A safe http(s) image address of an element, or "" (the canvas loads nothing else). */
export function imageSrc(el: CtaElement): string {
  const src = (el.src ?? "").trim();
  return src && isSafeImage(src) ? src : "";
}

/**
 * What kind of fabric object draws an element; a change of kind replaces the object rather than
 * updating it. An image is a placeholder until its picture has loaded (`loaded(src)`).
 */
export function objectKind(el: CtaElement, loaded: (src: string) => boolean = () => false): string {
  if (el.type !== "image") return el.type;
  const src = imageSrc(el);
  return src && loaded(src) ? `image:${src}` : `placeholder:${src}`;
}

const paint = (c: string | undefined) => (c && c !== "transparent" ? c : "transparent");
const clampSize = (v: number) => Math.round(Math.max(BOUNDS.size.min, Math.min(BOUNDS.size.max, v)));

/** Options every object gets: its top-left at x, y (fabric 7 defaults to centre origins), no rotation or skew. */
function baseOptions(el: CtaElement, readOnly: boolean) {
  return {
    left: el.x,
    top: el.y,
    originX: "left" as const,
    originY: "top" as const,
    angle: 0,
    skewX: 0,
    skewY: 0,
    strokeWidth: 0,
    selectable: !readOnly,
    evented: !readOnly,
    hasControls: !readOnly,
    lockMovementX: readOnly,
    lockMovementY: readOnly,
    lockRotation: true,
    lockSkewingX: true,
    lockSkewingY: true,
    lockScalingFlip: true,
    hoverCursor: readOnly ? "default" : "move",
    ...SELECTION_STYLE,
  };
}

/**
 * The fabric options of an element's object (besides `shadow`, built from `shadowSpec`), scale reset
 * to 1. Text: a Textbox of the element's width whose box is kept at the element's height
 * (`boxHeight`, the canvas's Textbox subclass) with a rounded background (`cornerRadius`). An image
 * that has not loaded is a grey placeholder box (`imageFit` gives a loaded one's crop and scale).
 */
export function objectOptions(el: CtaElement, readOnly = false): Record<string, unknown> {
  const base = { ...baseOptions(el, readOnly), scaleX: 1, scaleY: 1 };
  switch (el.type) {
    case "rectangle":
      return {
        ...base,
        width: el.width,
        height: el.height,
        rx: el.borderRadius,
        ry: el.borderRadius,
        fill: paint(el.fill),
      };
    case "circle":
      return { ...base, rx: el.width / 2, ry: el.height / 2, fill: paint(el.fill) };
    case "text":
      return {
        ...base,
        text: el.text ?? "",
        width: el.width,
        boxHeight: el.height,
        fontSize: el.fontSize ?? BOUNDS.fontSize.def,
        fontFamily: el.fontFamily ?? "Arial",
        fontWeight: el.fontWeight ?? "normal",
        textAlign: el.textAlign ?? "left",
        fill: el.color ?? "#111827",
        backgroundColor: el.fill && el.fill !== "transparent" ? el.fill : "",
        cornerRadius: el.borderRadius,
        lineHeight: TEXT_LINE_HEIGHT,
        editable: false,
        splitByGrapheme: false,
      };
    case "image":
      return {
        ...base,
        width: el.width,
        height: el.height,
        rx: el.borderRadius,
        ry: el.borderRadius,
        fill: PLACEHOLDER_FILL,
      };
  }
}

/**
 * A loaded image covering its box (SVG's xMidYMid slice): the centre of the picture cropped to the
 * box's proportions, scaled uniformly; `radius` is the corner radius in the picture's own units (for
 * the rounded clip).
 */
export function imageFit(
  el: Pick<CtaElement, "width" | "height" | "borderRadius">,
  natural: { width: number; height: number },
) {
  const nw = Math.max(1, natural.width);
  const nh = Math.max(1, natural.height);
  const s = Math.max(el.width / nw, el.height / nh);
  const width = el.width / s;
  const height = el.height / s;
  return {
    cropX: (nw - width) / 2,
    cropY: (nh - height) / 2,
    width,
    height,
    scaleX: s,
    scaleY: s,
    radius: el.borderRadius / s,
  };
}

/** The options of a loaded image's FabricImage (`radius` for the clip aside). */
export function imageOptions(
  el: CtaElement,
  natural: { width: number; height: number },
  readOnly = false,
): Record<string, unknown> {
  const { radius: _radius, ...fit } = imageFit(el, natural);
  return { ...baseOptions(el, readOnly), ...fit, backgroundColor: el.fill && el.fill !== "transparent" ? el.fill : "" };
}

export type ObjectBox = { left: number; top: number; width: number; height: number; scaleX: number; scaleY: number };

/** An object's box in model units after a drag or resize: the scale folded into width and height (within the size bounds). */
export function foldScale(o: ObjectBox): { x: number; y: number; width: number; height: number } {
  return {
    x: Math.round(o.left),
    y: Math.round(o.top),
    width: clampSize(o.width * o.scaleX),
    height: clampSize(o.height * o.scaleY),
  };
}

/**
 * What a finished drag or resize changes: x and y (both) when the element moved, width and height
 * when they changed. A resize that kept the top-left corner sends no position, so the document does
 * not snap an element that a nudge left off the grid.
 */
export function modifiedPatch(el: CtaElement, o: ObjectBox): Partial<CtaElement> {
  const box = foldScale(o);
  const patch: Partial<CtaElement> = box.x !== el.x || box.y !== el.y ? { x: box.x, y: box.y } : {};
  if (box.width !== el.width) patch.width = box.width;
  if (box.height !== el.height) patch.height = box.height;
  return patch;
}

/**
 * Where a dragged element shows while it moves: within the canvas (clampPosition) and, with snap to
 * grid on, on the last grid line inside the bounds — the place lib/cta/draft.ts stores on drop.
 */
export function dragPosition(
  x: number,
  y: number,
  design: Pick<CtaDesign, "width" | "height" | "gridSize" | "snapToGrid">,
): { x: number; y: number } {
  const p = clampPosition(x, y, design);
  if (!design.snapToGrid) return p;
  const g = design.gridSize;
  const fit = (v: number, max: number) => (snap(v, g) > max ? snap(v, g) - g : snap(v, g));
  return { x: fit(p.x, Math.max(0, design.width - 50)), y: fit(p.y, Math.max(0, design.height - 20)) };
}

/** The arrow key's nudge: 1 px, or 10 with shift; null for any other key. */
export function nudgeFor(key: string, shift: boolean): [number, number] | null {
  const step = shift ? 10 : 1;
  switch (key) {
    case "ArrowLeft":
      return [-step, 0];
    case "ArrowRight":
      return [step, 0];
    case "ArrowUp":
      return [0, -step];
    case "ArrowDown":
      return [0, step];
    default:
      return null;
  }
}

/** What an object on the canvas was last drawn from: the element (null when unknown, e.g. after a local drag) and its kind. */
export type Applied = { el: CtaElement | null; kind: string };

export type SyncPlan = {
  /** new elements: create and add on top */
  add: CtaElement[];
  /** elements whose kind changed (type, image source, image loaded): a new object in the old one's place */
  replace: CtaElement[];
  /** elements whose properties changed: set on the existing object */
  update: CtaElement[];
  /** ids of elements gone from the design */
  remove: string[];
  /** every id back to front (sortByZ) */
  order: string[];
  /** whether the objects, after the adds and removes, are not in `order` */
  restack: boolean;
};

export function sameElement(a: CtaElement, b: CtaElement): boolean {
  if (a === b) return true;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof CtaElement>;
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * The work to bring the canvas (`applied`: what each object was drawn from; `current`: the objects'
 * ids in drawing order) to the design's `next` elements. The element being dragged (`busy`) is not
 * updated or replaced: it catches up when the drag ends.
 */
export function planSync(
  applied: ReadonlyMap<string, Applied>,
  current: readonly string[],
  next: readonly CtaElement[],
  opts: { busy?: string | null; kindOf?: (el: CtaElement) => string } = {},
): SyncPlan {
  const kindOf = opts.kindOf ?? ((el: CtaElement) => objectKind(el));
  const plan: SyncPlan = {
    add: [],
    replace: [],
    update: [],
    remove: [],
    order: sortByZ([...next]).map((e) => e.id),
    restack: false,
  };
  const ids = new Set<string>();
  for (const el of next) {
    ids.add(el.id);
    const was = applied.get(el.id);
    if (!was) plan.add.push(el);
    else if (el.id === opts.busy) continue;
    else if (was.kind !== kindOf(el)) plan.replace.push(el);
    else if (!was.el || !sameElement(was.el, el)) plan.update.push(el);
  }
  for (const id of applied.keys()) if (!ids.has(id)) plan.remove.push(id);
  const removed = new Set(plan.remove);
  const after = [...current.filter((id) => !removed.has(id)), ...plan.add.map((e) => e.id)];
  plan.restack = after.length !== plan.order.length || after.some((id, i) => id !== plan.order[i]);
  return plan;
}

/** The wrapper's CSS background: the design's colour (a checkerboard for transparent) under the grid lines, all scaled. */
export function wrapperBackground(
  design: Pick<CtaDesign, "backgroundColor" | "gridSize">,
  showGrid: boolean,
  scale = 1,
): { backgroundColor: string; backgroundImage?: string; backgroundSize?: string } {
  const images: string[] = [];
  const sizes: string[] = [];
  if (showGrid) {
    const line = isDark(design.backgroundColor) ? "rgba(255,255,255,0.18)" : "rgba(0,0,0,0.08)";
    const g = `${round2(design.gridSize * scale)}px`;
    images.push(
      `linear-gradient(to right, ${line} 1px, transparent 1px)`,
      `linear-gradient(to bottom, ${line} 1px, transparent 1px)`,
    );
    sizes.push(`${g} ${g}`, `${g} ${g}`);
  }
  const transparent = design.backgroundColor === "transparent";
  if (transparent) {
    images.push("repeating-conic-gradient(#e5e7eb 0% 25%, #ffffff 0% 50%)");
    sizes.push("16px 16px");
  }
  if (!images.length) return { backgroundColor: design.backgroundColor };
  return {
    backgroundColor: transparent ? "#ffffff" : design.backgroundColor,
    backgroundImage: images.join(", "),
    backgroundSize: sizes.join(", "),
  };
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/** Whether a #rgb / #rrggbb colour is dark (grid lines then drawn light). */
export function isDark(color: string): boolean {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color);
  if (!m) return false;
  const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join("") : m[1];
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 128;
}

/**
 * Whether an element is the design's backdrop: a rectangle or image covering the whole canvas,
 * at the back. A click on it is a click on the blank canvas (it deselects, as the spec says of the
 * blank canvas); it is chosen from the element list instead.
 */
export function isBackdrop(el: CtaElement, design: Pick<CtaDesign, "width" | "height" | "elements">): boolean {
  if (el.type !== "rectangle" && el.type !== "image") return false;
  if (el.x > 0 || el.y > 0 || el.x + el.width < design.width || el.y + el.height < design.height) return false;
  return sortByZ(design.elements)[0]?.id === el.id;
}

/** How the element list names an element (screen readers and e2e tests). */
export function elementLabel(el: CtaElement): string {
  switch (el.type) {
    case "text":
      return `Text: ${el.text ?? ""}`;
    case "rectangle":
      return "Rectangle";
    case "circle":
      return "Circle";
    case "image":
      return "Image";
  }
}

/** A rounded rectangle path centred on the origin (fabric draws an object from its centre). */
export function roundedPath(
  ctx: Pick<CanvasRenderingContext2D, "beginPath" | "moveTo" | "arcTo" | "closePath">,
  w: number,
  h: number,
  radius: number,
) {
  const r = Math.max(0, Math.min(radius, w / 2, h / 2));
  const x = -w / 2;
  const y = -h / 2;
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** A teammate's selection: an outline 2 px outside the element's box, their name on a tab above it (below when at the top edge). */
export function remoteOutline(
  el: Pick<CtaElement, "x" | "y" | "width" | "height">,
  color: string,
  scale = 1,
): { box: CSSProperties; label: CSSProperties } {
  return {
    box: {
      position: "absolute",
      left: el.x * scale - 2,
      top: el.y * scale - 2,
      width: el.width * scale + 4,
      height: el.height * scale + 4,
      border: `2px solid ${color}`,
      borderRadius: 3,
      boxSizing: "border-box",
      pointerEvents: "none",
    },
    label: {
      position: "absolute",
      left: -2,
      ...(el.y * scale < 18 ? { top: "100%" } : { bottom: "100%" }),
      background: color,
      color: "#ffffff",
      fontSize: 11,
      lineHeight: "16px",
      padding: "0 4px",
      borderRadius: 3,
      whiteSpace: "nowrap",
    },
  };
}
