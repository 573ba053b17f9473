import { randomBytes } from "node:crypto";
import { expect as baseExpect } from "@playwright/test";
import { generateDemo } from "../../server/seed/generator";
import { DEMO_TUNE_OPTIONS } from "../../server/seed/tunes";
import { test } from "./pages/identity";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";

const demo = generateDemo(DEMO_TUNE_OPTIONS);
// An admin's first page after signing in brings the portal's code and the whole admin menu: on a
// loaded machine (both browser runs side by side) it can take many seconds to show.
const expect = baseExpect.configure({ timeout: 30_000 });
const uidOf = (idToken: string) =>
  (JSON.parse(Buffer.from(idToken.split(".")[1], "base64url").toString()) as { user_id: string }).user_id;

test("an admin reads a user's orders and ledger on their page and refunds a paid licence with a reason", async ({
  page,
  request,
  emulator,
}) => {
  const title = `Support case ${randomBytes(3).toString("hex")}`;
  const dealer = { authorization: `Bearer ${await emulator.idToken(demoUsers.dealer, DEMO_PASSWORD)}` };
  const customerToken = await emulator.idToken(demoUsers.customer, DEMO_PASSWORD);
  const customer = { authorization: `Bearer ${customerToken}` };
  const uploaded = await request.post("/api/v1/tune-files", {
    headers: dealer,
    multipart: {
      title,
      file: { name: "case.bin", mimeType: "application/octet-stream", buffer: Buffer.from(demo.tune.image) },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const tuneId = (await uploaded.json()).id as string;
  expect(
    (
      await request.put(`/api/v1/tune-files/${tuneId}/publish`, {
        headers: dealer,
        data: { priceCents: 12345, currency: "EUR" },
      })
    ).status(),
  ).toBe(200);
  const cars = (await (await request.get("/api/v1/user-vehicles", { headers: customer })).json()).data as {
    id: string;
    firmwareId: string | null;
  }[];
  const car = cars.find((vehicle) => vehicle.firmwareId === demo.firmware.firmwareId)!;
  const ordered = await request.post("/api/v1/payments/tune-file-order", {
    headers: customer,
    data: { tuneFileId: tuneId, vehicleId: car.id },
  });
  expect(ordered.status(), await ordered.text()).toBe(201);
  const paid = await request.post("/api/v1/payments/sandbox/pay", {
    headers: customer,
    data: { orderId: (await ordered.json()).order.id, cardNumber: "4242 4242 4242 4242" },
  });
  expect(paid.status(), await paid.text()).toBe(200);

  await new LoginPage(page).open(`/admin/users/${uidOf(customerToken)}`);
  await new LoginPage(page).signIn(demoUsers.admin);
  await expect(page.getByRole("heading", { level: 2 })).not.toHaveText("User");
  await expect(page.getByText(demoUsers.customer).first()).toBeVisible();
  const orders = page.getByRole("table", { name: "Orders" });
  const row = orders.getByRole("row").filter({ hasText: title });
  await expect(row).toContainText("€123.45");
  await expect(row).toContainText("paid");
  await expect(
    page
      .getByRole("table", { name: "Transactions" })
      .getByRole("row")
      .filter({ hasText: `Paid for ${title}` }),
  ).toContainText("€123.45");

  await row.getByRole("button", { name: "Refund" }).click();
  const dialog = page.getByRole("dialog", { name: `Refund: ${title}` });
  await dialog.getByRole("button", { name: "Refund and remove" }).click();
  await expect(dialog).toContainText("give a reason");
  await dialog.getByLabel("Reason").fill("Charged for the wrong car");
  await dialog.getByRole("button", { name: "Refund and remove" }).click();
  await expect(row).toContainText("refunded");
  await expect(row).toContainText("Charged for the wrong car");

  // A goodwill credit, with the reason the customer reads.
  const adjust = page.getByRole("form", { name: "Adjust the balance" });
  await adjust.getByRole("button", { name: "Adjust the balance" }).click();
  await expect(adjust.getByText("an adjustment moves something: not 0")).toBeVisible();
  await adjust.getByLabel("Adjustment amount").fill("15");
  await adjust.getByLabel("Adjustment reason").fill(`Sorry about ${title}`);
  await adjust.getByRole("button", { name: "Adjust the balance" }).click();
  await expect(
    page
      .getByRole("table", { name: "Transactions" })
      .getByRole("row")
      .filter({ hasText: `Adjustment: Sorry about ${title}` }),
  ).toContainText("€15.00");

  // The dealer's side of the same sale, seen from the dealer's page.
  await page.goto(`/admin/users/${uidOf(dealer.authorization.slice(7))}`);
  await page.getByText("Sold", { exact: true }).click();
  await expect(page.getByRole("table", { name: "Orders" }).getByRole("row").filter({ hasText: title })).toContainText(
    "refunded",
  );

  // A made-up id is not a user.
  await page.goto("/admin/users/no-such-user-here");
  await expect(page.getByTestId("error-message")).toHaveText("Page Not Found");
});
