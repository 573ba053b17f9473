/**
 * Create or edit a firmware record with the schema the server validates with
 * (the contract's, its definition's scalings checked by the domain); PUT creates or
 * updates by firmware id. Identify rules, checksum schemes and the
 * map definition are JSON documents (their shapes are the schemas in
 * contracts/tune-definition.ts).
 */
import { Form, Input, InputNumber } from "antd";
import { apiPaths } from "../../../contracts/api-paths";
import type { FirmwareSupport } from "../../../contracts/firmware-support";
import { checkedFirmwareSupportInputSchema } from "../../../domain/catalogue/checked-schemas";
import { Field, FormError, SaveButton, useContractForm } from "../../components/resource/form";
import { JsonField } from "../../components/resource/json-field";
import { RecordForm } from "../../components/resource/record-form";
import { usePut } from "../../components/resource/use-put";

function FirmwareFormFields({
  record,
  onSaved,
}: {
  record?: FirmwareSupport;
  onSaved: (record: FirmwareSupport) => void;
}) {
  const form = useContractForm(checkedFirmwareSupportInputSchema, {
    firmwareId: record?.firmwareId ?? "",
    ecuFamily: record?.ecuFamily ?? "",
    manufacturer: record?.manufacturer ?? "",
    imageSize: record?.imageSize ?? 1024 * 1024,
    identify: record?.identify ?? [],
    checksums: record?.checksums ?? [],
    definition: record?.definition ?? null,
    notes: record?.notes ?? "",
  });
  const { save, saving } = usePut<FirmwareSupport>(form, "firmware-support", apiPaths["firmware-support"].create);
  const { control } = form;

  const submit = form.handleSubmit((values) => save(values, `Saved ${values.firmwareId}`, onSaved));

  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Firmware record">
      <FormError message={form.formError} />
      <Field
        control={control}
        name="firmwareId"
        label="Firmware id"
        required
        help="The software id the ECU reports; records are keyed by it"
      >
        {(field) => <Input {...field} disabled={Boolean(record)} />}
      </Field>
      <Field control={control} name="manufacturer" label="Manufacturer" required>
        {(field) => <Input {...field} />}
      </Field>
      <Field control={control} name="ecuFamily" label="ECU family / project code" required>
        {(field) => <Input {...field} />}
      </Field>
      <Field control={control} name="imageSize" label="Image size (bytes)" required>
        {(field) => <InputNumber {...field} min={1} style={{ width: "100%" }} />}
      </Field>
      <Field
        control={control}
        name="identify"
        label="Identify rules"
        help='[{ "address": "0x100", "text": "DEMO" }]: all must match'
      >
        {(field) => <JsonField {...field} rows={4} />}
      </Field>
      <Field
        control={control}
        name="checksums"
        label="Checksum schemes"
        help='[{ "name", "type", "ranges": [[start, end]], "store": { "address" } }]'
      >
        {(field) => <JsonField {...field} rows={6} />}
      </Field>
      <Field
        control={control}
        name="definition"
        label="Map definition"
        help="The definition document for the tune viewer; empty for none"
      >
        {(field) => <JsonField {...field} rows={8} />}
      </Field>
      <Field control={control} name="notes" label="Notes">
        {(field) => <Input.TextArea {...field} rows={2} />}
      </Field>
      <SaveButton saving={saving} />
    </Form>
  );
}

export function FirmwareForm({ id, onSaved }: { id?: string; onSaved: (record: FirmwareSupport) => void }) {
  return (
    <RecordForm<FirmwareSupport> resource="firmware-support" apiPath={apiPaths["firmware-support"].record} id={id}>
      {(record) => <FirmwareFormFields record={record} onSaved={onSaved} />}
    </RecordForm>
  );
}
