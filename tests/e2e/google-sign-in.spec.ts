import { expect } from "@playwright/test";
import { standInForGapi } from "./pages/gapi-stand-in";
import { CreateAccountPage, GoogleSignIn, newEmail, PASSWORD, test } from "./pages/identity";
import { LoginPage, Portal } from "./pages/login-page";

test.beforeEach(async ({ context }) => {
  await standInForGapi(context);
});

const providersOf = async (
  emulator: { lookup: (email: string) => Promise<{ providerUserInfo?: Array<{ providerId: string }> } | undefined> },
  email: string,
) => ((await emulator.lookup(email))?.providerUserInfo ?? []).map((info) => info.providerId).sort();

test("a new user continues with Google from the sign-up page and lands signed in", async ({ page, emulator }) => {
  const email = newEmail("google-new");
  await new CreateAccountPage(page).open();
  await new GoogleSignIn(page).withNewAccount(email, "Gail Google");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("user-menu")).toContainText("Gail Google");
  expect(await providersOf(emulator, email)).toEqual(["google.com"]);

  // Back another day: the same Google account signs in to the same account.
  await new Portal(page).signOut();
  await new GoogleSignIn(page).withExistingAccount(email);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("an existing password user who continues with Google is asked for the password, and then both ways sign in", async ({
  page,
  emulator,
}) => {
  const email = newEmail("google-link");
  await emulator.createUser(email, PASSWORD, "Lena Link");
  // The emulator's fake-account page always vouches for the address (email_verified), and Firebase
  // then folds the Google sign-in into the existing account by itself. A Google account whose
  // address Google does not vouch for gives account-exists-with-different-credential instead: that
  // is the answer this test needs, so the page's one sign-in call says the address is not verified.
  await page.route("**/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?*", async (route) => {
    const body = route.request().postDataJSON() as { requestUri?: string };
    if (!body.requestUri) return route.continue();
    const uri = new URL(body.requestUri);
    const claims = JSON.parse(uri.searchParams.get("id_token")!);
    uri.searchParams.set("id_token", JSON.stringify({ ...claims, email_verified: false }));
    await route.continue({ postData: JSON.stringify({ ...body, requestUri: uri.toString() }) });
  });

  const login = new LoginPage(page);
  await login.open("/profile");
  await new GoogleSignIn(page).withNewAccount(email, "Lena Link");
  await expect(page.getByText("You already have an account with a password")).toBeVisible();
  await expect(page.getByText(`${email} already has an account that signs in with a password`)).toBeVisible();

  await page.getByLabel("Password of this account").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in and add Google" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Email or password is incorrect." })).toBeVisible();
  await page.getByLabel("Password of this account").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in and add Google" }).click();
  await expect(new Portal(page).heading("Profile")).toBeVisible();
  await expect
    .poll(() => providersOf(emulator, email), { message: "Google linked beside the password" })
    .toEqual(["google.com", "password"]);
  await page.unroute("**/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?*");

  await new Portal(page).signOut();
  await login.signIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await new Portal(page).signOut();
  await new GoogleSignIn(page).withExistingAccount(email);
  await expect(page).toHaveURL(/\/dashboard$/);
  expect((await emulator.lookup(email))?.localId, "still one account").toBeTruthy();
});

test("with pop-ups blocked, Continue with Google signs in through a redirect to the same page of accounts", async ({
  page,
  emulator,
}) => {
  // The browser refuses every popup: the SDK answers popup-blocked and the page redirects instead.
  await page.addInitScript(() => {
    window.open = () => null;
  });
  const email = newEmail("google-redirect");
  const login = new LoginPage(page);
  await login.open("/profile");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await page.getByText("Add new account").click();
  await page.locator("#email-input").fill(email);
  await page.locator("#display-name-input").fill("Rita Redirect");
  await page.locator("#sign-in").click();
  await expect(new Portal(page).heading("Profile")).toBeVisible();
  expect(await providersOf(emulator, email)).toEqual(["google.com"]);
});
