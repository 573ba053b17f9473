import { expect } from "@playwright/test";
import { consoleErrors, passwordPolicyRequests } from "./pages/console-errors";
import { CreateAccountPage, newEmail, PASSWORD, test } from "./pages/identity";
import { emailedActionPath } from "./pages/inbox";
import { LoginPage, Portal } from "./pages/login-page";

test("a visitor signs up, verifies through the emailed link, signs out and signs in again", async ({
  page,
  emulator,
}) => {
  const email = newEmail("signup");
  const signUp = new CreateAccountPage(page);
  await signUp.open();
  await signUp.fill("Robin Boost", email, "short");
  await expect(signUp.rule("At least 6 characters")).toContainText("not met yet");
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await expect(signUp.rule("At least 6 characters")).toContainText("(met)");
  await signUp.submit();

  await expect(page).toHaveURL(/\/confirm-account$/);
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await page.getByRole("button", { name: "I have verified my email" }).click();
  await expect(page.getByRole("alert")).toContainText("Not verified yet");

  await page.goto(await emulator.actionPath(email, "VERIFY_EMAIL"));
  await expect(page.getByText("Email verified")).toBeVisible();
  expect((await emulator.lookup(email))?.emailVerified).toBe(true);

  await page.goto("/confirm-account");
  await expect(page.getByRole("heading", { name: "Your email is verified" })).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await new Portal(page).signOut();

  const login = new LoginPage(page);
  await login.signIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("an address that already has an account reads plainly on sign-up", async ({ page, emulator }) => {
  const email = newEmail("taken");
  await emulator.createUser(email);
  const signUp = new CreateAccountPage(page);
  await signUp.open();
  await signUp.fill("Second Try", email, PASSWORD);
  await signUp.submit();
  await expect(page.getByRole("alert")).toHaveText(
    "An account with this email already exists. Sign in instead, or reset your password.",
  );
});

test("signing up under the Auth emulator, which has no password policy, asks for none and logs no error", async ({
  page,
}) => {
  const errors = consoleErrors(page);
  const asked = passwordPolicyRequests(page);
  const signUp = new CreateAccountPage(page);
  await signUp.open();
  await signUp.fill("Quiet Console", newEmail("console"), PASSWORD);
  // The portal's own rule stands in for the policy.
  await expect(signUp.rule("At least 6 characters")).toContainText("(met)");
  await signUp.submit();
  await expect(page).toHaveURL(/\/confirm-account$/);
  await page.waitForLoadState("networkidle");
  expect(asked).toEqual([]);
  expect(errors).toEqual([]);
});

test("the checklist follows the service's policy and is re-read when the service refuses a password", async ({
  page,
}) => {
  // A service with a policy: /config.json names where it is read (the emulator has none, so it names none).
  await page.route("**/config.json", async (route) => {
    const response = await route.fetch();
    const config = await response.json();
    await route.fulfill({
      response,
      json: {
        ...config,
        passwordPolicyUrl: `${config.authEmulatorUrl}/identitytoolkit.googleapis.com/v2/passwordPolicy?key=${config.firebase.apiKey}`,
      },
    });
  });
  let refused = false;
  const base = {
    minPasswordLength: 8,
    maxPasswordLength: 30,
    containsUppercaseCharacter: true,
    containsNumericCharacter: true,
  };
  await page.route("**/v2/passwordPolicy?*", (route) =>
    route.fulfill({
      json: {
        // After the refusal, the service has started asking for a symbol as well.
        customStrengthOptions: refused ? { ...base, containsNonAlphanumericCharacter: true } : base,
        allowedNonAlphanumericCharacters: ["!", "#"],
        enforcementState: "ENFORCE",
        schemaVersion: 1,
      },
    }),
  );
  await page.route("**/accounts:signUp?*", (route) => {
    refused = true;
    return route.fulfill({
      status: 400,
      json: {
        error: {
          code: 400,
          message:
            "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must contain a non-alphanumeric character]",
        },
      },
    });
  });

  const signUp = new CreateAccountPage(page);
  await signUp.open();
  await signUp.fill("Policy Tester", newEmail("policy"), "lowercase");
  await expect(signUp.rule("At least 8 characters")).toContainText("(met)");
  await expect(signUp.rule("An uppercase letter")).toContainText("not met yet");
  await expect(signUp.rule("A number")).toContainText("not met yet");
  await expect(signUp.rule("At most 30 characters")).toContainText("(met)");
  await expect(signUp.rule("A symbol")).toHaveCount(0);

  await page.getByLabel("Password", { exact: true }).fill("Lowercase1");
  await expect(signUp.rule("An uppercase letter")).toContainText("(met)");
  await signUp.submit();

  await expect(page.getByRole("alert").first()).toHaveText("The password does not meet the requirements below.");
  await expect(signUp.rule("A symbol (one of !#)")).toContainText("not met yet");
  await expect(page).toHaveURL(/\/create-account$/);
});

test("a forgotten password is reset through the emailed link, and the answer never tells whether an account exists", async ({
  page,
  emulator,
}) => {
  const email = newEmail("reset");
  await emulator.createUser(email);

  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(newEmail("nobody"));
  await page.getByRole("button", { name: "Send reset link" }).click();
  const answer = page.getByText(
    "If an account exists for that address, we have sent it a link to choose a new password.",
  );
  await expect(answer).toBeVisible();

  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(answer).toBeVisible();

  await page.goto(await emulator.actionPath(email, "PASSWORD_RESET"));
  await expect(page.getByText(`Choose a new password for ${email}`)).toBeVisible();
  await page.getByLabel("New password").fill("abc");
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByText("The password does not meet every requirement below")).toBeVisible();
  await page.getByLabel("New password").fill("Turbo-lag-2");
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByText("Password changed")).toBeVisible();

  await page.getByRole("link", { name: "Sign in with your new password" }).click();
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await new LoginPage(page).signIn(email, "Turbo-lag-2");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("email-link sign-in on the same device goes straight to the page asked for", async ({ page, emulator }) => {
  const email = newEmail("link");
  // Links go only to addresses that have an account (the server sends them: see docs/develop/operations.md, "Mail").
  await emulator.createUser(email);
  await page.goto(`/login?to=${encodeURIComponent("/profile")}`);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page).toHaveURL(/\/mail-to-redirect\?/);
  await expect(page.getByRole("heading", { name: "We emailed you a link" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  await page.goto(await emailedActionPath(page, email, "Your Tuning Portal sign-in link"));
  await expect(page).toHaveURL(/\/profile$/);
  await expect(new Portal(page).heading("Profile")).toBeVisible();
  await expect(page.getByText(`You sign in with ${email}`)).toBeVisible();
});

test("email-link sign-in on another device asks for the address first", async ({ page, browser, emulator }) => {
  const email = newEmail("otherdevice");
  await emulator.createUser(email);
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page).toHaveURL(/\/mail-to-redirect\?/);
  const link = await emailedActionPath(page, email, "Your Tuning Portal sign-in link");

  // A second browser profile: nothing remembered from the first.
  const phone = await browser.newContext();
  const other = await phone.newPage();
  await other.goto(link);
  await expect(other.getByRole("heading", { name: "Finish signing in" })).toBeVisible();
  await other.getByLabel("Email").fill(newEmail("someone-else"));
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other.getByRole("alert")).toContainText("not the address this link was sent to");
  await other.getByLabel("Email").fill(email);
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other).toHaveURL(/\/dashboard$/);
  await phone.close();
});

test("a link with a missing or unknown parameter is refused before any call, and a used code says so", async ({
  page,
}) => {
  const calls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("identitytoolkit")) calls.push(request.url());
  });
  await page.goto("/handle-email-action?mode=verifyEmail&apiKey=demo-api-key");
  await expect(page.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
  await expect(page.getByText("This link is incomplete: it has no oobCode.")).toBeVisible();
  await page.goto("/handle-email-action?mode=deleteEverything&apiKey=demo-api-key&oobCode=abc");
  await expect(page.getByText('This link asks for an unknown action ("deleteEverything").')).toBeVisible();
  expect(calls).toEqual([]);

  await page.goto("/handle-email-action?mode=verifyEmail&apiKey=demo-api-key&oobCode=not-a-real-code");
  await expect(page.getByText("That did not work")).toBeVisible();
  await expect(page.getByText("This link is not valid any more")).toBeVisible();
});

