/**
 * The CTA canvas (src/features/cta): the pure mapping of elements onto fabric options, the folding
 * of a resize back into the model, live drag positions (the same places lib/cta/draft.ts stores), the
 * diff of one design against the objects on the canvas; then the component itself on a stand-in
 * fabric (jsdom has no 2D canvas): objects created, updated in place, replaced, removed and restacked
 * by element id; selection both ways; a drag reported once, with the dragged object left alone until
 * it ends; arrow keys and Escape; a backdrop (a rectangle covering the canvas at the back) that a
 * click passes through, so a click on a template's blank canvas deselects (issue 33 item 11).
 */
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import * as Y from "yjs";
import { newElement, type CtaDesign, type CtaElement } from "@convex/lib/cta/design";
import { readCtaDoc, updateElement, writeCtaDoc } from "@convex/lib/cta/draft";
import {
  dragPosition,
  elementLabel,
  foldScale,
  imageFit,
  imageOptions,
  imageSrc,
  isBackdrop,
  isDark,
  modifiedPatch,
  nudgeFor,
  objectKind,
  objectOptions,
  planSync,
  remoteOutline,
  roundedPath,
  sameElement,
  shadowSpec,
  wrapperBackground,
  type Applied,
} from "@/features/cta/utils/fabricSync";

const rect = (id: string, p: Partial<CtaElement> = {}): CtaElement => ({ ...newElement("rectangle", id), ...p });
const text = (id: string, p: Partial<CtaElement> = {}): CtaElement => ({ ...newElement("text", id), ...p });
const image = (id: string, p: Partial<CtaElement> = {}): CtaElement => ({ ...newElement("image", id), ...p });
const circle = (id: string, p: Partial<CtaElement> = {}): CtaElement => ({ ...newElement("circle", id), ...p });
const design = (elements: CtaElement[], p: Partial<CtaDesign> = {}): CtaDesign => ({
  name: "Rally",
  description: "",
  width: 400,
  height: 300,
  backgroundColor: "#ffffff",
  gridSize: 10,
  snapToGrid: true,
  elements,
  ...p,
});

