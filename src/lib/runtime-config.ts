/** What the server tells the SPA at run time (GET /config.json); nothing here is baked into the build. */
export interface RuntimeConfig {
  releaseApiBaseUrl: string;
  firebase: { apiKey: string; authDomain: string; projectId: string };
  authEmulatorUrl: string | null;
  /** Where the identity service's password policy is read; null where the service has none (the Auth emulator). */
  passwordPolicyUrl: string | null;
}

function isRuntimeConfig(value: unknown): value is RuntimeConfig {
  const config = value as RuntimeConfig | null;
  return (
    typeof config === "object" &&
    config !== null &&
    typeof config.releaseApiBaseUrl === "string" &&
    typeof config.firebase?.apiKey === "string" &&
    typeof config.firebase?.projectId === "string"
  );
}

let loaded: Promise<RuntimeConfig> | null = null;

export function loadRuntimeConfig(fetcher: typeof fetch = fetch): Promise<RuntimeConfig> {
  loaded ??= (async () => {
    const response = await fetcher("/config.json", { cache: "no-store" });
    if (!response.ok) throw new Error(`Could not load /config.json (status ${response.status})`);
    const body: unknown = await response.json();
    if (!isRuntimeConfig(body)) throw new Error("/config.json does not have the expected shape");
    return body;
  })();
  return loaded;
}
