/**
 * The email block document (spec/2 §3 "Email block types"): pure data shared by the builder, the
 * renderer (render.ts) and the server, which validates every saved or sent document through
 * `normalizeBlocks`. A block is `{ id, type, content }`; containers hold their children in
 * `content.children` (section, card, container) or `content.columnChildren` (columns: one list
 * per column; sidebar: [sidebar, main]).
 *
 * Where a block may go (drop rules): anything on the canvas; in a section, card or container the
 * content blocks and columns/sidebar; in a column only content blocks. Header, hero and footer
 * stay on the canvas (they are whole rows of the email).
 */
import { isHexColor } from "../colors";

export const BLOCK_TYPES = [
  "text",
  "heading",
  "header",
  "image",
  "button",
  "spacer",
  "divider",
  "columns",
  "section",
  "hero",
  "card",
  "sidebar",
  "container",
  "footer",
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export type BlockValue = string | number | boolean;
export type BlockContent = Record<string, BlockValue | EmailBlock[] | EmailBlock[][]>;
export type EmailBlock = { id: string; type: BlockType; content: BlockContent };

/** Library labels, in the component library's order. */
export const BLOCK_LABELS: Record<BlockType, string> = {
  header: "Header",
  heading: "Heading",
  text: "Text",
  image: "Image",
  button: "Button",
  spacer: "Spacer",
  divider: "Divider",
  columns: "Columns",
  section: "Section",
  hero: "Hero",
  card: "Card",
  sidebar: "Sidebar",
  container: "Container",
  footer: "Footer",
};

/** Content blocks: what a column holds. */
export const LEAF_TYPES: readonly BlockType[] = ["text", "heading", "image", "button", "spacer", "divider"];
/** Blocks holding `children`. */
export const WRAPPER_TYPES: readonly BlockType[] = ["section", "card", "container"];
/** Blocks holding `columnChildren`. */
export const COLUMN_TYPES: readonly BlockType[] = ["columns", "sidebar"];

export function isWrapper(type: BlockType): boolean {
  return WRAPPER_TYPES.includes(type);
}
export function hasColumns(type: BlockType): boolean {
  return COLUMN_TYPES.includes(type);
}

/** Where a block goes: the canvas (null), a wrapper's children, or one column of a columns/sidebar block. */
export type DropParent = null | { type: BlockType; slot: number };

/** Whether a block of `type` may be placed in `parent` (the drop rules). */
export function canDrop(type: BlockType, parent: DropParent): boolean {
  if (parent === null) return true;
  if (hasColumns(parent.type)) return LEAF_TYPES.includes(type);
  if (isWrapper(parent.type)) return LEAF_TYPES.includes(type) || hasColumns(type);
  return false;
}

// ----- property bounds (spec/2 §5, §9) -----

export const LINE_HEIGHTS = [1, 1.25, 1.5, 1.75, 2, 2.5] as const;
export const LETTER_SPACINGS = ["-0.05em", "-0.025em", "0em", "0.025em", "0.05em", "0.1em"] as const;
export const DISTRIBUTIONS = ["equal", "1-2", "2-1", "1-3", "3-1"] as const;
export type Distribution = (typeof DISTRIBUTIONS)[number];
export const SHADOWS = ["none", "sm", "md", "lg", "xl"] as const;
export const ALIGNS = ["left", "center", "right"] as const;
export const TEXT_ALIGNS = ["left", "center", "right", "justify"] as const;
export const HEADING_LEVELS = ["h1", "h2", "h3", "h4", "h5", "h6"] as const;
export const SIDEBAR_POSITIONS = ["left", "right"] as const;
export const DEFAULT_OVERLAY_OPACITY = 0.4;
export const MAX_COLUMNS = 4;
export const MIN_COLUMNS = 1;

/** Limits of one document, so a saved design stays far below Convex's 1 MiB document. */
export const MAX_BLOCKS = 300;
export const MAX_DEPTH = 3;
export const MAX_TEXT_LENGTH = 20_000;
export const MAX_SHORT_TEXT = 500;
export const MAX_URL_LENGTH = 2_048;

type Num = { kind: "number"; min: number; max: number; step?: number; def: number };
type Str = { kind: "text"; max: number; def: string; multiline?: boolean };
type Url = { kind: "url"; def: string };
type Color = { kind: "color"; def: string };
type Choice = { kind: "choice"; options: readonly (string | number)[]; def: string | number };
type Bool = { kind: "boolean"; def: boolean };
export type PropSpec = Num | Str | Url | Color | Choice | Bool;

const num = (min: number, max: number, def: number, step?: number): Num => ({ kind: "number", min, max, def, step });
const text = (def: string, max = MAX_SHORT_TEXT, multiline = false): Str => ({ kind: "text", max, def, multiline });
const url = (def = ""): Url => ({ kind: "url", def });
const color = (def: string): Color => ({ kind: "color", def });
const choice = (options: readonly (string | number)[], def: string | number): Choice => ({
  kind: "choice",
  options,
  def,
});
const bool = (def: boolean): Bool => ({ kind: "boolean", def });

const typography = {
  color: color("#333333"),
  align: choice(TEXT_ALIGNS, "left"),
  lineHeight: choice(LINE_HEIGHTS, 1.5),
  letterSpacing: choice(LETTER_SPACINGS, "0em"),
};

/** Every block type's properties: kind, bounds and default (the property panel and the server both read this). */
export const BLOCK_PROPS: Record<BlockType, Record<string, PropSpec>> = {
  text: { text: text("Write your message here.", MAX_TEXT_LENGTH, true), fontSize: num(10, 48, 16), ...typography },
  heading: {
    text: text("Your headline"),
    level: choice(HEADING_LEVELS, "h2"),
    fontSize: num(12, 72, 28),
    ...typography,
    color: color("#111111"),
  },
  header: {
    title: text("Your Campaign"),
    tagline: text(""),
    logoUrl: url(),
    backgroundColor: color("#1e3a8a"),
    textColor: color("#ffffff"),
    align: choice(ALIGNS, "center"),
  },
  image: { src: url(), alt: text(""), width: num(20, 600, 600), align: choice(ALIGNS, "center"), href: url() },
  button: {
    text: text("Learn More", 120),
    url: url(),
    backgroundColor: color("#2563eb"),
    textColor: color("#ffffff"),
    align: choice(ALIGNS, "center"),
    padding: num(4, 40, 12),
    borderRadius: num(0, 40, 6),
  },
  spacer: { height: num(4, 200, 24) },
  divider: { borderColor: color("#e5e7eb"), borderWidth: num(1, 10, 1), margin: num(0, 60, 16) },
  columns: {
    columns: num(MIN_COLUMNS, MAX_COLUMNS, 2, 1),
    gap: num(0, 48, 16),
    distribution: choice(DISTRIBUTIONS, "equal"),
  },
  section: { backgroundColor: color("#ffffff"), padding: num(0, 80, 20), borderRadius: num(0, 40, 0) },
  hero: {
    heroTitle: text("Make your voice heard"),
    heroSubtitle: text("", 1_000, true),
    backgroundImage: url(),
    backgroundColor: color("#1e3a8a"),
    textColor: color("#ffffff"),
    height: num(120, 600, 300),
    padding: num(0, 80, 40),
    textAlign: choice(ALIGNS, "center"),
    overlay: bool(true),
    overlayOpacity: num(0, 1, DEFAULT_OVERLAY_OPACITY, 0.1),
  },
  card: {
    shadow: choice(SHADOWS, "md"),
    backgroundColor: color("#ffffff"),
    padding: num(0, 80, 20),
    borderRadius: num(0, 40, 8),
  },
  sidebar: {
    sidebarWidth: num(20, 50, 33, 1),
    sidebarPosition: choice(SIDEBAR_POSITIONS, "left"),
    gap: num(0, 48, 16),
    sidebarBackground: color("#f3f4f6"),
    mainBackground: color("#ffffff"),
  },
  container: {
    maxWidth: num(200, 600, 600),
    padding: num(0, 80, 20),
    margin: num(0, 80, 0),
    backgroundColor: color("#ffffff"),
  },
  footer: {
    companyName: text("Your Campaign"),
    copyrightYear: num(1900, 2100, 2026, 1),
    address: text("123 Main Street, Springfield, ST 00000", 300),
    showUnsubscribe: bool(true),
    unsubscribeText: text("Unsubscribe", 100),
    showPrivacy: bool(true),
    privacyText: text("Privacy Policy", 100),
    privacyUrl: url(),
    showContact: bool(true),
    contactText: text("Contact Us", 100),
    contactUrl: url(),
    backgroundColor: color("#f3f4f6"),
    textColor: color("#4b5563"),
    linkColor: color("#2563eb"),
    padding: num(0, 80, 24),
  },
};

/** The number of column lists a columns/sidebar block holds. */
export function columnCount(block: Pick<EmailBlock, "type" | "content">): number {
  if (block.type === "sidebar") return 2;
  if (block.type !== "columns") return 0;
  const n = block.content.columns;
  return typeof n === "number" ? clampColumns(n) : 2;
}

export function clampColumns(n: number): number {
  return Math.max(MIN_COLUMNS, Math.min(MAX_COLUMNS, Math.round(n)));
}

export { isHexColor };

/** A link or image address the email may carry: http(s), mailto, or a merge variable standing for one. */
export function isSafeUrl(value: string): boolean {
  if (value.length > MAX_URL_LENGTH) return false;
  if (/^\{\{\s*[a-z_]+(?:\.[a-z_]+)?\s*\}\}$/.test(value)) return true;
  return /^(https?:\/\/[^\s"'<>\\]+|mailto:[^\s"'<>\\]+)$/i.test(value);
}

/** The default content of a new block (the footer's year is the current one). */
export function defaultContent(type: BlockType, now = new Date()): Record<string, BlockValue> {
  const out: Record<string, BlockValue> = {};
  for (const [key, spec] of Object.entries(BLOCK_PROPS[type])) out[key] = spec.def;
  if (type === "footer") out.copyrightYear = now.getFullYear();
  return out;
}

/** A new block of `type` with its defaults (and empty child lists for containers). */
export function newBlock(type: BlockType, id: string, now = new Date()): EmailBlock {
  const content: BlockContent = defaultContent(type, now);
  if (isWrapper(type)) content.children = [];
  if (hasColumns(type)) content.columnChildren = Array.from({ length: columnCount({ type, content }) }, () => []);
  return { id, type, content };
}

/**
 * One property's value brought within its bounds: numbers clamped (and stepped), choices and
 * colours outside their set fall back to the default, text cut to its length, unsafe links
 * dropped ("" — the renderer leaves the link out).
 */
export function normalizeProp(spec: PropSpec, value: unknown): BlockValue {
  switch (spec.kind) {
    case "number": {
      const n =
        typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
      if (!Number.isFinite(n)) return spec.def;
      const clamped = Math.max(spec.min, Math.min(spec.max, n));
      return spec.step ? Math.round(Math.round(clamped / spec.step) * spec.step * 1000) / 1000 : clamped;
    }
    case "text":
      return typeof value === "string" ? value.slice(0, spec.max) : spec.def;
    case "url":
      return typeof value === "string" && (value === "" || isSafeUrl(value.trim())) ? value.trim() : "";
    case "color":
      return typeof value === "string" && isHexColor(value) ? value : spec.def;
    case "choice":
      return spec.options.includes(value as string | number) ? (value as string | number) : spec.def;
    case "boolean":
      return typeof value === "boolean" ? value : spec.def;
  }
}

export class BlockDocumentError extends Error {}

/**
 * A document as the renderer and the server accept it: known types only, every property within
 * bounds, unknown properties dropped, children only where the drop rules allow, ids unique, at
 * most MAX_BLOCKS blocks and MAX_DEPTH levels. Throws BlockDocumentError for what cannot be
 * repaired (not a list, an unknown type, a misplaced block, a repeated id, too many blocks).
 */
export function normalizeBlocks(input: unknown): EmailBlock[] {
  const seen = new Set<string>();
  const walk = (list: unknown, parent: DropParent, depth: number): EmailBlock[] => {
    if (!Array.isArray(list)) throw new BlockDocumentError("The email content is not a list of blocks.");
    if (depth > MAX_DEPTH) throw new BlockDocumentError("Blocks are nested too deeply.");
    return list.map((raw) => {
      if (typeof raw !== "object" || raw === null) throw new BlockDocumentError("A block is not an object.");
      const { id, type, content } = raw as { id?: unknown; type?: unknown; content?: unknown };
      if (typeof id !== "string" || id === "" || id.length > 64)
        throw new BlockDocumentError("A block has no valid id.");
      if (seen.has(id)) throw new BlockDocumentError(`Block ${id} appears twice.`);
      seen.add(id);
      if (seen.size > MAX_BLOCKS) throw new BlockDocumentError(`An email holds at most ${MAX_BLOCKS} blocks.`);
      if (typeof type !== "string" || !(BLOCK_TYPES as readonly string[]).includes(type))
        throw new BlockDocumentError(`Unknown block type "${String(type).slice(0, 40)}".`);
      const t = type as BlockType;
      if (!canDrop(t, parent)) throw new BlockDocumentError(`A ${BLOCK_LABELS[t]} block cannot go there.`);
      const given = typeof content === "object" && content !== null ? (content as Record<string, unknown>) : {};
      const out: BlockContent = {};
      for (const [key, spec] of Object.entries(BLOCK_PROPS[t])) out[key] = normalizeProp(spec, given[key]);
      if (isWrapper(t)) out.children = walk(given.children ?? [], { type: t, slot: 0 }, depth + 1);
      if (hasColumns(t)) {
        const n = columnCount({ type: t, content: out });
        const cols = Array.isArray(given.columnChildren) ? given.columnChildren : [];
        out.columnChildren = Array.from({ length: n }, (_, i) => walk(cols[i] ?? [], { type: t, slot: i }, depth + 1));
        // children of columns removed by lowering the count move into the last column kept
        for (let i = n; i < cols.length; i++)
          out.columnChildren[n - 1].push(...walk(cols[i], { type: t, slot: n - 1 }, depth + 1));
      }
      return { id, type: t, content: out };
    });
  };
  return walk(input, null, 0);
}

/** Every block of the document, depth first (containers before their children). */
export function allBlocks(blocks: EmailBlock[]): EmailBlock[] {
  const out: EmailBlock[] = [];
  const visit = (list: EmailBlock[]) => {
    for (const b of list) {
      out.push(b);
      const children = b.content.children;
      if (Array.isArray(children)) visit(children as EmailBlock[]);
      const cols = b.content.columnChildren;
      if (Array.isArray(cols)) for (const c of cols as EmailBlock[][]) visit(c);
    }
  };
  visit(blocks);
  return out;
}

/** The document with a footer at the end when it has none (loaded templates and messages). */
export function withFooter(blocks: EmailBlock[], newId: () => string, now = new Date()): EmailBlock[] {
  return blocks.some((b) => b.type === "footer") ? blocks : [...blocks, newBlock("footer", newId(), now)];
}

/** The children of a wrapper or one column of a columns/sidebar block. */
export function childrenOf(block: EmailBlock, slot = 0): EmailBlock[] {
  if (isWrapper(block.type)) return (block.content.children as EmailBlock[] | undefined) ?? [];
  if (hasColumns(block.type)) return ((block.content.columnChildren as EmailBlock[][] | undefined) ?? [])[slot] ?? [];
  return [];
}