describe("element → fabric options", () => {
  test("every object has its top-left at x, y, no rotation, scale 1", () => {
    for (const el of [
      rect("r", { x: 12, y: 34 }),
      text("t", { x: 12, y: 34 }),
      circle("c", { x: 12, y: 34 }),
      image("i", { x: 12, y: 34 }),
    ]) {
      const o = objectOptions(el);
      expect(o).toMatchObject({
        left: 12,
        top: 34,
        originX: "left",
        originY: "top",
        angle: 0,
        scaleX: 1,
        scaleY: 1,
        lockRotation: true,
        selectable: true,
        evented: true,
      });
    }
  });

  test("a rectangle's radius, a circle as an ellipse in its box", () => {
    expect(objectOptions(rect("r", { width: 120, height: 40, borderRadius: 8, fill: "#ef4444" }))).toMatchObject({
      width: 120,
      height: 40,
      rx: 8,
      ry: 8,
      fill: "#ef4444",
    });
    expect(objectOptions(circle("c", { width: 80, height: 50, fill: "#10b981" }))).toMatchObject({
      rx: 40,
      ry: 25,
      fill: "#10b981",
    });
    expect(objectOptions(circle("c", { fill: "transparent" })).fill).toBe("transparent");
  });

  test("text: a non-editable textbox of the element's box, colour as fill, box fill as background", () => {
    const o = objectOptions(
      text("t", {
        text: "Vote!",
        width: 220,
        height: 44,
        fontSize: 24,
        fontFamily: "Georgia",
        fontWeight: "bold",
        color: "#ffffff",
        textAlign: "center",
        fill: "#6366f1",
        borderRadius: 6,
      }),
    );
    expect(o).toMatchObject({
      text: "Vote!",
      width: 220,
      boxHeight: 44,
      fontSize: 24,
      fontFamily: "Georgia",
      fontWeight: "bold",
      fill: "#ffffff",
      textAlign: "center",
      backgroundColor: "#6366f1",
      cornerRadius: 6,
      editable: false,
    });
    expect((o.lineHeight as number) * 1.13).toBeCloseTo(1.2);
    expect(objectOptions(text("t", { fill: "transparent" })).backgroundColor).toBe("");
  });

  test("read-only objects can be neither selected nor moved", () => {
    expect(objectOptions(rect("r"), true)).toMatchObject({
      selectable: false,
      evented: false,
      hasControls: false,
      lockMovementX: true,
      lockMovementY: true,
    });
  });

  test("shadows sm, md, lg; none is no shadow", () => {
    expect(shadowSpec("none")).toBeNull();
    const [sm, md, lg] = (["sm", "md", "lg"] as const).map((s) => shadowSpec(s)!);
    expect(sm.blur).toBeLessThan(md.blur);
    expect(md.blur).toBeLessThan(lg.blur);
    expect(sm.offsetY).toBeLessThan(lg.offsetY);
  });

  test("images: only http(s) sources load; a placeholder until loaded", () => {
    expect(imageSrc(image("i", { src: "https://example.org/a.png" }))).toBe("https://example.org/a.png");
    expect(imageSrc(image("i", { src: "javascript:alert(1)" }))).toBe("");
    expect(imageSrc(image("i", { src: "data:image/png;base64,AAAA" }))).toBe("");
    expect(imageSrc(image("i", { src: "" }))).toBe("");
    const el = image("i", { src: "https://example.org/a.png" });
    expect(objectKind(el)).toBe("placeholder:https://example.org/a.png");
    expect(objectKind(el, () => true)).toBe("image:https://example.org/a.png");
    expect(objectKind(image("i", { src: "javascript:x" }), () => true)).toBe("placeholder:");
    expect(objectKind(rect("r"))).toBe("rectangle");
    expect(objectOptions(image("i", { width: 120, height: 80 }))).toMatchObject({
      width: 120,
      height: 80,
      fill: "#e5e7eb",
    });
  });

  test("a loaded image covers its box, centred (as the embed's xMidYMid slice)", () => {
    // 400×200 picture into a 100×100 box: scale 0.5 on height, the middle 200 px of the width
    const fit = imageFit({ width: 100, height: 100, borderRadius: 10 }, { width: 400, height: 200 });
    expect(fit).toEqual({ cropX: 100, cropY: 0, width: 200, height: 200, scaleX: 0.5, scaleY: 0.5, radius: 20 });
    // the displayed size is the box; folding it gives the element back
    expect(foldScale({ left: 5, top: 6, ...fit })).toEqual({ x: 5, y: 6, width: 100, height: 100 });
    const o = imageOptions(image("i", { x: 5, y: 6, width: 100, height: 100, fill: "#000000" }), {
      width: 400,
      height: 200,
    });
    expect(o).toMatchObject({
      left: 5,
      top: 6,
      cropX: 100,
      width: 200,
      scaleX: 0.5,
      backgroundColor: "#000000",
      originX: "left",
    });
    expect(o).not.toHaveProperty("radius");
  });
});

