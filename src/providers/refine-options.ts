/**
 * The options the portal gives Refine.
 *
 * `overtime` is off: with it on, every data hook still loading starts a one-second interval and
 * re-renders its page each second until the answer comes (Refine offers the elapsed time for a
 * "still loading…" notice, which no page shows). On a phone on a slow network that is a page
 * render a second per pending query, on top of the load it slows.
 */
import type { RefineProps } from "@refinedev/core";

type QueryClientConfig = NonNullable<NonNullable<RefineProps["options"]>["reactQuery"]>["clientConfig"];

export function refineOptions(queryClient: QueryClientConfig): NonNullable<RefineProps["options"]> {
  return {
    disableTelemetry: true,
    syncWithLocation: true,
    warnWhenUnsavedChanges: true,
    overtime: { enabled: false, interval: 1_000 }, // the interval is required by the type, unused while off
    reactQuery: { clientConfig: queryClient },
    title: { text: "Tuning Portal" },
  };
}
