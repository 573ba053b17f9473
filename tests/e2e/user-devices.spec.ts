/** The admin's list of every vehicle: the demo car with its owner, who leads to their account; narrowed to one owner. */
import { expect, test } from "@playwright/test";
import { demoUsers, LoginPage } from "./pages/login-page";

test("an admin finds the demo car among every vehicle, narrows the list to its owner and opens the owner's account", async ({
  page,
}) => {
  const login = new LoginPage(page);
  await login.open("/admin/user-devices");
  await login.signIn(demoUsers.admin);
  await expect(page).toHaveURL(/\/admin\/user-devices$/);
  const table = page.getByRole("table", { name: "Vehicles" });
  // Every owner's cars: the demo fleet's too.
  await expect(table.getByRole("row", { name: /Fleet car/ }).first()).toBeVisible();

  await page.getByPlaceholder("VIN, nickname, firmware or owner email").fill("WDEMZZZ0000000001");
  await page.getByPlaceholder("VIN, nickname, firmware or owner email").press("Enter");
  const demoCar = table.getByRole("row", { name: /Demo hatchback/ });
  await expect(demoCar).toBeVisible();
  await expect(demoCar).toContainText("WDEMZZZ0000000001");
  await expect(demoCar.getByRole("link", { name: demoUsers.customer, exact: true })).toBeVisible();

  await demoCar.getByRole("button", { name: `Only the vehicles of ${demoUsers.customer}` }).click();
  await expect(page).toHaveURL(/ownerUid/);
  await expect(page.getByTestId("owner-filter")).toContainText(demoUsers.customer);
  await expect(table.getByRole("row", { name: /Fleet car/ })).toHaveCount(0);
  const rows = table.locator("tbody tr.ant-table-row");
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all())
    await expect(row.getByRole("link", { name: demoUsers.customer, exact: true })).toBeVisible();

  await table
    .getByRole("row", { name: /Demo hatchback/ })
    .getByRole("link", { name: demoUsers.customer, exact: true })
    .click();
  await expect(page).toHaveURL(/\/admin\/users\/[^/]+$/);
  // The account page: its title is the user's name (another suite may rename the demo customer), its subtitle the email.
  await expect(page.getByRole("heading", { level: 2 }).first()).toBeVisible();
  // The vehicles list stays alive, hidden, behind it with the same email in its rows: only what shows counts.
  await expect(page.getByText(demoUsers.customer, { exact: true }).filter({ visible: true }).first()).toBeVisible();
});
