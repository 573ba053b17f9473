/**
 * How a custom tuning request moves (contracts/tuning-requests.ts has its schemas, and re-exports
 * this). The states move forward only, each by the party allowed to move it
 * (TUNING_REQUEST_ACTIONS); the same table tells the app which actions to offer and the server what
 * to refuse.
 *
 * Without zod: the dashboard and the request list read the states as they load, and zod builds
 * every schema of a module when it is imported.
 */
export const TUNING_REQUEST_STATES = [
  "submitted",
  "quoted",
  "paid",
  "in-progress",
  "delivered",
  "revision-requested",
  "accepted",
  "not-possible",
  "cancelled",
] as const;
export type TuningRequestState = (typeof TUNING_REQUEST_STATES)[number];

/** States a request ends in: nothing moves it further (messages are still read). */
export const FINAL_STATES: readonly TuningRequestState[] = ["accepted", "not-possible", "cancelled"];
/** States in which the customer has paid and a cancellation refunds the payment. */
export const PAID_STATES: readonly TuningRequestState[] = ["paid", "in-progress", "delivered", "revision-requested"];

/**
 * States in which the dealer owes the work the quote promised: the ticket's due date (the quote's
 * days counted from payment) is theirs to meet, and past it the ticket is late. A delivered
 * revision meets it; a revision asked for afterwards is new work the quote gave no days for.
 */
export const WORK_OWED_STATES: readonly TuningRequestState[] = ["paid", "in-progress"];

/** Late: the work is still owed and its due date has passed. */
export const isLate = (request: { state: TuningRequestState; dueAt: string | null }, now: Date): boolean =>
  request.dueAt !== null && WORK_OWED_STATES.includes(request.state) && new Date(request.dueAt) < now;

/** Days a delivered revision waits for a word before it is accepted for the customer. */
export const AUTO_ACCEPT_DAYS = 7;
/** Free revisions for this many days after the first delivery, unless the dealer sets otherwise. */
export const DEFAULT_FREE_REVISION_DAYS = 21;

export type TuningRequestParty = "customer" | "dealer" | "system";

/** One way a request moves: from which states, by whom, to which state. Payment moves `quoted` to `paid` (the marketplace's order). */
export interface TuningRequestAction {
  from: readonly TuningRequestState[];
  by: readonly TuningRequestParty[];
  to: TuningRequestState;
  /** What the action is called in words, for refusals and the thread. */
  label: string;
}

export const TUNING_REQUEST_ACTIONS = {
  quote: { from: ["submitted", "quoted"], by: ["dealer"], to: "quoted", label: "quote" },
  decline: {
    from: ["submitted", "quoted", "paid", "in-progress"],
    by: ["dealer"],
    to: "not-possible",
    label: "say it is not possible",
  },
  cancel: { from: ["submitted", "quoted"], by: ["customer", "dealer"], to: "cancelled", label: "cancel" },
  /** After payment only the dealer (or an admin) cancels, and the payment is refunded. */
  "cancel-paid": { from: PAID_STATES, by: ["dealer"], to: "cancelled", label: "cancel and refund" },
  start: { from: ["paid"], by: ["dealer"], to: "in-progress", label: "start work" },
  deliver: {
    from: ["paid", "in-progress", "revision-requested"],
    by: ["dealer"],
    to: "delivered",
    label: "deliver a revision",
  },
  "request-revision": { from: ["delivered"], by: ["customer"], to: "revision-requested", label: "ask for a revision" },
  accept: { from: ["delivered"], by: ["customer", "system"], to: "accepted", label: "accept" },
} as const satisfies Record<string, TuningRequestAction>;
export type TuningRequestActionName = keyof typeof TUNING_REQUEST_ACTIONS;

/**
 * The state an action moves a request to, or the sentence refusing it: names the state and who may
 * move it. Admins act as the dealer does (support works a stuck ticket).
 */
export function nextState(
  state: TuningRequestState,
  action: TuningRequestActionName,
  party: TuningRequestParty,
): { to: TuningRequestState } | { refused: string } {
  const rule: TuningRequestAction = TUNING_REQUEST_ACTIONS[action];
  const from = rule.from as readonly TuningRequestState[];
  const by = rule.by as readonly TuningRequestParty[];
  if (!from.includes(state) || !by.includes(party)) {
    const who = by.filter((p) => p !== "system").join(" or ");
    return {
      refused: `the request is ${state}: only the ${who} may ${rule.label}, and only when it is ${from.join(", ")}`,
    };
  }
  return { to: rule.to };
}

/** The actions a party may take on a request in this state (the app offers these). */
export const actionsFor = (state: TuningRequestState, party: TuningRequestParty): TuningRequestActionName[] =>
  (Object.keys(TUNING_REQUEST_ACTIONS) as TuningRequestActionName[]).filter(
    (action) => "to" in nextState(state, action, party),
  );
