import { expect, test } from "@playwright/test";
import { demoUsers, LoginPage } from "./pages/login-page";

test("an admin reads the contact and demo requests visitors sent", async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const contact = await request.post("/api/v1/contact-requests", {
    data: {
      name: `Robin ${stamp}`,
      email: `robin-${stamp}@example.com`,
      topic: "vehicle-support",
      message: "Is the Golf R mk7.5 with the DQ381 supported?",
    },
  });
  expect(contact.status()).toBe(201);
  const demo = await request.post("/api/v1/demo-requests", {
    data: {
      name: `Sam ${stamp}`,
      email: `sam-${stamp}@example.com`,
      businessName: `Boost Works ${stamp}`,
      country: "Germany",
    },
  });
  expect(demo.status()).toBe(201);

  const login = new LoginPage(page);
  await login.open("/admin/enquiries");
  await login.signIn(demoUsers.admin);
  // The lists write their paging and sort into the address as they show.
  await expect(page).toHaveURL(/\/admin\/enquiries(\?|$)/);
  const contacts = page.getByRole("table", { name: "Contact requests" });
  const row = contacts.getByRole("row").filter({ hasText: `Robin ${stamp}` });
  await expect(row).toContainText("Is my vehicle supported?");
  await row.getByRole("button", { name: /expand/i }).click();
  await expect(page.getByText("Is the Golf R mk7.5 with the DQ381 supported?")).toBeVisible();

  await page.getByRole("tab", { name: "Demo requests" }).click();
  await expect(page).toHaveURL(/\/admin\/enquiries\/demo/);
  await expect(
    page
      .getByRole("table", { name: "Demo requests" })
      .getByRole("row")
      .filter({ hasText: `Boost Works ${stamp}` }),
  ).toContainText("Germany");
});

test("customers cannot open the enquiries", async ({ page }) => {
  const login = new LoginPage(page);
  await login.open("/admin/enquiries");
  await login.signIn(demoUsers.customer);
  await expect(page.getByRole("heading", { name: "403" })).toBeVisible();
});
