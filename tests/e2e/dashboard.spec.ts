/**
 * The dashboard's live figures, for the demo customer and the demo admin: each figure shows what
 * `GET /dashboard` answered for them, the demo car is listed and leads to its page, and a figure
 * leads to the page it summarises.
 */
import { expect, type Page, test } from "@playwright/test";
import type { AdminDashboard, CustomerDashboard, DealerDashboard } from "../../contracts/dashboard";
import { demoUsers, LoginPage } from "./pages/login-page";

/** Signs in and lands on the dashboard; answers the figures the page was given. */
async function openDashboard<T>(page: Page, email: string): Promise<T> {
  const answer = page.waitForResponse(
    (response) => new URL(response.url()).pathname === "/api/v1/dashboard" && response.request().method() === "GET",
  );
  await new LoginPage(page).open("/dashboard");
  await new LoginPage(page).signIn(email);
  await expect(page).toHaveURL(/\/dashboard$/);
  const response = await answer;
  expect(response.status()).toBe(200);
  return (await response.json()) as T;
}

const figure = (page: Page, testId: string) => page.getByTestId(testId).locator(".ant-statistic-content-value");

test("the demo customer sees their car, last flash, licences and counts, each leading to its page", async ({
  page,
}) => {
  const figures = await openDashboard<CustomerDashboard>(page, demoUsers.customer);
  expect(figures.role).toBe("customer");
  const car = figures.vehicles.items.find((vehicle) => vehicle.name === "Demo hatchback");
  expect(car, "the demo car is among the customer's figures").toBeDefined();

  await expect(figure(page, "figure-vehicles")).toHaveText(String(figures.vehicles.total));
  await expect(figure(page, "figure-licences")).toHaveText(String(figures.licences.total));
  await expect(figure(page, "figure-open-requests")).toHaveText(String(figures.openRequests.total));
  await expect(figure(page, "figure-data-logs")).toHaveText(String(figures.dataLogs.total));
  await expect(figure(page, "figure-unread-notifications")).toHaveText(String(figures.unreadNotifications));
  // The demo car has been flashed (seed/flashing.ts): its last session is shown with its result.
  expect(figures.lastFlash).not.toBeNull();
  const lastFlash = page.getByTestId("last-flash");
  await expect(lastFlash.getByRole("link", { name: figures.lastFlash!.vehicleName })).toBeVisible();
  await expect(lastFlash.getByText(figures.lastFlash!.result, { exact: true })).toBeVisible();

  const vehicles = page.getByRole("table", { name: "Your vehicles" });
  const row = vehicles.getByRole("row", { name: /Demo hatchback/ });
  await expect(row).toContainText("WDEMZZZ0000000001");
  await row.getByRole("link", { name: "Demo hatchback" }).click();
  await expect(page).toHaveURL(new RegExp(`/my-devices/${car!.id}$`));
  await expect(page.getByRole("heading", { name: "Demo hatchback" }).first()).toBeVisible();

  await page.goBack();
  await page.getByTestId("figure-vehicles").click();
  await expect(page).toHaveURL(/\/my-devices$/);
});

test("the demo admin sees failed flashes, applications, onboarding requests, failed jobs and sign-ups, each leading to its page", async ({
  page,
}) => {
  const figures = await openDashboard<AdminDashboard>(page, demoUsers.admin);
  expect(figures.role).toBe("admin");
  await expect(figure(page, "figure-failed-flashes")).toHaveText(String(figures.failedFlashesToday));
  await expect(figure(page, "figure-dealer-applications")).toHaveText(String(figures.pendingDealerApplications));
  await expect(figure(page, "figure-onboarding-requests")).toHaveText(String(figures.pendingOnboardingRequests));
  await expect(figure(page, "figure-failed-jobs")).toHaveText(String(figures.failedJobs));
  await expect(figure(page, "figure-sign-ups-today")).toHaveText(String(figures.signUps.today));
  await expect(figure(page, "figure-sign-ups-week")).toHaveText(String(figures.signUps.last7Days));
  // The newest accounts, each opening its user page (the demo accounts are made at every start).
  expect(figures.signUps.recent.length).toBeGreaterThan(0);
  const newest = page.getByRole("table", { name: "Newest accounts" });
  await expect(newest.locator("tbody tr.ant-table-row")).toHaveCount(figures.signUps.recent.length);
  const first = figures.signUps.recent[0];
  await expect(
    newest.getByRole("link", { name: first.displayName ?? first.email ?? first.uid, exact: true }),
  ).toHaveAttribute("href", `/admin/users/${encodeURIComponent(first.uid)}`);

  // The demo customer asked for their Audi S3 to be supported (seed/catalogue.ts): it waits.
  expect(figures.pendingOnboardingRequests).toBeGreaterThanOrEqual(1);

  await page.getByTestId("figure-onboarding-requests").click();
  await expect(page).toHaveURL(/\/admin\/onboarding-vehicles\?/);
  await expect(page.getByRole("row", { name: /Audi/ }).first()).toBeVisible();

  await page.goto("/dashboard");
  await page.getByTestId("figure-sign-ups-week").click();
  await expect(page).toHaveURL(/\/admin\/users/);
});

test("the demo dealer sees their queue, this month's sales, managed vehicles and published tunes, each leading to its page", async ({
  page,
}) => {
  const figures = await openDashboard<DealerDashboard>(page, demoUsers.dealer);
  expect(figures.role).toBe("dealer");
  const waiting = figures.queue.reduce((sum, entry) => sum + entry.count, 0);
  await expect(figure(page, "figure-queue")).toHaveText(String(waiting));
  await expect(figure(page, "figure-managed-vehicles")).toHaveText(String(figures.managedVehicles));
  await expect(figure(page, "figure-tunes-published")).toHaveText(String(figures.tunesPublished));
  // The demo dealer's published demo tune, and the demo car that has it (seed/tunes.ts).
  expect(figures.tunesPublished).toBeGreaterThanOrEqual(1);
  expect(figures.managedVehicles).toBeGreaterThanOrEqual(1);
  for (const entry of figures.queue)
    await expect(figure(page, `figure-queue-${entry.state}`)).toHaveText(String(entry.count));
  // The demo data's late ticket (seed/tuning-requests.ts).
  expect(figures.late).toBeGreaterThanOrEqual(1);
  await expect(figure(page, "figure-queue-late")).toHaveText(String(figures.late));
  for (const entry of figures.sales.byCurrency)
    await expect(page.getByTestId(`figure-sales-${entry.currency}`)).toContainText(
      `${entry.count} ${entry.count === 1 ? "sale" : "sales"}`,
    );

  await page.getByRole("link", { name: "Sales and payments" }).click();
  await expect(page).toHaveURL(/\/my-tunes\?tab=transactions$/);
  await expect(page.getByRole("tab", { name: "Sales and payments", selected: true })).toBeVisible();

  await page.goto("/dashboard");
  await page.getByTestId("figure-managed-vehicles").click();
  await expect(page).toHaveURL(/\/managed-devices(\?|$)/);
});
