/** A ticket's due date as a tag, and "Late" beside it once it passed while the work is still owed. */
import { Tag } from "antd";
import { isLate, type TuningRequestState } from "../../../contracts/tuning-request-states";
import { formatDueDay } from "../../lib/quote-due";

export function LateTag({ request }: { request: { state: TuningRequestState; dueAt: string | null } }) {
  return isLate(request, new Date()) ? (
    <Tag color="red" data-testid="late">
      Late
    </Tag>
  ) : null;
}

export function DueTag({ request }: { request: { state: TuningRequestState; dueAt: string | null } }) {
  if (!request.dueAt) return null;
  // Until paid the date counts from the quote; the payment starts the quote's days again.
  const unpaid = request.state === "quoted";
  return (
    <>
      <Tag
        data-testid="due-date"
        title={unpaid ? "The quote's days count from payment: paying later moves it" : undefined}
      >
        {`due ${formatDueDay(request.dueAt)}`}
      </Tag>
      <LateTag request={request} />
    </>
  );
}
