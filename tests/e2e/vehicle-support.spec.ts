import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { OwnSupportRequest } from "../../contracts/firmware-support";
import { IdentityEmulator } from "./pages/identity";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";
import { VehicleSupportPage } from "./pages/vehicle-support";

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function accessibilityViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** The customer's request for this model, as the API lists it to them. */
async function ownRequest(request: APIRequestContext, token: string, model: string): Promise<OwnSupportRequest> {
  const response = await request.get("/api/v1/user-vehicles/support-request/mine?pageSize=50", {
    headers: bearer(token),
  });
  expect(response.status(), await response.text()).toBe(200);
  const found = ((await response.json()).data as OwnSupportRequest[]).find((r) => r.model === model);
  expect(found, `no request for ${model} in the customer's list`).toBeTruthy();
  return found!;
}

test("a customer asks from the public site for their car to be supported, fixes a bad VIN, and follows the request as an admin works it", async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const vehicle = {
    vin: `WVWZZZ${stamp.padStart(11, "0").slice(-11)}`.replace(/[IOQ]/g, "0"),
    make: "Škoda",
    model: `Octavia RS ${stamp}`,
    year: 2021,
    ecuId: "5E0906259B",
  };
  const read = new Uint8Array(1024).map((_, i) => i % 251);

  // Signed out, the public page's link goes through sign-in and comes back to the form.
  await page.goto("/");
  await page.getByRole("link", { name: "Ask us to support it" }).click();
  await expect(page).toHaveURL(/\/login\?to=%2Fvehicle-support%2Fcreate$/);
  await new LoginPage(page).signIn(demoUsers.customer);
  await expect(page).toHaveURL(/\/vehicle-support\/create(\?|$)/);

  const support = new VehicleSupportPage(page);
  await support.fill({ ...vehicle, vin: "WVWZZZ1KZOW123456" });
  await support.attachRead("ecu-read.bin", read);
  await support.send();
  await expect(support.fieldError("VIN")).toHaveText("a VIN is 17 letters and digits, without I, O or Q");
  await expect(page).toHaveURL(/\/vehicle-support\/create(\?|$)/);
  // A field's error must be as readable as the rest of the form.
  expect(await accessibilityViolations(page)).toEqual([]);

  await support.form().getByLabel("VIN").fill(vehicle.vin);
  await expect(support.fieldError("VIN")).toHaveCount(0);
  await support.send();
  await expect(page).toHaveURL(/\/vehicle-support(\?|$)/);
  const row = support.row(vehicle.vin);
  await expect(row).toContainText(`${vehicle.make} ${vehicle.model} (${vehicle.year})`);
  await expect(row).toContainText(vehicle.ecuId);
  await expect(row.getByText("new", { exact: true })).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);

  // The admin moves it on through the API, as the onboarding queue does.
  const emulator = await IdentityEmulator.of(request);
  const customerToken = await emulator.idToken(demoUsers.customer, DEMO_PASSWORD);
  const adminToken = await emulator.idToken(demoUsers.admin, DEMO_PASSWORD);
  const filed = await ownRequest(request, customerToken, vehicle.model);
  expect(filed).toMatchObject({ vin: vehicle.vin, status: "new", readFile: { size: read.length } });
  const working = await request.patch(`/api/v1/user-vehicles/support-request/${filed.id}`, {
    headers: bearer(adminToken),
    data: { status: "investigating", note: "please send a read made with the engine off" },
  });
  expect(working.status(), await working.text()).toBe(200);

  await page.reload();
  await expect(row.getByText("investigating", { exact: true })).toBeVisible();
  const drawer = await support.openRequest(vehicle);
  await expect(drawer).toContainText(`${read.length.toLocaleString("en-US")} bytes`);
  await expect(drawer).toContainText("please send a read made with the engine off");
  await expect(page).toHaveURL(new RegExp(`/vehicle-support/show/${filed.id}(\\?|$)`));
});
