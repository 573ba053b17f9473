/**
 * The vehicles are one resource ("user-vehicles") whichever page shows them: an edit on the car's
 * page refreshes the other views of the same car already open, without a reload.
 */
import { expect } from "@playwright/test";
import { test } from "./pages/identity";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";
import { Shell } from "./pages/shell";
import { VehiclePage } from "./pages/vehicles";

const DEMO_CAR = "Demo hatchback";
const RENAMED = "Demo hatchback (renamed)";

test("a customer renames a car on its page and My tunes' vehicles show the new name without a reload", async ({
  page,
  request,
  emulator,
}) => {
  const customer = `Bearer ${await emulator.idToken(demoUsers.customer, DEMO_PASSWORD)}`;
  const cars = (await (await request.get("/api/v1/user-vehicles", { headers: { Authorization: customer } })).json())
    .data as { id: string; name: string }[];
  const car = cars.find((vehicle) => vehicle.name === DEMO_CAR);
  expect(car, `the customer's cars ${cars.map((vehicle) => vehicle.name).join(", ")} include ${DEMO_CAR}`).toBeTruthy();
  const id = car?.id ?? "";
  try {
    await new LoginPage(page).open("/my-tunes");
    await new LoginPage(page).signIn(demoUsers.customer);
    const shell = new Shell(page);
    await shell.markDocument();
    // My tunes' vehicles read the car first, so the list is in the app's cache before the edit.
    const tunesCard = page.getByTestId(`vehicle-${id}`);
    await expect(tunesCard).toContainText(DEMO_CAR);

    await shell.openFromMenu("My vehicles");
    const vehicle = new VehiclePage(page);
    await vehicle.openFromList(DEMO_CAR);
    await vehicle.rename(RENAMED);

    await shell.openFromMenu("My tunes");
    await expect(page).toHaveURL(/\/my-tunes$/);
    await expect(tunesCard).toContainText(RENAMED);
    await shell.openFromMenu("My vehicles");
    await expect(page.getByTestId(`vehicle-card-${id}`)).toContainText(RENAMED);
    expect(await shell.sameDocument(), "the app loaded the page again instead of navigating").toBe(true);
  } finally {
    // The demo car keeps its name for the specs after this one.
    const restored = await request.patch(`/api/v1/user-vehicles/${id}`, {
      headers: { Authorization: customer },
      data: { name: DEMO_CAR },
    });
    expect(restored.status(), "the demo car's name is restored").toBe(200);
  }
});
