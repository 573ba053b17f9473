/** A tuning request's state as a coloured tag, in words a customer and a dealer both read. */
import { Tag } from "antd";
import type { TuningRequestState } from "../../../contracts/tuning-requests";

export const STATE_LABELS: Record<TuningRequestState, string> = {
  submitted: "asked",
  quoted: "quoted",
  paid: "paid",
  "in-progress": "in progress",
  delivered: "delivered",
  "revision-requested": "revision asked",
  accepted: "accepted",
  "not-possible": "not possible",
  cancelled: "cancelled",
};

const COLORS: Record<TuningRequestState, string> = {
  submitted: "gold",
  quoted: "blue",
  paid: "cyan",
  "in-progress": "processing",
  delivered: "green",
  "revision-requested": "orange",
  accepted: "success",
  "not-possible": "default",
  cancelled: "default",
};

export function StateTag({ state }: { state: TuningRequestState }) {
  return <Tag color={COLORS[state]}>{STATE_LABELS[state]}</Tag>;
}
