/**
 * The admin's review of a dealer's profile change request: current and requested values side by
 * side, the documents to open, and Approve or Reject with a note (required to reject), each
 * confirmed. Renders nothing for a user without a dealer profile, so it can sit on any user page.
 */
import { type HttpError, useCustom, useCustomMutation } from "@refinedev/core";
import { Alert, Button, Card, Flex, Input, Popconfirm, Skeleton, Space, Table, Typography } from "antd";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import {
  BUSINESS_IDENTITY_FIELDS,
  BUSINESS_IDENTITY_LABELS,
  type ProfileChangeDecision,
  type ProfileChangeRequest,
  type ProfileChangeStatus,
} from "../../../contracts/profile-change-requests";
import { failureText } from "../../lib/http-errors";
import { dealerLogoUrl, RequestFiles, requestFileUrl, shown } from "./parts";

const when = (at: string) => new Date(at).toLocaleString();

interface Row {
  field: string;
  label: string;
  current: React.ReactNode;
  requested: React.ReactNode;
  changes: boolean;
}

function comparison(status: ProfileChangeStatus, open: ProfileChangeRequest): Row[] {
  const { identity } = status;
  const rows: Row[] = BUSINESS_IDENTITY_FIELDS.map((field) => ({
    field,
    label: BUSINESS_IDENTITY_LABELS[field],
    current: shown(identity[field]),
    requested:
      field in open.changes ? (
        shown(open.changes[field])
      ) : (
        <Typography.Text type="secondary">unchanged</Typography.Text>
      ),
    changes: field in open.changes,
  }));
  rows.push({
    field: "logo",
    label: BUSINESS_IDENTITY_LABELS.logo,
    current: identity.logoSha256 ? (
      <img src={dealerLogoUrl(identity.dealerId, identity.logoSha256)} alt="Current logo" style={{ maxHeight: 48 }} />
    ) : (
      "—"
    ),
    requested: open.logo ? (
      <img src={requestFileUrl(open, open.logo)} alt="Requested logo" style={{ maxHeight: 48 }} />
    ) : (
      <Typography.Text type="secondary">unchanged</Typography.Text>
    ),
    changes: open.logo !== null,
  });
  return rows;
}

export function ProfileChangeReview({ uid, onDecided }: { uid: string; onDecided?: () => void }) {
  const { query } = useCustom<ProfileChangeStatus>({
    url: apiRoutes.users.profileChangeRequest(uid),
    method: "get",
    errorNotification: false,
    queryOptions: { retry: false },
  });
  const { mutate, mutation } = useCustomMutation<ProfileChangeStatus>();
  const [note, setNote] = useState("");
  const [noteError, setNoteError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const status = query.data?.data;
  if ((query.error as HttpError | null)?.statusCode === 404) return null;
  if (query.isLoading) return <Skeleton active />;
  if (!status)
    return (
      <Alert
        type="error"
        showIcon
        message="Could not load the profile change request"
        description={failureText(query.error)}
      />
    );
  const { open, lastDecided } = status;

  const decide = (decision: ProfileChangeDecision["decision"]) => {
    if (!open) return;
    if (decision === "reject" && note.trim().length < 3) {
      setNoteError("Say why it is rejected: the dealer is told");
      return;
    }
    const body: ProfileChangeDecision = {
      decision,
      submittedAt: open.submittedAt,
      ...(note.trim() && { note: note.trim() }),
    };
    mutate(
      {
        url: apiRoutes.users.profileChangeDecision(uid),
        method: "post",
        values: body,
        successNotification: {
          type: "success",
          message: decision === "approve" ? "Change approved" : "Change rejected",
        },
        errorNotification: false,
      },
      {
        onSuccess: () => {
          setNote("");
          setFailure(null);
          void query.refetch();
          onDecided?.();
        },
        onError: (error: HttpError) => {
          setFailure(failureText(error));
          // Replaced by the dealer meanwhile: show what is there now.
          if (error.statusCode === 409) void query.refetch();
        },
      },
    );
  };

  return (
    <Card size="small" title="Business identity change">
      {!open && (
        <Typography.Paragraph style={{ margin: 0 }}>
          No open request.
          {lastDecided &&
            ` The last one (${when(lastDecided.submittedAt)}) was ${lastDecided.state}${lastDecided.decisionNote ? `: ${lastDecided.decisionNote}` : ""}.`}
        </Typography.Paragraph>
      )}
      {open && (
        <Flex vertical gap={12}>
          <Typography.Text type="secondary">Sent {when(open.submittedAt)}</Typography.Text>
          <Table<Row>
            size="small"
            pagination={false}
            rowKey="field"
            dataSource={comparison(status, open)}
            columns={[
              { title: "Field", dataIndex: "label" },
              { title: "Current", dataIndex: "current" },
              {
                title: "Requested",
                dataIndex: "requested",
                render: (value: React.ReactNode, row) =>
                  row.changes ? <Typography.Text strong>{value}</Typography.Text> : value,
              },
            ]}
          />
          {open.comment && <Typography.Text>Dealer's note: {open.comment}</Typography.Text>}
          <div>
            <Typography.Text strong>Documents</Typography.Text>
            <div>
              <RequestFiles request={open} />
            </div>
          </div>
          <Input.TextArea
            aria-label="Decision note"
            placeholder="Note to the dealer (required to reject)"
            value={note}
            status={noteError ? "error" : undefined}
            onChange={(event) => {
              setNote(event.target.value);
              setNoteError(null);
            }}
            rows={2}
            maxLength={1000}
          />
          {noteError && <Typography.Text type="danger">{noteError}</Typography.Text>}
          {failure && <Alert type="error" showIcon message="The decision was not recorded" description={failure} />}
          <Space>
            <Popconfirm
              title={`Approve the change for ${status.identity.businessName}?`}
              description="The dealer profile takes the requested values at once; the dealer is told."
              okText="Approve"
              onConfirm={() => decide("approve")}
            >
              <Button type="primary" loading={mutation.isPending}>
                Approve
              </Button>
            </Popconfirm>
            <Popconfirm
              title={`Reject the change for ${status.identity.businessName}?`}
              description="The profile stays as it is; the dealer is told your note."
              okText="Reject"
              okButtonProps={{ danger: true }}
              onConfirm={() => decide("reject")}
            >
              <Button danger loading={mutation.isPending}>
                Reject
              </Button>
            </Popconfirm>
          </Space>
        </Flex>
      )}
    </Card>
  );
}
