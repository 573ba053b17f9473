import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type APIRequestContext, expect } from "@playwright/test";
import type { FormatRequest } from "../../contracts/format-requests";
import { DataLogsPage } from "./pages/data-logs-page";
import { test } from "./pages/identity";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";
import { NotificationsPage } from "./pages/notifications";
import { Shell } from "./pages/shell";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** AEM's binary .daq, which the parser refuses as a format it does not read. */
const AEM = path.resolve(repoRoot, "../shared/fixtures/new-formats/aem.daq");

/** Closes whatever the customer left open, so later runs stay within the open-request limit. */
async function closeOpen(request: APIRequestContext, adminToken: string) {
  const headers = { authorization: `Bearer ${adminToken}` };
  const open = await (await request.get("/api/v1/format-requests?state[eq]=open&pageSize=100", { headers })).json();
  for (const row of open.data as FormatRequest[])
    if (row.ownerEmail === demoUsers.customer)
      await request.post(`/api/v1/format-requests/${row.id}/close`, { headers, data: { state: "declined" } });
}

test("a customer asks for a refused log's format with consent, the admin marks it supported, the customer is told", async ({
  page,
  browser,
  request,
  emulator,
}) => {
  test.setTimeout(120_000);
  const adminToken = await emulator.idToken(demoUsers.admin, DEMO_PASSWORD);
  await closeOpen(request, adminToken);
  const tool = `AEM Infinity ${Date.now().toString(36)}`;
  try {
    // The upload is refused with why, and the request for its format is offered.
    const list = new DataLogsPage(page);
    await list.openAs(demoUsers.customer);
    await list.pick(AEM);
    await expect(new Shell(page).toast("Not uploaded")).toContainText("Export it as CSV from AEMdata");
    const refusal = page.getByRole("alert").filter({ hasText: "aem.daq was not read" });
    await expect(refusal).toContainText("An AEM .daq log");
    await refusal.getByRole("button", { name: "Ask for this format to be supported" }).click();

    // Without the consent ticked nothing is sent.
    const dialog = page.getByRole("dialog", { name: "Ask for this format to be supported" });
    await dialog.getByLabel("Which logger or tool wrote it?").fill(tool);
    await dialog.getByRole("button", { name: "Send the file" }).click();
    await expect(dialog.getByText("Nothing is kept without your consent")).toBeVisible();
    await dialog.getByRole("checkbox", { name: /Only administrators can see it/ }).check();
    await dialog.getByRole("button", { name: "Send the file" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "aem.daq was sent to the administrators" })).toBeVisible();
    const own = page
      .getByRole("region", { name: "Your format requests" })
      .getByRole("listitem")
      .filter({ hasText: tool });
    await expect(own).toContainText("Waiting");

    // The admin sees it with the tool, the refusal and the uploader, downloads the file and marks it supported.
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await new LoginPage(admin).open("/admin/format-requests");
    await new LoginPage(admin).signIn(demoUsers.admin);
    const row = admin.getByRole("table", { name: "Format requests" }).getByRole("row").filter({ hasText: tool });
    await expect(row).toContainText(demoUsers.customer);
    await expect(row).toContainText("An AEM .daq log");
    const href = await row.getByRole("link", { name: "aem.daq" }).getAttribute("href");
    const served = await admin.request.get(href ?? "");
    expect(served.status()).toBe(200);
    // The kept bytes are the fixture's, compared with the file itself.
    expect(Buffer.compare(await served.body(), readFileSync(AEM))).toBe(0);
    await row.getByRole("button", { name: "Supported" }).click();
    const closing = admin.getByRole("dialog", { name: /Mark aem\.daq supported/ });
    await closing.getByLabel("Note to the uploader").fill("AEM .daq logs are read now");
    await closing.getByRole("button", { name: "Mark supported" }).click();
    await expect(row).toHaveCount(0);
    await adminContext.close();

    // The customer sees the request supported and the notification offering the upload again.
    await page.reload();
    await expect(own).toContainText("Supported: upload it again");
    // The data-log page is full screen, without the header bell: the inbox is opened by its address.
    await page.goto("/notifications");
    const inbox = new NotificationsPage(page);
    await expect(inbox.row(`Your ${tool} logs can be uploaded now`)).toBeVisible();
  } finally {
    await closeOpen(request, adminToken);
  }
});
