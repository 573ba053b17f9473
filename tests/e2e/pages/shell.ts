import { expect, type Locator, type Page } from "@playwright/test";

/** What every screen shares: the error page, dialogs, toasts and the colour-mode switch. */
export class Shell {
  constructor(private readonly page: Page) {}

  errorStatus(status: number) {
    return this.page.getByRole("heading", { name: String(status), exact: true });
  }

  errorMessage() {
    return this.page.getByTestId("error-message");
  }

  /** Opens "Details" and returns the JSON it shows. */
  async errorDetails(): Promise<unknown> {
    await this.page.getByRole("button", { name: "Details" }).click();
    const text = await this.page.locator(".ant-collapse-content pre").textContent();
    return JSON.parse(text ?? "null");
  }

  async goHome() {
    await this.page.getByRole("button", { name: "Go Home" }).click();
  }

  /** Opens a page from the portal's side menu, as a click: the app navigates without loading the page again. */
  async openFromMenu(label: string) {
    await this.page
      .locator(".ant-layout-sider")
      .getByRole("menuitem", { name: new RegExp(`${label}$`) })
      .click();
  }

  /** Marks the loaded document, so a test can tell later whether the page was loaded again. */
  async markDocument() {
    await this.page.evaluate(() => {
      (window as unknown as { documentMark?: boolean }).documentMark = true;
    });
  }

  /** Whether the document marked by `markDocument` is still the one shown (no reload since). */
  async sameDocument(): Promise<boolean> {
    return this.page.evaluate(() => (window as unknown as { documentMark?: boolean }).documentMark === true);
  }

  /** A link in the public site's header navigation. */
  siteLink(name: string) {
    return this.page.getByRole("banner").getByRole("link", { name, exact: true });
  }

  dialog(name: string) {
    return this.page.getByRole("dialog", { name });
  }

  /** A press and release on the backdrop, away from the dialog and the toasts. */
  async clickOutsideDialogs() {
    const viewport = this.page.viewportSize()!;
    await this.page.mouse.click(12, viewport.height - 12);
  }

  toast(title: string): Locator {
    return this.page.getByRole("region", { name: "Notification" }).getByRole("listitem").filter({ hasText: title });
  }

  async chooseColourMode(mode: "System" | "Light" | "Dark") {
    await this.page.getByRole("radiogroup", { name: "Colour mode" }).getByRole("img", { name: mode }).click();
  }

  /** The mode applied to the page: the class on <html>. */
  async appliedColourMode(): Promise<string> {
    return this.page.evaluate(() => (document.documentElement.classList.contains("dark") ? "dark" : "light"));
  }

  async expectColourMode(mode: "light" | "dark") {
    await expect.poll(() => this.appliedColourMode()).toBe(mode);
  }
}
