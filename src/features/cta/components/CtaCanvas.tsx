/**
 * The CTA creator's canvas (spec/3 §2.9): the design drawn with fabric, the design (the Yjs
 * document, read by the page) being the source of truth. Every design change is diffed by element id
 * onto the fabric objects (utils/fabricSync.ts); a drag or resize reports its result through
 * `onChange` and the object then follows whatever the document stored. The elements are also a
 * listbox beside the canvas (CtaElementList.tsx), for the keyboard and screen readers. With the
 * canvas focused, arrow keys nudge the selected element and Escape clears the selection; a click
 * on the blank canvas (or on the design's backdrop, `isBackdrop`) clears it too.
 */
import { useEffect, useRef, type CSSProperties, type KeyboardEvent } from "react";
import { Canvas, Ellipse, FabricImage, Rect, Shadow, Textbox, util, type FabricObject } from "fabric";
import { sortByZ, type CtaDesign, type CtaElement } from "@convex/lib/cta/design";
import {
  dragPosition,
  imageFit,
  imageOptions,
  imageSrc,
  isBackdrop,
  modifiedPatch,
  nudgeFor,
  objectKind,
  objectOptions,
  planSync,
  remoteOutline,
  roundedPath,
  shadowSpec,
  wrapperBackground,
  type Applied,
} from "../utils/fabricSync";

type RemoteSelection = { name: string; color: string };

export type CtaCanvasProps = {
  design: CtaDesign;
  selectedId: string | null;
  onSelect(id: string | null): void;
  /** the end of a drag or resize: the new x and y, and width and height when they changed (scale folded in) */
  onChange(id: string, patch: Partial<CtaElement>): void;
  onDraggingChange(dragging: boolean): void;
  /** an arrow key on the focused canvas: 1 px, or 10 with shift */
  onNudge(id: string, dx: number, dy: number): void;
  /** teammates' selections by element id, outlined in their colour with their names */
  remoteSelections?: Map<string, RemoteSelection[]>;
  showGrid: boolean;
  readOnly?: boolean;
  /** display scale (fit the width on small screens); the design keeps its own units */
  scale?: number;
};

type Tagged = FabricObject & { ctaId?: string };
const idOf = (o: Tagged | undefined): string | undefined => o?.ctaId;

/** A Textbox drawn as the embed draws text: its box the element's height (text top-aligned, clipped to it) on a rounded background. */
class CtaTextbox extends Textbox {
  declare boxHeight: number;
  declare cornerRadius: number;
  static textLayoutProperties = [...Textbox.textLayoutProperties, "boxHeight"];
  static cacheProperties = [...Textbox.cacheProperties, "boxHeight", "cornerRadius"];

  initDimensions() {
    super.initDimensions();
    if (this.initialized && this.boxHeight > 0) {
      this.height = this.boxHeight;
      this.dirty = true;
    }
  }

  _renderBackground(ctx: CanvasRenderingContext2D) {
    if (!this.backgroundColor) return;
    ctx.fillStyle = this.backgroundColor;
    roundedPath(ctx, this.width, this.height, this.cornerRadius ?? 0);
    ctx.fill();
    this._removeShadow(ctx);
  }

  _render(ctx: CanvasRenderingContext2D) {
    ctx.save();
    ctx.beginPath();
    ctx.rect(-this.width / 2, -this.height / 2, this.width, this.height);
    ctx.clip();
    super._render(ctx);
    ctx.restore();
  }
}

