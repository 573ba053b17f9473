/**
 * Removing a car's licence with the reason the customer is told: a paid one is refunded in full and
 * the dealer's sale and fee reversed (`POST /user-vehicles/{id}/tune-files/purchases`). Used on the
 * car's licences and on a user's orders.
 */
import { type HttpError, useCustomMutation } from "@refinedev/core";
import { Button } from "antd";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import { failureText, fieldMessage } from "../../lib/http-errors";
import { ReasonDialog } from "../dialogs/reason-dialog";

export interface LicenceRemovalProps {
  vehicleId: string;
  tuneFileId: string;
  title: string;
  /** Paid: refunded as it is removed. */
  paid: boolean;
  /** The button's text; the dialog's action says the same. */
  verb: string;
  /** What happens, in a sentence above the reason. */
  explanation: string;
  onDone: () => void;
}

export function LicenceRemoval({ vehicleId, tuneFileId, title, paid, verb, explanation, onDone }: LicenceRemovalProps) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { mutate, mutation } = useCustomMutation();
  const submit = (reason: string) =>
    mutate(
      {
        url: apiRoutes.vehicles.purchases(vehicleId),
        method: "post",
        values: { tuneFileId, reason },
        successNotification: {
          type: "success",
          message: paid ? `${title}: refunded and licence removed` : `${title}: licence removed`,
        },
        errorNotification: false,
      },
      {
        onSuccess: () => {
          setOpen(false);
          onDone();
        },
        onError: (failure: HttpError) => setError(fieldMessage(failure, "reason") ?? failureText(failure)),
      },
    );
  return (
    <>
      <Button size="small" danger onClick={() => setOpen(true)}>
        {verb}
      </Button>
      {open && (
        <ReasonDialog
          title={`${verb}: ${title}`}
          okText={paid ? "Refund and remove" : "Remove"}
          explanation={explanation}
          required="give a reason: the customer is told it"
          sending={mutation.isPending}
          error={error}
          onSubmit={submit}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
