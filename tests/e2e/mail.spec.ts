import { expect } from "@playwright/test";
import { CreateAccountPage, PASSWORD, newEmail, test } from "./pages/identity";
import { LocalInbox } from "./pages/inbox";

test("a new user signs up, opens the local inbox, follows the verification email's link and the app shows the account verified", async ({ page, emulator }) => {
  const email = newEmail("inbox");
  const signUp = new CreateAccountPage(page);
  await signUp.open();
  await signUp.fill("Inbox Reader", email, PASSWORD);
  await signUp.submit();
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();

  const inbox = new LocalInbox(page);
  await inbox.openMessage(email, "Confirm your email address for Tuning Portal");
  await expect(inbox.message().getByText("Hello Inbox Reader,")).toBeVisible();
  await inbox.message().getByRole("link", { name: "Confirm my email address" }).click();

  // The link leads to the portal's own action page, which applies the code.
  await expect(page).toHaveURL(/\/handle-email-action\?mode=verifyEmail&oobCode=[^&]+&apiKey=/);
  await expect(page.getByText("Email verified")).toBeVisible();
  expect((await emulator.lookup(email))?.emailVerified).toBe(true);
  await page.getByRole("link", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Your email is verified" })).toBeVisible();
  await expect(page.getByText(`You are signed in as ${email}`)).toBeVisible();
});
