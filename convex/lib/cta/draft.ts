/**
 * A call-to-action design (lib/cta/design.ts) as a Yjs document (room "cta:<id>"), shared by the
 * server (which seeds a new CTA's document) and the creator (which edits it). Two staffers editing
 * one CTA merge per property:
 *
 * - `ctaSettings`: name, description, width, height, backgroundColor, gridSize, snapToGrid (one
 *   entry each);
 * - `ctaElements`: every element by id, each its own map of flat properties (type, x, y, fill, …;
 *   never a nested object), so a move and a recolour of one element both survive. Stacking order is
 *   the `zIndex` property (ties by id): reordering writes one or two numbers.
 *
 * Text (an element's `text`, the CTA's name and description) is a `Y.Text` (lib/yText.ts), so two
 * people typing in one text both keep their keystrokes; documents stored with plain strings still
 * read, and their first edit turns a string into a `Y.Text`.
 *
 * A deleted element stays in `ctaElements` with a `deleted` property (the name of who deleted it):
 * readers skip it and undo clears the property, so the element comes back with everything in it,
 * including what a teammate typed into it after the delete. (Removing the map instead would let
 * undo restore only the state captured at the delete: a teammate's concurrent typing was lost.)
 *
 * The helpers below store values within the design's bounds, so `normalizeDesign(readCtaDoc(doc))`
 * returns the same design — with one deliberate exception: when the canvas shrinks, elements stay
 * where they are (a teammate's drag of the width slider back and forth must not pile everything up
 * in a corner); one left beyond the new edge is clamped when it next moves, and the server clamps it
 * on save. Values outside a fixed set (a colour, a font, an unsafe link) are refused, not written,
 * so a link or name field should commit when its value is complete (on blur), not per keystroke.
 */
import * as Y from "yjs";
import {
  BACKGROUNDS,
  BOUNDS,
  ELEMENT_TYPES,
  FONT_FAMILIES,
  FONT_WEIGHTS,
  MAX_DESCRIPTION,
  MAX_NAME,
  MAX_TEXT,
  SHADOWS,
  TEXT_ALIGNS,
  clampPosition,
  isColor,
  isHexColor,
  isSafeImage,
  isSafeLink,
  newElement,
  normalizeElement,
  snap,
  sortByZ,
  type CtaDesign,
  type CtaElement,
} from "./design";
import { newText, plainValue, setText, textOf, upgradeTexts } from "../yText";

const SETTINGS = "ctaSettings";
const ELEMENTS = "ctaElements";

export type CtaSettings = Omit<CtaDesign, "elements">;
export type SettingKey = keyof CtaSettings;
export const SETTING_KEYS: readonly SettingKey[] = [
  "name",
  "description",
  "width",
  "height",
  "backgroundColor",
  "gridSize",
  "snapToGrid",
];
/** What an element's properties may be changed to (id and type are fixed). */
export type ElementPatch = Partial<Omit<CtaElement, "id" | "type">>;
/** An element to add: without a zIndex it goes on top. */
export type NewCtaElement = Omit<CtaElement, "zIndex"> & { zIndex?: number };
export type CentreMode = "horizontal" | "vertical" | "both";

const DEFAULTS: CtaSettings = {
  name: "",
  description: "",
  width: BOUNDS.width.def,
  height: BOUNDS.height.def,
  backgroundColor: "#ffffff",
  gridSize: BOUNDS.grid.def,
  snapToGrid: true,
};

/** Element properties and settings held as Y.Text. */
const TEXT_PROPS = new Set(["text"]);
const TEXT_SETTINGS = new Set<string>(["name", "description"]);
/** The property marking a deleted element (its value: who deleted it, "" when unknown). */
const DELETED = "deleted";

/** The properties each element type has (those of `newElement`, id aside). */
const PROPS = new Map<unknown, Set<string>>(
  ELEMENT_TYPES.map((t) => [t, new Set(Object.keys(newElement(t, "x")).filter((k) => k !== "id"))]),
);

export function ctaSettings(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap<unknown>(SETTINGS);
}

