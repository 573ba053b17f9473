import { expect, type Locator, type Page } from "@playwright/test";

const drawer = (page: Page, title: string): Locator =>
  page
    .locator(".ant-drawer-content")
    .filter({ has: page.locator(".ant-drawer-title").getByText(title, { exact: true }) });

/** /my-tunes as a dealer uses it: the catalogue, the upload drawer with its inspection, the tune's drawer. */
export class MyTunesPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto("/my-tunes");
    await expect(this.page.getByRole("heading", { level: 2, name: "My tunes" })).toBeVisible();
  }

  /** Chooses the image in the upload drawer and answers the inspection report shown for it. */
  async inspect(image: { name: string; bytes: Uint8Array }) {
    await this.page.getByRole("button", { name: "Upload a tune" }).click();
    const upload = drawer(this.page, "Upload a tune");
    await upload
      .locator("input[type=file]")
      .setInputFiles({ name: image.name, mimeType: "application/octet-stream", buffer: Buffer.from(image.bytes) });
    const report = upload.getByTestId("inspection-report");
    await expect(report).toBeVisible();
    return { upload, report };
  }

  async save(upload: Locator, tune: { title: string; version: string }) {
    await upload.getByLabel("Title").fill(tune.title);
    await upload.getByLabel("Version", { exact: true }).fill(tune.version);
    await upload.getByRole("button", { name: "Save tune file" }).click();
    const shown = drawer(this.page, "Tune file");
    await expect(shown.getByTestId("tune-show")).toBeVisible();
    return shown;
  }

  async publish(tune: Locator, price: string) {
    await tune.getByLabel("Price").fill(price);
    await tune.getByRole("button", { name: "Publish" }).click();
    await expect(tune.getByText("published", { exact: true })).toBeVisible();
  }

  catalogueRow(title: string) {
    return this.page.getByRole("table", { name: "Tune catalogue" }).getByRole("row").filter({ hasText: title });
  }
}
