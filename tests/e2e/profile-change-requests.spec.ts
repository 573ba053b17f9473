import { type APIRequestContext, expect } from "@playwright/test";
import { test } from "./pages/identity";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";
import { NotificationsPage } from "./pages/notifications";

const DEMO_NAME = "Demo Performance Ltd";
const NEW_NAME = "Demo Performance Holdings Ltd";
const pdf = (text: string) =>
  Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

/** Puts the demo dealer's legal name back through the same route, so later suites find the demo as seeded. */
async function restoreName(request: APIRequestContext, dealerToken: string, adminToken: string, uid: string) {
  const current = await (
    await request.get(`/api/v1/users/${uid}/profile-change-request`, {
      headers: { authorization: `Bearer ${dealerToken}` },
    })
  ).json();
  if (current.identity.businessName === DEMO_NAME) return;
  const sent = await request.put(`/api/v1/users/${uid}/profile-change-request`, {
    headers: { authorization: `Bearer ${dealerToken}` },
    multipart: {
      businessName: DEMO_NAME,
      documents: { name: "restore.pdf", mimeType: "application/pdf", buffer: pdf("restore") },
    },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const approved = await request.post(`/api/v1/users/${uid}/profile-change-request/approve`, {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { decision: "approve", note: "Back to the seeded name" },
  });
  expect(approved.status(), await approved.text()).toBe(200);
  expect((await approved.json()).identity.businessName).toBe(DEMO_NAME);
}

test("the demo dealer asks for a new legal name with a document, the admin approves it, the dealer sees the new name and the notification", async ({
  page,
  browser,
  request,
  emulator,
}) => {
  test.setTimeout(120_000);
  const dealerToken = await emulator.idToken(demoUsers.dealer, DEMO_PASSWORD);
  const adminToken = await emulator.idToken(demoUsers.admin, DEMO_PASSWORD);
  const uid = (
    await (await request.get("/api/v1/auth/account", { headers: { authorization: `Bearer ${dealerToken}` } })).json()
  ).uid as string;
  try {
    // The dealer asks on their profile; without a document the form says what is missing.
    await new LoginPage(page).open("/profile");
    await new LoginPage(page).signIn(demoUsers.dealer);
    await expect(page).toHaveURL(/\/profile$/);
    const card = page.locator(".ant-card").filter({ has: page.getByText("Business identity", { exact: true }) });
    await expect(card.getByRole("row", { name: /Legal name/ })).toContainText(DEMO_NAME);
    await card.getByRole("button", { name: "Request a change" }).click();
    const form = page.getByRole("form", { name: "Request a change" });
    await form.getByLabel("Legal name").fill(NEW_NAME);
    await form.getByRole("button", { name: "Send for review" }).click();
    await expect(form.getByText("Attach at least one document")).toBeVisible();
    await form
      .locator('input[type="file"]')
      .first()
      .setInputFiles({
        name: "register-extract.pdf",
        mimeType: "application/pdf",
        buffer: pdf("Companies House extract"),
      });
    await form.getByLabel("Note to the reviewer (optional)").fill("Renamed at Companies House last week");
    await form.getByRole("button", { name: "Send for review" }).click();
    await expect(card.getByText(/Change requested on .*: waiting for review/)).toBeVisible();
    await expect(card.getByRole("link", { name: /register-extract\.pdf/ })).toBeVisible();
    // Not yet: the name stands until an admin approves.
    await expect(card.getByRole("row", { name: /Legal name/ })).toContainText(DEMO_NAME);

    // The admin reviews it from the queue: current and requested side by side, the document, approve.
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await new LoginPage(admin).open("/admin/profile-change-requests");
    await new LoginPage(admin).signIn(demoUsers.admin);
    const row = admin
      .getByRole("table", { name: "Profile change requests" })
      .getByRole("row")
      .filter({ hasText: DEMO_NAME })
      .first();
    await expect(row).toContainText("Legal name");
    await row.getByRole("button", { name: "Expand row" }).click();
    const review = admin
      .locator(".ant-card")
      .filter({ has: admin.getByText("Business identity change", { exact: true }) });
    await expect(review.getByRole("row", { name: /Legal name/ })).toContainText(`${DEMO_NAME}${NEW_NAME}`);
    await expect(review.getByText("Renamed at Companies House last week")).toBeVisible();
    const document = review.getByRole("link", { name: /register-extract\.pdf/ });
    const served = await admin.request.get((await document.getAttribute("href"))!);
    expect(served.headers()["content-type"]).toBe("application/pdf");
    await review.getByLabel("Decision note").fill("Register extract checked");
    await review.getByRole("button", { name: "Approve" }).click();
    await admin.locator(".ant-popconfirm").getByRole("button", { name: "Approve" }).click();
    // Decided, it leaves the queue and is listed with the approved ones.
    const queue = admin.getByRole("table", { name: "Profile change requests" });
    await expect(queue.getByRole("row").filter({ hasText: DEMO_NAME })).toHaveCount(0);
    await admin.getByRole("radiogroup", { name: "Show" }).getByText("Approved").click();
    await expect(queue.getByRole("row").filter({ hasText: NEW_NAME }).first()).toContainText("approved");
    await adminContext.close();

    // The dealer sees the new name and is told.
    await page.reload();
    await expect(card.getByRole("row", { name: /Legal name/ })).toContainText(NEW_NAME);
    await expect(card.getByText(/was approved on/)).toBeVisible();
    await expect(card.getByText("Note: Register extract checked")).toBeVisible();
    const inbox = new NotificationsPage(page);
    await inbox.openFromBell();
    await expect(inbox.row(`Your business details were changed: ${NEW_NAME}`)).toBeVisible();
  } finally {
    await restoreName(request, dealerToken, adminToken, uid);
  }
});
