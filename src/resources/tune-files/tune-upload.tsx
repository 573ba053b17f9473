/**
 * A dealer adds a tune: the image is inspected first (firmware, checksums,
 * patches, changes against stock by map) and saved only after they have seen
 * that report. The firmware is identified by the server, never chosen here.
 */
import { useCustomMutation, useInvalidate } from "@refinedev/core";
import { Button, Checkbox, Flex, Form, Input, Progress, Typography } from "antd";
import { useState } from "react";
import { apiPaths } from "../../../contracts/api-paths";
import { type Inspection, type TuneFile, tuneFileCreateSchema } from "../../../contracts/tune-files";
import { Field, FormError, useContractForm } from "../../components/resource/form";
import { useUpload } from "../../components/resource/use-upload";
import { InspectedImage } from "../../components/tune-inspection";

export function TuneUpload({ onSaved }: { onSaved: (tune: TuneFile) => void }) {
  const [image, setImage] = useState<{ file: File; report: Inspection | null } | null>(null);
  const upload = useUpload();
  const [fixChecksums, setFixChecksums] = useState(false);
  const create = useCustomMutation<TuneFile>();
  const invalidate = useInvalidate();
  const form = useContractForm(tuneFileCreateSchema, { title: "", description: "", version: "1.0", notes: "" });

  const submit = form.handleSubmit((values) => {
    const data = new FormData();
    for (const [name, value] of Object.entries({ ...values, ...(fixChecksums && { fixChecksums: "true" }) }))
      data.append(name, value);
    data.append("file", image!.file);
    upload.start();
    create.mutate(
      {
        url: apiPaths["tune-files"].create,
        method: "post",
        values: data,
        meta: { onUploadProgress: upload.onUploadProgress },
        successNotification: { type: "success", message: `Saved ${values.title}` },
        errorNotification: false,
      },
      {
        onSuccess: ({ data: tune }) => {
          void invalidate({ resource: "tune-files", invalidates: ["list"] });
          onSaved(tune);
        },
        onError: form.showServerError,
        onSettled: () => upload.finish(),
      },
    );
  });

  const inspection = image?.report;
  const failing = inspection?.checksums.some((c) => !c.valid) ?? false;
  return (
    <Flex vertical gap={16}>
      {!image && (
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          Choose the tune image: it is checked first (which firmware it is for, its checksums, and the maps it changes
          against stock) and nothing is saved until you have read that report, named the tune and pressed Save tune
          file.
        </Typography.Paragraph>
      )}
      <InspectedImage label="Choose the tune image…" onInspected={(file, report) => setImage({ file, report })} />
      {inspection?.firmwareId && (
        <Form layout="vertical" onFinish={() => void submit()} aria-label="Tune file">
          <FormError message={form.formError} />
          <Field control={form.control} name="title" label="Title" required>
            {(field) => <Input {...field} />}
          </Field>
          <Field control={form.control} name="description" label="Description">
            {(field) => <Input.TextArea {...field} rows={3} />}
          </Field>
          <Field
            control={form.control}
            name="version"
            label="Version"
            required
            help="Your name for this version, e.g. 1.0"
          >
            {(field) => <Input {...field} />}
          </Field>
          <Field control={form.control} name="notes" label="Version notes">
            {(field) => <Input.TextArea {...field} rows={2} />}
          </Field>
          {failing && (
            <Form.Item>
              <Checkbox checked={fixChecksums} onChange={(event) => setFixChecksums(event.target.checked)}>
                Fix the failing checksums when saving (otherwise the upload is refused)
              </Checkbox>
            </Form.Item>
          )}
          {upload.percent !== null && (
            <Progress percent={upload.percent} size="small" status="active" aria-label="Save progress" />
          )}
          <Button type="primary" htmlType="submit" loading={create.mutation.isPending}>
            Save tune file
          </Button>
        </Form>
      )}
    </Flex>
  );
}
