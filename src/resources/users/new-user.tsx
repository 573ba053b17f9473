/**
 * An admin opens an account: email, name and role (a dealer with the business name of their
 * approved profile). The person receives an invitation to set a password; the dialog says whether
 * it went out.
 */
import { useCustomMutation, useInvalidate } from "@refinedev/core";
import { Form, Input, Modal, Select } from "antd";
import { roleSchema } from "../../../contracts/account";
import { apiPaths } from "../../../contracts/api-paths";
import { type UserCreated as Created, userCreateSchema } from "../../../contracts/users";
import { Field, FormError, useContractForm } from "../../components/resource/form";

export function NewUserDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (uid: string) => void;
}) {
  const form = useContractForm(userCreateSchema, {
    email: "",
    displayName: "",
    role: "customer",
    businessName: undefined,
  });
  const { mutate, mutation } = useCustomMutation<Created>();
  const invalidate = useInvalidate();
  const role = form.watch("role");
  const submit = form.handleSubmit((values) =>
    mutate(
      {
        url: apiPaths.users.create,
        method: "post",
        values: { ...values, displayName: values.displayName || undefined },
        successNotification: ({ data } = { data: undefined as unknown as Created }) => ({
          type: "success",
          message: `Account opened for ${data.user.email}`,
          description: data.invitationSent
            ? "They received an invitation to set their password."
            : "The invitation could not be sent: send a password reset from their page.",
        }),
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          void invalidate({ resource: "users", invalidates: ["list"] });
          form.reset();
          onClose();
          onCreated(data.user.uid);
        },
        onError: form.showServerError,
      },
    ),
  );
  return (
    <Modal
      open={open}
      title="New user"
      okText="Open the account"
      confirmLoading={mutation.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={() => void submit()} aria-label="New user">
        <FormError message={form.formError} />
        <Field control={form.control} name="email" label="Email" required help="They receive the invitation here">
          {(field) => <Input {...field} type="email" autoComplete="off" />}
        </Field>
        <Field control={form.control} name="displayName" label="Name">
          {(field) => <Input {...field} value={field.value ?? ""} />}
        </Field>
        <Field control={form.control} name="role" label="Role" required>
          {(field) => (
            <Select
              {...field}
              aria-label="Role"
              options={roleSchema.options.map((value) => ({ value, label: value }))}
            />
          )}
        </Field>
        {role === "dealer" && (
          <Field
            control={form.control}
            name="businessName"
            label="Business name"
            required
            help="Their dealer profile starts approved under this name"
          >
            {(field) => <Input {...field} value={field.value ?? ""} />}
          </Field>
        )}
      </Form>
    </Modal>
  );
}
