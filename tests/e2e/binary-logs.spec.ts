import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { DataLogsPage, LogView } from "./pages/data-logs-page";
import { demoUsers } from "./pages/login-page";
import { Shell } from "./pages/shell";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const sample = (name: string) => path.resolve(repoRoot, "../shared/fixtures/new-formats", name);

test("a customer uploads an Emerald log with its .lg2 picked together, and is asked for the .lg2 when it is missing", async ({
  page,
}) => {
  const list = new DataLogsPage(page);
  await list.openAs(demoUsers.customer);

  // Alone, the .lg1 is refused with what it needs, and the list stays.
  await list.pick(sample("emerald-idle-and-rev.lg1"));
  await expect(new Shell(page).toast("Not uploaded")).toContainText(
    "An Emerald ECU .lg1 log: upload it together with its .lg2 channel list",
  );
  await expect(page).toHaveURL(/\/tuning-tools\/data-logs(\?|$)/);

  // Picked with its channel list, it is read and charted: 2,515 records over 85.72 s.
  await list.upload([sample("emerald-idle-and-rev.lg1"), sample("emerald-idle-and-rev.lg2")]);
  const view = new LogView(page);
  await view.waitForChart();
  await expect(view.visibleRange()).toContainText("of 85.72 s · 2,515 rows");
  await expect(page.getByText("RPM", { exact: true }).first()).toBeVisible();
});
