/** /voters/new and /voters/:id/edit: the voter form, its custom fields and its reorderable sections. */
import { expect, type Locator, type Page } from "@playwright/test";
import { choose } from "./controls";

export type VoterFields = {
  firstName: string;
  lastName: string;
  email?: string;
  city?: string;
  party?: string;
  status?: string;
};
export type CustomField = { label: string; type: string; options?: string; required?: boolean };

export class VoterFormPage {
  readonly firstName: Locator;
  readonly lastName: Locator;
  readonly email: Locator;
  readonly city: Locator;
  readonly notes: Locator;
  readonly submitButton: Locator;
  readonly addFieldButton: Locator;
  readonly fieldDialog: Locator;
  readonly fieldDialogSubmit: Locator;
  readonly sections: Locator;
  readonly phone: Locator;
  /** the inline notice of a field a teammate saved while this user was changing it */
  readonly conflict: Locator;
  readonly deletedNotice: Locator;

  constructor(readonly page: Page) {
    this.firstName = page.getByLabel(/^First Name/);
    this.lastName = page.getByLabel(/^Last Name/);
    this.email = page.getByLabel(/^Email/);
    this.city = page.getByLabel(/^City/);
    this.notes = page.getByLabel(/^Notes/);
    this.submitButton = page.getByRole("button", { name: /^(Create (Voter|Contact)|Save Changes)$/ });
    this.addFieldButton = page.getByRole("button", { name: "Add Field" }).first();
    this.fieldDialog = page.getByRole("dialog");
    this.fieldDialogSubmit = this.fieldDialog.getByRole("button", { name: "Add Field" });
    this.sections = page.getByTestId(/^voters\.form\.section\./);
    this.phone = page.getByLabel(/^Phone/);
    this.conflict = page.getByTestId("field-conflict");
    this.deletedNotice = page.getByTestId("voters.form.deleted");
  }

  async gotoNew() {
    await this.page.goto("/voters/new");
  }

  async gotoEdit(voterId: string) {
    await this.page.goto(`/voters/${voterId}/edit`);
  }

  async fill(voter: VoterFields) {
    await this.firstName.fill(voter.firstName);
    await this.lastName.fill(voter.lastName);
    if (voter.email) await this.email.fill(voter.email);
    if (voter.city) await this.city.fill(voter.city);
    if (voter.party) await this.select("Party Affiliation", voter.party);
    if (voter.status) await this.select("Status", voter.status);
  }

  /** Creates a voter through the new-voter form, waits for its detail page and returns its id. */
  async create(voter: VoterFields): Promise<string> {
    await this.gotoNew();
    await this.fill(voter);
    await this.submit();
    await expect(this.page).toHaveURL(/\/voters\/[a-z0-9]+$/, { timeout: 15_000 });
    await expect(this.page.getByRole("heading", { name: `${voter.firstName} ${voter.lastName}` })).toBeVisible();
    return this.page.url().split("/").pop()!;
  }

  /** A teammate's avatar in the page's presence list. */
  presenceAvatar(name: string): Locator {
    return this.page.getByTestId("presence").getByRole("img", { name, exact: true });
  }

  async keepMine() {
    await this.conflict.getByRole("button", { name: "Keep mine" }).click();
  }

  async takeTheirs() {
    await this.conflict.getByRole("button", { name: "Take theirs" }).click();
  }

  /** "Create Voter" (or "Create Contact") on a new voter, "Save Changes" on an existing one. */
  async submit() {
    await this.submitButton.click();
  }

  /** Picks an option of a dropdown field, built-in ("Party Affiliation") or custom. */
  async select(label: string, option: string) {
    await choose(this.page.getByRole("combobox", { name: label }), option);
  }

  async openAddField() {
    await this.addFieldButton.click();
  }

  /** Describes a new custom field in the open "Add Field" dialog (submit with fieldDialogSubmit). */
  async describeField(field: CustomField) {
    await this.fieldDialog.getByLabel("Field label").fill(field.label);
    await choose(this.page.getByRole("combobox", { name: "Field type" }), field.type);
    if (field.options) await this.fieldDialog.getByLabel("Dropdown options").fill(field.options);
    if (field.required) await this.fieldDialog.getByRole("checkbox", { name: "Required" }).check();
  }

  /** The form's sections by id, in the organisation's order ("personal", "address", ...). */
  async sectionOrder(): Promise<string[]> {
    return this.sections.evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")?.split(".").pop() ?? ""));
  }

  /**
   * Moves a section one place up with the keyboard (handle, Space, ArrowUp, Space), over the
   * section `overId` above it. The order is saved for the whole organisation with the form.
   */
  async moveSectionUp(section: { title: string; id: string }, overId: string) {
    const announcement = (over: string) =>
      this.page.getByText(`Draggable item ${section.id} was moved over droppable area ${over}.`);
    await this.page.getByRole("button", { name: `Drag to reorder ${section.title}` }).focus();
    await this.page.keyboard.press("Space");
    // wait until dnd-kit has picked the section up and measured the droppables (it then announces
    // the section over itself) before moving it
    await expect(announcement(section.id)).toBeAttached();
    // dnd-kit's keyboard sensor starts listening for keys a tick after the pick-up, so an arrow
    // pressed at once can be lost: press again only while the announcement has not moved on.
    await expect(async () => {
      if (await announcement(section.id).count()) await this.page.keyboard.press("ArrowUp");
      await expect(announcement(overId)).toBeAttached({ timeout: 1000 });
    }).toPass();
    await this.page.keyboard.press("Space");
  }
}
