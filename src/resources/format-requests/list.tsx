/**
 * The admins' list of format requests: refused logs kept with their uploaders' consent, open ones
 * first, newest first. Each row has the file to download, the logger or tool named, the parser's
 * refusal and the uploader; Supported (the uploader is told and offered the upload again) or
 * Declined closes it and deletes the file.
 */
import { getDefaultFilter } from "@refinedev/antd";
import { useCustomMutation } from "@refinedev/core";
import { Button, Input, Modal, Segmented, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import {
  FORMAT_REQUEST_STATES,
  type FormatRequest,
  type FormatRequestClosing,
  type FormatRequestState,
} from "../../../contracts/format-requests";
import { PageFrame } from "../../components/page-frame";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { failureText } from "../../lib/http-errors";
import { API_PREFIX } from "../../providers/data-provider";

const STATE_COLORS: Record<FormatRequestState, string> = { open: "gold", supported: "green", declined: "default" };
const STATE_LABELS: Record<FormatRequestState, string> = {
  open: "Open",
  supported: "Supported",
  declined: "Declined",
};

type Closing = { request: FormatRequest; state: FormatRequestClosing["state"] };

/** Supported or Declined, with a note the uploader reads. */
function CloseDialog({ closing, onClosed }: { closing: Closing | null; onClosed: () => void }) {
  const [note, setNote] = useState("");
  const { mutate, mutation } = useCustomMutation<FormatRequest>();
  const close = () => {
    if (!closing) return;
    const body: FormatRequestClosing = { state: closing.state, ...(note.trim() && { note: note.trim() }) };
    mutate(
      {
        url: apiRoutes.formatRequests.close(closing.request.id),
        method: "post",
        values: body,
        successNotification: { type: "success", message: `Marked ${STATE_LABELS[closing.state].toLowerCase()}` },
        errorNotification: (error) => ({ type: "error", message: "Not changed", description: failureText(error) }),
      },
      {
        onSuccess: () => {
          setNote("");
          onClosed();
        },
      },
    );
  };
  return (
    <Modal
      title={closing ? `Mark ${closing.request.fileName} ${STATE_LABELS[closing.state].toLowerCase()}` : ""}
      open={closing !== null}
      okText={closing ? `Mark ${STATE_LABELS[closing.state].toLowerCase()}` : "OK"}
      okButtonProps={{ loading: mutation.isPending }}
      onOk={close}
      onCancel={() => {
        setNote("");
        onClosed();
      }}
    >
      <Space direction="vertical" style={{ width: "100%" }}>
        <Typography.Text>
          The uploader is told, and the kept file is deleted.
          {closing?.state === "supported" && " They are offered the upload again."}
        </Typography.Text>
        <Input.TextArea
          aria-label="Note to the uploader"
          placeholder="Note to the uploader"
          maxLength={1000}
          rows={3}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
      </Space>
    </Modal>
  );
}

export function FormatRequestsList() {
  const { tableProps, filters, setFilters, tableQuery } = useResourceTable<FormatRequest>(
    "format-requests",
    { field: "createdAt", order: "desc" },
    { filters: { initial: [{ field: "state", operator: "eq", value: "open" }] } },
  );
  const state = (getDefaultFilter("state", filters, "eq") as FormatRequestState | undefined) ?? "open";
  const [closing, setClosing] = useState<Closing | null>(null);
  return (
    <PageFrame title="Format requests" subtitle="Logs the portal refused for their format, kept with consent">
      <Segmented<FormatRequestState>
        aria-label="Show"
        value={state}
        options={FORMAT_REQUEST_STATES.map((value) => ({ value, label: STATE_LABELS[value] }))}
        onChange={(value) => setFilters([{ field: "state", operator: "eq", value }], "replace")}
      />
      <Table<FormatRequest>
        {...tableProps}
        rowKey="id"
        size="middle"
        aria-label="Format requests"
        columns={[
          { title: "Uploader", dataIndex: "ownerEmail" },
          { title: "Logger or tool", dataIndex: "tool" },
          {
            title: "File",
            render: (_: unknown, row) =>
              row.fileKept ? (
                <Typography.Link href={`${API_PREFIX}/${apiRoutes.formatRequests.file(row.id)}`} download>
                  {row.fileName}
                </Typography.Link>
              ) : (
                <Typography.Text type="secondary">{row.fileName} (deleted)</Typography.Text>
              ),
          },
          { title: "Refusal", dataIndex: "refusalMessage", ellipsis: { showTitle: true } },
          { title: "Note", dataIndex: "note", render: (note: string | null) => note ?? "" },
          {
            title: "Sent",
            dataIndex: "createdAt",
            sorter: true,
            render: (at: string) => new Date(at).toLocaleString(),
          },
          {
            title: "State",
            dataIndex: "state",
            render: (value: FormatRequestState) => <Tag color={STATE_COLORS[value]}>{STATE_LABELS[value]}</Tag>,
          },
          {
            title: "",
            render: (_: unknown, row) =>
              row.state === "open" && (
                <Space>
                  <Button size="small" onClick={() => setClosing({ request: row, state: "supported" })}>
                    Supported
                  </Button>
                  <Button size="small" onClick={() => setClosing({ request: row, state: "declined" })}>
                    Decline
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      <CloseDialog
        closing={closing}
        onClosed={() => {
          setClosing(null);
          void tableQuery.refetch();
        }}
      />
    </PageFrame>
  );
}
