import { expect, type Locator, type Page } from "@playwright/test";

/** The header bell and the /notifications page, as a signed-in user uses them. */
export class NotificationsPage {
  constructor(private readonly page: Page) {}

  /** The bell on screen: pages kept alive off screen keep theirs, hidden. */
  bell(): Locator {
    return this.page.locator('[data-testid="notification-bell"]:visible');
  }

  /** What the bell says to a screen reader: "Notifications" or "Notifications, N unread". */
  async expectBellUnread(count: number) {
    await expect(this.bell()).toHaveAccessibleName(count > 0 ? `Notifications, ${count} unread` : "Notifications");
    if (count > 0) await expect(this.bell()).toContainText(String(count));
  }

  async openFromBell() {
    await this.bell().click();
    await expect(this.page).toHaveURL(/\/notifications(\?|$)/);
    await expect(this.page.getByRole("heading", { level: 2, name: "Notifications", exact: true })).toBeVisible();
  }

  row(text: string): Locator {
    return this.page.getByRole("table", { name: "Notifications" }).getByRole("row").filter({ hasText: text });
  }

  async markRead(text: string) {
    await this.row(text).getByRole("button", { name: "Mark read" }).click();
  }

  async showOnly(choice: "All" | "Unread") {
    await this.page.getByRole("radiogroup", { name: "Show" }).getByText(choice, { exact: true }).click();
  }

  async markAllRead() {
    await this.page.getByRole("button", { name: "Mark all read" }).click();
  }
}
