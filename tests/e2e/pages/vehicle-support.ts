import { expect, type Locator, type Page } from "@playwright/test";

export interface VehicleRequest {
  vin: string;
  make: string;
  model: string;
  year: number;
  ecuId: string;
}

/** /vehicle-support as a customer uses it: their requests, the form that asks for one, one request's drawer. */
export class VehicleSupportPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto("/vehicle-support");
    await expect(this.page.getByRole("heading", { level: 2, name: "Vehicle support" })).toBeVisible();
  }

  /** The drawer the "Ask for a vehicle" button (or a deep link to /vehicle-support/create) opens. */
  form(): Locator {
    return this.page.getByRole("form", { name: "Ask for vehicle support" });
  }

  async fill(vehicle: VehicleRequest) {
    const form = this.form();
    await form.getByLabel("VIN").fill(vehicle.vin);
    await form.getByLabel("Make").fill(vehicle.make);
    await form.getByLabel("Model").fill(vehicle.model);
    await form.getByLabel("Year").fill(String(vehicle.year));
    await form.getByLabel("ECU ids").fill(vehicle.ecuId);
    await form.getByLabel("ECU ids").press("Enter");
  }

  async attachRead(name: string, bytes: Uint8Array) {
    await this.form()
      .locator("input[type=file]")
      .setInputFiles({ name, mimeType: "application/octet-stream", buffer: Buffer.from(bytes) });
    await expect(this.form().getByText(name)).toBeVisible();
  }

  async send() {
    await this.form().getByRole("button", { name: "Send request" }).click();
  }

  /** The message shown under a field of the form. */
  fieldError(label: string): Locator {
    return this.form()
      .locator(".ant-form-item")
      .filter({ has: this.page.getByLabel(label, { exact: true }) })
      .locator(".ant-form-item-explain-error");
  }

  row(text: string): Locator {
    return this.page.getByRole("table", { name: "Your support requests" }).getByRole("row").filter({ hasText: text });
  }

  async openRequest(vehicle: VehicleRequest): Promise<Locator> {
    await this.page
      .getByRole("button", { name: `Open the request for ${vehicle.make} ${vehicle.model} (${vehicle.vin})` })
      .click();
    const drawer = this.page
      .locator(".ant-drawer-content")
      .filter({ has: this.page.locator(".ant-drawer-title").getByText("Support request", { exact: true }) });
    await expect(drawer.getByText("What happened")).toBeVisible();
    return drawer;
  }
}
