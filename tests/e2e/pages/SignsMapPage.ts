/** /signs-map: the sign map, its side list and form, the table and the sign dialogs. */
import { expect, type Locator, type Page } from "@playwright/test";
import { ConfirmDialog } from "./controls";

export class SignsMapPage {
  readonly map: Locator;
  readonly form: Locator;
  readonly inView: Locator;
  readonly listItems: Locator;
  readonly markers: Locator;
  readonly clusters: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.map = page.getByTestId("signs.map");
    this.form = page.getByTestId("sign.form");
    this.inView = page.getByTestId("signs.inView");
    this.listItems = page.getByTestId("signs.listItem");
    this.markers = page.locator("path.sign-marker");
    this.clusters = page.locator(".sign-cluster");
    this.rows = page.getByTestId("signs.row");
  }

  async goto() {
    await this.page.goto("/signs-map");
    await expect(this.page.getByRole("heading", { name: "Sign Map" })).toBeVisible();
    await expect(this.inView).toContainText("in view");
  }

  async startAdd() {
    await this.page.getByRole("button", { name: "Add Sign Location" }).click();
    await expect(this.form).toBeVisible();
  }

  /** Clicks the map at a fraction of its size from the top left. */
  async clickMap(fx: number, fy: number) {
    const box = (await this.map.boundingBox())!;
    await this.page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
  }

  async newCampaign(name: string) {
    await this.form.getByRole("button", { name: "New", exact: true }).click();
    await this.form.getByLabel("New campaign name").fill(name);
    await this.form.getByRole("button", { name: "Add", exact: true }).click();
    await expect(this.form.getByRole("combobox", { name: "Campaign" })).toContainText(name);
  }

  address() {
    return this.form.getByRole("textbox", { name: "Address" });
  }

  async tab(name: "Map View" | "Table View") {
    await this.page.getByRole("tab", { name }).click();
  }

  async filter(status: "All" | "Active" | "Scheduled" | "Removed") {
    await this.page
      .getByRole("group", { name: "Status" })
      .getByRole("button", { name: new RegExp(`^${status}`) })
      .click();
  }

  row(address: string) {
    return this.rows.filter({ hasText: address });
  }

  async rowAction(address: string, action: string) {
    await this.row(address)
      .getByRole("button", { name: `Actions for ${address}` })
      .click();
    await this.page.getByRole("menuitem", { name: action }).click();
  }

  async confirmDelete() {
    await new ConfirmDialog(this.page, "Delete sign").confirm("Delete");
  }
}
