/**
 * After a log is refused for its format: the refusal and why, and "Ask for this format to be
 * supported", which sends the same file again as a format request only once the uploader has
 * named the logger or tool and ticked the consent to it being kept. Below, the uploader's own
 * requests and where each stands.
 */
import { useCreate, useGetIdentity, useList } from "@refinedev/core";
import { Alert, Button, Checkbox, Flex, Form, Input, List, Modal, Tag, Typography } from "antd";
import { useState } from "react";
import {
  FORMAT_REFUSAL_CODES,
  FORMAT_REQUEST_CONSENT,
  type FormatRequest,
  type FormatRequestState,
} from "../../../contracts/format-requests";
import { failureText } from "../../lib/http-errors";

export interface FormatRefusal {
  file: File;
  message: string;
}

/** The refusal to offer a format request for: a 422 whose code means the format is not read. */
export function formatRefusalOf(file: File, error: unknown): FormatRefusal | null {
  const failure = error as { statusCode?: number; data?: { code?: unknown } } | null;
  const code = failure?.data?.code;
  if (failure?.statusCode !== 422 || typeof code !== "string") return null;
  if (!(FORMAT_REFUSAL_CODES as readonly string[]).includes(code)) return null;
  return { file, message: failureText(error) };
}

interface RequestValues {
  tool: string;
  note?: string;
  consent: boolean;
}

/** The refusal, and the request for its format behind the uploader's consent. */
export function FormatRefused({ refusal, onDone }: { refusal: FormatRefusal; onDone: () => void }) {
  const [asking, setAsking] = useState(false);
  const [sent, setSent] = useState(false);
  const { mutateAsync, mutation } = useCreate<FormatRequest>();
  const [form] = Form.useForm<RequestValues>();

  const submit = async ({ tool, note }: RequestValues) => {
    try {
      await mutateAsync({
        resource: "format-requests",
        values: { file: refusal.file, tool, note, consent: "true" },
        meta: { multipart: true },
        successNotification: () => ({ type: "success", message: "Format request sent", description: tool }),
        errorNotification: (error) => ({ type: "error", message: "Not sent", description: failureText(error) }),
      });
      setAsking(false);
      setSent(true);
    } catch {
      // The error notification has shown the server's reason.
    }
  };

  return (
    <Alert
      type={sent ? "success" : "warning"}
      showIcon
      closable
      onClose={onDone}
      message={sent ? `${refusal.file.name} was sent to the administrators` : `${refusal.file.name} was not read`}
      description={
        <Flex vertical gap={8} align="flex-start">
          <Typography.Text>{refusal.message}</Typography.Text>
          {sent ? (
            <Typography.Text>You will be told here when the format is read; then upload it again.</Typography.Text>
          ) : (
            <Button onClick={() => setAsking(true)}>Ask for this format to be supported</Button>
          )}
          <Modal
            title="Ask for this format to be supported"
            open={asking}
            okText="Send the file"
            onOk={() => form.submit()}
            okButtonProps={{ loading: mutation.isPending }}
            onCancel={() => setAsking(false)}
            destroyOnHidden
          >
            <Form form={form} layout="vertical" onFinish={(values) => void submit(values)} preserve={false}>
              <Form.Item
                name="tool"
                label="Which logger or tool wrote it?"
                rules={[{ required: true, whitespace: true, message: "Name the logger or tool that wrote the file" }]}
              >
                <Input maxLength={200} placeholder="For instance AEM Infinity (AEMdata)" />
              </Form.Item>
              <Form.Item name="note" label="Anything else the administrators should know">
                <Input.TextArea maxLength={2000} rows={3} />
              </Form.Item>
              <Form.Item
                name="consent"
                valuePropName="checked"
                rules={[
                  {
                    validator: (_, value) =>
                      value ? Promise.resolve() : Promise.reject(new Error("Nothing is kept without your consent")),
                  },
                ]}
              >
                <Checkbox>{FORMAT_REQUEST_CONSENT}</Checkbox>
              </Form.Item>
            </Form>
          </Modal>
        </Flex>
      }
    />
  );
}

const STATE_TAGS: Record<FormatRequestState, { color: string; label: string }> = {
  open: { color: "gold", label: "Waiting" },
  supported: { color: "green", label: "Supported: upload it again" },
  declined: { color: "default", label: "Declined" },
};

/** The uploader's own format requests and their state; nothing when they have none. */
export function OwnFormatRequests() {
  const uid = useGetIdentity<{ uid: string }>().data?.uid;
  const { result } = useList<FormatRequest>({
    resource: "format-requests",
    filters: uid ? [{ field: "ownerUid", operator: "eq", value: uid }] : [],
    sorters: [{ field: "createdAt", order: "desc" }],
    pagination: { pageSize: 20 },
    queryOptions: { enabled: uid !== undefined },
  });
  const requests = result?.data ?? [];
  if (requests.length === 0) return null;
  return (
    <section aria-label="Your format requests">
      <List<FormatRequest>
        size="small"
        bordered
        header={<Typography.Text strong>Your format requests</Typography.Text>}
        dataSource={requests}
        renderItem={(request) => (
          <List.Item>
            <Flex gap={8} wrap align="center">
              <Typography.Text>{request.fileName}</Typography.Text>
              <Typography.Text type="secondary">{request.tool}</Typography.Text>
              <Tag color={STATE_TAGS[request.state].color}>{STATE_TAGS[request.state].label}</Tag>
              {request.closingNote && <Typography.Text type="secondary">{request.closingNote}</Typography.Text>}
            </Flex>
          </List.Item>
        )}
      />
    </section>
  );
}
