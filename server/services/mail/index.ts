/**
 * Every email the portal sends. Each `send…` function gathers the facts (making the one-time link
 * with firebase-admin where there is one), composes the message with a pure function of
 * messages.ts, and queues it (`deliver`), resolving once the queue has it; the queue's worker sends
 * it with `ctx.mail.send`. A queue that does not take it answers 503, not 500.
 */
import { inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Role } from "../../../contracts/account";
import type { Notification } from "../../../contracts/notifications";
import type { AppContext } from "../../context";
import { users } from "../../db/schema";
import { Refusal } from "../errors";
import { portalActionLink } from "./action-links";
import {
  invitationMessage,
  type MailMessage,
  notificationMessage,
  passwordResetMessage,
  signInLinkMessage,
  verificationMessage,
} from "./messages";

export type { MailMessage } from "./messages";
export { createMailService, type MailService } from "./service";

/**
 * Queues a message on the mail queue (`mail.send`, services/background-jobs.ts), sealed since its
 * link holds a one-time code; the queue's worker hands it to the SMTP server, retrying with backoff
 * while the server does not take it. Resolves once queued (the API's 202); a queue that does not
 * take it is the caller's 503 (Retry-After is added by the error handler).
 */
export async function deliver(ctx: AppContext, message: MailMessage): Promise<void> {
  try {
    await ctx.jobs.send("mail.send", { sealed: ctx.secrets.seal(JSON.stringify(message)) });
  } catch {
    throw new Refusal(
      "unavailable",
      "Mail not queued",
      "The email could not be queued, so nothing will be sent. Try again in a few minutes.",
    );
  }
}

const portalLink = (ctx: AppContext, generated: string) =>
  portalActionLink(generated, ctx.mail.portalUrl(), ctx.config.webApiKey);
const continueTo = (ctx: AppContext, path: string) => ({ url: `${ctx.mail.portalUrl()}${path}` });
const loginPath = (email: string) => `/login?email=${encodeURIComponent(email)}`;

export interface AccountMailFacts {
  email: string;
  displayName?: string | null;
  /** Where the page that applied the link sends the user on (a path in the portal). */
  continuePath?: string;
}

export async function sendVerification(
  ctx: AppContext,
  { email, displayName, continuePath = "/confirm-account" }: AccountMailFacts,
): Promise<void> {
  const generated = await ctx.identity.auth.generateEmailVerificationLink(email, continueTo(ctx, continuePath));
  await deliver(ctx, verificationMessage({ to: email, displayName, link: portalLink(ctx, generated) }));
}

export async function sendPasswordReset(
  ctx: AppContext,
  { email, displayName, continuePath = loginPath(email) }: AccountMailFacts,
): Promise<void> {
  const generated = await ctx.identity.auth.generatePasswordResetLink(email, continueTo(ctx, continuePath));
  await deliver(ctx, passwordResetMessage({ to: email, displayName, link: portalLink(ctx, generated) }));
}

/** A sign-in link, for an existing account that is not disabled; `false` (nothing sent) for any other address. */
export async function sendSignInLink(
  ctx: AppContext,
  { email, continuePath = "/create-email-account" }: AccountMailFacts,
): Promise<boolean> {
  const account = await accountByEmail(ctx, email);
  if (!account || account.disabled || !account.email) return false;
  const generated = await ctx.identity.auth.generateSignInWithEmailLink(account.email, {
    ...continueTo(ctx, continuePath),
    handleCodeInApp: true,
  });
  await deliver(
    ctx,
    signInLinkMessage({ to: account.email, displayName: account.displayName, link: portalLink(ctx, generated) }),
  );
  return true;
}

/** A password reset for whoever asks by address (forgot password); `false` (nothing sent) when no usable account has it. */
export async function sendPasswordResetByEmail(ctx: AppContext, email: string): Promise<boolean> {
  const account = await accountByEmail(ctx, email);
  if (!account || account.disabled || !account.email) return false;
  await sendPasswordReset(ctx, { email: account.email, displayName: account.displayName });
  return true;
}

async function accountByEmail(ctx: AppContext, email: string) {
  try {
    return await ctx.identity.auth.getUserByEmail(email);
  } catch (error) {
    if ((error as { code?: string }).code === "auth/user-not-found") return null;
    throw error;
  }
}

export interface InvitationFacts {
  uid: string;
  email: string;
  displayName?: string | null;
  role: Role;
}

/**
 * The email to an account an admin created: its role, and a password-reset link (valid an hour)
 * with which the invited user chooses their password on our action page, then signs in.
 */
export async function sendInvitation(
  ctx: AppContext,
  { uid, email, displayName, role }: InvitationFacts,
): Promise<void> {
  // The link sets the password of whichever account has `email`: make sure that is the account invited.
  const account = await ctx.identity.auth.getUser(uid);
  if (account.email?.toLowerCase() !== email.toLowerCase())
    throw new Error(`Account ${uid} does not have the address ${email}; no invitation sent`);
  const generated = await ctx.identity.auth.generatePasswordResetLink(email, continueTo(ctx, loginPath(email)));
  await deliver(
    ctx,
    invitationMessage({
      to: email,
      displayName,
      role,
      link: portalLink(ctx, generated),
      portalUrl: ctx.mail.portalUrl(),
    }),
  );
}

/**
 * Emails a copy of each notification to recipients who turned `emailNotifications` on, through the
 * mail queue. Runs after the change committed and never fails it: a failure is logged.
 */
export async function emailNotifications(
  ctx: AppContext,
  recorded: Notification[],
  log: FastifyBaseLogger,
): Promise<void> {
  try {
    await emailEach(ctx, recorded, log);
  } catch (error) {
    log.warn({ err: error }, "notification emails not sent");
  }
}

async function emailEach(ctx: AppContext, recorded: Notification[], log: FastifyBaseLogger): Promise<void> {
  const uids = [...new Set(recorded.map((notification) => notification.recipientUid))];
  if (uids.length === 0) return;
  const recipients = await ctx.db
    .select({ uid: users.uid, email: users.email, displayName: users.displayName, preferences: users.preferences })
    .from(users)
    .where(inArray(users.uid, uids));
  const wanting = new Map(
    recipients
      .filter((user) => user.preferences.emailNotifications === true && user.email)
      .map((user) => [user.uid, user]),
  );
  for (const notification of recorded) {
    const recipient = wanting.get(notification.recipientUid);
    if (!recipient) continue;
    const message = notificationMessage({
      to: recipient.email!,
      displayName: recipient.displayName,
      title: notification.title,
      body: notification.body,
      link: notification.link,
      portalUrl: ctx.mail.portalUrl(),
    });
    // On the mail queue like every other message: retried while the SMTP server does not take it.
    try {
      await deliver(ctx, message);
    } catch (error) {
      log.warn(
        { err: error, notificationId: notification.id, kind: notification.kind },
        "notification email not queued",
      );
    }
  }
}
