/** /email: the email builder (library, canvas, property panel, message settings) and its dialogs and campaign list. */
import { choose } from "./controls";
import { expect, type Locator, type Page } from "@playwright/test";

export type MetaKey = "subject" | "fromName" | "fromEmail" | "replyTo" | "previewText";

export class EmailBuilderPage {
  readonly canvas: Locator;
  /** the canvas's own (top-level) list */
  readonly root: Locator;
  readonly name: Locator;
  readonly saveButton: Locator;
  readonly duplicateButton: Locator;
  readonly picker: Locator;
  readonly unsaved: Locator;
  readonly size: Locator;
  readonly unknownVariables: Locator;
  readonly undoButton: Locator;
  readonly redoButton: Locator;
  readonly props: Locator;
  readonly announcer: Locator;
  readonly previewDialog: Locator;
  readonly previewFrame: Locator;
  readonly testDialog: Locator;
  readonly testRecipients: Locator;
  readonly testSendButton: Locator;
  readonly historyDialog: Locator;
  readonly versions: Locator;
  readonly campaignList: Locator;
  readonly campaignListItems: Locator;
  readonly campaignSearch: Locator;
  readonly remoteSelection: Locator;
  readonly presence: Locator;

  constructor(readonly page: Page) {
    this.canvas = page.getByTestId("email.canvas");
    this.root = page.getByTestId("email.list.root.0");
    this.name = page.getByTestId("email.name");
    this.saveButton = page.getByTestId("email.save");
    this.duplicateButton = page.getByTestId("email.duplicate");
    this.picker = page.getByTestId("email.picker");
    this.unsaved = page.getByTestId("email.unsaved");
    this.size = page.getByTestId("email.size");
    this.unknownVariables = page.getByTestId("email.unknownVariables");
    this.undoButton = page.getByTestId("email.undo");
    this.redoButton = page.getByTestId("email.redo");
    this.props = page.getByTestId("email.props");
    this.announcer = page.getByTestId("email.announce");
    this.previewDialog = page.getByTestId("email.previewDialog");
    this.previewFrame = page.getByTestId("email.previewFrame");
    this.testDialog = page.getByTestId("email.testDialog");
    this.testRecipients = page.getByTestId("email.testRecipients");
    this.testSendButton = page.getByTestId("email.testSend");
    this.historyDialog = page.getByTestId("email.historyDialog");
    this.versions = page.getByTestId("email.version");
    this.campaignList = page.getByTestId("email.campaignList");
    this.campaignListItems = page.getByTestId("email.campaignList.item");
    this.campaignSearch = page.getByTestId("email.campaignList.search");
    this.remoteSelection = page.getByTestId("email.remoteSelection");
    this.presence = page.getByTestId("presence");
  }

  /** A new campaign, or an existing one by id; waits for the canvas. */
  async goto(campaignId?: string) {
    await this.page.goto(campaignId ? `/email?tab=create-and-edit&campaign=${campaignId}` : "/email");
    await expect(this.canvas).toBeVisible({ timeout: 15_000 });
  }

  /** The campaign id in the address (?campaign=…), or null for a new campaign. */
  campaignId(): string | null {
    const id = new URL(this.page.url()).searchParams.get("campaign");
    return id && id !== "new" ? id : null;
  }

  async loadTemplate(name: string) {
    await this.page.getByTestId("email.template").filter({ hasText: name }).click();
    await expect(this.page.getByText("Template loaded").first()).toBeVisible();
  }

  meta(key: MetaKey): Locator {
    return this.page.getByTestId(`email.meta.${key}`);
  }

  prop(key: string): Locator {
    return this.page.getByTestId(`email.prop.${key}`);
  }

  uploadInput(key: string): Locator {
    return this.page.getByTestId(`email.props.upload.${key}.input`);
  }

  libraryItem(type: string): Locator {
    return this.page.getByTestId(`email.library.${type}`);
  }

  /** Blocks of a type anywhere on the canvas. */
  blocks(type: string): Locator {
    return this.canvas.getByTestId(`email.block.${type}`);
  }

  block(id: string): Locator {
    return this.canvas.locator(`[data-block-id="${id}"]`);
  }

  /** The list of a container's column (slot), or the canvas's (parentId null). */
  list(parentId: string | null, slot = 0): Locator {
    return this.page.getByTestId(`email.list.${parentId ?? "root"}.${slot}`);
  }

  /** The blocks directly in a list, in order. */
  listBlocks(list: Locator): Locator {
    return list.locator(":scope > [data-block-id]");
  }

  async idOf(block: Locator): Promise<string> {
    const id = await block.getAttribute("data-block-id");
    if (!id) throw new Error("not a block");
    return id;
  }

  /** The ids of the blocks directly in a list, in order. */
  async order(list: Locator = this.root): Promise<string[]> {
    return this.listBlocks(list).evaluateAll((els) => els.map((e) => e.getAttribute("data-block-id") ?? ""));
  }

  /** A block's own drag handle (the first in it: its children's come after). */
  handle(block: Locator): Locator {
    return block.getByTestId("email.block.handle").first();
  }

  selected(): Locator {
    return this.canvas.locator("[data-selected=true]");
  }

  /** Selects a block by clicking it near its bottom-right (clear of its handle and of any inner block's). */
  async select(block: Locator) {
    await block.scrollIntoViewIfNeeded();
    const box = (await block.boundingBox())!;
    await block.click({ position: { x: box.width - 6, y: box.height - 4 } });
    await expect(block).toHaveAttribute("data-selected", "true");
  }

