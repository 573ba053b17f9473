/**
 * The emails of the account pages, sent by our server through SMTP (the identity service's own
 * mail is never delivered by the Auth emulator, and would not lead back to our pages): each call
 * answers once the server accepted it.
 */

import { apiRoutes } from "../../../contracts/api-paths";
import { useCustomCall } from "../../providers/services-context";

export function useEmailLinks() {
  const { send, pending } = useCustomCall();
  const post = (url: string, values: object) => send("post", url, values);
  return {
    busy: pending,
    /** The signed-in user's verification email; the link's page continues to `continuePath`. */
    sendVerification: (uid: string, continuePath: string) =>
      post(apiRoutes.account.verificationEmail(uid), { continuePath }),
    /** A sign-in link to `email` if an account has it (the answer is the same either way). */
    askSignInLink: (email: string, continuePath: string) =>
      post(apiRoutes.account.signInLink(), { email, continuePath }),
    /** A password-reset link to `email` if an account has it (the answer is the same either way). */
    askPasswordReset: (email: string) => post(apiRoutes.account.passwordResetLink(), { email }),
  };
}
