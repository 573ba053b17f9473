/**
 * What each email the portal sends says: pure functions from the facts to a subject, a text and an
 * HTML body, apart from sending (mailer.ts) so that they can be tested alone and sent by whatever
 * carries them (the job queue).
 */
import type { Role } from "../../../contracts/account";

export type MailKind = "verification" | "password-reset" | "sign-in-link" | "invitation" | "notification";

export interface MailMessage {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The link the email is about, if any (logged with its code redacted, server/http/log-redaction.ts). */
  link?: string;
}

const PRODUCT = "Tuning Portal";

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);

interface Body {
  greeting: string;
  paragraphs: string[];
  action?: { label: string; href: string };
  /** Said under the button, in small print: why the reader got this and what to do if it was not them. */
  footnote: string;
}

/** One layout for every email: plain text that reads well on its own, and the same words as simple inline-styled HTML. */
function render(kind: MailKind, to: string, subject: string, body: Body): MailMessage {
  const text = [
    body.greeting,
    "",
    ...body.paragraphs.flatMap((paragraph) => [paragraph, ""]),
    ...(body.action ? [`${body.action.label}: ${body.action.href}`, ""] : []),
    body.footnote,
    "",
    `— ${PRODUCT}`,
  ].join("\n");
  const button = body.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(body.action.href)}" style="background:#c81e3a;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(body.action.label)}</a></p>
<p style="font-size:13px;color:#555">If the button does not work, open this address: <a href="${escapeHtml(body.action.href)}">${escapeHtml(body.action.href)}</a></p>`
    : "";
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;line-height:1.5;color:#1f2233;max-width:560px;margin:0 auto;padding:24px">
<p>${escapeHtml(body.greeting)}</p>
${body.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
${button}
<p style="font-size:13px;color:#555">${escapeHtml(body.footnote)}</p>
<p style="font-size:13px;color:#555">— ${PRODUCT}</p>
</body></html>`;
  return { kind, to, subject, text, html, ...(body.action && { link: body.action.href }) };
}

const greet = (displayName: string | null | undefined) =>
  displayName?.trim() ? `Hello ${displayName.trim()},` : "Hello,";

export interface LinkMailFacts {
  to: string;
  displayName?: string | null;
  /** The portal's own email-action page with the one-time code (action-links.ts). */
  link: string;
}

export function verificationMessage({ to, displayName, link }: LinkMailFacts): MailMessage {
  return render("verification", to, `Confirm your email address for ${PRODUCT}`, {
    greeting: greet(displayName),
    paragraphs: [`Confirm that ${to} is your address to use every part of ${PRODUCT}.`],
    action: { label: "Confirm my email address", href: link },
    footnote: "If you did not create an account, ignore this email: nothing happens without the link.",
  });
}

export function passwordResetMessage({ to, displayName, link }: LinkMailFacts): MailMessage {
  return render("password-reset", to, `Reset your ${PRODUCT} password`, {
    greeting: greet(displayName),
    paragraphs: [
      `Someone asked to reset the password of the ${PRODUCT} account ${to}. The link works once and expires in an hour.`,
    ],
    action: { label: "Choose a new password", href: link },
    footnote: "If it was not you, ignore this email: your password stays as it is.",
  });
}

export function signInLinkMessage({ to, displayName, link }: LinkMailFacts): MailMessage {
  return render("sign-in-link", to, `Your ${PRODUCT} sign-in link`, {
    greeting: greet(displayName),
    paragraphs: [`Follow this link to sign in to ${PRODUCT} as ${to}. It works once and expires in an hour.`],
    action: { label: `Sign in to ${PRODUCT}`, href: link },
    footnote: "If you did not ask to sign in, ignore this email: nobody can sign in without the link.",
  });
}

const ROLE_NAMES: Record<Role, string> = { customer: "customer", dealer: "dealer", admin: "administrator" };

export interface InvitationFacts extends LinkMailFacts {
  role: Role;
  /** Where the portal is, named in the text so the reader knows where they will sign in. */
  portalUrl: string;
}

export function invitationMessage({ to, displayName, link, role, portalUrl }: InvitationFacts): MailMessage {
  const article = ROLE_NAMES[role].startsWith("a") ? "an" : "a";
  return render("invitation", to, `You have been invited to ${PRODUCT}`, {
    greeting: greet(displayName),
    paragraphs: [
      `An administrator created a ${PRODUCT} account for you (${to}) as ${article} ${ROLE_NAMES[role]}.`,
      `Choose a password to start; afterwards you sign in at ${portalUrl}/login. The link works once and expires in an hour; if it has, use "Forgot password?" on the sign-in page.`,
    ],
    action: { label: "Choose my password", href: link },
    footnote: "If you did not expect this, ignore this email: the account stays unused until a password is chosen.",
  });
}

export interface NotificationMailFacts {
  to: string;
  displayName?: string | null;
  title: string;
  body: string | null;
  /** The notification's in-app path, if it has one. */
  link: string | null;
  portalUrl: string;
}

/** A copy of an in-app notification, for users who turned on "Email me my notifications". */
export function notificationMessage({
  to,
  displayName,
  title,
  body,
  link,
  portalUrl,
}: NotificationMailFacts): MailMessage {
  return render("notification", to, title, {
    greeting: greet(displayName),
    paragraphs: [title, ...(body ? [body] : [])],
    action: {
      label: link ? "Open in the portal" : "Open your notifications",
      href: `${portalUrl}${link ?? "/notifications"}`,
    },
    footnote: `You get this email because "Email me my notifications" is on in your profile. Turn it off there: ${portalUrl}/profile`,
  });
}
