/**
 * One support request: what the user sent, the notes so far, and the next
 * step (investigating, supported with the firmware it maps to, or rejected).
 */
import { DownloadOutlined } from "@ant-design/icons";
import { type HttpError, useApiUrl, useOne, useUpdate } from "@refinedev/core";
import { Button, Descriptions, Flex, Form, Input, Select, Skeleton, Timeline, Typography } from "antd";
import { apiPaths } from "../../../contracts/api-paths";
import {
  type SupportRequest,
  type SupportRequestStatus,
  supportRequestUpdateSchema,
} from "../../../contracts/firmware-support";
import { useRecordMissing } from "../../components/record-not-found";
import { Field, FormError, useContractForm } from "../../components/resource/form";
import { SupportRequestStatusTag } from "../../components/support-request-status";

const next: Record<SupportRequestStatus, SupportRequestStatus[]> = {
  new: ["investigating", "supported", "rejected"],
  investigating: ["supported", "rejected"],
  supported: [],
  rejected: [],
};

function WorkForm({ request }: { request: SupportRequest }) {
  const form = useContractForm(supportRequestUpdateSchema, {});
  const { mutate, mutation } = useUpdate();
  const status = form.watch("status");
  const submit = form.handleSubmit((values) =>
    mutate(
      {
        resource: "support-requests",
        id: request.id,
        values,
        meta: { apiPath: apiPaths["support-requests"].record },
        successNotification: { type: "success", message: "Request updated" },
        errorNotification: false,
      },
      { onSuccess: () => form.reset({}), onError: (error: HttpError) => form.showServerError(error) },
    ),
  );
  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Work the request">
      <FormError message={form.formError} />
      {next[request.status].length > 0 && (
        <Field control={form.control} name="status" label="Move to">
          {(field) => (
            <Select
              {...field}
              allowClear
              placeholder={`Stays ${request.status}`}
              options={next[request.status].map((s) => ({ value: s, label: s }))}
            />
          )}
        </Field>
      )}
      {status === "supported" && (
        <Field control={form.control} name="firmwareId" label="Supported by firmware" required>
          {(field) => <Input {...field} value={field.value ?? ""} />}
        </Field>
      )}
      <Field
        control={form.control}
        name="note"
        label="Note"
        help={status ? "Sent to the requester with the new status" : "Without a change of status, seen by admins only"}
      >
        {(field) => <Input.TextArea {...field} value={field.value ?? ""} rows={3} />}
      </Field>
      <Button type="primary" htmlType="submit" loading={mutation.isPending}>
        Save
      </Button>
    </Form>
  );
}

export function AdminSupportRequestShow({ id }: { id: string }) {
  const apiUrl = useApiUrl();
  const { query, result: request } = useOne<SupportRequest>({
    resource: "support-requests",
    id,
    meta: { apiPath: apiPaths["support-requests"].record },
  });
  const missing = useRecordMissing(query.error);
  if (missing) return null;
  if (query.isLoading || !request) return <Skeleton active />;
  return (
    <Flex vertical gap={16}>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="Status">
          <SupportRequestStatusTag status={request.status} />
        </Descriptions.Item>
        <Descriptions.Item label="Vehicle">{`${request.make} ${request.model} (${request.year})`}</Descriptions.Item>
        <Descriptions.Item label="VIN">
          <Typography.Text code copyable>
            {request.vin}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="ECU ids">{request.ecuIds.join(", ")}</Descriptions.Item>
        <Descriptions.Item label="Asked by">{request.requesterEmail ?? request.requesterUid}</Descriptions.Item>
        <Descriptions.Item label="Asked">{new Date(request.createdAt).toLocaleString()}</Descriptions.Item>
        {request.firmwareId && <Descriptions.Item label="Firmware">{request.firmwareId}</Descriptions.Item>}
        <Descriptions.Item label="Read file">
          {request.readFile ? (
            <Button
              size="small"
              icon={<DownloadOutlined />}
              href={`${apiUrl}/user-vehicles/support-request/${request.id}/read-file`}
            >
              {request.readFile.size.toLocaleString()} bytes
            </Button>
          ) : (
            "none"
          )}
        </Descriptions.Item>
      </Descriptions>
      {request.notes.length > 0 && (
        <Timeline
          items={request.notes.map((note) => ({
            children: (
              <>
                <Typography.Text type="secondary">{`${new Date(note.at).toLocaleString()} · ${note.by}`}</Typography.Text>
                <div>{note.text}</div>
              </>
            ),
          }))}
        />
      )}
      <WorkForm key={request.updatedAt} request={request} />
    </Flex>
  );
}
