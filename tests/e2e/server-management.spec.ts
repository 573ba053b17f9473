import { expect, test } from "@playwright/test";
import { demoUsers, LoginPage } from "./pages/login-page";

test("an admin sees each component's health, starts blob collection and follows its progress to done; app info masks secrets", async ({
  page,
}) => {
  await new LoginPage(page).open("/admin/server-management");
  await new LoginPage(page).signIn(demoUsers.admin);
  await expect(page.getByRole("heading", { level: 2, name: "Server management" })).toBeVisible();

  for (const component of ["API", "Database", "Identity", "Payment provider", "Storage", "Job queue"]) {
    const card = page.getByLabel(`${component} health`);
    await expect(card, component).toBeVisible();
    await expect(card, component).toContainText("healthy");
  }
  await expect(page.getByText("Dead letters", { exact: true })).toBeVisible();
  await expect(page.locator(".ant-card").filter({ hasText: "Audit trail" }).first()).toBeVisible();

  const started = page.waitForResponse(
    (response) => response.url().endsWith("/status/background/collect-blobs") && response.request().method() === "POST",
  );
  await page.getByRole("button", { name: "Collect blobs now" }).click();
  const job = (await (await started).json()) as { id: string };
  const row = page.getByRole("table", { name: "Background jobs" }).locator(`tr[data-row-key="${job.id}"]`);
  await expect(row).toContainText("Blob collection");
  // The page follows the running job until it is done: its bar full, its state succeeded.
  await expect(row).toContainText("succeeded", { timeout: 30_000 });
  await expect(row.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  await expect(row).toContainText("removed");

  await page.goto("/admin/app-info");
  await expect(page.getByRole("heading", { level: 2, name: "App info" })).toBeVisible();
  await expect(page.getByLabel("Versions")).toContainText("pg-boss");
  const secret = page.getByRole("table", { name: "Configuration" }).getByRole("row").filter({ hasText: "webApiKey" });
  await expect(secret).toContainText("••••");
  await expect(secret).toContainText("masked");
});
