/**
 * The local inbox: an SMTP server that keeps every message it is given (in memory, the newest 500)
 * and a small web page listing them and showing one, with a JSON API for tests. npm start and the
 * test runner start it and point the portal's SMTP_URL at it; nothing is delivered anywhere else.
 * Built on smtp-server and mailparser (the nodemailer project's own) rather than maildev, whose
 * tree brings an Express app, socket.io and a bundled UI for what is a page and three routes here.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { type CaughtMail, inboxPage, messagePage, notFoundPage } from "./pages";

export type { CaughtMail };

export interface MailCatcherOptions {
  host?: string;
  /** 0: any free port. */
  smtpPort: number;
  httpPort: number;
  /** The newest this many messages are kept. */
  keep?: number;
}

export interface MailCatcher {
  /** What the portal's SMTP_URL is set to. */
  smtpUrl: string;
  /** The inbox page (and `…/api/messages`). */
  webUrl: string;
  messages(): CaughtMail[];
  stop(): Promise<void>;
}

/** Links a message carries: the HTML's hrefs (entities decoded), else the addresses in its text. */
function linksOf(html: string | null, text: string | null): string[] {
  const decode = (value: string) =>
    value
      .replace(/&amp;/g, "&")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">");
  const fromHtml = html ? [...html.matchAll(/href="([^"]+)"/g)].map((match) => decode(match[1])) : [];
  const found =
    fromHtml.length > 0 ? fromHtml : [...(text ?? "").matchAll(/https?:\/\/[^\s<>"]+/g)].map((match) => match[0]);
  return [...new Set(found.filter((link) => /^https?:\/\//.test(link)))];
}

function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    // The page runs no script; a message's HTML is shown in a sandboxed frame (pages.ts).
    "content-security-policy":
      "default-src 'none'; style-src 'unsafe-inline'; img-src data: http: https:; frame-src 'self'; base-uri 'none'; form-action 'none'",
    ...headers,
  });
  response.end(body);
}

export async function startMailCatcher(options: MailCatcherOptions): Promise<MailCatcher> {
  const host = options.host ?? "127.0.0.1";
  const keep = options.keep ?? 500;
  const caught: CaughtMail[] = [];

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    banner: "tuning portal local inbox",
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const html = typeof parsed.html === "string" ? parsed.html : null;
          const text = parsed.text ?? null;
          caught.unshift({
            id: randomUUID(),
            from: parsed.from?.text ?? session.envelope.mailFrom?.toString() ?? "",
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            subject: parsed.subject ?? "(no subject)",
            date: new Date().toISOString(),
            text,
            html,
            links: linksOf(html, text),
          });
          caught.splice(keep);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once("error", reject);
    smtp.listen(options.smtpPort, host, () => resolve());
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const web = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://inbox");
    const parts = url.pathname.split("/").filter(Boolean);
    if (request.method === "GET" && parts.length === 0)
      return send(response, 200, "text/html; charset=utf-8", inboxPage(caught));
    if (request.method === "GET" && parts[0] === "messages" && parts.length === 2) {
      const message = caught.find((entry) => entry.id === parts[1]);
      return message
        ? send(response, 200, "text/html; charset=utf-8", messagePage(message))
        : send(response, 404, "text/html; charset=utf-8", notFoundPage());
    }
    if (parts[0] === "api" && parts[1] === "messages" && parts.length === 2) {
      if (request.method === "GET") {
        const to = url.searchParams.get("to")?.toLowerCase();
        const listed = to
          ? caught.filter((message) => message.to.some((address) => address.toLowerCase() === to))
          : caught;
        return send(response, 200, "application/json", JSON.stringify(listed));
      }
      if (request.method === "DELETE") {
        caught.length = 0;
        return send(response, 204, "text/plain", "");
      }
    }
    return send(response, 404, "application/json", JSON.stringify({ error: `No ${request.method} ${url.pathname}` }));
  });
  await new Promise<void>((resolve, reject) => {
    web.once("error", reject);
    web.listen(options.httpPort, host, () => resolve());
  });
  const httpPort = (web.address() as AddressInfo).port;

  return {
    smtpUrl: `smtp://${host}:${smtpPort}`,
    webUrl: `http://${host}:${httpPort}`,
    messages: () => [...caught],
    async stop() {
      web.closeAllConnections();
      await Promise.all([
        new Promise((resolve) => web.close(resolve)),
        new Promise((resolve) => smtp.close(() => resolve(null))),
      ]);
    },
  };
}
