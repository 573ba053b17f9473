import { expect, test } from "@playwright/test";

test("a developer reads the API's reference page signed out, drawn from the OpenAPI document with no script from elsewhere", async ({
  page,
}) => {
  const foreign: string[] = [];
  page.on("request", (request) => {
    const { protocol, hostname } = new URL(request.url());
    if (protocol.startsWith("http") && hostname !== "127.0.0.1") foreign.push(request.url());
  });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto("/api/reference/");
  await expect(page.getByRole("heading", { name: /Tuning portal API/ })).toBeVisible();
  // Grouped by resource, as the API's paths are; an operation opened lists its parameters.
  await page.getByRole("link", { name: "tune-files", exact: true }).click();
  await page.locator('.opblock-get [data-path="/api/v1/tune-files/{id}"]').first().click();
  await expect(page.getByText("Parameters").first()).toBeVisible();
  expect(foreign, "requests to other sites").toEqual([]);
  expect(errors).toEqual([]);
});
