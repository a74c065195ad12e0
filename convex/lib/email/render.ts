/**
 * The email a block document becomes (spec/2 §3 "Email block types", §5, §9): the document →
 * MJML → email-safe HTML (tables, 600 px wide, columns stacking on phones), the plain-text part
 * and the size meter. Pure TypeScript: the MJML compiler is passed in (`mjml` on the server,
 * `mjml-browser` in the builder's preview), so this runs in the browser, Convex and Node alike.
 *
 * Layout. Header, hero, footer and the wrappers (section, card, container) are rows of the
 * email; content blocks next to each other share one row (an mj-section with one mj-column);
 * columns and sidebar are a row of mj-columns. At the top level a row is inset 24 px and white on
 * the light grey page; inside a wrapper the wrapper's padding is the inset.
 *
 * Safety. The document goes through `normalizeBlocks` first (numbers clamped, colours hex, choices
 * from their lists, links `isSafeUrl` or ""). Every string a user typed is escaped for HTML text
 * and attributes; a link or image whose address is "" is left out; numbers are written as
 * numbers. Merge variables (`{{voter.first_name}}`) are plain text to MJML and come out intact
 * (its template-variable rewriting only runs when minifying or beautifying, which stay off).
 */
import {
  allBlocks,
  BlockDocumentError,
  childrenOf,
  columnCount,
  LEAF_TYPES,
  normalizeBlocks,
  type EmailBlock,
} from "./blocks";

/** mjml2html of `mjml` 5 / `mjml-browser` 5 (both async). */
export type MjmlCompiler = (
  mjml: string,
  options: Record<string, unknown>,
) => Promise<{ html: string; errors: Array<{ message: string }> }>;

export type RenderOptions = { title?: string; previewText?: string };
export type RenderedEmail = { html: string; text: string; bytes: number; errors: string[] };

/** Gmail clips a message above 102 KB; the builder warns from 90 KB. */
export const EMAIL_WARN_BYTES = 90 * 1024;
export const EMAIL_MAX_BYTES = 102 * 1024;

export const EMAIL_WIDTH = 600;
/** Web-safe only: no web font is linked (the compiler gets `fonts: {}`). */
export const FONT_STACK = "Helvetica, Arial, sans-serif";
const PAGE_BACKGROUND = "#f3f4f6";
const ROW_BACKGROUND = "#ffffff";
/** The top-level rows' left and right inset, and the space above and below a content block. */
const INSET = 24;
const GAP = 8;

const SHADOW_CSS: Record<string, string> = {
  sm: "0 1px 2px 0 rgba(0,0,0,0.05)",
  md: "0 4px 6px -1px rgba(0,0,0,0.1), 0 2px 4px -2px rgba(0,0,0,0.1)",
  lg: "0 10px 15px -3px rgba(0,0,0,0.1), 0 4px 6px -4px rgba(0,0,0,0.1)",
  xl: "0 20px 25px -5px rgba(0,0,0,0.1), 0 8px 10px -6px rgba(0,0,0,0.1)",
};
/** Drawn under a card's shadow, for clients that show no box-shadow. */
const CARD_BORDER = "1px solid #e5e7eb";

/** Relative column widths (%) of a two-column block; three and four columns are always equal. */
const DISTRIBUTION_WIDTHS: Record<string, [number, number]> = {
  equal: [50, 50],
  "1-2": [100 / 3, 200 / 3],
  "2-1": [200 / 3, 100 / 3],
  "1-3": [25, 75],
  "3-1": [75, 25],
};

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text for HTML: safe both between tags and inside a quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Multi-line text as HTML: escaped, each newline a line break. */
function lines(value: string): string {
  return escapeHtml(value).replace(/\r\n?|\n/g, "<br />");
}

/**
 * A checked link or image address made safe for a CSS `url('…')` too (isSafeUrl already refuses
 * quotes, spaces and angle brackets; a bracket or backslash could still end the url( ) early).
 */