describe("folding a drag or resize back into the model", () => {
  test("scale folds into width and height, rounded, within the size bounds", () => {
    expect(foldScale({ left: 10.4, top: 19.6, width: 100, height: 50, scaleX: 1.5, scaleY: 0.5 })).toEqual({
      x: 10,
      y: 20,
      width: 150,
      height: 25,
    });
    expect(foldScale({ left: 0, top: 0, width: 100, height: 50, scaleX: 0.01, scaleY: 40 })).toEqual({
      x: 0,
      y: 0,
      width: 5,
      height: 1200,
    });
  });

  test("a move reports x and y only; a resize width and height, and the position when it moved", () => {
    const el = rect("r", { x: 51, y: 50, width: 100, height: 50 });
    expect(modifiedPatch(el, { left: 80, top: 90, width: 100, height: 50, scaleX: 1, scaleY: 1 })).toEqual({
      x: 80,
      y: 90,
    });
    expect(modifiedPatch(el, { left: 51, top: 60, width: 100, height: 50, scaleX: 1, scaleY: 1 })).toEqual({
      x: 51,
      y: 60,
    });
    // kept its top-left corner (off the grid after a nudge): no position, so the document does not snap it
    expect(modifiedPatch(el, { left: 51, top: 50, width: 100, height: 50, scaleX: 2, scaleY: 1 })).toEqual({
      width: 200,
    });
    expect(modifiedPatch(el, { left: 51, top: 50, width: 100, height: 50, scaleX: 1, scaleY: 1 })).toEqual({});
    expect(modifiedPatch(el, { left: 40, top: 30, width: 100, height: 50, scaleX: 1.2, scaleY: 1.4 })).toEqual({
      x: 40,
      y: 30,
      width: 120,
      height: 70,
    });
  });

  test("the live drag position is where the document stores the drop", () => {
    for (const settings of [
      { snapToGrid: true, gridSize: 10 },
      { snapToGrid: true, gridSize: 25 },
      { snapToGrid: true, gridSize: 7, width: 333, height: 111 },
      { snapToGrid: false, gridSize: 10 },
    ]) {
      const d = design([], settings);
      const doc = new Y.Doc();
      writeCtaDoc(doc, { ...d, elements: [rect("r")] });
      for (const [x, y] of [
        [0, 0],
        [13, 27],
        [-40, -3],
        [396, 299],
        [1000, 1000],
        [344.6, 275.4],
        [353, 283],
      ]) {
        updateElement(doc, "r", { x, y });
        const stored = readCtaDoc(doc).elements[0];
        expect(dragPosition(x, y, d), `${JSON.stringify(settings)} ${x},${y}`).toEqual({ x: stored.x, y: stored.y });
      }
    }
  });

  test("arrow keys nudge by 1, or 10 with shift; other keys do nothing", () => {
    expect(nudgeFor("ArrowLeft", false)).toEqual([-1, 0]);
    expect(nudgeFor("ArrowRight", true)).toEqual([10, 0]);
    expect(nudgeFor("ArrowUp", false)).toEqual([0, -1]);
    expect(nudgeFor("ArrowDown", true)).toEqual([0, 10]);
    expect(nudgeFor("Delete", false)).toBeNull();
    expect(nudgeFor("Backspace", false)).toBeNull();
    expect(nudgeFor("a", true)).toBeNull();
  });
});

describe("diffing a design against the canvas", () => {
  const applied = (...els: CtaElement[]) =>
    new Map<string, Applied>(els.map((e) => [e.id, { el: e, kind: objectKind(e) }]));

  test("an unchanged design is no work", () => {
    const a = rect("a", { zIndex: 1 });
    const b = text("b", { zIndex: 2 });
    const plan = planSync(applied(a, b), ["a", "b"], [{ ...a }, { ...b }]);
    expect(plan).toEqual({ add: [], replace: [], update: [], remove: [], order: ["a", "b"], restack: false });
  });

  test("adds, updates in place, removes, and restacks by zIndex then id", () => {
    const a = rect("a", { zIndex: 1 });
    const b = rect("b", { zIndex: 2 });
    const c = rect("c", { zIndex: 3 });
    const next = [{ ...a, zIndex: 5, fill: "#000000" }, c, circle("d", { zIndex: 3 })];
    const plan = planSync(applied(a, b, c), ["a", "b", "c"], next);
    expect(plan.add.map((e) => e.id)).toEqual(["d"]);
    expect(plan.update.map((e) => e.id)).toEqual(["a"]);
    expect(plan.remove).toEqual(["b"]);
    expect(plan.replace).toEqual([]);
    expect(plan.order).toEqual(["c", "d", "a"]);
    expect(plan.restack).toBe(true);
  });

  test("new elements added on top in order need no restack", () => {
    const a = rect("a", { zIndex: 1 });
    const plan = planSync(applied(a), ["a"], [a, rect("b", { zIndex: 2 })]);
    expect(plan.add.map((e) => e.id)).toEqual(["b"]);
    expect(plan.restack).toBe(false);
  });

  test("a change of kind replaces the object: an image's source, an image that has loaded", () => {
    const i = image("i", { src: "https://example.org/a.png" });
    const next = { ...i, src: "https://example.org/b.png" };
    expect(planSync(applied(i), ["i"], [next]).replace).toEqual([next]);
    // loaded since it was drawn as a placeholder
    expect(planSync(applied(i), ["i"], [i], { kindOf: (e) => objectKind(e, () => true) }).replace).toEqual([i]);
    // only a move: an update
    expect(planSync(applied(i), ["i"], [{ ...i, x: 90 }]).update.map((e) => e.id)).toEqual(["i"]);
  });

  test("an object drawn from an unknown state (after a local drag) is updated", () => {
    const a = rect("a");
    const plan = planSync(new Map([["a", { el: null, kind: "rectangle" }]]), ["a"], [a]);
    expect(plan.update).toEqual([a]);
  });

  test("the element being dragged is neither updated nor replaced, but may be removed", () => {
    const a = rect("a", { zIndex: 1 });
    const i = image("i", { zIndex: 2, src: "https://example.org/a.png" });
    expect(
      planSync(
        applied(a, i),
        ["a", "i"],
        [
          { ...a, x: 200 },
          { ...i, src: "" },
        ],
        { busy: "a" },
      ).update,
    ).toEqual([]);
    expect(planSync(applied(a, i), ["a", "i"], [a, { ...i, src: "" }], { busy: "i" }).replace).toEqual([]);
    expect(planSync(applied(a, i), ["a", "i"], [i], { busy: "a" }).remove).toEqual(["a"]);
  });

  test("sameElement compares every property, present or not", () => {
    const a = text("t");
    expect(sameElement(a, { ...a })).toBe(true);
    expect(sameElement(a, { ...a, text: "Other" })).toBe(false);
    const { fontSize: _f, ...noSize } = a;
    expect(sameElement(a, noSize as CtaElement)).toBe(false);
  });
});

