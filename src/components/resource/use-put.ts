/**
 * Saving a catalogue record: one PUT creates or updates it.
 * Refreshes the resource's list and the record, and puts a refusal's field
 * errors on the form.
 */
import { type BaseRecord, type HttpError, useCustomMutation, useInvalidate } from "@refinedev/core";

export function usePut<Saved extends BaseRecord>(
  form: { showServerError: (error: unknown) => void },
  resource: string,
  url: string,
) {
  const { mutate, mutation } = useCustomMutation<Saved>();
  const invalidate = useInvalidate();
  const save = (values: object, message: string, onSaved?: (saved: Saved) => void) =>
    mutate(
      { url, method: "put", values, successNotification: { type: "success", message }, errorNotification: false },
      {
        onSuccess: ({ data }) => {
          void invalidate({ resource, id: data.id, invalidates: ["list", "detail"] });
          onSaved?.(data);
        },
        onError: (error: HttpError) => form.showServerError(error),
      },
    );
  return { save, saving: mutation.isPending };
}
