import { type Page, type Route, expect } from "@playwright/test";
import { PASSWORD, newEmail, test } from "./pages/identity";
import { LoginPage } from "./pages/login-page";

/**
 * The app's side of the account stream (`GET /users/{id}/listen`, contracts/account.ts). Until the
 * server sends it, each connection of the page's stream is answered here with the next event the
 * test releases, as the server will: the identity changes (claims, disabled) are made in the
 * emulator first, as an administrator's change would, and the custom token is the emulator's own
 * kind (JSON naming the uid).
 */
class AccountStreamStandIn {
  private readonly events: string[] = [];
  private readonly waiting: Array<() => void> = [];
  opened = 0;

  async attach(page: Page) {
    await page.route("**/api/v1/users/*/listen", (route) => this.answer(route));
  }

  private async answer(route: Route) {
    this.opened++;
    while (this.events.length === 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
    const data = this.events.shift()!;
    await route.fulfill({ status: 200, contentType: "text/event-stream", body: `event: account\ndata: ${data}\n\n` });
  }

  send(event: Record<string, unknown>) {
    this.events.push(JSON.stringify(event));
    this.waiting.splice(0).forEach((wake) => wake());
  }
}

const dealerMenuItem = (page: Page) => page.locator(".ant-layout-sider").getByRole("menuitem", { name: /^shop Dealer$/ });

test("a suspended dealer loses the dealer menu at once, without a reload, and a disabled account is signed out with the reason", async ({ page, emulator }) => {
  const email = newEmail("stream-dealer");
  const uid = await emulator.createUser(email, PASSWORD, "Dana Dealer");
  await emulator.updateUser(uid, { customAttributes: JSON.stringify({ dealer: true }) });
  const stream = new AccountStreamStandIn();
  await stream.attach(page);

  const login = new LoginPage(page);
  await login.open();
  await login.signIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("account-role")).toHaveText("dealer");
  await expect(dealerMenuItem(page)).toBeVisible();
  await expect.poll(() => stream.opened, { message: "the app opened its account stream" }).toBeGreaterThan(0);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  // An administrator suspends the dealer role: claims changed, the app told with a token carrying them.
  await emulator.updateUser(uid, { customAttributes: JSON.stringify({}) });
  stream.send({ reason: "dealer-status-changed", message: "Your dealer account was suspended by an administrator.", role: "customer", customToken: JSON.stringify({ uid }) });
  await expect(page.getByText("Your dealer account was suspended by an administrator.", { exact: true })).toBeVisible();
  await expect(dealerMenuItem(page)).toHaveCount(0);
  await expect(page.getByTestId("account-role")).toHaveText("customer");
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), "no reload").toBe(true);

  // Then disables the account.
  await emulator.updateUser(uid, { disableUser: true });
  stream.send({ reason: "disabled", message: "Your account was disabled by an administrator." });
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByTestId("sign-out-notice")).toContainText("Your account was disabled by an administrator.");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});
