/**
 * Icon loading with a time-out of 1500 ms; a failed icon load is reported, never thrown.
 *
 * `loadIcon(name, source, { fallback })` asks `source` for the icon and resolves to it, or to
 * `fallback` when the source fails or takes longer than 1500 ms. A failure is reported with
 * console.error and never thrown: a missing icon must not break the page around it. On time-out
 * the source's AbortSignal fires so a fetch behind it stops.
 */

export const ICON_LOAD_TIMEOUT_MS = 1500;

export type IconSource<Icon> = (name: string, signal: AbortSignal) => Promise<Icon>;

export interface LoadIconOptions<Icon> {
  fallback: Icon;
  timeoutMs?: number;
}

export async function loadIcon<Icon>(
  name: string,
  source: IconSource<Icon>,
  options: LoadIconOptions<Icon>,
): Promise<Icon> {
  const timeoutMs = options.timeoutMs ?? ICON_LOAD_TIMEOUT_MS;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`timed out after ${timeoutMs} ms`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => source(name, controller.signal)), timeout]);
  } catch (error) {
    console.error(`[icon] Failed to load icon "${name}":`, error instanceof Error ? error.message : error);
    return options.fallback;
  } finally {
    clearTimeout(timer);
  }
}
