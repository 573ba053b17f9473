import { Col, Form, Input, InputNumber, Row, Select, Switch } from "antd";
import { apiPaths } from "../../../contracts/api-paths";
import { PID_SOURCES, type PidDescriptor } from "../../../contracts/firmware-support";
import { checkedPidDescriptorInputSchema } from "../../../domain/catalogue/checked-schemas";
import { Field, FirmwareIdsField, FormError, SaveButton, useContractForm } from "../../components/resource/form";
import { RecordForm } from "../../components/resource/record-form";
import { usePut } from "../../components/resource/use-put";

export const sourceOptions = PID_SOURCES.map((value) => ({
  value,
  label: { obd: "OBD mode 01", uds: "UDS DID (0x22)", ram: "RAM address (0x3E)" }[value],
}));

function PidFields({ record, onSaved }: { record?: PidDescriptor; onSaved: () => void }) {
  const form = useContractForm(checkedPidDescriptorInputSchema, {
    ...(record && { id: record.id }),
    name: record?.name ?? "",
    variable: record?.variable ?? "",
    unit: record?.unit ?? "",
    source: record?.source ?? "uds",
    address: record?.address ?? "",
    length: record?.length ?? 2,
    signed: record?.signed ?? false,
    endian: record?.endian ?? "big",
    expression: record?.expression ?? "x",
    decimals: record?.decimals ?? 2,
    min: record?.min ?? null,
    max: record?.max ?? null,
    warnMin: record?.warnMin ?? null,
    warnMax: record?.warnMax ?? null,
    smoothing: record?.smoothing ?? 0,
    firmwareIds: record?.firmwareIds ?? [],
  });
  const { save, saving } = usePut(form, "pid-descriptors", apiPaths["pid-descriptors"].create);
  const { control } = form;
  const submit = form.handleSubmit((values) => save(values, `Saved ${values.name}`, onSaved));
  const number = (name: "min" | "max" | "warnMin" | "warnMax", label: string) => (
    <Col span={6}>
      <Field control={control} name={name} label={label}>
        {(field) => <InputNumber {...field} style={{ width: "100%" }} />}
      </Field>
    </Col>
  );
  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="PID descriptor">
      <FormError message={form.formError} />
      <Field control={control} name="name" label="Name" required>
        {(field) => <Input {...field} />}
      </Field>
      <Field
        control={control}
        name="variable"
        label="Variable"
        required
        help="The name computed descriptors use for this channel"
      >
        {(field) => <Input {...field} style={{ fontFamily: "monospace" }} />}
      </Field>
      <Row gutter={12}>
        <Col span={8}>
          <Field control={control} name="source" label="Source" required>
            {(field) => <Select {...field} options={sourceOptions} />}
          </Field>
        </Col>
        <Col span={8}>
          <Field control={control} name="address" label="PID / DID / address" required>
            {(field) => <Input {...field} placeholder="0xF40C" style={{ fontFamily: "monospace" }} />}
          </Field>
        </Col>
        <Col span={8}>
          <Field control={control} name="length" label="Length (bytes)" required>
            {(field) => <InputNumber {...field} min={1} max={8} style={{ width: "100%" }} />}
          </Field>
        </Col>
      </Row>
      <Row gutter={12}>
        <Col span={8}>
          <Field control={control} name="signed" label="Signed">
            {({ value, onChange }) => <Switch checked={value} onChange={onChange} />}
          </Field>
        </Col>
        <Col span={8}>
          <Field control={control} name="endian" label="Endianness">
            {(field) => (
              <Select
                {...field}
                options={[
                  { value: "big", label: "big" },
                  { value: "little", label: "little" },
                ]}
              />
            )}
          </Field>
        </Col>
        <Col span={8}>
          <Field control={control} name="unit" label="Unit">
            {(field) => <Input {...field} />}
          </Field>
        </Col>
      </Row>
      <Field
        control={control}
        name="expression"
        label="Scaling"
        required
        help="Over the raw value x, or the response bytes A–D (Torque)"
      >
        {(field) => <Input {...field} style={{ fontFamily: "monospace" }} />}
      </Field>
      <Row gutter={12}>
        {number("min", "Min")}
        {number("max", "Max")}
        {number("warnMin", "Warn below")}
        {number("warnMax", "Warn above")}
      </Row>
      <Row gutter={12}>
        <Col span={12}>
          <Field control={control} name="decimals" label="Decimals">
            {(field) => <InputNumber {...field} min={0} max={6} style={{ width: "100%" }} />}
          </Field>
        </Col>
        <Col span={12}>
          <Field control={control} name="smoothing" label="Smoothing (0–1)">
            {(field) => <InputNumber {...field} min={0} max={1} step={0.1} style={{ width: "100%" }} />}
          </Field>
        </Col>
      </Row>
      <FirmwareIdsField control={control} />
      <SaveButton saving={saving} />
    </Form>
  );
}

export function PidDescriptorForm({ id, onSaved }: { id?: string; onSaved: () => void }) {
  return (
    <RecordForm<PidDescriptor> resource="pid-descriptors" apiPath={apiPaths["pid-descriptors"].record} id={id}>
      {(record) => <PidFields record={record} onSaved={onSaved} />}
    </RecordForm>
  );
}