export function ctaElements(doc: Y.Doc): Y.Map<Y.Map<unknown>> {
  return doc.getMap<Y.Map<unknown>>(ELEMENTS);
}

/** A live (not deleted) element's map. */
function liveElement(doc: Y.Doc, id: string): Y.Map<unknown> | undefined {
  const m = ctaElements(doc).get(id);
  return m && !m.has(DELETED) ? m : undefined;
}

export function isEmptyCtaDoc(doc: Y.Doc): boolean {
  return ctaSettings(doc).size === 0 && ctaElements(doc).size === 0;
}

const bounded = (v: unknown, b: { min: number; max: number }): number | undefined =>
  typeof v === "number" && Number.isFinite(v) ? Math.round(Math.max(b.min, Math.min(b.max, v))) : undefined;
const oneOf = <T extends string>(v: unknown, options: readonly T[]): T | undefined =>
  options.includes(v as T) ? (v as T) : undefined;
const address = (v: unknown, safe: (s: string) => boolean): string | undefined => {
  if (typeof v !== "string") return undefined;
  const s = v.trim();
  return s === "" || safe(s) ? s : undefined;
};

/** A setting's value as stored (rounded, clamped; text kept as typed, trimmed on save), or undefined when it is refused. */
function cleanSetting(key: SettingKey, v: unknown): CtaSettings[SettingKey] | undefined {
  switch (key) {
    case "name":
      return typeof v === "string" ? v.slice(0, MAX_NAME) : undefined;
    case "description":
      return typeof v === "string" ? v.slice(0, MAX_DESCRIPTION) : undefined;
    case "width":
      return bounded(v, BOUNDS.width);
    case "height":
      return bounded(v, BOUNDS.height);
    case "gridSize":
      return bounded(v, BOUNDS.grid);
    case "backgroundColor":
      return oneOf(v, BACKGROUNDS);
    case "snapToGrid":
      return typeof v === "boolean" ? v : undefined;
  }
}

/** An element property's value as stored, or undefined when it is refused (position is placed separately). */
function cleanProp(key: string, v: unknown): unknown {
  switch (key) {
    case "width":
    case "height":
      return bounded(v, BOUNDS.size);
    case "fontSize":
      return bounded(v, BOUNDS.fontSize);
    case "borderRadius":
      return bounded(v, BOUNDS.borderRadius);
    case "zIndex":
      return bounded(v, BOUNDS.zIndex);
    case "fill":
      return typeof v === "string" && isColor(v) ? v : undefined;
    case "color":
      return typeof v === "string" && isHexColor(v) ? v : undefined;
    case "shadow":
      return oneOf(v, SHADOWS);
    case "fontFamily":
      return oneOf(v, FONT_FAMILIES);
    case "fontWeight":
      return oneOf(v, FONT_WEIGHTS);
    case "textAlign":
      return oneOf(v, TEXT_ALIGNS);
    case "link":
      return address(v, isSafeLink);
    case "src":
      return address(v, isSafeImage);
    case "text":
      return typeof v === "string" ? v.slice(0, MAX_TEXT) : undefined;
    default:
      return undefined;
  }
}

/** The settings for computing with: stored values within bounds, defaults for anything else. */
function canvasOf(doc: Y.Doc): CtaSettings {
  const m = ctaSettings(doc);
  const out = { ...DEFAULTS } as Record<SettingKey, unknown>;
  for (const k of SETTING_KEYS) out[k] = cleanSetting(k, plainValue(m.get(k))) ?? DEFAULTS[k];
  return out as CtaSettings;
}

/** A position within the canvas; on the grid when `grid` is given (the last grid line inside the bounds). */
function place(x: number, y: number, canvas: CtaSettings, grid: number | null): { x: number; y: number } {
  const p = clampPosition(x, y, canvas);
  if (!grid) return p;
  const fit = (v: number, max: number) => (snap(v, grid) > max ? snap(v, grid) - grid : snap(v, grid));
  return { x: fit(p.x, Math.max(0, canvas.width - 50)), y: fit(p.y, Math.max(0, canvas.height - 20)) };
}

