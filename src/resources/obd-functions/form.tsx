import { Form, Input, Select } from "antd";
import { apiPaths } from "../../../contracts/api-paths";
import {
  OBD_FUNCTION_CATEGORIES,
  type ObdFunction,
  obdFunctionInputSchema,
  SAFETY_LEVELS,
} from "../../../contracts/firmware-support";
import { Field, FirmwareIdsField, FormError, SaveButton, useContractForm } from "../../components/resource/form";
import { RecordForm } from "../../components/resource/record-form";
import { usePut } from "../../components/resource/use-put";

export const categoryOptions = OBD_FUNCTION_CATEGORIES.map((value) => ({ value, label: value.replace(/-/g, " ") }));
export const safetyOptions = SAFETY_LEVELS.map((value) => ({ value, label: value }));

function ObdFunctionFields({ record, onSaved }: { record?: ObdFunction; onSaved: () => void }) {
  const form = useContractForm(obdFunctionInputSchema, {
    ...(record && { id: record.id }),
    name: record?.name ?? "",
    category: record?.category ?? "read-codes",
    description: record?.description ?? "",
    request: record?.request ?? "",
    expectedResponse: record?.expectedResponse ?? "",
    firmwareIds: record?.firmwareIds ?? [],
    confirmationText: record?.confirmationText ?? null,
    safetyLevel: record?.safetyLevel ?? "none",
  });
  const { save, saving } = usePut(form, "obd-functions", apiPaths["obd-functions"].create);
  const { control } = form;
  const submit = form.handleSubmit((values) => save(values, `Saved ${values.name}`, onSaved));
  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="OBD function">
      <FormError message={form.formError} />
      <Field control={control} name="name" label="Name" required>
        {(field) => <Input {...field} />}
      </Field>
      <Field control={control} name="category" label="Category" required>
        {(field) => <Select {...field} options={categoryOptions} />}
      </Field>
      <Field control={control} name="description" label="Description">
        {(field) => <Input.TextArea {...field} rows={2} />}
      </Field>
      <Field
        control={control}
        name="request"
        label="Request bytes (hex)"
        required
        help='e.g. "14 FF FF FF" (clear all DTCs)'
      >
        {(field) => <Input {...field} style={{ fontFamily: "monospace" }} />}
      </Field>
      <Field control={control} name="expectedResponse" label="Expected response (hex)" required>
        {(field) => <Input {...field} style={{ fontFamily: "monospace" }} />}
      </Field>
      <Field
        control={control}
        name="safetyLevel"
        label="Safety level"
        help="Anything above none changes the car and asks the user to confirm"
      >
        {(field) => <Select {...field} options={safetyOptions} />}
      </Field>
      <Field control={control} name="confirmationText" label="Confirmation text">
        {({ value, onChange, ...field }) => (
          <Input.TextArea {...field} value={value ?? ""} onChange={(e) => onChange(e.target.value || null)} rows={2} />
        )}
      </Field>
      <FirmwareIdsField control={control} />
      <SaveButton saving={saving} />
    </Form>
  );
}

export function ObdFunctionForm({ id, onSaved }: { id?: string; onSaved: () => void }) {
  return (
    <RecordForm<ObdFunction> resource="obd-functions" apiPath={apiPaths["obd-functions"].record} id={id}>
      {(record) => <ObdFunctionFields record={record} onSaved={onSaved} />}
    </RecordForm>
  );
}
