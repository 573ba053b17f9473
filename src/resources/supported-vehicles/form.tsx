import { Form, Input, InputNumber } from "antd";
import { apiPaths } from "../../../contracts/api-paths";
import { type SupportedVehicle, supportedVehicleInputSchema } from "../../../contracts/firmware-support";
import { Field, FirmwareIdsField, FormError, SaveButton, useContractForm } from "../../components/resource/form";
import { RecordForm } from "../../components/resource/record-form";
import { usePut } from "../../components/resource/use-put";

function VehicleFields({ record, onSaved }: { record?: SupportedVehicle; onSaved: () => void }) {
  const form = useContractForm(supportedVehicleInputSchema, {
    ...(record && { id: record.id }),
    make: record?.make ?? "",
    model: record?.model ?? "",
    generation: record?.generation ?? "",
    engine: record?.engine ?? "",
    yearFrom: record?.yearFrom ?? new Date().getFullYear(),
    yearTo: record?.yearTo ?? null,
    ecu: record?.ecu ?? "",
    firmwareIds: record?.firmwareIds ?? [],
  });
  const { save, saving } = usePut(form, "supported-vehicles", apiPaths["supported-vehicles"].create);
  const { control } = form;
  const submit = form.handleSubmit((values) => save(values, `Saved ${values.make} ${values.model}`, onSaved));
  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Supported vehicle">
      <FormError message={form.formError} />
      <Field control={control} name="make" label="Make" required>
        {(field) => <Input {...field} />}
      </Field>
      <Field control={control} name="model" label="Model" required>
        {(field) => <Input {...field} />}
      </Field>
      <Field control={control} name="generation" label="Generation">
        {(field) => <Input {...field} />}
      </Field>
      <Field control={control} name="engine" label="Engine" required>
        {(field) => <Input {...field} />}
      </Field>
      <Field control={control} name="yearFrom" label="From year" required>
        {(field) => <InputNumber {...field} style={{ width: "100%" }} />}
      </Field>
      <Field control={control} name="yearTo" label="To year" help="Empty while still built">
        {(field) => <InputNumber {...field} style={{ width: "100%" }} />}
      </Field>
      <Field control={control} name="ecu" label="ECU" required>
        {(field) => <Input {...field} />}
      </Field>
      <FirmwareIdsField control={control} label="Firmware ids" required help="Type a software id and press Enter" />
      <SaveButton saving={saving} />
    </Form>
  );
}

export function VehicleForm({ id, onSaved }: { id?: string; onSaved: () => void }) {
  return (
    <RecordForm<SupportedVehicle> resource="supported-vehicles" apiPath={apiPaths["supported-vehicles"].record} id={id}>
      {(record) => <VehicleFields record={record} onSaved={onSaved} />}
    </RecordForm>
  );
}