export function cssSafeUrl(value: string): string {
  return value.replace(/[()\\]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

type Attrs = Record<string, string | number | undefined>;

/** MJML attributes, every value escaped; undefined and "" are left out. */
function attrs(values: Attrs): string {
  let out = "";
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && value !== "") out += ` ${name}="${escapeHtml(String(value))}"`;
  return out;
}

const px = (n: number) => `${Math.round(n)}px`;
function str(b: EmailBlock, key: string): string {
  const value = b.content[key];
  return typeof value === "string" ? value : "";
}
function num(b: EmailBlock, key: string): number {
  const value = b.content[key];
  return typeof value === "number" ? value : 0;
}
const isLeaf = (b: EmailBlock) => LEAF_TYPES.includes(b.type);

/** One mj-section of the email before it is written out (a container still adds its padding). */
type Row = { top: number; bottom: number; inset: number; background?: string; gutter?: number; body: string };
function writeRow(row: Row): string {
  const padding = `${px(row.top)} ${px(row.inset)} ${px(row.bottom)}`;
  return `<mj-section${attrs({ "background-color": row.background, padding, gutter: row.gutter ? px(row.gutter) : undefined })}>${row.body}</mj-section>`;
}
const column = (body: string, extra: Attrs = {}) => `<mj-column${attrs(extra)}>${body}</mj-column>`;

/** What a document needs besides its rows: CSS that MJML inlines (shadows, hero overlays). */
type Sheet = { rules: Map<string, string>; heroes: number };

// ----- content blocks (inside a column) -----

function typography(b: EmailBlock): Attrs {
  return {
    color: str(b, "color"),
    align: str(b, "align"),
    "line-height": num(b, "lineHeight"),
    "letter-spacing": str(b, "letterSpacing"),
  };
}

function leaf(b: EmailBlock): string {
  const padding = `${GAP}px 0`;
  switch (b.type) {
    case "text":
      return `<mj-text${attrs({ padding, "font-size": px(num(b, "fontSize")), ...typography(b) })}>${lines(str(b, "text"))}</mj-text>`;
    case "heading": {
      const tag = str(b, "level");
      const style = `margin:0;font-size:${px(num(b, "fontSize"))};line-height:${num(b, "lineHeight")};letter-spacing:${str(b, "letterSpacing")};color:${str(b, "color")};font-weight:bold;`;
      return `<mj-text${attrs({ padding, "font-size": px(num(b, "fontSize")), ...typography(b) })}><${tag} style="${style}">${escapeHtml(str(b, "text"))}</${tag}></mj-text>`;
    }
    case "image": {
      const src = str(b, "src");
      if (src === "") return "";
      return `<mj-image${attrs({ padding, src: cssSafeUrl(src), alt: str(b, "alt"), width: px(num(b, "width")), align: str(b, "align"), href: cssSafeUrl(str(b, "href")) })} />`;
    }
    case "button": {
      const pad = num(b, "padding");
      const button = {
        padding,
        href: cssSafeUrl(str(b, "url")),
        "background-color": str(b, "backgroundColor"),
        color: str(b, "textColor"),
        align: str(b, "align"),
        "inner-padding": `${px(pad)} ${px(pad * 2)}`,
        "border-radius": px(num(b, "borderRadius")),
        "font-size": "16px",
        "font-weight": "bold",
      };
      return `<mj-button${attrs(button)}>${escapeHtml(str(b, "text"))}</mj-button>`;
    }
    case "spacer":
      return `<mj-spacer${attrs({ height: px(num(b, "height")), padding: "0" })} />`;
    case "divider":
      return `<mj-divider${attrs({ "border-color": str(b, "borderColor"), "border-width": px(num(b, "borderWidth")), padding: `${px(num(b, "margin"))} 0` })} />`;
    default:
      throw new BlockDocumentError(`A ${b.type} block cannot go in a column.`);
  }
}

// ----- rows -----

/** Column widths in % of a columns or sidebar block, in the order they are drawn. */
export function columnWidths(b: EmailBlock): number[] {
  if (b.type === "sidebar") {
    const side = num(b, "sidebarWidth");
    return str(b, "sidebarPosition") === "right" ? [100 - side, side] : [side, 100 - side];
  }
  const n = columnCount(b);
  if (n === 2) return DISTRIBUTION_WIDTHS[str(b, "distribution")] ?? DISTRIBUTION_WIDTHS.equal;
  return Array.from({ length: n }, () => 100 / n);
}

const percent = (w: number) => `${Math.round(w * 100) / 100}%`;

/** A columns or sidebar block as one row; `inset` is the row's left and right padding. */
function columnsRow(b: EmailBlock, inset: number, background: string | undefined): Row {
  const lists = b.content.columnChildren as EmailBlock[][];
  const widths = columnWidths(b);
  const gap = num(b, "gap");
  let body: string;
  if (b.type === "sidebar") {
    const sidebar = { list: lists[0], background: str(b, "sidebarBackground") };
    const main = { list: lists[1], background: str(b, "mainBackground") };
    const order = str(b, "sidebarPosition") === "right" ? [main, sidebar] : [sidebar, main];
    body = order
      .map((c, i) =>
        column(c.list.map(leaf).join(""), {
          width: percent(widths[i]),
          "background-color": c.background,
          padding: px(12),
        }),
      )
      .join("");
  } else {
    body = lists.map((list, i) => column(list.map(leaf).join(""), { width: percent(widths[i]) })).join("");
  }
  return { top: GAP, bottom: GAP, inset, background, gutter: gap, body };
}

/** The rows of a list of blocks: content blocks next to each other share one. */
function rows(list: EmailBlock[], inset: number, background: string | undefined): Row[] {
  const out: Row[] = [];
  let run: EmailBlock[] = [];
  const flush = () => {
    if (run.length > 0) out.push({ top: 0, bottom: 0, inset, background, body: column(run.map(leaf).join("")) });
    run = [];
  };
  for (const b of list) {
    if (isLeaf(b)) {
      run.push(b);
      continue;
    }
    flush();
    if (b.type === "columns" || b.type === "sidebar") out.push(columnsRow(b, inset, background));
    else throw new BlockDocumentError(`A ${b.type} block cannot go there.`);
  }
  flush();
  return out;
}

/** A block on the canvas as MJML. */
function topLevel(b: EmailBlock, sheet: Sheet): string {
  switch (b.type) {
    case "header":
      return writeRow(header(b));
    case "hero":
      return hero(b, sheet);
    case "footer":
      return writeRow(footer(b));
    case "section":
    case "card":
      return wrapper(b, sheet);
    case "container":
      return container(b);
    default:
      return rows([b], INSET, ROW_BACKGROUND).map(writeRow).join("");
  }
}

function header(b: EmailBlock): Row {
  const align = str(b, "align");
  const color = str(b, "textColor");
  const logo = str(b, "logoUrl");
  const title = str(b, "title");
  const tagline = str(b, "tagline");
  let body = "";
  if (logo !== "")
    body += `<mj-image${attrs({ src: cssSafeUrl(logo), alt: title, width: "120px", align, padding: `0 0 ${GAP}px` })} />`;
  if (title !== "")
    body += `<mj-text${attrs({ color, align, "font-size": "26px", "font-weight": "bold", "line-height": "1.25", padding: "0" })}>${escapeHtml(title)}</mj-text>`;
  if (tagline !== "")
    body += `<mj-text${attrs({ color, align, "font-size": "15px", "line-height": "1.5", padding: "4px 0 0" })}>${escapeHtml(tagline)}</mj-text>`;
  return { top: INSET, bottom: INSET, inset: INSET, background: str(b, "backgroundColor"), body: column(body) };
}

function hero(b: EmailBlock, sheet: Sheet): string {
  const height = num(b, "height");
  const padding = num(b, "padding");
  const image = str(b, "backgroundImage");
  const color = str(b, "textColor");
  const align = str(b, "textAlign");
  const opacity = num(b, "overlayOpacity");
  let cssClass: string | undefined;
  if (image !== "" && b.content.overlay === true && opacity > 0) {
    // mj-hero paints `background: colour url(image)`; the overlay is a gradient layer over the
    // image, inlined into the hero's cell after that shorthand (!important: juice, which MJML
    // inlines with, otherwise puts it first, where the shorthand would reset it). Clients without
    // gradients show the plain image.
    sheet.heroes += 1;
    cssClass = `pc-hero-${sheet.heroes}`;
    const shade = `rgba(0,0,0,${opacity})`;
    sheet.rules.set(
      `.${cssClass} > table > tbody > tr > td`,
      `background-image: linear-gradient(${shade},${shade}), url('${escapeHtml(cssSafeUrl(image))}') !important;`,
    );
  }
  const heroAttrs = {
    mode: "fixed-height",
    height: px(height),
    "background-color": str(b, "backgroundColor"),
    "background-url": image === "" ? undefined : cssSafeUrl(image),
    "background-position": "center center",
    // the hero's fixed height includes its padding: never more padding than height
    padding: `${px(Math.min(padding, Math.floor(height / 2)))} ${px(padding)}`,
    "vertical-align": "middle",
    "css-class": cssClass,
  };
  const title = str(b, "heroTitle");
  const subtitle = str(b, "heroSubtitle");
  let body = "";
  if (title !== "") {
    const style = `margin:0;font-size:36px;line-height:1.2;color:${color};font-weight:bold;`;
    body += `<mj-text${attrs({ color, align, "font-size": "36px", "line-height": "1.2", padding: "0" })}><h1 style="${style}">${escapeHtml(title)}</h1></mj-text>`;
  }
  if (subtitle !== "")
    body += `<mj-text${attrs({ color, align, "font-size": "18px", "line-height": "1.5", padding: `${title === "" ? 0 : 12}px 0 0` })}>${lines(subtitle)}</mj-text>`;
  return `<mj-hero${attrs(heroAttrs)}>${body}</mj-hero>`;
}

/** Section and card: a wrapper with its own background, padding and corners around its rows. */
function wrapper(b: EmailBlock, sheet: Sheet): string {
  const shadow = b.type === "card" ? str(b, "shadow") : "none";
  let cssClass: string | undefined;
  if (shadow !== "none") {
    cssClass = `pc-shadow-${shadow}`;
    sheet.rules.set(`.${cssClass}`, `box-shadow: ${SHADOW_CSS[shadow]};`);
  }
  const wrapperAttrs = {
    "background-color": str(b, "backgroundColor"),
    padding: px(num(b, "padding")),
    "border-radius": px(num(b, "borderRadius")),
    border: shadow !== "none" ? CARD_BORDER : undefined,
    "css-class": cssClass,
  };
  return `<mj-wrapper${attrs(wrapperAttrs)}>${rows(childrenOf(b), 0, undefined).map(writeRow).join("")}</mj-wrapper>`;
}

/**
 * Container: at most maxWidth wide and `margin` away from what is around it (as in CSS: the
 * margin outside, the background and padding inside), centred in the white of the email.
 */
function container(b: EmailBlock): string {
  const margin = num(b, "margin");
  const padding = num(b, "padding");
  const background = str(b, "backgroundColor");
  const width = Math.min(num(b, "maxWidth"), EMAIL_WIDTH - 2 * margin);
  const inset = (EMAIL_WIDTH - width) / 2;
  const inner = rows(childrenOf(b), padding, background);
  if (inner.length === 0) inner.push({ top: 0, bottom: 0, inset: padding, background, body: "" });
  inner[0].top += padding;
  inner[inner.length - 1].bottom += padding;
  return `<mj-wrapper${attrs({ "background-color": ROW_BACKGROUND, padding: `${px(margin)} ${px(inset)}` })}>${inner.map(writeRow).join("")}</mj-wrapper>`;
}

function footer(b: EmailBlock): Row {
  const linkStyle = `color:${str(b, "linkColor")};text-decoration:underline;`;
  const link = (href: string, text: string) =>
    `<a href="${escapeHtml(href)}" style="${linkStyle}">${escapeHtml(text)}</a>`;
  const company = str(b, "companyName");
  const address = str(b, "address");
  const parts = [`&copy; ${num(b, "copyrightYear")}${company === "" ? "" : " " + escapeHtml(company)}`];
  if (address !== "") parts.push(escapeHtml(address));
  const links: string[] = [];
  for (const [show, url, label] of footerLinks(b)) if (show && url !== "") links.push(link(cssSafeUrl(url), label));
  if (links.length > 0) parts.push(links.join(" &middot; "));
  const text = attrs({
    color: str(b, "textColor"),
    align: "center",
    "font-size": "12px",
    "line-height": "1.6",
    padding: "0",
  });
  const padding = num(b, "padding");
  return {
    top: padding,
    bottom: padding,
    inset: INSET,
    background: str(b, "backgroundColor"),
    body: column(`<mj-text${text}>${parts.join("<br />")}</mj-text>`),
  };
}

/** The footer's links in order: [shown, address, text]; unsubscribe is always the merge variable. */
function footerLinks(b: EmailBlock): Array<[boolean, string, string]> {
  return [
    [b.content.showUnsubscribe === true, "{{unsubscribe_url}}", str(b, "unsubscribeText")],
    [b.content.showPrivacy === true, str(b, "privacyUrl"), str(b, "privacyText")],
    [b.content.showContact === true, str(b, "contactUrl"), str(b, "contactText")],
  ];
}

// ----- documents -----

function mjmlOf(blocks: EmailBlock[], opts: RenderOptions): string {
  const sheet: Sheet = { rules: new Map(), heroes: 0 };
  const body = blocks.map((b) => topLevel(b, sheet)).join("\n");
  let head = `<mj-attributes><mj-all font-family="${FONT_STACK}" /></mj-attributes>`;
  if (opts.title) head += `<mj-title>${escapeHtml(opts.title)}</mj-title>`;
  if (opts.previewText) head += `<mj-preview>${escapeHtml(opts.previewText)}</mj-preview>`;
  if (sheet.rules.size > 0)
    head += `<mj-style inline="inline">${[...sheet.rules].map(([selector, css]) => `${selector} { ${css} }`).join("\n")}</mj-style>`;
  return `<mjml lang="en" dir="ltr"><mj-head>${head}</mj-head><mj-body${attrs({ width: px(EMAIL_WIDTH), "background-color": PAGE_BACKGROUND })}>\n${body}\n</mj-body></mjml>`;
}

/** The document as a complete MJML document (normalized first; throws BlockDocumentError for what cannot be repaired). */
export function blocksToMjml(blocks: EmailBlock[], opts: RenderOptions = {}): string {
  return mjmlOf(normalizeBlocks(blocks), opts);
}

const RULE = "-".repeat(40);

function textOf(b: EmailBlock): string {
  switch (b.type) {
    case "text":
    case "heading":
      return str(b, "text");
    case "header":
      return [str(b, "title"), str(b, "tagline")].filter(Boolean).join("\n");
    case "hero":
      return [str(b, "heroTitle"), str(b, "heroSubtitle")].filter(Boolean).join("\n\n");
    case "image":
      return str(b, "src") === "" ? "" : [str(b, "alt"), str(b, "href")].filter(Boolean).join(": ");
    case "button":
      return [str(b, "text"), str(b, "url")].filter(Boolean).join(": ");
    case "divider":
      return RULE;
    case "spacer":
      return "";
    case "columns":
    case "sidebar":
    case "section":
    case "card":
    case "container":
      // allBlocks lists the children right after their container
      return "";
    case "footer": {
      const company = str(b, "companyName");
      const out = [`© ${num(b, "copyrightYear")}${company === "" ? "" : " " + company}`];
      if (str(b, "address") !== "") out.push(str(b, "address"));
      for (const [show, url, label] of footerLinks(b)) if (show && url !== "") out.push(`${label}: ${url}`);
      return out.join("\n");
    }
  }
}

/** The plain-text part: every block's words in reading order (columns left to right), no HTML. */
export function blocksToText(blocks: EmailBlock[]): string {
  const texts = allBlocks(normalizeBlocks(blocks))
    .map(textOf)
    .map((t) => t.trim())
    .filter((t) => t !== "");
  return texts.join("\n\n") + "\n";
}

/**
 * The email of a document: HTML compiled by `compile` (MJML validation "soft": its complaints are
 * returned in `errors`), the plain-text part and the HTML's size in UTF-8 bytes. Throws
 * BlockDocumentError for a document `normalizeBlocks` cannot repair.
 */
export async function renderEmail(
  blocks: unknown,
  compile: MjmlCompiler,
  opts: RenderOptions = {},
): Promise<RenderedEmail> {
  const doc = normalizeBlocks(blocks);
  const result = await compile(mjmlOf(doc, opts), {
    validationLevel: "soft",
    fonts: {},
    minify: false,
    beautify: false,
  });
  return {
    html: result.html,
    text: blocksToText(doc),
    bytes: new TextEncoder().encode(result.html).length,
    errors: result.errors.map((e) => e.message),
  };
}

/** The size meter: "warn" from 90 KB, "over" above 102 KB (where Gmail clips the message). */
export function sizeLevel(bytes: number): "ok" | "warn" | "over" {
  if (bytes > EMAIL_MAX_BYTES) return "over";
  return bytes >= EMAIL_WARN_BYTES ? "warn" : "ok";
}

export function formatBytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
