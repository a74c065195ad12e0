/** /form-builder and /form-submissions: the forms list, the editor, its dialogs, and the submissions table. */
import { expect, type Locator, type Page } from "@playwright/test";
import { choose } from "./controls";

export class FormBuilderPage {
  readonly rows: Locator;
  readonly empty: Locator;
  readonly name: Locator;
  readonly description: Locator;
  readonly fieldCards: Locator;
  readonly preview: Locator;
  readonly previewEmpty: Locator;
  readonly saveButton: Locator;
  readonly dialog: Locator;
  readonly submissionRows: Locator;

  constructor(readonly page: Page) {
    this.rows = page.getByTestId("forms.row");
    this.empty = page.getByTestId("forms.empty");
    this.name = page.getByTestId("builder.name");
    this.description = page.getByTestId("builder.description");
    this.fieldCards = page.getByTestId("builder.fields").locator(":scope > *");
    this.preview = page.getByTestId("builder.preview");
    this.previewEmpty = page.getByTestId("builder.previewEmpty");
    this.saveButton = page.getByTestId("builder.save");
    this.dialog = page.getByRole("dialog");
    this.submissionRows = page.getByTestId("submissions.row");
  }

  async goto() {
    await this.page.goto("/form-builder");
  }

  async startCreate() {
    await this.page.getByTestId("forms.create").click();
  }

  /** Adds a field of the type named as in the Add Field menu (Text, Email, Phone, ...). */
  async addField(typeLabel: string) {
    await choose(this.page.getByTestId("builder.newType"), typeLabel);
    await this.page.getByTestId("builder.addField").click();
  }

  async addSeparator() {
    await this.page.getByTestId("builder.addSeparator").click();
  }

  label(index: number) {
    return this.page.getByTestId(`builder.label.${index}`);
  }

  options(index: number) {
    return this.page.getByTestId(`builder.options.${index}`);
  }

  required(index: number) {
    return this.page.getByTestId(`builder.required.${index}`);
  }

  handle(index: number) {
    return this.page.getByTestId(`builder.field.${index}`).getByRole("button", { name: /^Drag to reorder/ });
  }

  /** The labels of the editor's fields, in order ("separator" for separators). */
  async fieldOrder(): Promise<string[]> {
    const cards = await this.page.locator("[data-testid^='builder.field.']").all();
    const out: string[] = [];
    for (const card of cards) {
      const label = card.locator("[data-testid^='builder.label.']");
      out.push((await label.count()) ? await label.inputValue() : "separator");
    }
    return out;
  }

  /**
   * Moves field `index` one place up with the keyboard (handle, Space, ArrowUp, Space), waiting for
   * dnd-kit's announcements as the voter form's section move does (VoterFormPage.moveSectionUp).
   */
  async moveUpByKeyboard(index: number) {
    const card = this.page.getByTestId(`builder.field.${index}`);
    const id = await card.getAttribute("data-field-id");
    const overId = await this.page.getByTestId(`builder.field.${index - 1}`).getAttribute("data-field-id");
    const announcement = (over: string | null) =>
      this.page.getByText(`Draggable item ${id} was moved over droppable area ${over}.`);
    await this.handle(index).focus();
    await this.page.keyboard.press("Space");
    await expect(announcement(id)).toBeAttached();
    await expect(async () => {
      if (await announcement(id).count()) await this.page.keyboard.press("ArrowUp");
      await expect(announcement(overId)).toBeAttached({ timeout: 1000 });
    }).toPass();
    await this.page.keyboard.press("Space");
  }

  /** Opens a form's actions menu and picks an action (Edit, View, Get Embed Code, Delete). */
  async action(formName: string, action: string) {
    await this.rows.filter({ hasText: formName }).getByTestId("forms.actions").click();
    await this.page.getByRole("menuitem", { name: action }).click();
  }
}
