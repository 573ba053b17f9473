import { expect, type Page, test } from "@playwright/test";

/**
 * The local inbox the running project's portal sends its mail to: scripts/e2e-server.ts starts one
 * per project, and playwright.config.ts puts its address in the project's metadata.
 */
function inboxUrl(): string {
  const url = test.info().project.metadata.inboxUrl;
  if (typeof url !== "string") throw new Error(`project ${test.info().project.name} has no inbox (metadata.inboxUrl)`);
  return url;
}

interface CaughtMail {
  to: string[];
  subject: string;
  links: string[];
}

/** The inbox page as a user reads it: the list, one message, its links. */
export class LocalInbox {
  constructor(private readonly page: Page) {}

  /** Opens the newest message to `to` with that subject, reloading the list until it has come. */
  async openMessage(to: string, subject: string) {
    const row = this.page.getByRole("row").filter({ hasText: to });
    await expect(async () => {
      await this.page.goto(inboxUrl());
      await expect(row.getByRole("link", { name: subject }).first()).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await row.getByRole("link", { name: subject }).first().click();
    await expect(this.page.getByRole("heading", { name: subject })).toBeVisible();
  }

  /** The message's own HTML, as its sender wrote it (in the page's sandboxed frame). */
  message() {
    return this.page.frameLocator('iframe[title="Message"]');
  }
}

/** The newest link to our email-action page in mail to `to` (through the inbox's JSON API), as a path of the portal. */
export async function emailedActionPath(page: Page, to: string, subject: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`${inboxUrl()}/api/messages?to=${encodeURIComponent(to)}`);
        const messages = (await response.json()) as CaughtMail[];
        found = messages
          .find((message) => message.subject === subject)
          ?.links.find((link) => new URL(link).pathname === "/handle-email-action");
        return found;
      },
      { message: `no "${subject}" email to ${to}` },
    )
    .toBeTruthy();
  const url = new URL(found!);
  return `${url.pathname}${url.search}`;
}