describe("the wrapper background and the element list", () => {
  test("colour, grid lines scaled, a checkerboard for transparent", () => {
    expect(wrapperBackground({ backgroundColor: "#ffffff", gridSize: 10 }, false)).toEqual({
      backgroundColor: "#ffffff",
    });
    const grid = wrapperBackground({ backgroundColor: "#f8f9fa", gridSize: 20 }, true, 0.5);
    expect(grid.backgroundColor).toBe("#f8f9fa");
    expect(grid.backgroundImage).toContain("linear-gradient(to right");
    expect(grid.backgroundSize).toBe("10px 10px, 10px 10px");
    expect(grid.backgroundImage).toContain("rgba(0,0,0");
    expect(wrapperBackground({ backgroundColor: "#000000", gridSize: 10 }, true).backgroundImage).toContain(
      "rgba(255,255,255",
    );
    const checker = wrapperBackground({ backgroundColor: "transparent", gridSize: 10 }, true);
    expect(checker.backgroundImage).toMatch(/linear-gradient.*linear-gradient.*repeating-conic-gradient/);
    expect(checker.backgroundSize).toBe("10px 10px, 10px 10px, 16px 16px");
    expect(isDark("#6366f1")).toBe(true);
    expect(isDark("#f59e0b")).toBe(false);
    expect(isDark("transparent")).toBe(false);
  });

  test("a teammate's outline sits around the scaled box, its name tab inside the canvas at the top edge", () => {
    const { box, label } = remoteOutline({ x: 100, y: 40, width: 80, height: 20 }, "#10b981", 0.5);
    expect(box).toMatchObject({
      left: 48,
      top: 18,
      width: 44,
      height: 14,
      border: "2px solid #10b981",
      pointerEvents: "none",
    });
    expect(label).toMatchObject({ bottom: "100%", background: "#10b981" });
    expect(remoteOutline({ x: 0, y: 0, width: 10, height: 10 }, "#000000").label).toMatchObject({ top: "100%" });
  });

  test("rounded background path: the radius limited to half the box", () => {
    const calls: unknown[][] = [];
    const rec =
      (name: string) =>
      (...a: unknown[]) =>
        void calls.push([name, ...a]);
    roundedPath(
      { beginPath: rec("begin"), moveTo: rec("moveTo"), arcTo: rec("arcTo"), closePath: rec("close") },
      100,
      20,
      50,
    );
    expect(calls[1]).toEqual(["moveTo", -40, -10]);
    expect(calls.filter((c) => c[0] === "arcTo").every((c) => c[5] === 10)).toBe(true);
  });

  test("the backdrop: a rectangle or image covering the whole canvas at the back, nothing else", () => {
    const panel = rect("panel", { x: 0, y: 0, width: 400, height: 300, zIndex: 1 });
    const title = text("title", { x: 0, y: 0, width: 400, height: 300, zIndex: 2 });
    const d = design([title, panel]);
    expect(isBackdrop(panel, d)).toBe(true);
    expect(isBackdrop(title, d)).toBe(false); // text is never the backdrop
    expect(
      isBackdrop(
        image("photo", { x: -10, y: 0, width: 420, height: 300, zIndex: 1 }),
        design([image("photo", { x: -10, y: 0, width: 420, height: 300, zIndex: 1 })]),
      ),
    ).toBe(true);
    // not the whole canvas, or not at the back
    expect(
      isBackdrop(
        rect("p", { x: 0, y: 0, width: 400, height: 290, zIndex: 1 }),
        design([rect("p", { x: 0, y: 0, width: 400, height: 290, zIndex: 1 })]),
      ),
    ).toBe(false);
    const under = rect("under", { zIndex: 0 });
    expect(isBackdrop(panel, design([panel, under]))).toBe(false);
    expect(
      isBackdrop(
        circle("c", { x: 0, y: 0, width: 400, height: 300 }),
        design([circle("c", { x: 0, y: 0, width: 400, height: 300 })]),
      ),
    ).toBe(false);
  });

  test("labels", () => {
    expect(elementLabel(text("t", { text: "Join us" }))).toBe("Text: Join us");
    expect(elementLabel(rect("r"))).toBe("Rectangle");
    expect(elementLabel(circle("c"))).toBe("Circle");
    expect(elementLabel(image("i"))).toBe("Image");
  });
});

