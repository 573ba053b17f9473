import { expect, type Page } from "@playwright/test";

/** A paid order's receipt on its checkout page, read line by line as a person reads it. */
export class ReceiptView {
  readonly region;

  constructor(private readonly page: Page) {
    this.region = page.getByRole("region", { name: "Receipt" });
  }

  /** The value beside a label: the cell that follows the label's heading cell in its row. */
  line(label: string) {
    return this.region
      .locator("tr", { has: this.page.locator("th", { hasText: new RegExp(`^${label}$`) }) })
      .locator("td");
  }

  async expectLines(lines: Record<string, string>) {
    for (const [label, value] of Object.entries(lines)) await expect(this.line(label), label).toHaveText(value);
  }

  /** Dated today, in the browser's own words for a date. */
  async expectDated() {
    const today = await this.page.evaluate(() => new Date().toLocaleDateString());
    await expect(this.line("Date")).toContainText(today);
  }

  async expectPaymentReference(pattern: RegExp) {
    await expect(this.line("Payment reference")).toHaveText(pattern);
  }
}
