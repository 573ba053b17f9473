/**
 * One list of security headers for every answer: @fastify/helmet writes them on
 * routed requests from `helmetOptions`, and answers made before routing (an over-long path, a
 * header block Node's parser refuses: server/http/early-errors.ts) get the same headers, computed
 * once from the same options by running helmet against a recording response.
 */
import helmet, { type HelmetOptions } from "helmet";
import type { Config } from "../config";

/** Where the identity SDK's popup and redirect helper frame (`/__/auth/iframe`) comes from: the same authDomain /config.json names. */
function identityFrameHost(config: Config): string {
  return config.authEmulatorHost ? `http://${config.authEmulatorHost}` : `https://${config.projectId}.firebaseapp.com`;
}

function contentSecurityPolicy(config: Config) {
  const identityHosts = config.authEmulatorHost
    ? [`http://${config.authEmulatorHost}`]
    : ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"];
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'none'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      // apis.google.com: the identity SDK loads Google's frame helper from there for "Continue with Google".
      scriptSrc: ["'self'", "https://js.stripe.com", "https://apis.google.com"],
      // antd writes its CSS-in-JS into <style> elements at run time.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:"],
      fontSrc: ["'self'", "data:"],
      workerSrc: ["'self'", "blob:"],
      connectSrc: ["'self'", ...identityHosts, ...(config.releaseApiBaseUrl ? [config.releaseApiBaseUrl] : [])],
      // The identity SDK's sign-in with Google loads its helper frame from the auth domain (the emulator locally).
      frameSrc: ["'self'", "https://js.stripe.com", identityFrameHost(config)],
    },
  };
}

/** What @fastify/helmet is registered with. */
export function helmetOptions(config: Config) {
  return {
    contentSecurityPolicy: contentSecurityPolicy(config),
    crossOriginEmbedderPolicy: false,
    // "Continue with Google" opens the identity service's page in a popup that answers through
    // window.opener; helmet's same-origin would cut that link and the sign-in would never finish.
    crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
    hsts: config.mode === "production",
  } satisfies HelmetOptions;
}

/** The headers helmet writes with these options, as name → value (lower-case names). */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as never, recorder as never, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}
