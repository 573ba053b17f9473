/** The owner's own fields of the car: nickname, modifications, notes and fuel. The identity is the app's. */
import { useInvalidate, useUpdate } from "@refinedev/core";
import { Card, Descriptions, Form, Input, Select } from "antd";
import { FUELS, type Vehicle, vehiclePatchSchema } from "../../../contracts/user-vehicles";
import { Field, FormError, SaveButton, useContractForm } from "../resource/form";
import { TagsInput } from "../resource/record-form";

export function OwnerFields({ vehicle }: { vehicle: Vehicle }) {
  const form = useContractForm(vehiclePatchSchema, {
    name: vehicle.name,
    modifications: vehicle.modifications ?? [],
    notes: vehicle.notes ?? "",
    fuel: vehicle.fuel as (typeof FUELS)[number] | null,
  });
  const { mutate, mutation } = useUpdate();
  const invalidate = useInvalidate();
  const save = form.handleSubmit((values) =>
    mutate(
      {
        resource: "user-vehicles",
        id: vehicle.id,
        values,
        successNotification: { type: "success", message: "Vehicle saved" },
        errorNotification: false,
      },
      {
        onSuccess: () =>
          void invalidate({ resource: "user-vehicles", invalidates: ["list", "detail"], id: vehicle.id }),
        onError: form.showServerError,
      },
    ),
  );
  return (
    <Card title="Your notes on the car">
      <FormError message={form.formError} />
      <Form layout="vertical" onFinish={() => void save()} aria-label="Your notes on the car">
        <Field control={form.control} name="name" label="Nickname" required>
          {(field) => <Input {...field} value={field.value ?? ""} />}
        </Field>
        <Field control={form.control} name="fuel" label="Fuel">
          {(field) => (
            <Select
              {...field}
              allowClear
              value={field.value ?? undefined}
              onChange={(v) => field.onChange(v ?? null)}
              options={FUELS.map((fuel) => ({ value: fuel, label: fuel }))}
            />
          )}
        </Field>
        <Field
          control={form.control}
          name="modifications"
          label="Modifications"
          help="Intake, downpipe, intercooler, turbo…"
        >
          {(field) => <TagsInput {...field} value={field.value ?? []} />}
        </Field>
        <Field control={form.control} name="notes" label="Notes">
          {(field) => <Input.TextArea {...field} value={field.value ?? ""} rows={3} />}
        </Field>
        <SaveButton saving={mutation.isPending} />
      </Form>
    </Card>
  );
}

export function DeviceAttributes({ vehicle }: { vehicle: Vehicle }) {
  const attributes = vehicle.deviceAttributes;
  if (!attributes) return null;
  return (
    <Card title="The app's settings for this car">
      <Descriptions size="small" column={1}>
        <Descriptions.Item label="Adapter">
          {attributes.adapter ? `${attributes.adapter.kind} (firmware ${attributes.adapter.firmware})` : "—"}
        </Descriptions.Item>
        <Descriptions.Item label="App">{attributes.appVersion ?? "—"}</Descriptions.Item>
        <Descriptions.Item label="Phone">
          {attributes.phone
            ? `${attributes.phone.model}, ${attributes.phone.platform} ${attributes.phone.osVersion}`
            : "—"}
        </Descriptions.Item>
        <Descriptions.Item label="App settings">
          {attributes.appSettings && Object.keys(attributes.appSettings).length
            ? Object.entries(attributes.appSettings)
                .map(([key, value]) => `${key}: ${String(value)}`)
                .join(", ")
            : "—"}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
