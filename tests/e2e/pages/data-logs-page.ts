import { expect, type Locator, type Page } from "@playwright/test";
import { LoginPage } from "./login-page";

/** The data-log list: upload, table, share dialog. */
export class DataLogsPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto("/tuning-tools/data-logs");
    await expect(this.page.getByRole("heading", { name: "Data logs" })).toBeVisible();
  }

  /** Opens the list signed in as `user`, through the sign-in page the list sends a visitor to. */
  async openAs(user: Parameters<LoginPage["signIn"]>[0]) {
    const login = new LoginPage(this.page);
    await login.open("/tuning-tools/data-logs");
    await login.signIn(user);
    await expect(this.page.getByRole("heading", { name: "Data logs" })).toBeVisible();
  }

  /** Picks from an antd select by its accessible name; opened from the keyboard, as a header may cover a click. */
  private async choose(selectName: string, option: string) {
    const select = this.page.getByRole("combobox", { name: selectName, exact: true });
    await select.focus();
    await select.press("ArrowDown");
    await this.page.locator(".ant-select-dropdown:visible").getByText(option, { exact: true }).click();
  }

  /** The vehicle the next upload is filed under, as the select shows it. */
  uploadVehicle(): Locator {
    return this.page
      .locator(".ant-select")
      .filter({ has: this.page.getByRole("combobox", { name: "Vehicle", exact: true }) });
  }

  async filterByVehicle(vehicleOption: string) {
    await this.choose("Vehicle filter", vehicleOption);
  }

  row(title: string): Locator {
    return this.page
      .getByRole("table", { name: "Data logs" })
      .getByRole("row")
      .filter({ has: this.page.getByRole("link", { name: title, exact: true }) });
  }

  rows(): Locator {
    return this.page.getByRole("table", { name: "Data logs" }).locator("tbody tr.ant-table-row");
  }

  /** Opens the log's edit dialog, clears its vehicle and saves. */
  async removeVehicle(title: string) {
    await this.page.getByRole("button", { name: `Edit ${title}` }).click();
    const dialog = this.page.getByRole("dialog", { name: "Edit log" });
    const select = dialog.locator(".ant-select", {
      has: this.page.getByRole("combobox", { name: "Vehicle", exact: true }),
    });
    await expect(select).toContainText("Demo hatchback");
    await select.hover();
    await select.locator(".ant-select-clear").click();
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toHaveCount(0);
  }

  /** Uploads through the drop zone (several files picked together); the app opens the log when the server has read it. */
  async upload(path: string | string[]) {
    await this.pick(path);
    await expect(this.page).toHaveURL(/\/tuning-tools\/data-logs\/[0-9a-f-]{36}/, { timeout: 30_000 });
  }

  /** Picks files in the drop zone without waiting for the log to open (for refusals). */
  async pick(path: string | string[]) {
    await this.page.locator('input[type="file"]').setInputFiles(path);
  }
}

/** The analysis view of one log (the owner's or a shared one). */
export class LogView {
  constructor(private readonly page: Page) {}

  chart(): Locator {
    return this.page.getByTestId("log-chart");
  }

  panes(): Locator {
    return this.chart().locator(".uplot");
  }

  /** The panes' titles, top to bottom: each names its channels with their units. */
  async paneTitles(): Promise<string[]> {
    return this.chart()
      .getByRole("group")
      .evaluateAll((groups) => groups.map((group) => group.getAttribute("aria-label") ?? ""));
  }

  visibleRange(): Locator {
    return this.page.getByTestId("visible-range");
  }

  channel(name: string): Locator {
    return this.page.getByRole("group", { name: "Channels" }).getByRole("checkbox", { name });
  }

  async waitForChart() {
    await expect(this.visibleRange()).toContainText("rows");
    await expect(this.panes().first()).toBeVisible();
  }

  async toggleChannel(name: string) {
    await this.channel(name).click();
  }

  /** Drags across the middle of the first pane, as a person zooms. */
  async dragZoom(fromFraction: number, toFraction: number) {
    const over = this.panes().first().locator(".u-over");
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox())!;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(box.x + box.width * fromFraction, y);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + box.width * ((fromFraction + toFraction) / 2), y, { steps: 4 });
    await this.page.mouse.move(box.x + box.width * toFraction, y, { steps: 4 });
    await this.page.mouse.up();
  }

  /** A pane's legend: its channels' names, each with its value under the cursor. */
  legend(pane = 0): Locator {
    return this.panes().nth(pane).getByRole("table", { name: "Values under the cursor" });
  }

  async hover(fraction: number) {
    const over = this.panes().first().locator(".u-over");
    const box = (await over.boundingBox())!;
    await this.page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2);
  }

  /** Clicks the first pane at a fraction of its width, as a person places a marker. */
  async clickChart(fraction: number) {
    const over = this.panes().first().locator(".u-over");
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox())!;
    await this.page.mouse.click(box.x + box.width * fraction, box.y + box.height / 2);
  }

  markerPanel(): Locator {
    return this.page.getByRole("region", { name: "Markers" });
  }

  markerRows(): Locator {
    return this.markerPanel().getByTestId("marker-row");
  }

  /** Types the note and adds the marker whose time the chart or the range button set. */
  async addMarker(note: string) {
    const panel = this.markerPanel();
    await panel.getByRole("textbox", { name: "Marker note" }).fill(note);
    await panel.getByRole("button", { name: "Add marker" }).click();
  }

  /** Clicks an export button and answers the download's suggested name and its bytes. */
  async export(kind: "CSV" | "PNG"): Promise<{ name: string; bytes: Buffer }> {
    const download = this.page.waitForEvent("download");
    await this.page.getByRole("button", { name: `Export ${kind}`, exact: true }).click();
    const file = await download;
    const stream = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { name: file.suggestedFilename(), bytes: Buffer.concat(chunks) };
  }

  /** The layout menu's button: it names the layout the panes on screen are, else "Layout". */
  layoutButton(): Locator {
    return this.page.getByRole("button", { name: "Layout" });
  }

  /** Opens a layout of the menu's group `group` ("For this log", "Yours, for this logger", "Shared with the link"). */
  async chooseLayout(group: string, name: string) {
    await this.layoutButton().click();
    const menu = this.page.locator(".ant-dropdown:visible");
    await menu
      .locator(".ant-dropdown-menu-item-group")
      .filter({ hasText: group })
      .getByText(name, { exact: true })
      .click();
  }

  /** Saves the panes on screen as the user's layout `name`. */
  async saveLayout(name: string) {
    await this.layoutButton().click();
    await this.page.locator(".ant-dropdown:visible").getByText("Save as layout…").click();
    const dialog = this.page.getByRole("dialog", { name: "Save the panes as a layout" });
    await dialog.getByRole("textbox", { name: "Layout name" }).fill(name);
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
  }

  /** Opens the share dialog, makes a link for the channels charted, and answers it. */
  async shareLink(): Promise<string> {
    await this.page.getByRole("button", { name: "Share" }).click();
    const dialog = this.page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Create link" }).click();
    const link = dialog.getByTestId("share-link");
    await expect(link).toHaveValue(/\/shared\/logs\//);
    return link.inputValue();
  }
}
