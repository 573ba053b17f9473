/** `ctx.mail`: the one way mail leaves the portal (kept apart from context-aware code so the context can name its type). */
import type { FastifyBaseLogger } from "fastify";
import { createMailer } from "./mailer";
import type { MailMessage } from "./messages";

/** What route plugins and services use to send mail (`ctx.mail`). */
export interface MailService {
  /** Resolves once the mail server accepted the message; rejects with MailDeliveryError otherwise. */
  send(message: MailMessage): Promise<void>;
  /** The portal's address as users reach it, for the links emails carry. */
  portalUrl(): string;
  /** Sends started without waiting for them (notification copies); `idle` waits for them (shutdown, tests). */
  inBackground(work: Promise<void>): void;
  idle(): Promise<void>;
  close(): void;
}

export function createMailService(options: {
  smtpUrl: string;
  from: string;
  portalUrl: () => string;
  log: FastifyBaseLogger;
}): MailService {
  const mailer = createMailer({ smtpUrl: options.smtpUrl, from: options.from });
  const running = new Set<Promise<void>>();
  return {
    async send(message) {
      await mailer.send(message);
      // The link's one-time code is a credential: the log shows it redacted (server/http/log-redaction.ts).
      options.log.info(
        { to: message.to, kind: message.kind, link: message.link },
        `${message.kind} email sent to ${message.to}`,
      );
    },
    portalUrl: options.portalUrl,
    inBackground(work) {
      // The work logs its own failures; nothing it throws may become an unhandled rejection.
      const tracked = work.catch(() => {}).finally(() => running.delete(tracked));
      running.add(tracked);
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    close: () => mailer.close(),
  };
}
