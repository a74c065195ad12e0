/** /account-settings/map-data: the organisation's map layers, their upload, the tile source and geocoding (admins only). */
import { expect, type Locator, type Page } from "@playwright/test";
import { ConfirmDialog } from "./controls";

export class MapDataPage {
  readonly heading: Locator;
  readonly fileInput: Locator;
  readonly preview: Locator;
  readonly previewCounts: Locator;
  readonly parseError: Locator;
  readonly layers: Locator;
  readonly empty: Locator;
  readonly geocodingStatus: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Map data", level: 1 });
    this.fileInput = page.getByLabel("Map data file");
    this.preview = page.getByTestId("mapData.preview");
    this.previewCounts = page.getByTestId("mapData.preview.counts");
    this.parseError = page.getByTestId("mapData.parseError");
    this.layers = page.getByTestId("mapData.layer");
    this.empty = page.getByTestId("mapData.empty");
    this.geocodingStatus = page.getByTestId("mapData.geocoding.status");
  }

  async goto() {
    await this.page.goto("/account-settings/map-data");
    await expect(this.heading).toBeVisible();
  }

  /** Chooses a file as "Add map data" does (the file input behind the button). */
  async chooseFile(path: string) {
    await this.fileInput.setInputFiles(path);
  }

  async confirmUpload() {
    await this.preview.getByRole("button", { name: "Upload" }).click();
  }

  layer(name: string): Locator {
    return this.layers.filter({ has: this.page.getByTestId("mapData.layer.name").getByText(name, { exact: true }) });
  }

  status(layer: Locator): Locator {
    return layer.getByTestId("mapData.layer.status");
  }

  async deleteLayer(name: string) {
    await this.layer(name)
      .getByRole("button", { name: `Delete ${name}` })
      .click();
    await new ConfirmDialog(this.page, "Delete map layer?").confirm("Delete layer");
  }
}
