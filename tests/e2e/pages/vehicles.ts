import { expect, type Page } from "@playwright/test";

/** The customer's vehicle home, as a person uses it. */
export class VehiclePage {
  constructor(private readonly page: Page) {}

  /** Opens a car from the My vehicles cards (where signing in led); answers its id. */
  async openFromList(name: string): Promise<string> {
    await expect(this.page.getByRole("heading", { level: 2, name: "My vehicles" })).toBeVisible();
    await this.page.getByRole("link", { name, exact: true }).first().click();
    await expect(this.page.getByRole("heading", { level: 2, name })).toBeVisible();
    return this.page.url().split("/my-devices/")[1];
  }

  /** Gives the car a new nickname in the owner's fields and saves it. */
  async rename(name: string) {
    const form = this.page.getByRole("form", { name: "Your notes on the car" });
    await form.getByLabel("Nickname").fill(name);
    await form.getByRole("button", { name: "Save" }).click();
    await expect(this.page.getByText("Vehicle saved").first()).toBeVisible();
  }

  flashCard() {
    return this.page
      .locator(".ant-card")
      .filter({ has: this.page.getByText("Flash", { exact: true }) })
      .first();
  }

  /** Chooses the tune and bakes it; answers the baked file the page made. */
  async bakeAndFlash(tuneTitle: string): Promise<{ id: string; sha256: string }> {
    await this.page.getByRole("combobox", { name: "Tune to flash" }).click();
    await this.page.locator(".ant-select-dropdown").getByText(tuneTitle, { exact: false }).first().click();
    const baked = this.page.waitForResponse((r) => /\/temp-bake\//.test(r.url()) && r.request().method() === "POST");
    await this.page.getByRole("button", { name: "Bake and flash" }).click();
    return (await (await baked).json()) as { id: string; sha256: string };
  }

  handover() {
    return this.page.getByTestId("deep-link");
  }

  liveStatus() {
    return this.page.getByTestId("live-status");
  }

  async openTab(name: "Timeline" | "Flashes" | "Snapshots") {
    await this.page.getByRole("tab", { name }).click();
  }

  /** The history card's timeline entries, as many as are shown. */
  timelineEntries() {
    return this.page.locator("[data-testid^=timeline-]");
  }

  /** Narrows the timeline to one kind of entry ("All" for every kind). */
  async showOnly(label: string) {
    await this.page.getByRole("group", { name: "Show only" }).getByText(label, { exact: true }).click();
  }

  async showOlder() {
    await this.page.getByRole("button", { name: "Show older" }).click();
  }
}
