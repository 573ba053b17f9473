/**
 * A signed-in user asks us to support their vehicle: the fields of the
 * contract's schema (checked here as the server checks them) and, optionally,
 * a read of the ECU. With a read the request goes as multipart with upload
 * progress; without one, as JSON.
 */
import { UploadOutlined } from "@ant-design/icons";
import { type HttpError, useCreate } from "@refinedev/core";
import { Button, Form, Input, InputNumber, Progress, Upload } from "antd";
import { useState } from "react";
import { apiPaths } from "../../../contracts/api-paths";
import { type SupportRequest, supportRequestInputSchema } from "../../../contracts/firmware-support";
import { Field, FormError, useContractForm } from "../../components/resource/form";
import { TagsInput } from "../../components/resource/record-form";
import { useUpload } from "../../components/resource/use-upload";

export function SupportRequestForm({ onSaved }: { onSaved: (request: SupportRequest) => void }) {
  const form = useContractForm(supportRequestInputSchema, {
    vin: "",
    make: "",
    model: "",
    year: new Date().getFullYear(),
    ecuIds: [],
  });
  const [read, setRead] = useState<File | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const upload = useUpload();
  const { mutate, mutation } = useCreate<SupportRequest>();
  const { control } = form;

  const submit = form.handleSubmit((values) => {
    setReadError(null);
    if (read) upload.start();
    mutate(
      {
        resource: "support-requests",
        values: read ? { ...values, file: read } : values,
        meta: {
          apiPath: apiPaths["support-requests"].create,
          multipart: Boolean(read),
          onUploadProgress: upload.onUploadProgress,
        },
        successNotification: {
          type: "success",
          message: `Asked for your ${values.make} ${values.model}`,
          description: "We will tell you when an administrator looks at it.",
        },
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => onSaved(data),
        onError: (error: HttpError) => {
          // A read over the size limit is the file's fault, not the form's: say so beside the file.
          if (error.statusCode === 413)
            setReadError(
              `${read?.name}: ${(error as HttpError & { description?: string }).description ?? error.message}`,
            );
          else form.showServerError(error);
        },
        onSettled: () => upload.finish(),
      },
    );
  });

  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Ask for vehicle support">
      <FormError message={form.formError} />
      <Field
        control={control}
        name="vin"
        label="VIN"
        required
        help="17 letters and digits, on the windscreen or the registration document"
      >
        {(field) => <Input {...field} maxLength={17} style={{ textTransform: "uppercase" }} />}
      </Field>
      <Field control={control} name="make" label="Make" required>
        {(field) => <Input {...field} />}
      </Field>
      <Field control={control} name="model" label="Model" required>
        {(field) => <Input {...field} />}
      </Field>
      <Field control={control} name="year" label="Year" required>
        {(field) => <InputNumber {...field} style={{ width: "100%" }} />}
      </Field>
      <Field
        control={control}
        name="ecuIds"
        label="ECU ids"
        required
        help="The part or software numbers the app shows for your ECU; type one and press Enter"
      >
        {(field) => <TagsInput {...field} />}
      </Field>
      <Form.Item
        label="ECU read (optional)"
        htmlFor="support-request-read"
        validateStatus={readError ? "error" : undefined}
        help={readError ?? "A full read of the ECU, if you have one, helps us add it sooner"}
      >
        <Upload
          id="support-request-read"
          maxCount={1}
          fileList={read ? [{ uid: "read", name: read.name, size: read.size, status: "done" }] : []}
          beforeUpload={(file) => {
            setRead(file);
            setReadError(null);
            // Kept until the form is sent, with its fields.
            return false;
          }}
          onRemove={() => {
            setRead(null);
            setReadError(null);
          }}
        >
          <Button icon={<UploadOutlined />}>Choose a read file</Button>
        </Upload>
      </Form.Item>
      {upload.percent !== null && (
        <Progress percent={upload.percent} size="small" status="active" aria-label="Upload progress" />
      )}
      <Button type="primary" htmlType="submit" loading={mutation.isPending}>
        Send request
      </Button>
    </Form>
  );
}