// ---------------------------------------------------------------------------------------------
// The component on a stand-in fabric: jsdom has no 2D canvas, so fabric's classes are replaced by
// recorders with the same surface (objects keep what is set on them; the canvas keeps their order,
// the active object and its event handlers).

const fake = vi.hoisted(() => ({
  canvas: null as null | FakeCanvas,
  disposed: 0,
  loads: [] as Array<{ src: string; resolve(img: HTMLImageElement): void; reject(e: Error): void }>,
}));
type FakeObject = Record<string, any> & { set(k: string | Record<string, unknown>, v?: unknown): FakeObject };
type FakeCanvas = {
  el: HTMLCanvasElement;
  objs: FakeObject[];
  active?: FakeObject;
  fire(name: string, e?: Record<string, unknown>): void;
  getObjects(): FakeObject[];
  setActiveObject(o: FakeObject): void;
  discardActiveObject(): void;
  width: number;
  height: number;
  zoom: number;
};

vi.mock("fabric", () => {
  class Obj {
    [k: string]: any;
    left = 0;
    top = 0;
    width = 0;
    height = 0;
    scaleX = 1;
    scaleY = 1;
    constructor(opts?: Record<string, unknown>) {
      if (opts) Object.assign(this, opts);
    }
    set(k: string | Record<string, unknown>, v?: unknown) {
      if (typeof k === "string") this[k] = v;
      else Object.assign(this, k);
      if ("rx" in this && this.constructor.name === "Ellipse") this.width = (this.rx as number) * 2;
      if ("ry" in this && this.constructor.name === "Ellipse") this.height = (this.ry as number) * 2;
      return this;
    }
    setCoords() {}
    setControlVisible(key: string, visible: boolean) {
      this.controlsVisible = { ...(this.controlsVisible as object), [key]: visible };
    }
    _removeShadow() {}
  }
  class Rect extends Obj {}
  class Ellipse extends Obj {}
  class Textbox extends Obj {
    static textLayoutProperties: string[] = ["text", "width"];
    static cacheProperties: string[] = ["fill"];
    initialized = true;
    constructor(text: string, opts?: Record<string, unknown>) {
      super(opts);
      this.text = text;
    }
    set(k: string | Record<string, unknown>, v?: unknown) {
      super.set(k, v);
      this.initDimensions();
      return this;
    }
    initDimensions() {
      this.height = 19; // what fabric measures for one line of text
    }
  }
  class FabricImage extends Obj {
    constructor(img: HTMLImageElement, opts?: Record<string, unknown>) {
      super(opts);
      this.img = img;
    }
  }
  class Shadow {
    constructor(o: Record<string, unknown>) {
      Object.assign(this, o);
    }
  }
  class Canvas {
    objs: Obj[] = [];
    handlers: Record<string, Array<(e: unknown) => void>> = {};
    active?: Obj;
    width = 300;
    height = 150;
    zoom = 1;
    constructor(
      public el: HTMLCanvasElement,
      public opts: Record<string, unknown>,
    ) {
      fake.canvas = this;
    }
    on(name: string, fn: (e: unknown) => void) {
      (this.handlers[name] ??= []).push(fn);
    }
    fire(name: string, e: Record<string, unknown> = {}) {
      for (const fn of this.handlers[name] ?? []) fn(e);
    }
    add(...o: Obj[]) {
      this.objs.push(...o);
    }
    insertAt(i: number, ...o: Obj[]) {
      this.objs.splice(i, 0, ...o);
    }
    remove(...os: Obj[]) {
      for (const o of os) {
        this.objs = this.objs.filter((x) => x !== o);
        if (this.active === o) {
          this.active = undefined;
          this.fire("selection:cleared", { deselected: [o] });
        }
      }
    }
    getObjects() {
      return [...this.objs];
    }
    moveObjectTo(o: Obj, i: number) {
      this.objs = this.objs.filter((x) => x !== o);
      this.objs.splice(i, 0, o);
    }
    getActiveObject() {
      return this.active;
    }
    setActiveObject(o: Obj) {
      const had = this.active;
      this.active = o;
      this.fire(had ? "selection:updated" : "selection:created", { selected: [o] });
    }
    discardActiveObject() {
      if (!this.active) return;
      const o = this.active;
      this.active = undefined;
      this.fire("selection:cleared", { deselected: [o] });
    }
    getWidth() {
      return this.width;
    }
    getHeight() {
      return this.height;
    }
    setDimensions(d: { width: number; height: number }) {
      Object.assign(this, d);
    }
    getZoom() {
      return this.zoom;
    }
    setZoom(z: number) {
      this.zoom = z;
    }
    requestRenderAll() {}
    dispose() {
      fake.disposed++;
      return Promise.resolve(true);
    }
  }
  const util = {
    loadImage: (src: string) =>
      new Promise<HTMLImageElement>((resolve, reject) => fake.loads.push({ src, resolve, reject })),
  };
  return { Canvas, Rect, Ellipse, Textbox, FabricImage, Shadow, util };
});

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const { CtaCanvas } = await import("@/features/cta/components/CtaCanvas");
type Props = Parameters<typeof CtaCanvas>[0];

