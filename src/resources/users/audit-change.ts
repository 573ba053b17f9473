/** How support reads an audit row's change: "field: before → after", in the words the screens use. */
import type { AuditEvent } from "../../../contracts/audit";
import type { TuningRequestState } from "../../../contracts/tuning-requests";
import { STATE_LABELS } from "../../components/tuning-requests/state-tag";

/** A stored value as the screens name it: a tuning request's state reads "asked", never "submitted". */
function shown(event: AuditEvent, field: string, value: unknown): string {
  if (value === undefined) return "—";
  if (event.targetType === "tuning-request" && field === "state" && typeof value === "string" && value in STATE_LABELS)
    return STATE_LABELS[value as TuningRequestState];
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A change's fields as "field: before → after", the way support reads them. */
export function changeText(event: AuditEvent): string {
  const before = (event.before ?? {}) as Record<string, unknown>;
  const after = (event.after ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .map((field) =>
      field in before && field in after
        ? `${field}: ${shown(event, field, before[field])} → ${shown(event, field, after[field])}`
        : `${field}: ${shown(event, field, after[field] ?? before[field])}`,
    )
    .join("; ");
}
