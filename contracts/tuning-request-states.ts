/**
 * The states of a custom tuning request (./tuning-requests), apart from its schemas: a page that only
 * names or sorts states (the dashboard's open requests) imports these without building every schema
 * of the requests and the tune files they reference on its first load.
 */
export const TUNING_REQUEST_STATES = ["submitted", "quoted", "paid", "in-progress", "delivered", "revision-requested", "accepted", "not-possible", "cancelled"] as const;
export type TuningRequestState = (typeof TUNING_REQUEST_STATES)[number];

/** States a request ends in: nothing moves it further (messages are still read). */
export const FINAL_STATES: readonly TuningRequestState[] = ["accepted", "not-possible", "cancelled"];
/** States in which the customer has paid and a cancellation refunds the payment. */
export const PAID_STATES: readonly TuningRequestState[] = ["paid", "in-progress", "delivered", "revision-requested"];