describe("CtaCanvas", () => {
  let container: HTMLDivElement;
  let root: Root;
  let props: Props;
  const cb = { onSelect: vi.fn(), onChange: vi.fn(), onDraggingChange: vi.fn(), onNudge: vi.fn() };
  const canvas = () => fake.canvas!;
  const ids = () => canvas().objs.map((o) => o.ctaId as string);
  const obj = (id: string) => canvas().objs.find((o) => o.ctaId === id)!;
  const render = (p: Partial<Props> = {}) => {
    props = { ...props, ...p };
    act(() => root.render(createElement(CtaCanvas, props)));
  };

  beforeEach(() => {
    vi.useFakeTimers();
    Object.values(cb).forEach((f) => f.mockReset());
    fake.canvas = null;
    fake.disposed = 0;
    fake.loads = [];
    container = document.createElement("div");
    document.body.appendChild(container);
    root = createRoot(container);
    props = {
      design: design([
        rect("b", { zIndex: 2, fill: "#ef4444" }),
        text("a", { zIndex: 1, text: "Vote", x: 20, y: 30 }),
        circle("c", { zIndex: 3 }),
      ]),
      selectedId: null,
      showGrid: true,
      ...cb,
    };
    render();
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
    vi.useRealTimers();
  });

  test("draws every element by id, back to front, at the design's size and scale", () => {
    expect(ids()).toEqual(["a", "b", "c"]);
    expect(obj("a").constructor.name).toBe("CtaTextbox");
    expect(obj("a")).toMatchObject({
      text: "Vote",
      left: 20,
      top: 30,
      originX: "left",
      originY: "top",
      editable: false,
      boxHeight: 30,
      height: 30,
    });
    expect(obj("b").constructor.name).toBe("Rect");
    expect(obj("c").constructor.name).toBe("Ellipse");
    expect(obj("b").controlsVisible).toEqual({ mtr: false });
    expect(canvas()).toMatchObject({ width: 400, height: 300, zoom: 1 });
    render({ scale: 0.5 });
    expect(canvas()).toMatchObject({ width: 200, height: 150, zoom: 0.5 });
    const wrapper = container.querySelector<HTMLElement>('[aria-label="CTA canvas"]')!;
    expect(wrapper.tabIndex).toBe(0);
    expect(wrapper.style.width).toBe("200px");
    expect(wrapper.style.backgroundSize).toBe("5px 5px, 5px 5px");
  });

  test("a new design updates objects in place, adds, removes and restacks", () => {
    const before = { a: obj("a"), b: obj("b") };
    const [b, a] = props.design.elements;
    render({
      design: design([
        { ...b, fill: "#000000", x: 70, zIndex: 0 },
        { ...a, text: "Register" },
        image("d", { zIndex: 9 }),
      ]),
    });
    expect(obj("a")).toBe(before.a);
    expect(obj("b")).toBe(before.b);
    expect(obj("b")).toMatchObject({ fill: "#000000", left: 70 });
    expect(obj("a").text).toBe("Register");
    expect(ids()).toEqual(["b", "a", "d"]);
    expect(obj("d").constructor.name).toBe("ImagePlaceholder");
    expect(fake.loads).toEqual([]); // no source, nothing to load
  });

  test("an image is a placeholder until it loads, then a picture in the same place; only http(s) loads", async () => {
    const els = props.design.elements;
    render({
      design: design([
        ...els,
        image("i", {
          zIndex: 2,
          x: 10,
          y: 10,
          width: 100,
          height: 100,
          src: "https://example.org/a.png",
          borderRadius: 10,
        }),
        image("j", { zIndex: 4, src: "javascript:alert(1)" }),
      ]),
    });
    expect(ids()).toEqual(["a", "b", "i", "c", "j"]);
    expect(fake.loads.map((l) => l.src)).toEqual(["https://example.org/a.png"]);
    const img = document.createElement("img");
    img.width = 400;
    img.height = 200;
    await act(async () => fake.loads[0].resolve(img));
    expect(ids()).toEqual(["a", "b", "i", "c", "j"]);
    expect(obj("i").constructor.name).toBe("FabricImage");
    expect(obj("i")).toMatchObject({ img, left: 10, top: 10, cropX: 100, scaleX: 0.5 });
    expect(obj("i").clipPath).toMatchObject({ rx: 20 });
  });

  test("selection both ways; a selection from outside does not echo", () => {
    act(() => {
      canvas().setActiveObject(obj("b"));
    });
    expect(cb.onSelect).toHaveBeenLastCalledWith("b");
    act(() => {
      canvas().discardActiveObject();
    });
    expect(cb.onSelect).toHaveBeenLastCalledWith(null);
    cb.onSelect.mockReset();
    render({ selectedId: "c" });
    expect(canvas().active).toBe(obj("c"));
    render({ selectedId: null });
    expect(canvas().active).toBeUndefined();
    expect(cb.onSelect).not.toHaveBeenCalled();
  });

  test("a drag snaps live, is reported once, holds remote changes back until it ends", () => {
    render({ selectedId: "b" });
    const target = obj("b");
    target.set({ left: 13.4, top: 27 });
    act(() => canvas().fire("object:moving", { target }));
    expect(target).toMatchObject({ left: 10, top: 30 });
    target.set({ left: 500, top: -5 });
    act(() => canvas().fire("object:moving", { target }));
    expect(target).toMatchObject({ left: 350, top: 0 }); // within the canvas: x ≤ width − 50
    expect(cb.onDraggingChange.mock.calls).toEqual([[true]]);
    // a teammate recolours and moves it meanwhile: the colour waits too
    const moved = props.design.elements.map((e) => (e.id === "b" ? { ...e, x: 200, fill: "#3b82f6" } : e));
    render({ design: design(moved) });
    expect(target).toMatchObject({ left: 350, fill: "#ef4444" });
    act(() => canvas().fire("object:modified", { target }));
    expect(cb.onChange).toHaveBeenCalledWith("b", { x: 350, y: 0 });
    act(() => canvas().fire("mouse:up", {}));
    expect(cb.onDraggingChange.mock.calls).toEqual([[true], [false]]);
    // the document's answer (here: the teammate's values, the drop refused) is drawn
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(target).toMatchObject({ left: 200, fill: "#3b82f6" });
  });

  test("a resize folds the scale into width and height", () => {
    const target = obj("b");
    target.set({ scaleX: 1.5, scaleY: 2 });
    act(() => canvas().fire("object:scaling", { target }));
    act(() => canvas().fire("object:modified", { target }));
    expect(cb.onChange).toHaveBeenCalledWith("b", { width: 150, height: 100 });
    expect(target).toMatchObject({ scaleX: 1, scaleY: 1, width: 150, height: 100 });
    const circleTarget = obj("c");
    circleTarget.set({ scaleX: 0.5 });
    act(() => canvas().fire("object:modified", { target: circleTarget }));
    expect(cb.onChange).toHaveBeenLastCalledWith("c", { width: 40 });
    // scaled from the top-left corner: the position moved too
    target.set({ left: 30, top: 40, width: 100, height: 50, scaleX: 1.2 });
    act(() => canvas().fire("object:modified", { target }));
    expect(cb.onChange).toHaveBeenLastCalledWith("b", { x: 30, y: 40, width: 120 });
    expect(circleTarget).toMatchObject({ rx: 20, ry: 40, scaleX: 1 });
  });

  test("arrow keys nudge the selected element when the canvas has focus", () => {
    const wrapper = container.querySelector<HTMLElement>('[aria-label="CTA canvas"]')!;
    const key = (k: string, shiftKey = false) => {
      const e = new KeyboardEvent("keydown", { key: k, shiftKey, bubbles: true, cancelable: true });
      act(() => void wrapper.dispatchEvent(e));
      return e.defaultPrevented;
    };
    expect(key("ArrowRight")).toBe(false); // nothing selected
    render({ selectedId: "a" });
    expect(key("ArrowRight")).toBe(true);
    expect(key("ArrowUp", true)).toBe(true);
    expect(key("Delete")).toBe(false);
    expect(key("Backspace")).toBe(false);
    expect(cb.onNudge.mock.calls).toEqual([
      ["a", 1, 0],
      ["a", 0, -10],
    ]);
    render({ readOnly: true });
    expect(key("ArrowLeft")).toBe(false);
    expect(cb.onNudge).toHaveBeenCalledTimes(2);
  });

  test("Escape on the focused canvas clears the selection", () => {
    const wrapper = container.querySelector<HTMLElement>('[aria-label="CTA canvas"]')!;
    const esc = () => {
      const e = new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true });
      act(() => void wrapper.dispatchEvent(e));
      return e.defaultPrevented;
    };
    expect(esc()).toBe(false); // nothing selected: left to the page
    render({ selectedId: "b" });
    expect(esc()).toBe(true);
    expect(cb.onSelect).toHaveBeenLastCalledWith(null);
  });

  test("a backdrop takes no pointer events (a click on it is a click on the blank canvas); it becomes a normal object when it no longer covers the canvas", () => {
    const panel = rect("panel", { x: 0, y: 0, width: 400, height: 300, zIndex: 0 });
    render({ design: design([panel, ...props.design.elements]) });
    expect(obj("panel")).toMatchObject({ evented: false, selectable: false });
    expect(obj("b")).toMatchObject({ evented: true, selectable: true });
    // chosen from the element list, it is still shown selected
    render({ selectedId: "panel" });
    expect(canvas().active).toBe(obj("panel"));
    render({ selectedId: null, design: design([{ ...panel, width: 200 }, ...props.design.elements.slice(1)]) });
    expect(obj("panel")).toMatchObject({ evented: true, selectable: true });
  });

  test("read-only: nothing selectable or movable, no selection shown", () => {
    render({ selectedId: "a", readOnly: true });
    for (const o of canvas().objs) expect(o).toMatchObject({ selectable: false, evented: false, lockMovementX: true });
    expect(canvas().active).toBeUndefined();
  });

  test("teammates' selections outlined in their colour with their names", () => {
    render({
      remoteSelections: new Map([
        [
          "b",
          [
            { name: "Ana", color: "#ef4444" },
            { name: "Bo", color: "#10b981" },
          ],
        ],
        ["gone", [{ name: "Cy", color: "#000000" }]],
      ]),
    });
    const outlines = [...container.querySelectorAll<HTMLElement>('[data-testid="cta.remote-selection"]')];
    expect(outlines.map((o) => o.dataset.elementId)).toEqual(["b"]);
    expect(outlines[0].textContent).toBe("Ana, Bo");
    expect(outlines[0].style.border).toContain("2px solid");
    expect(outlines[0].style.left).toBe("48px");
  });

  test("unmounting disposes the fabric canvas and removes its element", () => {
    const el = canvas().el;
    expect(container.contains(el)).toBe(true);
    act(() => root.unmount());
    expect(fake.disposed).toBe(1);
    expect(container.contains(el)).toBe(false);
    root = createRoot(container); // for afterEach
  });
});
