import type { APIRequestContext } from "@playwright/test";
import { expect } from "@playwright/test";
import { apiPaths } from "../../contracts/api-paths";
import { test } from "./pages/identity";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";

/**
 * A pull of the demo car's: at 4,000 rpm and full throttle boost ran 1.5 psi under its target, at
 * 2,000 rpm and half throttle on target. The channels are the ones the demo's boost map is indexed by.
 */
const PULL = [
  "Time (s),Engine speed (rpm),Throttle (%),Boost (psi),Boost target (psi)",
  ...Array.from({ length: 20 }, (_, i) => `${(i / 10).toFixed(1)},${3950 + i * 5},98,12,13.5`),
  ...Array.from({ length: 20 }, (_, i) => `${(2 + i / 10).toFixed(1)},2000,50,8,8`),
].join("\n");

/** Calls the API as a demo user, expecting success. */
function api(request: APIRequestContext, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  return async (method: "get" | "post" | "patch", url: string, data?: object) => {
    const answer = await request[method](`/api/v1/${url}`, { headers, data });
    expect(answer.status(), await answer.text()).toBeLessThan(300);
    return answer.json();
  };
}

test("a dealer lays a request's log on the tune's boost map, accepts the proposed change and delivers it; the customer reads what changed and why", async ({
  page,
  browser,
  request,
  emulator,
}) => {
  test.setTimeout(120_000);
  const asCustomer = api(request, await emulator.idToken(demoUsers.customer, DEMO_PASSWORD));
  const asDealer = api(request, await emulator.idToken(demoUsers.dealer, DEMO_PASSWORD));

  // The customer's car, a log of it, and a request the dealer has been paid for and started.
  const cars = await asCustomer("get", `${apiPaths["user-vehicles"].list}?pageSize=50`);
  const car = cars.data.find((vehicle: { name: string }) => vehicle.name === "Demo hatchback");
  const log = await request.post("/api/v1/data-logs", {
    headers: { authorization: `Bearer ${await emulator.idToken(demoUsers.customer, DEMO_PASSWORD)}` },
    multipart: {
      title: "Boost pull in 3rd",
      vehicleId: car.id,
      file: { name: "boost-pull.csv", mimeType: "text/csv", buffer: Buffer.from(PULL) },
    },
  });
  expect(log.status(), await log.text()).toBe(201);
  const dealers = await asCustomer("get", `${apiPaths["managed-dealers"].list}?pageSize=100`);
  const dealer = dealers.data.find((d: { businessName: string }) => d.businessName === "Demo Performance Ltd");
  const made = await asCustomer("post", "tuning-requests", {
    vehicleId: car.id,
    dealerId: dealer.id,
    questionnaire: { fuel: "98", transmission: "manual", notes: "Boost falls short at 4,000 rpm" },
    logIds: [(await log.json()).id],
  });
  await asDealer("patch", `tuning-requests/${made.id}`, {
    action: "quote",
    priceCents: 20000,
    currency: "EUR",
    expectedDays: 2,
    note: "Boost fix",
  });
  const order = await asCustomer("post", "payments/tuning-request-order", { tuningRequestId: made.id });
  await asCustomer("post", "payments/sandbox/pay", { orderId: order.order.id, cardNumber: "4242 4242 4242 4242" });
  await asDealer("patch", `tuning-requests/${made.id}`, { action: "start" });

  // The dealer opens the request's log on the boost map and accepts what it proposes.
  await new LoginPage(page).open("/tuning-requests");
  await new LoginPage(page).signIn(demoUsers.dealer);
  await page.getByRole("table", { name: "Tuning requests" }).getByText(made.reference, { exact: true }).click();
  const ticket = page.getByTestId("tuning-request");
  await ticket.getByRole("button", { name: "Correct from logs" }).click();
  const dialog = page.getByRole("dialog", { name: `Correct from logs: ${made.reference}` });
  // Every log of the request is laid on the map at first.
  await expect(dialog.locator(".ant-select-selection-item").filter({ hasText: "Boost pull in 3rd" })).toBeVisible();
  await dialog.getByRole("combobox", { name: "Map" }).click();
  await page.locator(".ant-select-dropdown:visible").getByText("Target boost", { exact: true }).click();
  const grid = dialog.getByRole("table", { name: "Proposed corrections" });
  await expect(grid).toBeVisible();
  // The log visited two cells of the 96; the rest are greyed.
  await expect(grid.locator('[data-testid="map-cell"][data-visited="true"]')).toHaveCount(2);
  await expect(grid.getByRole("cell", { name: "4000, 98" })).toContainText("n 20");
  await expect(dialog).toContainText("1 cells proposed, 0 accepted");
  await dialog.getByRole("button", { name: "Accept all" }).click();
  const reason = "boost +1.5 psi at 4,000 rpm, 98 %: boost ran under target there in the log you sent";
  await expect(dialog.getByTestId("correction-reasons")).toContainText(reason);
  await dialog.getByLabel("Revision note").fill("More boost where it fell short");
  await dialog.getByRole("button", { name: "Deliver revision 1" }).click();
  await expect(dialog).toBeHidden();
  await expect(ticket.getByTestId("revision")).toHaveCount(1);
  await expect(ticket.getByRole("table", { name: "Revision 1 against stock" })).toContainText("Target boost");

  // The customer reads the change and its reason on the request.
  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  await new LoginPage(customer).open(`/my-devices/${car.id}?request=${made.id}`);
  await new LoginPage(customer).signIn(demoUsers.customer);
  const customerTicket = customer.getByTestId("tuning-request");
  const revision = customerTicket.getByTestId("revision");
  await expect(revision).toContainText("More boost where it fell short");
  await expect(revision).toContainText(`What changed and why:\n- ${reason}`, { useInnerText: true });
  await expect(customerTicket.getByRole("table", { name: "Revision 1 against stock" })).toContainText("Target boost");
  await customerContext.close();
});