test("an email change is verified through the link sent to the new address", async ({ page, emulator }) => {
  const email = newEmail("change");
  const next = newEmail("changed");
  await emulator.createUser(email);
  const login = new LoginPage(page);
  await login.open("/profile");
  await login.signIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/profile$/);

  await page.getByLabel("New email address").fill(next);
  await page.getByRole("button", { name: "Send verification link" }).click();
  await expect(page.getByText(`We sent a link to ${next}`)).toBeVisible();

  await page.goto(await emulator.actionPath(email, "VERIFY_AND_CHANGE_EMAIL"));
  await expect(page.getByText("Email changed")).toBeVisible();
  expect((await emulator.lookup(next))?.email).toBe(next);
});

test("a changed email is restored through the link sent to the old address", async ({ page, emulator }) => {
  const email = newEmail("recover");
  await emulator.createUser(email);
  // Someone who knows the password changes the address directly; the service emails the old one.
  await emulator.changeEmail(email, PASSWORD, newEmail("intruder"));
  await page.goto(await emulator.actionPath(email, "RECOVER_EMAIL"));
  await expect(page.getByText("Email restored")).toBeVisible();
  expect((await emulator.lookup(email))?.email).toBe(email);
  await page.getByRole("button", { name: "Reset my password too" }).click();
  await expect(page.getByText(`We sent a password reset link to ${email}.`)).toBeVisible();
  await emulator.latestLink(email, "PASSWORD_RESET");
});

test("a user disabled by an administrator is signed out at the next call, with a toast saying why", async ({
  page,
  emulator,
}) => {
  const email = newEmail("disabled");
  const uid = await emulator.createUser(email);
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);

  await emulator.updateUser(uid, { disableUser: true });
  // The next API call (the profile's, unless a dashboard refresh got there first) gets a 401.
  await page
    .getByTestId("user-menu")
    .click({ timeout: 2000 })
    .then(() => page.getByRole("menuitem", { name: "Profile" }).click({ timeout: 2000 }))
    .catch(() => {});
  await expect(
    page.getByText("This account has been disabled. Contact support if you think this is a mistake.", { exact: true }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await login.signIn(email, PASSWORD);
  await expect(await login.error()).toHaveText(
    "This account has been disabled. Contact support if you think this is a mistake.",
  );
});

test("a saved session the service refuses at the next visit ends with a toast", async ({ page, emulator }) => {
  const email = newEmail("revisit");
  const uid = await emulator.createUser(email);
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The visit ends with the session saved; disabled while the portal was open, its next call would find out.
  await page.goto("about:blank");

  await emulator.updateUser(uid, { disableUser: true });
  await page.goto("/profile");
  await expect(
    page.getByText("Your account was disabled or signed out on every device. Sign in again.", { exact: true }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});
