/** A support request's status as a coloured tag, the same for the requester and the admins' queue. */
import { Tag } from "antd";
import type { SupportRequestStatus } from "../../contracts/firmware-support";

const statusColour: Record<SupportRequestStatus, string> = {
  new: "blue",
  investigating: "gold",
  supported: "green",
  rejected: "red",
};

export function SupportRequestStatusTag({ status }: { status: SupportRequestStatus }) {
  return <Tag color={statusColour[status]}>{status}</Tag>;
}
