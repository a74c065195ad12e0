/** /survey-maker: the surveys list, the create dialog, the editor (pages, questions, properties, skip logic, embed) and its Submissions tab. */
import type { Locator, Page } from "@playwright/test";

export type QuestionOptions = { required?: boolean; options?: string };

export class SurveyMakerPage {
  /** the list's cards, one per survey */
  readonly cards: Locator;
  readonly createDialog: Locator;
  readonly createName: Locator;
  readonly createRecipient: Locator;
  readonly editTab: Locator;
  readonly submissionsTab: Locator;
  /** the selected question's properties */
  readonly label: Locator;
  readonly options: Locator;
  readonly required: Locator;
  readonly max: Locator;
  readonly step: Locator;
  /** the selected page's condition: "Show this page only when" question and value */
  readonly conditionQuestion: Locator;
  readonly conditionValue: Locator;
  readonly saveButton: Locator;
  readonly saved: Locator;
  readonly embedUrl: Locator;
  readonly embedCode: Locator;
  readonly noSubmissions: Locator;
  readonly submissionRows: Locator;
  readonly summary: Locator;
  readonly details: Locator;
  readonly backToSurveys: Locator;

  constructor(readonly page: Page) {
    this.cards = page.getByTestId("survey.card");
    this.createDialog = page.getByRole("dialog", { name: "Create Survey" });
    this.createName = page.getByTestId("survey.createName");
    this.createRecipient = page.getByLabel("Recipient email (optional)");
    this.editTab = page.getByRole("tab", { name: "Edit Survey" });
    this.submissionsTab = page.getByTestId("survey.tab.submissions");
    this.label = page.getByTestId("survey.prop.label");
    this.options = page.getByTestId("survey.prop.options");
    this.required = page.getByTestId("survey.prop.required");
    this.max = page.getByTestId("survey.prop.max");
    this.step = page.getByTestId("survey.prop.step");
    this.conditionQuestion = page.getByRole("combobox", { name: "Show this page only when: question" });
    this.conditionValue = page.getByRole("textbox", { name: "Show this page only when: value" });
    this.saveButton = page.getByTestId("survey.save");
    this.saved = page.getByTestId("survey.saved");
    this.embedUrl = page.getByTestId("survey.embedUrl");
    this.embedCode = page.getByTestId("survey.embedCode");
    this.noSubmissions = page.getByTestId("survey.noSubmissions");
    this.submissionRows = page.getByTestId("survey.submissionRow");
    this.summary = page.getByTestId("survey.summary");
    this.details = page.getByTestId("survey.details");
    this.backToSurveys = page.getByRole("button", { name: "Back to Surveys" });
  }

  async goto() {
    await this.page.goto("/survey-maker");
  }

  /** Opens the create dialog from the list. */
  async startCreate() {
    await this.page.getByTestId("survey.create").click();
  }

  /** Fills the open create dialog and creates the survey. */
  async create(name: string, opts: { recipient?: string } = {}) {
    await this.createName.fill(name);
    if (opts.recipient) await this.createRecipient.fill(opts.recipient);
    await this.page.getByTestId("survey.createSubmit").click();
  }

  /** Adds a question of `type` (rating, radio, checkbox, slider, text...) to the selected page and sets its properties. */
  async addQuestion(type: string, label: string, opts: QuestionOptions = {}) {
    await this.page.getByTestId(`survey.add.${type}`).click();
    await this.label.fill(label);
    if (opts.options) await this.options.fill(opts.options);
    if (opts.required) await this.required.click();
  }

  async addPage() {
    await this.page.getByTestId("survey.addPage").click();
  }

  /** The selected page is shown only when `question` was answered `value`. */
  async showPageOnlyWhen(question: string, value: string) {
    await this.conditionQuestion.click();
    await this.page.getByRole("option", { name: question }).click();
    await this.conditionValue.fill(value);
  }

  /** A page's tab in the editor (0-based). */
  pageTab(index: number): Locator {
    return this.page.getByTestId(`survey.page.${index}`);
  }

  /** A question's row on the selected page (0-based). */
  fieldRow(index: number): Locator {
    return this.page.getByTestId(`survey.fieldRow.${index}`);
  }

  moveUp(label: string): Locator {
    return this.page.getByRole("button", { name: `Move ${label} up` });
  }

  moveDown(label: string): Locator {
    return this.page.getByRole("button", { name: `Move ${label} down` });
  }

  async save() {
    await this.saveButton.click();
  }

  /** Opens the embed dialog and reads the hosted page's URL and the snippet, then closes it. */
  async readEmbed(): Promise<{ url: string; snippet: string }> {
    await this.page.getByTestId("survey.embed").click();
    const url = (await this.embedUrl.textContent())!;
    const snippet = await this.embedCode.inputValue();
    await this.page.keyboard.press("Escape");
    return { url, snippet };
  }

  /** A teammate's avatar in the editor's presence list. */
  presence(name: string): Locator {
    return this.page.getByRole("img", { name });
  }
}
