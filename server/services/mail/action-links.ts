/**
 * The links firebase-admin makes point to the identity service's own action handler (the Auth
 * emulator's page locally, Firebase's hosted page in production). Ours is the portal's
 * `/handle-email-action` page (src/pages/auth/handle-email-action.tsx), which needs the mode, the
 * one-time code and an API key; it keeps the user in our UI.
 */
export const EMAIL_ACTION_PATH = "/handle-email-action";

export function portalActionLink(generated: string, portalUrl: string, apiKey: string): string {
  const source = new URL(generated);
  const mode = source.searchParams.get("mode");
  const oobCode = source.searchParams.get("oobCode");
  if (!mode || !oobCode) throw new Error("The identity service made an email-action link without a mode or a code");
  const target = new URL(`${portalUrl}${EMAIL_ACTION_PATH}`);
  target.searchParams.set("mode", mode);
  target.searchParams.set("oobCode", oobCode);
  target.searchParams.set("apiKey", apiKey);
  const continueUrl = source.searchParams.get("continueUrl");
  if (continueUrl) target.searchParams.set("continueUrl", continueUrl);
  const lang = source.searchParams.get("lang");
  if (lang) target.searchParams.set("lang", lang);
  return target.toString();
}
