import { type Page, expect } from "@playwright/test";

/** The tune viewer, as a person uses it: pick a tune, pick a map, switch to the comparison. */
export class TuneViewerPage {
  constructor(private readonly page: Page) {}

  async openTune(title: string) {
    // Typed and picked with Enter, as a person does in a searchable select (antd's visible options carry no option role).
    const select = this.page.getByRole("combobox", { name: "Tune file" });
    await select.fill(title);
    await expect(this.page.getByRole("option", { name: new RegExp(title) })).toHaveCount(1);
    await select.press("Enter");
  }

  maps() {
    return this.page.getByRole("menu", { name: "Maps" });
  }

  async openMap(title: string) {
    await this.mapEntry(title).click();
    await expect(this.page.getByTestId("item-title")).toContainText(title);
  }

  /** A map's entry in the tree, by its exact title ("changed" follows the title of a changed map). */
  mapEntry(title: string) {
    const exact = title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return this.maps().getByRole("menuitem", { name: new RegExp(`^${exact}( changed)?$`) });
  }

  async search(text: string) {
    await this.page.getByLabel("Search maps").fill(text);
  }

  grid() {
    return this.page.getByRole("table", { name: "Map values" });
  }

  async compareWithStock() {
    await this.page.getByText("Compare with stock", { exact: true }).click();
  }

  async edit() {
    await this.page.getByText("Edit", { exact: true }).click();
    await expect(this.page.getByTestId("map-editor")).toBeVisible();
  }

  /** A value cell of the grid, by row and column (0-based, axis headers excluded). */
  cell(row: number, col: number) {
    return this.grid().locator("tbody tr").nth(row).locator("td").nth(col);
  }

  async apply(operation: "Set" | "Add" | "± %", amount: number) {
    await this.page.getByLabel("Amount").fill(String(amount));
    await this.page.getByRole("button", { name: operation, exact: true }).click();
  }

  /** Saves a new version and answers the dialog showing the server's checksum report. */
  async save(label: string) {
    await this.page.getByRole("button", { name: "Save as new version" }).click();
    const dialog = this.page.getByRole("dialog");
    await dialog.getByLabel("Version label").fill(label);
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByTestId("saved-report")).toBeVisible();
    return dialog;
  }
}
