/**
 * A computed descriptor: name, unit and an expression over other channels,
 * checked as it is typed by the same evaluator the server and the log charts
 * use, with the error marked in the editor; the server's answer (unknown
 * channels it knows of) lands on the same marker.
 */
import { useCustom } from "@refinedev/core";
import { Col, Form, Input, InputNumber, Row, Skeleton, Typography } from "antd";
import { lazy, Suspense, useMemo, useState } from "react";
import { useWatch } from "react-hook-form";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import { type ComputedDescriptor, computedDescriptorInputSchema } from "../../../contracts/firmware-support";
import { type ExpressionErrorInfo, validateExpression } from "../../../domain/expression";
import { Field, FormError, SaveButton, useContractForm } from "../../components/resource/form";
import { RecordForm } from "../../components/resource/record-form";
import { usePut } from "../../components/resource/use-put";
import { type SampleChannel, SamplePreview } from "./sample-preview";

const ExpressionEditor = lazy(() => import("./expression-editor"));

function ComputedFields({
  record,
  onSaved,
  channels,
}: {
  record?: ComputedDescriptor;
  onSaved: () => void;
  channels: SampleChannel[];
}) {
  const form = useContractForm(computedDescriptorInputSchema, {
    ...(record && { id: record.id }),
    name: record?.name ?? "",
    variable: record?.variable ?? "",
    unit: record?.unit ?? "",
    expression: record?.expression ?? "",
    decimals: record?.decimals ?? 2,
    min: record?.min ?? null,
    max: record?.max ?? null,
  });
  const [serverError, setServerError] = useState<ExpressionErrorInfo | null>(null);
  const { control } = form;
  const [expression, variable] = useWatch({ control, name: ["expression", "variable"] });
  const available = useMemo(() => channels.filter((c) => c.variable !== variable), [channels, variable]);
  const check = useMemo(
    () =>
      expression.trim()
        ? validateExpression(
            expression,
            available.map((c) => c.variable),
          )
        : null,
    [expression, available],
  );
  const error = check && !check.ok ? check.error : serverError;
  // The server names channels it knows and the browser does not (yet): its position goes on the editor's marker.
  const { save, saving } = usePut(
    {
      showServerError: (failure) => {
        const data = (failure as { data?: unknown }).data;
        const issue = Array.isArray(data)
          ? (data as Array<ExpressionErrorInfo & { path?: string }>).find(
              (item) => item.path === "expression" && typeof item.position === "number",
            )
          : undefined;
        setServerError(issue ?? null);
        form.showServerError(failure);
      },
    },
    "computed-descriptors",
    apiPaths["computed-descriptors"].create,
  );
  const submit = form.handleSubmit((values) => save(values, `Saved ${values.name}`, onSaved));

  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Computed descriptor">
      <FormError message={form.formError} />
      <Row gutter={12}>
        <Col span={12}>
          <Field control={control} name="name" label="Name" required>
            {(field) => <Input {...field} />}
          </Field>
        </Col>
        <Col span={12}>
          <Field
            control={control}
            name="variable"
            label="Variable"
            required
            help="How other expressions refer to this channel"
          >
            {(field) => <Input {...field} style={{ fontFamily: "monospace" }} />}
          </Field>
        </Col>
      </Row>
      <Field
        control={control}
        name="expression"
        label="Expression"
        required
        help="Other channels by variable; min, max, abs, sqrt, prev(…) and more"
      >
        {({ value, onChange, onBlur }) => (
          <Suspense fallback={<Skeleton.Input active block />}>
            <ExpressionEditor
              value={value}
              onChange={(next) => (setServerError(null), onChange(next))}
              onBlur={onBlur}
              error={error}
              channels={available}
            />
          </Suspense>
        )}
      </Field>
      {error && (
        <Typography.Paragraph type="danger" role="alert" data-testid="expression-error">
          {error.message} (column {error.position + 1})
        </Typography.Paragraph>
      )}
      <Row gutter={12}>
        <Col span={8}>
          <Field control={control} name="unit" label="Unit">
            {(field) => <Input {...field} />}
          </Field>
        </Col>
        <Col span={4}>
          <Field control={control} name="decimals" label="Decimals">
            {(field) => <InputNumber {...field} min={0} max={6} style={{ width: "100%" }} />}
          </Field>
        </Col>
        <Col span={6}>
          <Field control={control} name="min" label="Min">
            {(field) => <InputNumber {...field} style={{ width: "100%" }} />}
          </Field>
        </Col>
        <Col span={6}>
          <Field control={control} name="max" label="Max">
            {(field) => <InputNumber {...field} style={{ width: "100%" }} />}
          </Field>
        </Col>
      </Row>
      {check?.ok && <SamplePreview expression={expression} channels={available} />}
      <SaveButton saving={saving} />
    </Form>
  );
}

export function ComputedDescriptorForm({ id, onSaved }: { id?: string; onSaved: () => void }) {
  const { query, result: channels } = useCustom<{ data: SampleChannel[] }>({
    url: apiRoutes.firmwareSupport.channelVariables(),
    method: "get",
  });
  if (query.isLoading) return <Skeleton active />;
  return (
    <RecordForm<ComputedDescriptor>
      resource="computed-descriptors"
      apiPath={apiPaths["computed-descriptors"].record}
      id={id}
    >
      {(record) => <ComputedFields record={record} onSaved={onSaved} channels={channels?.data?.data ?? []} />}
    </RecordForm>
  );
}
