/** /voter-groups: the organisation's groups, the selected group's members, adding voters to a group. */
import type { Locator, Page } from "@playwright/test";
import { choose, ConfirmDialog } from "./controls";

export type GroupFields = { name?: string; description?: string };

export class GroupsPage {
  readonly heading: Locator;
  readonly list: Locator;
  readonly members: Locator;
  /** Every row of the members table, its header row included. */
  readonly memberRows: Locator;
  /** The open create/edit or "Add Voters to Group" dialog. */
  readonly dialog: Locator;
  readonly quickSearch: Locator;
  readonly deleteConfirmation: ConfirmDialog;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Voter Groups" });
    this.list = page.getByTestId("groups.list");
    this.members = page.getByTestId("groups.members");
    this.memberRows = this.members.getByRole("row");
    this.dialog = page.getByRole("dialog");
    this.quickSearch = page.getByLabel("Quick search voters");
    this.deleteConfirmation = new ConfirmDialog(page);
  }

  async goto() {
    await this.page.goto("/voter-groups");
  }

  async openCreateGroup() {
    await this.page.getByRole("button", { name: "Create Group" }).click();
  }

  async openEditGroup(name: string) {
    await this.page.getByRole("button", { name: `Edit group ${name}` }).click();
  }

  /** Fills what is given in the open create/edit dialog and submits it ("Create Group" / "Update Group"). */
  async saveGroup(fields: GroupFields) {
    if (fields.name !== undefined) await this.dialog.getByLabel("Group name").fill(fields.name);
    if (fields.description !== undefined) await this.dialog.getByLabel("Description").fill(fields.description);
    await this.dialog.getByRole("button", { name: /^(Create|Update) Group$/ }).click();
  }

  /** Opens "Add Voters to Group" with `group` as the target. */
  async openAddVoters(group: string) {
    await this.page.getByRole("button", { name: "Add Voters to Group" }).click();
    await choose(this.page.getByRole("combobox", { name: "Target group" }), group);
  }

  async selectAllVoters() {
    await this.dialog.getByRole("checkbox", { name: "Select all" }).click();
  }

  async addSelectedVoters() {
    await this.dialog.getByRole("button", { name: "Add to Group" }).click();
  }

  /** Selects a group: its members show in the members panel. */
  async openGroup(name: string) {
    await this.list.getByText(name).click();
  }

  async removeMember(name: string) {
    await this.members.getByRole("button", { name: `Remove ${name}` }).click();
  }

  async viewMember(name: string) {
    await this.members.getByRole("button", { name: `View ${name}` }).click();
  }

  /** Adds a voter to the selected group through the quick search. */
  async quickAdd(search: string, name: string) {
    await this.quickSearch.fill(search);
    await this.page.getByRole("option", { name: new RegExp(name) }).click();
  }

  /** Asks to delete a group; the confirmation stays open. */
  async startDelete(name: string) {
    await this.page.getByRole("button", { name: `Delete group ${name}` }).click();
  }
}
