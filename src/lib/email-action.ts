export const emailActionModes = [
  "recoverEmail",
  "resetPassword",
  "signIn",
  "verifyEmail",
  "verifyAndChangeEmail",
  "revertSecondFactorAddition",
] as const;
export type EmailActionMode = (typeof emailActionModes)[number];

export type EmailActionParams =
  | { ok: true; apiKey: string; oobCode: string; mode: EmailActionMode; continueUrl: string | null }
  | { ok: false; error: string };

/** Email-action links need an API key, a one-time code and a known mode; anything else is refused before any call. */
export function parseEmailActionParams(params: URLSearchParams): EmailActionParams {
  const missing = ["apiKey", "oobCode", "mode"].filter((name) => !params.get(name));
  if (missing.length > 0) return { ok: false, error: `This link is incomplete: it has no ${missing.join(", ")}.` };
  const mode = params.get("mode")!;
  if (!(emailActionModes as readonly string[]).includes(mode)) {
    return { ok: false, error: `This link asks for an unknown action ("${mode}").` };
  }
  return {
    ok: true,
    apiKey: params.get("apiKey")!,
    oobCode: params.get("oobCode")!,
    mode: mode as EmailActionMode,
    continueUrl: params.get("continueUrl"),
  };
}
