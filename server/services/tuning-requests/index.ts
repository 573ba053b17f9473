/**
 * Tuning requests on the server, for the other services: who takes which side of a ticket
 * (sides.ts), moving it (moves.ts), what the API answers of it (answers.ts), what payments and
 * the clock do to it (payments-and-clock.ts) and its due date's notices (due-dates.ts). Asking, actions, revisions, files and lists are
 * the routes' (asking.ts, actions.ts, revisions.ts, files.ts, lists.ts), imported from their
 * modules.
 */
export { noticeDueRequests } from "./due-dates";
export { acceptSilentDeliveries, onRequestPaid, onRequestRefunded } from "./payments-and-clock";
export { type RequestRow, referenceOf, requestFor } from "./sides";
