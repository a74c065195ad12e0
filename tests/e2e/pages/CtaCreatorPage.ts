/**
 * /cta-creator: the CTA creator (templates and Add Elements on the left, the fabric canvas in the
 * middle, the property panel on the right) and its Preview and Embed Code dialogs.
 *
 * The canvas is drawn by fabric, so the page object reads the design from the element list beside
 * it (a listbox: `[data-testid="cta.element"]` options with data-x, data-y, data-width, data-height,
 * data-fill, data-z-index, aria-selected for the selected one) and reaches an element on screen
 * from those coordinates and the canvas's box.
 */
import { expect, type Locator, type Page } from "@playwright/test";

export type ElementBox = { x: number; y: number; width: number; height: number };

export class CtaCreatorPage {
  readonly canvas: Locator;
  readonly elements: Locator;
  readonly selected: Locator;
  /** the element list (a listbox: arrow keys select, Enter edits, Escape deselects) */
  readonly elementList: Locator;
  readonly name: Locator;
  readonly description: Locator;
  readonly title: Locator;
  readonly count: Locator;
  readonly empty: Locator;
  readonly unsaved: Locator;
  readonly dragging: Locator;
  readonly props: Locator;
  readonly saveButton: Locator;
  readonly saveTemplateButton: Locator;
  readonly previewButton: Locator;
  readonly getCodeButton: Locator;
  readonly undoButton: Locator;
  readonly redoButton: Locator;
  readonly previewDialog: Locator;
  readonly embedDialog: Locator;
  readonly embedCode: Locator;
  readonly embedUrl: Locator;
  readonly remoteSelections: Locator;
  readonly presence: Locator;

  constructor(readonly page: Page) {
    this.canvas = page.getByTestId("cta.canvas");
    this.elements = page.getByTestId("cta.element");
    this.selected = page.locator('[data-testid="cta.element"][aria-selected="true"]');
    this.elementList = page.getByRole("listbox", { name: /^Elements/ });
    this.name = page.getByTestId("cta.name");
    this.description = page.getByTestId("cta.description");
    this.title = page.getByTestId("cta.title");
    this.count = page.getByTestId("cta.count");
    this.empty = page.getByTestId("cta.empty");
    this.unsaved = page.getByTestId("cta.unsaved");
    this.dragging = page.getByTestId("cta.dragging");
    this.props = page.getByTestId("cta.props");
    this.saveButton = page.getByTestId("cta.save");
    this.saveTemplateButton = page.getByTestId("cta.saveTemplate");
    this.previewButton = page.getByTestId("cta.previewButton");
    this.getCodeButton = page.getByTestId("cta.getCode");
    this.undoButton = page.getByTestId("cta.undo");
    this.redoButton = page.getByTestId("cta.redo");
    this.previewDialog = page.getByTestId("cta.previewDialog");
    this.embedDialog = page.getByTestId("cta.embedDialog");
    this.embedCode = page.getByTestId("cta.embed.code");
    this.embedUrl = page.getByTestId("cta.embed.url");
    this.remoteSelections = page.getByTestId("cta.remote-selection");
    this.presence = page.getByTestId("presence");
  }

  /** A new CTA, or a saved one by id; waits for the canvas. */
  async goto(ctaId?: string) {
    await this.page.goto(ctaId ? `/cta-creator?cta=${ctaId}` : "/cta-creator");
    await expect(this.canvas).toBeVisible({ timeout: 15_000 });
  }

  /** The saved CTA's id in the address (?cta=…), or null for a new one. */
  ctaId(): string | null {
    return new URL(this.page.url()).searchParams.get("cta");
  }

  /** Loads a template by its exact name from the Templates panel. */
  async loadTemplate(name: string) {
    await this.page
      .getByTestId("cta.template")
      .filter({ has: this.page.getByText(name, { exact: true }) })
      .first()
      .click();
    await expect(this.toast("Template loaded")).toBeVisible();
  }

  async add(type: "text" | "image" | "rectangle" | "circle") {
    await this.page.getByTestId(`cta.add.${type}`).click();
  }

  /** A field of the selected element's properties (x, y, width, height, text, fill, link, zIndex…). */
  prop(key: string): Locator {
    return this.page.getByTestId(`cta.prop.${key}`);
  }

  layer(op: "front" | "forward" | "backward" | "back"): Locator {
    return this.page.getByTestId(`cta.layer.${op}`);
  }

  centre(mode: "horizontal" | "vertical" | "both"): Locator {
    return this.page.getByTestId(`cta.centre.${mode}`);
  }

  /** A canvas setting: width, height, background. */
  setting(key: "width" | "height" | "background"): Locator {
    return this.page.getByTestId(`cta.canvas.${key}`);
  }

