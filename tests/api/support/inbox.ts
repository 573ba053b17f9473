/** The local inbox the API suites send to (tests/api/support/global-setup.ts): what reached an address, read through its JSON API. */
import { inject } from "vitest";
import type { CaughtMail } from "../../../scripts/lib/mail-catcher";

export type { CaughtMail };

export async function mailTo(address: string): Promise<CaughtMail[]> {
  const response = await fetch(`${inject("mailInboxUrl")}/api/messages?to=${encodeURIComponent(address)}`);
  if (!response.ok) throw new Error(`the local inbox answered ${response.status}`);
  return (await response.json()) as CaughtMail[];
}

/**
 * The messages to `address` once there are `count` of them (mail sent in the background arrives a
 * moment later); with `subject`, only those with that subject.
 */
export async function waitForMail(
  address: string,
  count = 1,
  timeoutMs = 10_000,
  subject?: string,
): Promise<CaughtMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = (await mailTo(address)).filter((message) => subject === undefined || message.subject === subject);
    if (messages.length >= count) return messages;
    if (Date.now() > deadline)
      throw new Error(`${messages.length} of ${count} emails reached ${address} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The portal's email-action link an email carries, with its parameters. */
export function actionLinkOf(message: CaughtMail): URL {
  const link = message.links.find((candidate) => new URL(candidate).pathname === "/handle-email-action");
  if (!link)
    throw new Error(`"${message.subject}" carries no link to /handle-email-action: ${message.links.join(", ")}`);
  return new URL(link);
}
