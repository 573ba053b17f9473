/**
 * Hands messages to the SMTP server named by SMTP_URL (nodemailer). `send` resolves once the server
 * accepted the message, and rejects with MailDeliveryError when it did not (down, refused, timed out).
 */
import nodemailer from "nodemailer";
import type { MailMessage } from "./messages";

export class MailDeliveryError extends Error {
  constructor(
    message: string,
    readonly cause: unknown,
  ) {
    super(message);
  }
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** An unreachable mail server must not hold a request for nodemailer's default two minutes. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createMailer(options: { smtpUrl: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.smtpUrl, {
    ...TIMEOUTS,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(message) {
      try {
        const info = await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
        if (info.rejected.length > 0) throw new Error(`the mail server refused ${info.rejected.join(", ")}`);
      } catch (error) {
        throw new MailDeliveryError(
          `The ${message.kind} email could not be handed to the mail server: ${(error as Error).message}`,
          error,
        );
      }
    },
    close: () => transport.close(),
  };
}
