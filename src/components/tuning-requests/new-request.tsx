/**
 * A customer asks a dealer for a custom tune for this car: the dealer (approved dealers, those
 * tuning this firmware first), the short questionnaire and the car's logs to attach. The car's
 * identity and stock read go with it; without a stock read the server refuses, naming it.
 */
import { useCustom, useCustomMutation } from "@refinedev/core";
import { Alert, Button, Flex, Form, Input, InputNumber, Select } from "antd";
import { apiPaths } from "../../../contracts/api-paths";
import type { Dealer } from "../../../contracts/dealers";
import { type TuningRequest, tuningRequestCreateSchema } from "../../../contracts/tuning-requests";
import type { Vehicle } from "../../../contracts/user-vehicles";
import { Field, FormError, useContractForm } from "../resource/form";
import { VehicleLogsSelect } from "./vehicle-logs-select";

const FUELS = ["95", "98", "100", "E85", "diesel", "other"] as const;
const TRANSMISSIONS = ["manual", "automatic", "dct", "other"] as const;

export function NewTuningRequest({
  vehicle,
  dealerId = "",
  onMade,
}: {
  vehicle: Vehicle;
  /** The dealer chosen already (asked from the dealer's page). */
  dealerId?: string;
  onMade: (ticket: TuningRequest) => void;
}) {
  const dealers = useCustom<{ data: Dealer[] }>({
    url: apiPaths["managed-dealers"].list,
    method: "get",
    config: { query: { pageSize: 100 } },
  });
  const form = useContractForm(tuningRequestCreateSchema, {
    vehicleId: vehicle.id,
    dealerId,
    questionnaire: {
      fuel: "98",
      transmission: "manual",
      intake: "",
      exhaust: "",
      turbo: "",
      intercooler: "",
      targetPowerHp: null,
      notes: "",
    },
    logIds: [],
  });
  const { mutate, mutation } = useCustomMutation<TuningRequest>();
  const submit = form.handleSubmit((values) =>
    mutate(
      {
        url: apiPaths["tuning-requests"].create,
        method: "post",
        values,
        successNotification: { type: "success", message: "Your request is with the dealer" },
        errorNotification: false,
      },
      { onSuccess: ({ data }) => onMade(data), onError: form.showServerError },
    ),
  );
  // Dealers who already tune this firmware come first.
  const options = [...(dealers.query.data?.data.data ?? [])]
    .sort(
      (a, b) =>
        Number(b.firmwareIds.includes(vehicle.firmwareId ?? "")) -
        Number(a.firmwareIds.includes(vehicle.firmwareId ?? "")),
    )
    .map((dealer) => ({
      value: dealer.id,
      label: `${dealer.businessName}${dealer.country ? ` (${dealer.country})` : ""}${dealer.firmwareIds.includes(vehicle.firmwareId ?? "") ? " · tunes this software" : ""}`,
    }));
  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Ask for a custom tune">
      {!vehicle.stockDump && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message="Read the car's stock with the app first: the dealer works from your car's own software."
        />
      )}
      <FormError message={form.formError} />
      <Field control={form.control} name="dealerId" label="Dealer" required>
        {(field) => (
          <Select
            {...field}
            showSearch
            optionFilterProp="label"
            aria-label="Dealer"
            loading={dealers.query.isLoading}
            options={options}
            placeholder="Choose a dealer"
          />
        )}
      </Field>
      <Flex gap={12} wrap>
        <Field control={form.control} name="questionnaire.fuel" label="Fuel" required>
          {(field) => (
            <Select
              {...field}
              aria-label="Fuel"
              style={{ width: 120 }}
              options={FUELS.map((fuel) => ({ value: fuel, label: fuel }))}
            />
          )}
        </Field>
        <Field control={form.control} name="questionnaire.transmission" label="Transmission" required>
          {(field) => (
            <Select
              {...field}
              aria-label="Transmission"
              style={{ width: 150 }}
              options={TRANSMISSIONS.map((t) => ({ value: t, label: t }))}
            />
          )}
        </Field>
        <Field control={form.control} name="questionnaire.targetPowerHp" label="Target power (hp)">
          {(field) => (
            <InputNumber
              id={field.id}
              min={1}
              max={3000}
              value={field.value ?? null}
              onChange={(value) => field.onChange(value === null ? null : Number(value))}
              onBlur={field.onBlur}
              aria-label="Target power"
            />
          )}
        </Field>
      </Flex>
      <Flex gap={12} wrap>
        {(["intake", "exhaust", "turbo", "intercooler"] as const).map((part) => (
          <Field
            key={part}
            control={form.control}
            name={`questionnaire.${part}`}
            label={part[0].toUpperCase() + part.slice(1)}
          >
            {(field) => (
              <Input {...field} value={field.value ?? ""} placeholder="stock" maxLength={200} style={{ width: 200 }} />
            )}
          </Field>
        ))}
      </Flex>
      <Field control={form.control} name="questionnaire.notes" label="Notes for the dealer">
        {(field) => (
          <Input.TextArea
            {...field}
            value={field.value ?? ""}
            rows={3}
            maxLength={4000}
            placeholder="How you use the car, what you hope for, anything the dealer should know"
          />
        )}
      </Field>
      <Field control={form.control} name="logIds" label="Logs to attach">
        {(field) => (
          <VehicleLogsSelect
            vehicleId={vehicle.id}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            label="Logs to attach"
          />
        )}
      </Field>
      <Button type="primary" htmlType="submit" loading={mutation.isPending}>
        Send the request
      </Button>
    </Form>
  );
}