  /** An element's entry in the hidden list. */
  element(id: string): Locator {
    return this.page.locator(`[data-testid="cta.element"][data-element-id="${id}"]`);
  }

  /** A teammate's outline (with their name) on an element. */
  remoteSelection(id: string): Locator {
    return this.page.locator(`[data-testid="cta.remote-selection"][data-element-id="${id}"]`);
  }

  /** Elements of a type (text, rectangle, circle, image), back to front. */
  elementsOf(type: string): Locator {
    return this.page.locator(`[data-testid="cta.element"][data-type="${type}"]`);
  }

  async idOf(element: Locator): Promise<string> {
    const id = await element.getAttribute("data-element-id");
    if (!id) throw new Error("not a CTA element");
    return id;
  }

  /** The element ids back to front (drawing order). */
  async order(): Promise<string[]> {
    return this.elements.evaluateAll((els) => els.map((e) => e.getAttribute("data-element-id") ?? ""));
  }

  /** An element's box in design units. */
  async box(id: string): Promise<ElementBox> {
    return this.element(id).evaluate((el) => ({
      x: Number(el.getAttribute("data-x")),
      y: Number(el.getAttribute("data-y")),
      width: Number(el.getAttribute("data-width")),
      height: Number(el.getAttribute("data-height")),
    }));
  }

  async position(id: string): Promise<{ x: number; y: number }> {
    const { x, y } = await this.box(id);
    return { x, y };
  }

  /** The design's size, from the canvas settings. */
  async designSize(): Promise<{ width: number; height: number }> {
    return {
      width: Number(await this.setting("width").inputValue()),
      height: Number(await this.setting("height").inputValue()),
    };
  }

  /** Where a point of an element is on the page (fx, fy: fractions of its box; or dx, dy: design px from its top-left). */
  async pointOn(
    id: string,
    at: { fx?: number; fy?: number; dx?: number; dy?: number } = {},
  ): Promise<{ x: number; y: number }> {
    await this.canvas.scrollIntoViewIfNeeded();
    const frame = (await this.canvas.boundingBox())!;
    const { width } = await this.designSize();
    const scale = frame.width / width;
    const b = await this.box(id);
    const ex = b.x + (at.dx ?? b.width * (at.fx ?? 0.5));
    const ey = b.y + (at.dy ?? b.height * (at.fy ?? 0.5));
    return { x: frame.x + ex * scale, y: frame.y + ey * scale };
  }

  /** The canvas's display scale (below 1 on a narrow screen). */
  async scale(): Promise<number> {
    const frame = (await this.canvas.boundingBox())!;
    return frame.width / (await this.designSize()).width;
  }

  /**
   * Selects an element by clicking it on the canvas (at a point of its box clear of what lies on top).
   * The point is measured just before the click; if the page moved in between (a teammate's presence
   * line appearing above the canvas), the click landed elsewhere and is made again at the new point.
   */
  async select(id: string, at: { fx?: number; fy?: number; dx?: number; dy?: number } = {}) {
    await expect(async () => {
      if ((await this.element(id).getAttribute("aria-selected")) !== "true") {
        const p = await this.pointOn(id, at);
        await this.page.mouse.click(p.x, p.y);
      }
      await expect(this.element(id)).toHaveAttribute("aria-selected", "true", { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
  }

  /**
   * Drags an element with the mouse by (dx, dy) screen pixels, in steps; `during` runs while the
   * button is still down, halfway through (the move so far shows "Dragging...").
   */
  async drag(
    id: string,
    dx: number,
    dy: number,
    opts: { at?: { fx?: number; fy?: number; dx?: number; dy?: number }; during?: () => Promise<void> } = {},
  ) {
    const from = await this.pointOn(id, opts.at);
    await this.page.mouse.move(from.x, from.y);
    await this.page.mouse.down();
    await this.page.mouse.move(from.x + dx / 2, from.y + dy / 2, { steps: 8 });
    await expect(this.dragging).toBeVisible();
    await opts.during?.();
    await this.page.mouse.move(from.x + dx, from.y + dy, { steps: 8 });
    await this.page.mouse.up();
    await expect(this.dragging).toBeHidden();
  }

  async save() {
    await this.saveButton.click();
  }

  async openEmbedCode() {
    await this.getCodeButton.click();
    await expect(this.embedDialog).toBeVisible();
  }

  async openPreview() {
    await this.previewButton.click();
    await expect(this.previewDialog).toBeVisible();
  }

  /** A toast by its title (the newest with that text). */
  toast(text: string | RegExp): Locator {
    return this.page.locator("[data-sonner-toast]").filter({ hasText: text }).last();
  }
}