  /**
   * Clears the selection: focus leaves the block, and a click on the canvas itself (not a block).
   * After a drop, dnd-kit gives the moved block's handle its focus back once its drop animation
   * ends, and a focused block is selected: cleared until the selection stays cleared. (A pointer at
   * the canvas's corner can land under the builder's sticky toolbar when the page is scrolled, so the
   * click is dispatched on the element.)
   */
  async clearSelection() {
    await expect(async () => {
      await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur?.());
      await this.canvas.dispatchEvent("click");
      await expect(this.selected()).toHaveCount(0, { timeout: 1_000 });
      // still cleared a moment later (no focus given back meanwhile)
      await this.page.waitForTimeout(400);
      await expect(this.selected()).toHaveCount(0, { timeout: 1 });
    }).toPass({ timeout: 15_000 });
  }

  /** Adds a component by keyboard: focuses its library item and presses Enter (it goes after the selection). */
  async addByKeyboard(type: string) {
    await this.libraryItem(type).focus();
    await this.page.keyboard.press("Enter");
  }

  /**
   * Pointer drag from `from` to a point of `to` (`x`, `y`: fractions of its box; `dy`: px from its top),
   * moving in steps past dnd-kit's 8 px activation. Both are scrolled into view first.
   */
  async drag(from: Locator, to: Locator, at: { x?: number; y?: number; dy?: number } = {}) {
    // away from the edges of the window and of the panels, where dnd-kit scrolls them during a drag
    await this.canvas.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 60));
    await centreInPanel(to);
    await centreInPanel(from);
    const a = (await from.boundingBox())!;
    const b = (await to.boundingBox())!;
    const sx = a.x + a.width / 2;
    const sy = a.y + a.height / 2;
    const tx = b.x + b.width * (at.x ?? 0.5);
    const ty = b.y + (at.dy ?? b.height * (at.y ?? 0.5));
    await this.page.mouse.move(sx, sy);
    await this.page.mouse.down();
    await this.page.mouse.move(sx + 5, sy, { steps: 2 });
    await this.page.mouse.move(sx + 12, sy, { steps: 2 });
    // vertically first, then across: a scrolling box under the pointer scrolls when the pointer is near its top or bottom
    await this.page.mouse.move(sx + 12, ty, { steps: 10 });
    await this.page.mouse.move(tx, ty, { steps: 15 });
    await this.page.mouse.move(tx + 1, ty + 1, { steps: 2 });
    await this.page.mouse.up();
  }

  /**
   * Moves a block one place up with the keyboard through dnd-kit: its handle, Space, ArrowUp, Space,
   * waiting for dnd-kit's announcements (over itself once picked up, then over the block above).
   */
  async moveUpByKeyboard(block: Locator, aboveId: string) {
    const id = await this.idOf(block);
    const over = (target: string) =>
      this.page.getByText(`Draggable item ${id} was moved over droppable area ${target}.`);
    await this.handle(block).focus();
    await this.page.keyboard.press("Space");
    await expect(over(id)).toBeAttached();
    await expect(async () => {
      if (await over(id).count()) await this.page.keyboard.press("ArrowUp");
      await expect(over(aboveId)).toBeAttached({ timeout: 1000 });
    }).toPass();
    await this.page.keyboard.press("Space");
    await expect(this.page.getByText(`Draggable item ${id} was dropped over droppable area ${aboveId}`)).toBeAttached();
  }

  /** The Move up button of the selected block's toolbar. */
  moveUpButton(): Locator {
    return this.canvas.getByTestId("email.block.up");
  }

  async save() {
    await this.saveButton.click();
  }

  async openPreview() {
    await this.page.getByTestId("email.previewMenu").click();
    await this.page.getByTestId("email.preview").click();
    await expect(this.previewDialog).toBeVisible();
  }

  /** The preview iframe's document. */
  previewDocument() {
    return this.page.frameLocator('[data-testid="email.previewFrame"]');
  }

  async openTestDialog() {
    await this.page.getByTestId("email.previewMenu").click();
    await this.page.getByTestId("email.test").click();
    await expect(this.testDialog).toBeVisible();
  }

  async sendTest(recipients: string) {
    await this.testRecipients.fill(recipients);
    await this.testSendButton.click();
  }

  async openHistory() {
    await this.page.getByTestId("email.history").click();
    await expect(this.historyDialog).toBeVisible();
  }

  /** Restores a version from the open Version history dialog. */
  async restoreVersion(version: number) {
    await this.versions
      .filter({ has: this.page.getByRole("cell", { name: new RegExp(`^${version}\\b`) }) })
      .getByTestId("email.version.restore")
      .click();
  }

  async openCampaignList() {
    await this.page.getByTestId("email.openList").click();
    await expect(this.campaignList).toBeVisible();
  }

  campaignListItem(name: string): Locator {
    return this.campaignListItems.filter({ hasText: name });
  }

  /** Shows only campaigns of one status in the campaign list (All, Sent, Scheduled, Drafts). */
  async filterStatus(label: string) {
    await choose(this.campaignList.getByRole("combobox", { name: "Status" }), label);
  }
}

/** Scrolls the element to the middle of each scrolling box around it (the canvas, a side panel), not the window. */
async function centreInPanel(target: Locator) {
  await target.evaluate((el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (/(auto|scroll)/.test(getComputedStyle(p).overflowY) && p.scrollHeight > p.clientHeight) {
        const r = el.getBoundingClientRect();
        const box = p.getBoundingClientRect();
        p.scrollTop += r.top + r.height / 2 - (box.top + box.height / 2);
      }
    }
  });
}
