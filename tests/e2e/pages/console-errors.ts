import type { Page } from "@playwright/test";

/**
 * The errors a page writes to the browser's console from now on, each with where it came from: what a
 * person with the developer tools open sees in red (a failed request is one too).
 */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} (${message.location().url})`);
  });
  return errors;
}

/** The addresses of the password-policy requests the page makes from now on. */
export function passwordPolicyRequests(page: Page): string[] {
  const asked: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/v2/passwordPolicy")) asked.push(request.url());
  });
  return asked;
}
