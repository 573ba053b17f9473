/**
 * One file sent as multipart with a progress bar; the answer's SHA-256 (or
 * the refusal: 413 over the size limit, 422 naming the failing check) is shown
 * under it. Goes through useCustomMutation and the data provider's upload
 * progress, never fetch.
 */
import { UploadOutlined } from "@ant-design/icons";
import { type HttpError, useCustomMutation, useInvalidate } from "@refinedev/core";
import { Alert, Button, Flex, Progress, Typography } from "antd";
import { useRef, useState } from "react";
import { useUpload } from "./use-upload";

export function FileUpload({
  url,
  label,
  resource,
  id,
  onUploaded,
  testId,
}: {
  /** Under /api/v1, e.g. `apiRoutes.firmwareSupport.stockFile(id)`. */
  url: string;
  label: string;
  /** The record the file belongs to: invalidated after a successful upload so it and its list refresh. */
  resource: string;
  id: string;
  onUploaded?: (answer: Record<string, unknown>) => void;
  testId?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUpload();
  const [error, setError] = useState<HttpError | null>(null);
  const { mutate, mutation } = useCustomMutation();
  const invalidate = useInvalidate();

  const send = (file: File) => {
    const form = new FormData();
    form.append("file", file);
    upload.start();
    setError(null);
    mutate(
      {
        url,
        method: "post",
        values: form,
        meta: { onUploadProgress: upload.onUploadProgress },
        successNotification: { type: "success", message: `${label}: uploaded ${file.name}` },
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          upload.finish(true);
          void invalidate({ resource, id, invalidates: ["list", "detail"] });
          onUploaded?.(data as Record<string, unknown>);
        },
        onError: (failure) => {
          upload.finish();
          setError(failure);
        },
      },
    );
  };

  return (
    <Flex vertical gap={8} data-testid={testId}>
      <input
        ref={input}
        type="file"
        hidden
        aria-label={label}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) send(file);
        }}
      />
      <Button icon={<UploadOutlined />} onClick={() => input.current?.click()} loading={mutation.isPending}>
        {label}
      </Button>
      {upload.percent !== null && (
        <Progress
          percent={upload.percent}
          size="small"
          status={mutation.isPending ? "active" : "success"}
          aria-label={`${label} progress`}
        />
      )}
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          message={error.message}
          description={<Typography.Text>{(error as HttpError & { description?: string }).description}</Typography.Text>}
        />
      )}
    </Flex>
  );
}