const numberIn = (m: Y.Map<unknown>, key: string, def = 0): number => {
  const v = m.get(key);
  return typeof v === "number" && Number.isFinite(v) ? v : def;
};

function elementMap(el: CtaElement): Y.Map<unknown> {
  const m = new Y.Map<unknown>();
  for (const [k, v] of Object.entries(el))
    if (k !== "id" && v !== undefined) m.set(k, TEXT_PROPS.has(k) && typeof v === "string" ? newText(v) : v);
  return m;
}

/** Sets a setting within its bounds (unchanged values are not written); false when the value is refused. */
export function setSetting<K extends SettingKey>(doc: Y.Doc, key: K, value: CtaSettings[K]): boolean {
  const v = cleanSetting(key, value);
  if (v === undefined) return false;
  // a smaller canvas leaves elements where they are (see the top of this file)
  const m = ctaSettings(doc);
  if (TEXT_SETTINGS.has(key)) {
    upgradeTexts(doc, m, [key]);
    setText(m, key, v as string);
  } else if (m.get(key) !== v) m.set(key, v);
  return true;
}

/**
 * Writes the given settings and, when `elements` is given, replaces all elements (a new CTA, a
 * loaded template): those not in the new design are marked deleted by `by` (so undo brings them back whole).
 */
export function writeCtaDoc(doc: Y.Doc, design: Partial<CtaDesign>, by = "") {
  const settings = ctaSettings(doc);
  upgradeTexts(
    doc,
    settings,
    SETTING_KEYS.filter((k) => TEXT_SETTINGS.has(k) && design[k] !== undefined),
  );
  doc.transact(() => {
    for (const k of SETTING_KEYS) if (design[k] !== undefined) setSetting(doc, k, design[k]);
    if (design.elements) {
      const elements = ctaElements(doc);
      const canvas = canvasOf(doc);
      const next = design.elements
        .map((raw) => normalizeElement(raw, canvas))
        .filter((el): el is CtaElement => el !== null);
      const kept = new Set(next.map((el) => el.id));
      elements.forEach((m, id) => {
        if (!kept.has(id) && !m.has(DELETED)) m.set(DELETED, by);
      });
      for (const el of next) elements.set(el.id, elementMap(el));
    }
  });
}

/** The design as stored (missing settings take their defaults), elements back to front. */
export function readCtaDoc(doc: Y.Doc): CtaDesign {
  const m = ctaSettings(doc);
  const settings = { ...DEFAULTS } as Record<SettingKey, unknown>;
  for (const k of SETTING_KEYS) {
    const v = TEXT_SETTINGS.has(k) ? textOf(m.get(k)) : m.get(k);
    if (typeof v === typeof DEFAULTS[k]) settings[k] = v;
  }
  const elements: CtaElement[] = [];
  ctaElements(doc).forEach((el, id) => {
    if (el.has(DELETED)) return;
    // toJSON turns each Y.Text into its string
    elements.push({ ...(el.toJSON() as Omit<CtaElement, "id">), id });
  });
  return { ...(settings as CtaSettings), elements: sortByZ(elements) };
}

/** One above the topmost element (1 on an empty canvas), at most the zIndex bound. */
function topZ(doc: Y.Doc): number {
  let max = 0;
  ctaElements(doc).forEach((m) => {
    if (!m.has(DELETED)) max = Math.max(max, numberIn(m, "zIndex"));
  });
  return Math.min(BOUNDS.zIndex.max, max + 1);
}

/**
 * Adds an element (on top unless it has a zIndex), within bounds: its position clamped to the canvas
 * and snapped when the grid is on. Returns the element as stored; null when the id is invalid or taken.
 */
export function addElement(doc: Y.Doc, el: NewCtaElement): CtaElement | null {
  const elements = ctaElements(doc);
  if (elements.has(el.id)) return null;
  const canvas = canvasOf(doc);
  const stored = normalizeElement({ ...el, zIndex: el.zIndex ?? topZ(doc) }, canvas);
  if (!stored) return null;
  Object.assign(stored, place(stored.x, stored.y, canvas, canvas.snapToGrid ? canvas.gridSize : null));
  elements.set(stored.id, elementMap(stored));
  return stored;
}

