/**
 * The way back to a paid licence's receipt (its order's checkout page, `/checkout/:orderId`), for
 * those the order answers: the buyer, the selling dealer and admins. A granted licence has no order,
 * so nothing is shown for it. Used on the car's licences and on My tunes.
 */
import type { Licence } from "../../../contracts/payments";
import { useSessionState } from "../../providers/session-context";
import { Link } from "../link";

export function ReceiptLink({ licence }: { licence: Pick<Licence, "orderId" | "customerUid" | "dealerUid"> }) {
  const { user, role } = useSessionState();
  if (!licence.orderId) return null;
  const party = licence.customerUid === user?.uid || licence.dealerUid === user?.uid || role === "admin";
  return party ? <Link to={`/checkout/${licence.orderId}`}>Receipt</Link> : null;
}
