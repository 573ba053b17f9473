/** The mobile app: its URL scheme (registered by the app) and its store listings. */
export const APP_URL_SCHEME = "tuningportal";
export const APP_PACKAGE_ID = "com.tuningportal.app";
export const PLAY_STORE_URL = `https://play.google.com/store/apps/details?id=${APP_PACKAGE_ID}`;
export const APP_STORE_URL = "https://apps.apple.com/app/tuning-portal/id6479532210";
/** How long /redirect-app waits for the app to take over before offering the download page. */
export const APP_OPEN_TIMEOUT_MS = 1500;

/** The app URL carrying the same parameters the web page was given (e.g. a device id to pair, a tune to flash). */
export function appUrl(params: URLSearchParams): string {
  const query = params.toString();
  return `${APP_URL_SCHEME}://open${query ? `?${query}` : ""}`;
}