/** A grey box with the word "Image": an image while it loads, without a source, or when it fails to load. */
class ImagePlaceholder extends Rect {
  _render(ctx: CanvasRenderingContext2D) {
    super._render(ctx);
    this._removeShadow(ctx);
    ctx.fillStyle = "#6b7280";
    ctx.font = `${Math.round(Math.max(8, Math.min(14, this.height / 3)))}px Arial, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText("Image", 0, 0);
  }
}

type ImageState = HTMLImageElement | "loading" | "error";
const natural = (img: HTMLImageElement) => ({
  width: img.naturalWidth || img.width,
  height: img.naturalHeight || img.height,
});

/**
 * Sets an element's properties on its object (scale reset, shadow, rounded clip of an image). A
 * backdrop takes no pointer events: a click on it reaches the blank canvas (and deselects).
 */
function applyElement(
  obj: FabricObject,
  el: CtaElement,
  readOnly: boolean,
  img: HTMLImageElement | undefined,
  backdrop = false,
) {
  if (obj instanceof FabricImage && img) {
    obj.set(imageOptions(el, natural(img), readOnly));
    const { width, height, radius } = imageFit(el, natural(img));
    obj.set(
      "clipPath",
      radius > 0
        ? new Rect({ width, height, rx: radius, ry: radius, originX: "center", originY: "center", left: 0, top: 0 })
        : undefined,
    );
  } else {
    obj.set(objectOptions(el, readOnly));
  }
  const shadow = shadowSpec(el.shadow);
  obj.set("shadow", shadow ? new Shadow(shadow) : null);
  obj.setControlVisible("mtr", false);
  if (backdrop) obj.set({ evented: false, selectable: false, hoverCursor: "default" });
  obj.setCoords();
}

function createObject(
  el: CtaElement,
  readOnly: boolean,
  img: HTMLImageElement | undefined,
  backdrop = false,
): FabricObject {
  const obj: FabricObject =
    el.type === "text"
      ? new CtaTextbox(el.text ?? "")
      : el.type === "circle"
        ? new Ellipse()
        : el.type === "rectangle"
          ? new Rect()
          : img
            ? new FabricImage(img)
            : new ImagePlaceholder();
  (obj as Tagged).ctaId = el.id;
  applyElement(obj, el, readOnly, img, backdrop);
  return obj;
}

export function CtaCanvas(props: CtaCanvasProps) {
  const { design, selectedId, remoteSelections, showGrid, readOnly = false, scale = 1 } = props;
  const hostRef = useRef<HTMLDivElement>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  const syncRef = useRef<() => void>(() => {});

  useEffect(() => {
    latest.current = props;
  });

  // The fabric canvas, created once on a <canvas> of our own (fabric wraps it in its container).
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const el = document.createElement("canvas");
    host.appendChild(el);
    const canvas = new Canvas(el, {
      selection: false,
      preserveObjectStacking: true,
      backgroundColor: "",
      fireRightClick: false,
    });
    const objects = new Map<string, FabricObject>();
    const applied = new Map<string, Applied>();
    const images = new Map<string, ImageState>();
    let appliedReadOnly: boolean | null = null;
    let dragging: string | null = null;
    let quiet = false;
    let disposed = false;
    let timer: number | undefined;

    const imgFor = (e: CtaElement) => {
      const s = images.get(imageSrc(e));
      return s instanceof HTMLImageElement ? s : undefined;
    };
    // becoming or ceasing to be the backdrop redraws the object (its pointer events change)
    const backdropOf = (e: CtaElement) => isBackdrop(e, latest.current.design);
    const kindOf = (e: CtaElement) =>
      `${objectKind(e, (src) => images.get(src) instanceof HTMLImageElement)}${backdropOf(e) ? ":backdrop" : ""}`;
    const load = (src: string) => {
      images.set(src, "loading");
      util.loadImage(src, { crossOrigin: "anonymous" }).then(
        (img) => {
          images.set(src, img);
          if (!disposed) sync();
        },
        () => images.set(src, "error"),
      );
    };

    const sync = () => {
      if (disposed) return;
      const { design: d, readOnly: ro = false, selectedId: sel, scale: s = 1 } = latest.current;
      if (canvas.getWidth() !== d.width * s || canvas.getHeight() !== d.height * s)
        canvas.setDimensions({ width: d.width * s, height: d.height * s });
      if (canvas.getZoom() !== s) canvas.setZoom(s);
      if (appliedReadOnly !== ro) {
        for (const [id, a] of applied) applied.set(id, { ...a, el: null });
        appliedReadOnly = ro;
      }
      const plan = planSync(
        applied,
        canvas.getObjects().map((o) => idOf(o) ?? ""),
        d.elements,
        { busy: dragging, kindOf },
      );
      quiet = true;
      try {
        for (const id of plan.remove) {
          const obj = objects.get(id);
          if (obj) canvas.remove(obj);
          objects.delete(id);
          applied.delete(id);
        }
        for (const e of plan.replace) {
          const old = objects.get(e.id)!;
          const obj = createObject(e, ro, imgFor(e), backdropOf(e));
          const at = canvas.getObjects().indexOf(old);
          canvas.remove(old);
          canvas.insertAt(Math.max(0, at), obj);
          objects.set(e.id, obj);
        }
        for (const e of plan.update) applyElement(objects.get(e.id)!, e, ro, imgFor(e), backdropOf(e));
        for (const e of plan.add) {
          const obj = createObject(e, ro, imgFor(e), backdropOf(e));
          canvas.add(obj);
          objects.set(e.id, obj);
        }
        for (const e of [...plan.replace, ...plan.update, ...plan.add]) applied.set(e.id, { el: e, kind: kindOf(e) });
        if (plan.restack) plan.order.forEach((id, i) => canvas.moveObjectTo(objects.get(id)!, i));
        // the selection made outside (a layer list, a new element) or cleared
        const want = sel && !ro ? objects.get(sel) : undefined;
        const active = canvas.getActiveObject();
        if (want && active !== want) canvas.setActiveObject(want);
        else if (!want && active && dragging === null) canvas.discardActiveObject();
      } finally {
        quiet = false;
      }
      for (const e of d.elements) {
        const src = e.type === "image" ? imageSrc(e) : "";
        if (src && !images.has(src)) load(src);
      }
      canvas.requestRenderAll();
    };
    syncRef.current = sync;

    const select = (obj: FabricObject | undefined) => {
      if (!quiet) latest.current.onSelect(idOf(obj) ?? null);
    };
    const begin = (obj: FabricObject) => {
      const id = idOf(obj);
      if (!id || dragging === id) return;
      dragging = id;
      latest.current.onDraggingChange(true);
    };
    canvas.on("selection:created", (e) => select(e.selected?.[0]));
    canvas.on("selection:updated", (e) => select(e.selected?.[0]));
    canvas.on("selection:cleared", () => select(undefined));
    canvas.on("object:moving", ({ target }) => {
      begin(target);
      const p = dragPosition(target.left, target.top, latest.current.design);
      target.set({ left: p.x, top: p.y });
      target.setCoords();
    });
    canvas.on("object:scaling", ({ target }) => begin(target));
    canvas.on("object:resizing", ({ target }) => begin(target));
    canvas.on("object:modified", ({ target }) => {
      const id = idOf(target);
      const el = id ? latest.current.design.elements.find((e) => e.id === id) : undefined;
      if (!id || !el) return;
      const patch = modifiedPatch(el, target);
      // show the folded box now; the next design (or the timer below) puts what the document stored
      applyElement(target, { ...el, ...patch }, latest.current.readOnly ?? false, imgFor(el), backdropOf(el));
      applied.set(id, { el: null, kind: applied.get(id)?.kind ?? kindOf(el) });
      if (Object.keys(patch).length) latest.current.onChange(id, patch);
    });
    canvas.on("mouse:up", () => {
      if (dragging === null) return;
      dragging = null;
      latest.current.onDraggingChange(false);
      // remote changes held back during the drag, or a drop the document refused without a change
      window.clearTimeout(timer);
      timer = window.setTimeout(sync, 50);
    });

    return () => {
      disposed = true;
      window.clearTimeout(timer);
      syncRef.current = () => {};
      canvas.dispose().catch(() => {});
      el.remove();
    };
  }, []);

  useEffect(() => {
    syncRef.current();
  }, [design, selectedId, readOnly, scale]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === "Escape" && selectedId) {
      e.preventDefault();
      props.onSelect(null);
      return;
    }
    const d = nudgeFor(e.key, e.shiftKey);
    if (!d || readOnly || !selectedId) return;
    e.preventDefault();
    props.onNudge(selectedId, d[0], d[1]);
  };

  const elements = sortByZ(design.elements);
  const wrapperStyle: CSSProperties = {
    position: "relative",
    width: design.width * scale,
    height: design.height * scale,
    ...wrapperBackground(design, showGrid, scale),
    boxShadow: "0 0 0 1px var(--gray-a6)",
  };

  return (
    <div style={{ position: "relative", display: "inline-block" }}>
      <div
        ref={wrapperRef}
        tabIndex={0}
        role="application"
        aria-label="CTA canvas"
        data-testid="cta.canvas"
        style={wrapperStyle}
        onKeyDown={onKeyDown}
        onPointerDown={() => wrapperRef.current?.focus({ preventScroll: true })}
      >
        <div ref={hostRef} />
        {remoteSelections &&
          elements.map((el) => {
            const who = remoteSelections.get(el.id);
            if (!who?.length) return null;
            const look = remoteOutline(el, who[0].color, scale);
            return (
              <div key={el.id} data-testid="cta.remote-selection" data-element-id={el.id} style={look.box}>
                <span style={look.label}>{who.map((w) => w.name).join(", ")}</span>
              </div>
            );
          })}
      </div>
    </div>
  );
}
