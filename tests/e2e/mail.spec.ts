import { expect } from "@playwright/test";
import { CreateAccountPage, newEmail, PASSWORD, test } from "./pages/identity";
import { LocalInbox } from "./pages/inbox";
import { LoginPage } from "./pages/login-page";

test("a new user signs up, opens the local inbox, follows the verification email's link and the app shows the account verified", async ({
  page,
  emulator,
}) => {
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

test("a user turns on emailed notifications on the profile page, and the choice is kept", async ({
  page,
  emulator,
}) => {
  const email = newEmail("notify");
  await emulator.createUser(email);
  const login = new LoginPage(page);
  await login.open("/profile");
  await login.signIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/profile$/);

  const toggle = page.getByRole("switch", { name: "Email me my notifications" });
  await expect(toggle).not.toBeChecked();
  await expect(page.getByText(`Each notification is also sent to ${email}.`)).toBeVisible();
  await toggle.click();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Profile saved").first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole("switch", { name: "Email me my notifications" })).toBeChecked();
});
