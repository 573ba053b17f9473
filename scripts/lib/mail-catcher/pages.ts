/** The inbox's two pages: plain HTML, no script; a message's own HTML is shown in a sandboxed frame. */

export interface CaughtMail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  date: string;
  text: string | null;
  html: string | null;
  /** Every http(s) link in it, in order. */
  links: string[];
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);

const STYLE = `body{font-family:system-ui,Arial,sans-serif;margin:0;color:#1f2233;background:#f5f6fa}
header{background:#1f2233;color:#fff;padding:12px 24px}header a{color:#fff}main{max-width:960px;margin:0 auto;padding:16px 24px}
table{width:100%;border-collapse:collapse;background:#fff}th,td{text-align:left;padding:8px 12px;border-bottom:1px solid #e3e5ee}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;background:#fff;padding:12px}dt{color:#555}dd{margin:0}
iframe{width:100%;height:520px;border:1px solid #e3e5ee;background:#fff}pre{white-space:pre-wrap;background:#fff;padding:12px;border:1px solid #e3e5ee}`;

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><header><strong>Local inbox</strong> · mail the portal sent while running locally · <a href="/">all messages</a></header><main>${body}</main></body></html>`;
}

export function inboxPage(messages: CaughtMail[]): string {
  const rows = messages
    .map(
      (message) =>
        `<tr><td>${escapeHtml(new Date(message.date).toLocaleString("en-GB"))}</td><td>${escapeHtml(message.to.join(", "))}</td><td><a href="/messages/${escapeHtml(message.id)}">${escapeHtml(message.subject)}</a></td></tr>`,
    )
    .join("\n");
  return layout(
    "Local inbox",
    messages.length === 0
      ? `<h1>Local inbox</h1><p>No mail yet. Ask the portal for a verification or sign-in link, then reload this page.</p>`
      : `<h1>Local inbox</h1><p>${messages.length} message${messages.length === 1 ? "" : "s"}, newest first. Reload to see new ones.</p>
<table><thead><tr><th>Received</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

/**
 * One message. Its HTML goes in an iframe whose sandbox allows no script, no forms and no access to
 * this page; `<base target="_top">` makes its links open in this tab, as a user following them expects.
 */
export function messagePage(message: CaughtMail): string {
  const frame = message.html
    ? `<iframe title="Message" sandbox="allow-top-navigation-by-user-activation allow-popups" srcdoc="${escapeHtml(`<base target="_top">${message.html}`)}"></iframe>`
    : "";
  const links = message.links.length
    ? `<h2>Links</h2><ul>${message.links.map((link) => `<li><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></li>`).join("")}</ul>`
    : "";
  return layout(
    message.subject,
    `<h1>${escapeHtml(message.subject)}</h1>
<dl><dt>From</dt><dd>${escapeHtml(message.from)}</dd><dt>To</dt><dd>${escapeHtml(message.to.join(", "))}</dd><dt>Received</dt><dd>${escapeHtml(new Date(message.date).toLocaleString("en-GB"))}</dd></dl>
${frame}${links}
${message.text ? `<h2>Text</h2><pre>${escapeHtml(message.text)}</pre>` : ""}`,
  );
}

export function notFoundPage(): string {
  return layout(
    "Not found",
    `<h1>No such message</h1><p>The inbox keeps messages only while it runs. <a href="/">Back to the inbox</a></p>`,
  );
}
