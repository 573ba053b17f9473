/**
 * One query parameter of the address bar, read and written in place: no router navigation and no
 * history entry, for view choices (the map shown, how it is charted) that a shared or reloaded
 * address should keep but that must not re-render the app's frame when they change.
 */
export function readAddressParam(key: string): string | null {
  return new URLSearchParams(window.location.search).get(key);
}

/** Sets `key` to `value`, or removes it for null, keeping the rest of the address and the history state. */
export function writeAddressParam(key: string, value: string | null): void {
  const url = new URL(window.location.href);
  if (value === null) url.searchParams.delete(key);
  else url.searchParams.set(key, value);
  window.history.replaceState(window.history.state, "", url);
}
