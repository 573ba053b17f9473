/**
 * Create or edit a firmware record with the schema the server validates with
 * (the contract's, its definition's scalings checked by the domain); PUT creates or
 * updates by firmware id. Identify rules and checksum schemes are rows of fields
 * (or their JSON); the map definition is a JSON document (its shape is the schema
 * in contracts/tune-definition.ts).
 */
import { Alert, Form, Input, InputNumber } from "antd";
import { apiPaths } from "../../../contracts/api-paths";
import type { FirmwareSupport } from "../../../contracts/firmware-support";
import { checkedFirmwareSupportInputSchema } from "../../../domain/catalogue/checked-schemas";
import { Field, FormError, SaveButton, useContractForm } from "../../components/resource/form";
import { JsonField } from "../../components/resource/json-field";
import { RecordForm } from "../../components/resource/record-form";
import { usePut } from "../../components/resource/use-put";
import { ChecksumSchemesEditor, IdentifyRulesEditor } from "./rule-editors";

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

  const identify = form.watch("identify") ?? [];
  // Saved all the same (a record may be set up in steps), but the admin is told what it means.
  const submit = form.handleSubmit((values) =>
    save(
      values,
      values.identify.length === 0
        ? `Saved ${values.firmwareId}: with no identify rules this record will never recognise an image`
        : `Saved ${values.firmwareId}`,
      onSaved,
    ),
  );

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
        help="Bytes or text at an offset; an image is this firmware when all of them match"
      >
        {(field) => <IdentifyRulesEditor id={field.id} value={field.value} onChange={field.onChange} />}
      </Field>
      {identify.length === 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message="No identify rules: this record will never recognise an image."
        />
      )}
      <Field
        control={control}
        name="checksums"
        label="Checksum schemes"
        help="The kind of sum, the ranges it covers (inclusive) and where it is stored"
      >
        {(field) => <ChecksumSchemesEditor id={field.id} value={field.value} onChange={field.onChange} />}
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
