import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { IdentityEmulator } from "./pages/identity";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";
import { NotificationsPage } from "./pages/notifications";

/** The firmware the demo seed creates (server/seed/tunes.ts). */
const DEMO_FIRMWARE = "DEMO-ECU-0001";

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const uidOf = (token: string): string => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()).user_id;

async function unreadCount(request: APIRequestContext, token: string): Promise<number> {
  const response = await request.get(`/api/v1/users/${uidOf(token)}/notifications?pageSize=1`, {
    headers: bearer(token),
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).unreadCount;
}

/** What the app (or /vehicle-support in the portal) does for a customer whose car is not supported. */
async function askForSupport(request: APIRequestContext, token: string, model: string, vin: string): Promise<string> {
  const response = await request.post("/api/v1/user-vehicles/support-request", {
    headers: bearer(token),
    data: { vin, make: "Volkswagen", model, year: 2019, ecuIds: ["8V0906259H"] },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).id;
}

async function decide(request: APIRequestContext, token: string, id: string, change: Record<string, unknown>) {
  const response = await request.patch(`/api/v1/user-vehicles/support-request/${id}`, {
    headers: bearer(token),
    data: change,
  });
  expect(response.status(), await response.text()).toBe(200);
}

test("a customer sees live that their support request was supported, and marks the notification read", async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const vin = `WVWZZZ${stamp.padStart(11, "0").slice(-11)}`.replace(/[IOQ]/g, "0");
  const emulator = await IdentityEmulator.of(request);
  const customerToken = await emulator.idToken(demoUsers.customer, DEMO_PASSWORD);
  const adminToken = await emulator.idToken(demoUsers.admin, DEMO_PASSWORD);
  const requestId = await askForSupport(request, customerToken, `Golf R ${stamp}`, vin);
  const before = await unreadCount(request, customerToken);

  const login = new LoginPage(page);
  await login.open("/dashboard");
  await login.signIn(demoUsers.customer);
  await expect(page).toHaveURL(/\/dashboard$/);
  const inbox = new NotificationsPage(page);
  await inbox.expectBellUnread(before);

  // The admin decides while the customer's page stays open: the bell learns of it from the stream.
  await decide(request, adminToken, requestId, { status: "supported", firmwareId: DEMO_FIRMWARE });
  await inbox.expectBellUnread(before + 1);
  await expect(page).toHaveURL(/\/dashboard$/);

  await inbox.openFromBell();
  const supported = inbox.row(`Golf R ${stamp} is supported`);
  await expect(supported).toContainText(`firmware ${DEMO_FIRMWARE}`);
  await expect(supported).toContainText("(unread)");
  await expect(supported.getByRole("link", { name: `Your Volkswagen Golf R ${stamp} is supported` })).toHaveAttribute(
    "href",
    "/my-tunes",
  );

  // A second decision while the list is open appears in it without a reload.
  const second = await askForSupport(request, customerToken, `Polo ${stamp}`, vin);
  await decide(request, adminToken, second, { status: "rejected", note: "this ECU cannot be read over OBD" });
  await expect(inbox.row(`Polo ${stamp} cannot be supported`)).toContainText(
    "Reason: this ECU cannot be read over OBD",
  );
  await inbox.expectBellUnread(before + 2);
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

  await inbox.markRead(`Golf R ${stamp} is supported`);
  await expect(supported).not.toContainText("(unread)");
  await expect(supported.getByRole("button", { name: "Mark unread" })).toBeVisible();
  await inbox.expectBellUnread(before + 1);

  await inbox.showOnly("Unread");
  await expect(inbox.row(`Polo ${stamp}`)).toBeVisible();
  await expect(supported).toHaveCount(0);
  await inbox.showOnly("All");
  await expect(supported).toBeVisible();

  await inbox.markAllRead();
  await inbox.expectBellUnread(0);
  await expect(inbox.row(`Polo ${stamp}`)).not.toContainText("(unread)");
  expect(await unreadCount(request, customerToken)).toBe(0);
});
