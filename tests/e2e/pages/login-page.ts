import { expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "tune-demo-1";
export const demoUsers = {
  customer: "customer@example.com",
  dealer: "dealer@example.com",
  admin: "admin@example.com",
} as const;

/** The sign-in page, as a person uses it. */
export class LoginPage {
  constructor(private readonly page: Page) {}

  async open(to?: string) {
    await this.page.goto(to ? `/login?to=${encodeURIComponent(to)}` : "/login");
    await expect(this.page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  }

  async signIn(email: string, password = DEMO_PASSWORD) {
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByLabel("Password").fill(password);
    // The header has a "Sign in" button too: press the form's.
    await this.page.locator("form").getByRole("button", { name: "Sign in" }).click();
  }

  async error() {
    return this.page.getByRole("alert").first();
  }
}

/** The portal's chrome: the page heading and the user menu. */
export class Portal {
  constructor(private readonly page: Page) {}

  heading(name: string) {
    return this.page.getByRole("heading", { level: 2, name, exact: true });
  }

  forbidden() {
    return this.page.getByRole("heading", { name: "403" });
  }

  /** Opens the sign-out confirmation from the user menu, or from the side menu. */
  async askToSignOut(from: "user menu" | "side menu" = "user menu") {
    if (from === "user menu") {
      await this.page.getByTestId("user-menu").click();
      await this.page.locator(".ant-dropdown").getByRole("menuitem", { name: "Sign out" }).click();
    } else await this.page.locator(".ant-layout-sider").getByRole("menuitem", { name: "Sign out" }).click();
    return this.page.getByRole("dialog", { name: "Sign out?" });
  }

  async signOut() {
    const confirmation = await this.askToSignOut();
    await confirmation.getByRole("button", { name: "Sign out" }).click();
    await expect(this.page).toHaveURL(/\/login$/);
  }
}
