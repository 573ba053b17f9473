import { Form, Input, InputNumber } from "antd";
import { apiPaths } from "../../../contracts/api-paths";
import { type PidTemplate, pidTemplateInputSchema } from "../../../contracts/firmware-support";
import { Field, FirmwareIdsField, FormError, SaveButton, useContractForm } from "../../components/resource/form";
import { RecordForm } from "../../components/resource/record-form";
import { usePut } from "../../components/resource/use-put";
import { DescriptorPicker } from "./descriptor-picker";

function TemplateFields({ record, onSaved }: { record?: PidTemplate; onSaved: () => void }) {
  const form = useContractForm(pidTemplateInputSchema, {
    ...(record && { id: record.id }),
    name: record?.name ?? "",
    description: record?.description ?? "",
    descriptorIds: record?.descriptorIds ?? [],
    sampleRateHz: record?.sampleRateHz ?? 10,
    firmwareIds: record?.firmwareIds ?? [],
    vehicleFamily: record?.vehicleFamily ?? "",
  });
  const { save, saving } = usePut(form, "pid-templates", apiPaths["pid-templates"].create);
  const { control } = form;
  const submit = form.handleSubmit((values) => save(values, `Saved ${values.name}`, onSaved));
  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="PID template">
      <FormError message={form.formError} />
      <Field control={control} name="name" label="Name" required>
        {(field) => <Input {...field} />}
      </Field>
      <Field control={control} name="description" label="Description">
        {(field) => <Input.TextArea {...field} rows={2} />}
      </Field>
      <Field control={control} name="sampleRateHz" label="Sample rate (Hz)" required>
        {(field) => <InputNumber {...field} min={0.1} max={1000} style={{ width: "100%" }} />}
      </Field>
      <FirmwareIdsField
        control={control}
        label="Firmware ids"
        help="For one firmware, or leave empty and name a vehicle family"
      />
      <Field control={control} name="vehicleFamily" label="Vehicle family">
        {(field) => <Input {...field} placeholder="e.g. VAG MQB 2.0 TSI" />}
      </Field>
      <Field control={control} name="descriptorIds" label="Channels, in logging order" required>
        {({ id, value, onChange }) => <DescriptorPicker id={id} value={value} onChange={onChange} />}
      </Field>
      <SaveButton saving={saving} />
    </Form>
  );
}

export function PidTemplateForm({ id, onSaved }: { id?: string; onSaved: () => void }) {
  return (
    <RecordForm<PidTemplate> resource="pid-templates" apiPath={apiPaths["pid-templates"].record} id={id}>
      {(record) => <TemplateFields record={record} onSaved={onSaved} />}
    </RecordForm>
  );
}
