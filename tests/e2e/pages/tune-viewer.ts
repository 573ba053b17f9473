import { expect, type Page } from "@playwright/test";

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
    return this.page.getByRole("tree", { name: "Maps" });
  }

  async openMap(title: string) {
    await this.mapEntry(title).click();
    await expect(this.page.getByTestId("item-title")).toContainText(title);
  }

  /** A map's entry in the tree, by its exact title ("changed" follows the title of a changed map). */
  mapEntry(title: string) {
    const exact = title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return this.maps().getByRole("treeitem", { name: new RegExp(`^${exact}( changed)?$`) });
  }

  async search(text: string) {
    await this.page.getByLabel("Search maps").fill(text);
  }

  grid() {
    return this.page.getByRole("table", { name: "Map values" });
  }

  /** Charts a row of a 2-D map, or stops charting it, by its header in the grid (its axis value as the grid shows it). */
  async toggleChartRow(label: string) {
    await this.grid().locator("tbody th").getByRole("button", { name: label, exact: true }).click();
  }

  /** Adds a row to the chart through its picker, by the name it has there ("2600 rpm"). */
  async pickChartRow(name: string) {
    const select = this.page.getByRole("combobox", { name: "Charted rows" });
    await select.click();
    await select.fill(name);
    await select.press("Enter");
  }

  /** The names in the line chart's legend, in its order. */
  chartLegend() {
    return this.page.getByTestId("map-chart").locator(".recharts-legend-item-text");
  }

  /** Switches the map's chart to its 3-D surface and answers its canvas. */
  async showSurface() {
    await this.page.getByRole("radiogroup", { name: "Chart" }).getByText("3-D surface", { exact: true }).click();
    const canvas = this.page.getByTestId("map-surface").locator("canvas");
    await expect(canvas).toBeVisible();
    return canvas;
  }

  /** A mode of the map card: Values, Compare, Hex or Edit. */
  async show(mode: "Values" | "Compare" | "Hex" | "Edit") {
    await this.page.getByRole("radiogroup", { name: "Show" }).getByText(mode, { exact: true }).click();
  }

  /** Compare mode opens on stock. */
  async compareWithStock() {
    await this.show("Compare");
    await expect(this.page.getByRole("combobox", { name: "Compare with" })).toBeVisible();
  }

  async compareWith(title: string) {
    await this.show("Compare");
    // Opened from the keyboard: the select sits just under the sticky header, which would take a click.
    const select = this.page.getByRole("combobox", { name: "Compare with" });
    // An option reads "<title>" or "<title> (yours)"/"(bought)"; another title may start with this one.
    const dropdown = ".ant-select-dropdown:visible .ant-select-item-option";
    const option = this.page.locator(`${dropdown}[title="${title}"], ${dropdown}[title^="${title} ("]`);
    const chosen = this.page.locator(".ant-select", { has: select }).locator(".ant-select-selection-item");
    const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // A click on the list while it is still closing from the last choice is lost: open and choose again until the select shows it.
    await expect(async () => {
      await select.focus();
      await select.press("ArrowDown");
      await option.click({ timeout: 2_000 });
      await expect(chosen).toHaveText(new RegExp(`^${escaped}( \\(|$)`), { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
  }

  async edit() {
    await this.show("Edit");
    await expect(this.page.getByTestId("map-editor")).toBeVisible();
  }

  /** From the map on screen to its bytes in the hex view. */
  async showBytes() {
    await this.page.getByRole("button", { name: "Show bytes" }).click();
    await expect(this.hexView().locator(".view-lines")).toBeVisible();
  }

  hexView() {
    return this.page.getByTestId("hex-view");
  }

  /** What the hex view says of the byte under the cursor. */
  hexCursor() {
    return this.page.getByTestId("hex-cursor");
  }

  /** Inspects a local image from the viewer's empty state. */
  async openLocalImage(name: string, bytes: Uint8Array) {
    await this.page
      .locator("input[type=file]")
      .setInputFiles({ name, mimeType: "application/octet-stream", buffer: Buffer.from(bytes) });
  }

  /** A constant's typed value, set through the editor. */
  async setScalar(title: string, value: number) {
    await this.page.getByLabel(`${title} value`).fill(String(value));
    await this.page.getByRole("button", { name: "Set value" }).click();
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
