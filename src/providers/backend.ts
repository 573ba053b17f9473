/**
 * Which API the app talks to. In development or test builds an offline backend (our local server)
 * wins when its health endpoint answers OK; otherwise the release backend named by /config.json.
 */
export interface BackendChoiceInput {
  mode: string;
  /** Origin of the offline backend; "" is this page's own origin. */
  offlineBaseUrl: string;
  releaseBaseUrl: () => Promise<string>;
  fetcher?: typeof fetch;
  probeTimeoutMs?: number;
}

export async function chooseBackend(input: BackendChoiceInput): Promise<{ baseUrl: string; offline: boolean }> {
  const fetcher = input.fetcher ?? fetch;
  if (input.mode === "development" || input.mode === "test") {
    try {
      const response = await fetcher(`${input.offlineBaseUrl}/api/v1/health`, {
        signal: AbortSignal.timeout(input.probeTimeoutMs ?? 1500),
      });
      if (response.ok) return { baseUrl: input.offlineBaseUrl, offline: true };
    } catch {
      // not running: fall through to the release backend
    }
  }
  return { baseUrl: await input.releaseBaseUrl(), offline: false };
}
