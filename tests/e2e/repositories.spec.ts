import { randomBytes } from "node:crypto";
import { expect } from "@playwright/test";
import { generateDemo } from "../../server/seed/generator";
import { DEMO_TUNE_OPTIONS } from "../../server/seed/tunes";
import { test } from "./pages/identity";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";
import { VehiclePage } from "./pages/vehicles";

const demo = generateDemo(DEMO_TUNE_OPTIONS);

test("a dealer keeps a tune in a private repository: only its member sees it, at no charge, and the member may leave", async ({
  page,
  browser,
  request,
  emulator,
}) => {
  const suffix = randomBytes(3).toString("hex");
  const title = `Team map ${suffix}`;
  const repository = `Track team ${suffix}`;
  const dealerToken = await emulator.idToken(demoUsers.dealer, DEMO_PASSWORD);
  const uploaded = await request.post("/api/v1/tune-files", {
    headers: { authorization: `Bearer ${dealerToken}` },
    multipart: {
      title,
      file: { name: "team.bin", mimeType: "application/octet-stream", buffer: Buffer.from(demo.tune.image) },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const tuneId = (await uploaded.json()).id as string;
  expect(
    (
      await request.put(`/api/v1/tune-files/${tuneId}/publish`, {
        headers: { authorization: `Bearer ${dealerToken}` },
        data: { priceCents: 15000, currency: "EUR" },
      })
    ).status(),
  ).toBe(200);

  // The dealer makes the repository, gives the demo customer access and puts the tune in it.
  await new LoginPage(page).open("/my-tunes");
  await new LoginPage(page).signIn(demoUsers.dealer);
  await page.getByRole("tab", { name: "Repositories" }).click();
  const form = page.getByRole("form", { name: "New repository" });
  await form.getByLabel("Name").fill(repository);
  await form.getByLabel("Members get its tunes at no charge").click();
  await form.getByRole("button", { name: "Make repository" }).click();
  const card = page.getByTestId("repository").filter({ hasText: repository });
  await expect(card).toContainText("No member yet");
  await card.getByLabel("Member email").fill("nobody-at-all@example.com");
  await card.getByRole("button", { name: "Give access" }).click();
  await expect(card).toContainText("no account uses this email");
  await card.getByLabel("Member email").fill(demoUsers.customer);
  await card.getByRole("button", { name: "Give access" }).click();
  await expect(card.getByTestId("repository-member")).toContainText(demoUsers.customer);

  await page.goto(`/my-tunes/show/${tuneId}`);
  const drawer = page.getByTestId("tune-show");
  // Opened from the keyboard, as the drawer's header may cover a click.
  const offeredTo = drawer.getByRole("combobox", { name: "Offered to" });
  await offeredTo.focus();
  const dropdown = page.locator(".ant-select-dropdown:visible");
  // Picked again if the click fell on options drawn anew as the repositories arrived: choosing the
  // value already chosen changes nothing, so the offer is saved once.
  await expect(async () => {
    if (!(await dropdown.isVisible())) await offeredTo.press("ArrowDown");
    await dropdown.getByText(`Members of "${repository}"`, { exact: true }).click({ timeout: 5_000 });
    await expect(page.getByText(`Now offered to the members of "${repository}" only`).first()).toBeVisible({
      timeout: 5_000,
    });
  }).toPass({ timeout: 30_000 });

  // The member finds it on the car's storefront, marked with the collection, and gets it at no charge.
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await new LoginPage(member).open("/my-devices");
  await new LoginPage(member).signIn(demoUsers.customer);
  await new VehiclePage(member).openFromList("Demo hatchback");
  const offer = member.getByTestId("offer").filter({ hasText: title });
  await expect(offer).toContainText(`from your collection “${repository}”`);
  await offer.getByRole("button", { name: "Get at no charge" }).click();
  await expect(member.getByTestId("licence").filter({ hasText: title })).toContainText("unused");

  // The member sees the collection on /my-tunes and leaves it.
  await member.goto("/my-tunes");
  await member.getByRole("tab", { name: "Private collections" }).click();
  const access = member.getByTestId("repository-access").filter({ hasText: repository });
  await expect(access).toContainText("at no charge");
  await access.getByRole("button", { name: "Leave" }).click();
  await member.getByRole("button", { name: "Leave", exact: true }).last().click();
  await expect(member.getByTestId("repository-access").filter({ hasText: repository })).toHaveCount(0);
  await memberContext.close();

  // The dealer's card no longer lists the member; the repository still holds the tune, so it is not deleted.
  await page.goto("/my-tunes");
  await page.getByRole("tab", { name: "Repositories" }).click();
  await expect(card).toContainText("No member yet");
  await expect(card).toContainText("1 tune");
  await card.getByRole("button", { name: `Delete ${repository}` }).click();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(card.getByRole("alert")).toContainText(title);
});
