/**
 * An admin adjusts a user's balance (a goodwill credit, a correction) with the reason the user
 * reads; the ledger keeps who made it. Positive credits the user, negative debits.
 */
import { useCustomMutation } from "@refinedev/core";
import { Button, Flex, Form, Input, InputNumber, Select } from "antd";
import { apiRoutes } from "../../../contracts/api-paths";
import { type LedgerEntry, ledgerAdjustmentSchema } from "../../../contracts/payments";
import { Field, FormError, useContractForm } from "../../components/resource/form";
import { centsOf, formatMoney } from "../../lib/money";

export function BalanceAdjustment({ uid, onDone }: { uid: string; onDone: () => void }) {
  const form = useContractForm(ledgerAdjustmentSchema, { amountCents: 0, currency: "EUR", reason: "" });
  const { mutate, mutation } = useCustomMutation<LedgerEntry>();
  const submit = form.handleSubmit((values) =>
    mutate(
      {
        url: apiRoutes.users.transactions(uid),
        method: "post",
        values,
        successNotification: {
          type: "success",
          message: `Balance adjusted by ${formatMoney(values.amountCents, values.currency)}`,
        },
        errorNotification: false,
      },
      {
        onSuccess: () => {
          form.reset();
          onDone();
        },
        onError: form.showServerError,
      },
    ),
  );
  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Adjust the balance">
      <FormError message={form.formError} />
      <Flex gap={12} wrap align="start">
        <Field control={form.control} name="amountCents" label="Amount (negative debits)" required>
          {(field) => (
            <InputNumber
              id={field.id}
              step={1}
              precision={2}
              value={(field.value ?? 0) / 100}
              onChange={(value) => field.onChange(centsOf(Number(value ?? 0)))}
              onBlur={field.onBlur}
              aria-label="Adjustment amount"
            />
          )}
        </Field>
        <Field control={form.control} name="currency" label="Currency" required>
          {(field) => (
            <Select
              {...field}
              aria-label="Adjustment currency"
              style={{ width: 100 }}
              options={["EUR", "GBP", "USD"].map((c) => ({ value: c, label: c }))}
            />
          )}
        </Field>
        <Field control={form.control} name="reason" label="Reason (the user reads it)" required>
          {(field) => <Input {...field} maxLength={500} style={{ minWidth: 280 }} aria-label="Adjustment reason" />}
        </Field>
      </Flex>
      <Button htmlType="submit" loading={mutation.isPending}>
        Adjust the balance
      </Button>
    </Form>
  );
}