/**
 * Sets the given properties of an element, each within its bounds; unchanged ones are not written,
 * refused ones (an invalid colour, an unsafe link, a property its type lacks) are skipped. A moved
 * coordinate is clamped to the canvas and snapped when the grid is on and `opts.snap` is not false.
 * False when the element is gone (deleted by a teammate).
 */
export function updateElement(doc: Y.Doc, id: string, patch: ElementPatch, opts: { snap?: boolean } = {}): boolean {
  const m = liveElement(doc, id);
  if (!m) return false;
  const props = PROPS.get(m.get("type")) ?? new Set<string>();
  const next: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (k === "x" || k === "y" || !props.has(k)) continue;
    const clean = cleanProp(k, v);
    if (clean !== undefined) next[k] = clean;
  }
  const moveX = typeof patch.x === "number" && Number.isFinite(patch.x);
  const moveY = typeof patch.y === "number" && Number.isFinite(patch.y);
  if (moveX || moveY) {
    const canvas = canvasOf(doc);
    const grid = canvas.snapToGrid && opts.snap !== false ? canvas.gridSize : null;
    const p = place(moveX ? patch.x! : numberIn(m, "x"), moveY ? patch.y! : numberIn(m, "y"), canvas, grid);
    if (moveX) next.x = p.x;
    if (moveY) next.y = p.y;
  }
  upgradeTexts(
    doc,
    m,
    Object.keys(next).filter((k) => TEXT_PROPS.has(k)),
  );
  doc.transact(() => {
    for (const [k, v] of Object.entries(next)) {
      if (TEXT_PROPS.has(k)) setText(m, k, v as string);
      else if (m.get(k) !== v) m.set(k, v);
    }
  });
  return true;
}

/** Moves an element by (dx, dy) pixels (the arrow keys: 1, or 10 with shift), clamped, not snapped. */
export function nudge(doc: Y.Doc, id: string, dx: number, dy: number): boolean {
  const m = liveElement(doc, id);
  if (!m) return false;
  const patch: ElementPatch = {};
  if (dx) patch.x = numberIn(m, "x") + dx;
  if (dy) patch.y = numberIn(m, "y") + dy;
  return updateElement(doc, id, patch, { snap: false });
}

/** Centres an element on the canvas along one axis or both (not snapped; one larger than the canvas goes to 0). */
export function centre(doc: Y.Doc, id: string, mode: CentreMode): boolean {
  const m = liveElement(doc, id);
  if (!m) return false;
  const canvas = canvasOf(doc);
  const patch: ElementPatch = {};
  if (mode !== "vertical") patch.x = (canvas.width - numberIn(m, "width")) / 2;
  if (mode !== "horizontal") patch.y = (canvas.height - numberIn(m, "height")) / 2;
  return updateElement(doc, id, patch, { snap: false });
}

/**
 * Deletes an element: marks it deleted (`by`: who, shown to a teammate editing it), so undo, or
 * `restoreElement`, brings it back with its latest content. False when it is gone already.
 */
export function removeElement(doc: Y.Doc, id: string, by = ""): boolean {
  const m = liveElement(doc, id);
  if (!m) return false;
  m.set(DELETED, by);
  return true;
}

/** Brings a deleted element back as it is now (a teammate's typing after the delete included). False when there is none to restore. */
export function restoreElement(doc: Y.Doc, id: string): boolean {
  const m = ctaElements(doc).get(id);
  if (!m || !m.has(DELETED)) return false;
  m.delete(DELETED);
  return true;
}

/** Who deleted an element ("" when unknown), or null when it is not deleted (or never existed). */
export function deletedBy(doc: Y.Doc, id: string): string | null {
  const m = ctaElements(doc).get(id);
  if (!m || !m.has(DELETED)) return null;
  const by = m.get(DELETED);
  return typeof by === "string" ? by : "";
}

