import { expect as baseExpect, type Locator, type Page } from "@playwright/test";

// Every step waits on the server (uploads, a 50-row import, Monaco): a loaded CI machine needs more than 10 s.
const expect = baseExpect.configure({ timeout: 30_000 });

/** A drawer over an admin list, found by its title. */
function drawer(page: Page, title: string): Locator {
  return page
    .locator(".ant-drawer-content")
    .filter({ has: page.locator(".ant-drawer-title").getByText(title, { exact: true }) });
}

/** The admin catalogue pages (/admin/firmware-support, /admin/pid-templates, /admin/computed-descriptors), as an admin uses them. */
export class CataloguePages {
  constructor(private readonly page: Page) {}

  async createFirmware(record: {
    firmwareId: string;
    manufacturer: string;
    ecuFamily: string;
    imageSize: number;
    identify: Array<{ address: string | number; bytes?: string; text?: string }>;
    checksums: unknown[];
  }) {
    await this.page.goto("/admin/firmware-support");
    await this.page.getByRole("button", { name: "New firmware" }).click();
    const form = drawer(this.page, "New firmware record");
    await form.getByLabel("Firmware id").fill(record.firmwareId);
    await form.getByLabel("Manufacturer").fill(record.manufacturer);
    await form.getByLabel("ECU family / project code").fill(record.ecuFamily);
    await form.getByLabel("Image size (bytes)").fill(String(record.imageSize));
    // Identify rules row by row, as a person adds them; checksum schemes pasted in the JSON view.
    for (const [i, rule] of record.identify.entries()) {
      await form.getByRole("button", { name: "Add identify rule" }).click();
      const address = typeof rule.address === "number" ? `0x${rule.address.toString(16)}` : rule.address;
      await form.getByLabel(`Rule ${i + 1} offset`).fill(address);
      if (rule.bytes !== undefined) {
        await form.getByRole("combobox", { name: `Rule ${i + 1} kind` }).focus();
        await this.page.keyboard.press("ArrowDown");
        await this.page.locator(".ant-select-dropdown:visible").getByTitle("Bytes", { exact: true }).click();
        await form.getByLabel(`Rule ${i + 1} bytes`).fill(rule.bytes);
      } else {
        await form.getByLabel(`Rule ${i + 1} text`).fill(rule.text ?? "");
      }
    }
    if (record.checksums.length > 0) {
      await form.getByLabel("Checksum schemes view").getByText("Advanced (JSON)").click();
      await form.getByLabel("Checksum schemes as JSON").fill(JSON.stringify(record.checksums));
    }
    await form.getByRole("button", { name: "Save" }).click();
    // Saving opens the record.
    return drawer(this.page, "Firmware record");
  }

  /** Closes the drawer on top with its close button, back to the list behind it. */
  async closeDrawer(title: string) {
    await drawer(this.page, title).getByRole("button", { name: "Close" }).click();
    await expect(drawer(this.page, title)).toBeHidden();
  }

  async uploadStockFile(record: Locator, file: string) {
    await record.getByLabel("Upload stock file").setInputFiles(file);
    await expect(record.getByLabel("Upload stock file progress")).toBeVisible();
    return record.getByTestId("sha256").first();
  }

  /** "Import definition" on an open firmware record: the files chosen (a definition, or a rom with its bases), the preview the server answers. */
  async previewDefinition(record: Locator, files: string | string[]) {
    await record.getByLabel("Definition file").setInputFiles(files);
    const preview = record.getByTestId("definition-preview");
    await expect(preview).toBeVisible();
    return preview;
  }

  /** Saves the previewed definition with the patches and checksums ticked; answers the confirmation shown. */
  async saveDefinition(record: Locator) {
    await record.getByRole("button", { name: /^Save definition/ }).click();
    const saved = record.getByTestId("definition-saved");
    await expect(saved).toBeVisible();
    return saved;
  }

  async addVehicle(vehicle: {
    make: string;
    model: string;
    engine: string;
    yearFrom: number;
    ecu: string;
    firmwareId: string;
  }) {
    await this.page.getByRole("tab", { name: "Supported vehicles" }).click();
    await this.page.getByRole("button", { name: "Add vehicle" }).click();
    const form = drawer(this.page, "Add supported vehicle");
    await form.getByLabel("Make").fill(vehicle.make);
    await form.getByLabel("Model").fill(vehicle.model);
    await form.getByLabel("Engine").fill(vehicle.engine);
    await form.getByLabel("From year").fill(String(vehicle.yearFrom));
    await form.getByLabel("ECU", { exact: true }).fill(vehicle.ecu);
    await form.getByLabel("Firmware ids").fill(vehicle.firmwareId);
    await form.getByLabel("Firmware ids").press("Enter");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form).toBeHidden();
  }

  async importPids(file: string) {
    await this.page.goto("/admin/pid-templates/descriptors");
    await this.page.getByRole("button", { name: "Import CSV" }).click();
    const form = drawer(this.page, "Import PID descriptors");
    await form.getByLabel("CSV file").setInputFiles(file);
    await form.getByRole("button", { name: "Preview" }).click();
    const preview = form.getByRole("table", { name: "Import preview" });
    await expect(preview).toBeVisible();
    return { form, preview };
  }

  /** The list's text search; it lands in the URL with the other filters. */
  async search(text: string) {
    const box = this.page.getByRole("searchbox", { name: "Search" });
    await box.fill(text);
    await box.press("Enter");
  }

  /** A new template of the named channels, each found by the picker's server search, in this order. */
  async buildTemplate(template: { name: string; sampleRateHz: number; firmwareId: string; channels: string[] }) {
    await this.page.goto("/admin/pid-templates");
    await this.page.getByRole("button", { name: "New template" }).click();
    const form = drawer(this.page, "New PID template");
    await form.getByLabel("Name", { exact: true }).fill(template.name);
    await form.getByLabel("Sample rate (Hz)").fill(String(template.sampleRateHz));
    await form.getByLabel("Firmware ids").fill(template.firmwareId);
    await form.getByLabel("Firmware ids").press("Enter");
    const picker = form.getByLabel("Channels, in logging order");
    for (const channel of template.channels) {
      await picker.click();
      await picker.fill(channel);
      // antd's visible options are plain elements; the role="option" ones are its hidden accessibility copy.
      await this.page
        .locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: new RegExp(`^${channel} \\(`) })
        .first()
        .click();
    }
    return form;
  }

  async newComputed(name: string, variable: string, expression: string) {
    await this.page.goto("/admin/computed-descriptors");
    await this.page.getByRole("button", { name: "New computed descriptor" }).click();
    const form = drawer(this.page, "New computed descriptor");
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByLabel("Variable", { exact: true }).fill(variable);
    const editor = form.getByTestId("expression-editor");
    await expect(editor.locator(".monaco-editor")).toBeVisible();
    await editor.locator(".view-lines").click();
    await this.page.keyboard.type(expression, { delay: 15 });
    return form;
  }
}