/** A copy of an element as `newId`, 10 px right and down (within the canvas), on top. Null when it is gone or the id is taken. */
export function duplicateElement(doc: Y.Doc, id: string, newId: string): CtaElement | null {
  const m = liveElement(doc, id);
  if (!m || ctaElements(doc).has(newId)) return null;
  const canvas = canvasOf(doc);
  const copy = normalizeElement({ ...m.toJSON(), id: newId, zIndex: topZ(doc) }, canvas);
  if (!copy) return null;
  Object.assign(copy, clampPosition(numberIn(m, "x") + 10, numberIn(m, "y") + 10, canvas));
  ctaElements(doc).set(newId, elementMap(copy));
  return copy;
}

type Layer = { id: string; zIndex: number };

/**
 * Moves an element to position `to(from, count)` in drawing order with as few zIndex writes as
 * possible: one (a value between the new neighbours, or equal to one when the id breaks the tie),
 * else two (a swap with the neighbour it passes), else all of them renumbered (only when the values
 * are packed against the ±999 bounds).
 */
function restack(doc: Y.Doc, id: string, to: (from: number, count: number) => number): boolean {
  const elements = ctaElements(doc);
  if (!liveElement(doc, id)) return false;
  const list: Layer[] = sortByZ(
    [...elements.entries()]
      .filter(([, m]) => !m.has(DELETED))
      .map(([eid, m]) => ({ id: eid, zIndex: bounded(m.get("zIndex"), BOUNDS.zIndex) ?? 0 })),
  );
  const from = list.findIndex((e) => e.id === id);
  const at = Math.max(0, Math.min(list.length - 1, to(from, list.length)));
  if (at === from) return true;
  const others = list.filter((e) => e.id !== id);
  const wanted = [...others.slice(0, at).map((e) => e.id), id, ...others.slice(at).map((e) => e.id)].join("\n");
  const prev = others[at - 1] as Layer | undefined;
  const next = others[at] as Layer | undefined;
  const single =
    prev && next
      ? [Math.floor((prev.zIndex + next.zIndex) / 2), prev.zIndex, next.zIndex]
      : prev
        ? [prev.zIndex + 1, prev.zIndex]
        : [next!.zIndex - 1, next!.zIndex];
  const plans: Array<Map<string, number>> = single.map((z) => new Map([[id, z]]));
  if (Math.abs(at - from) === 1)
    plans.push(
      new Map([
        [id, list[at].zIndex],
        [list[at].id, list[from].zIndex],
      ]),
    );
  const base = list.length <= BOUNDS.zIndex.max ? 1 : BOUNDS.zIndex.min;
  plans.push(new Map(wanted.split("\n").map((eid, i) => [eid, base + i])));
  const within = (z: number) => z >= BOUNDS.zIndex.min && z <= BOUNDS.zIndex.max;
  const works = (plan: Map<string, number>) =>
    [...plan.values()].every(within) &&
    sortByZ(list.map((e) => ({ id: e.id, zIndex: plan.get(e.id) ?? e.zIndex })))
      .map((e) => e.id)
      .join("\n") === wanted;
  const plan = plans.find(works)!;
  doc.transact(() => {
    for (const [eid, z] of plan) if (elements.get(eid)!.get("zIndex") !== z) elements.get(eid)!.set("zIndex", z);
  });
  return true;
}

export function bringToFront(doc: Y.Doc, id: string): boolean {
  return restack(doc, id, (_from, count) => count - 1);
}

export function bringForward(doc: Y.Doc, id: string): boolean {
  return restack(doc, id, (from) => from + 1);
}

export function sendBackward(doc: Y.Doc, id: string): boolean {
  return restack(doc, id, (from) => from - 1);
}

export function sendToBack(doc: Y.Doc, id: string): boolean {
  return restack(doc, id, () => 0);
}

/** Undo/redo of this user's own changes (teammates' updates carry the provider as origin and are never undone). */
export function localCtaUndoManager(doc: Y.Doc): Y.UndoManager {
  return new Y.UndoManager([ctaSettings(doc), ctaElements(doc)], {
    trackedOrigins: new Set([null]),
    captureTimeout: 500,
  });
}
