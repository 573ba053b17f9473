/**
 * One of the user's own requests: what they sent, where it stands, and each
 * change of status with the note the admin gave with it (what their
 * notification said). The admins' working notes are not part of this answer.
 */
import { useOne } from "@refinedev/core";
import { Descriptions, Flex, Skeleton, Timeline, Typography } from "antd";
import type { ReactNode } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { OwnSupportRequest } from "../../../contracts/firmware-support";
import { useRecordMissing } from "../../components/record-not-found";
import { SupportRequestStatusTag } from "../../components/support-request-status";

const when = (at: string) => new Date(at).toLocaleString();
const bytes = (size: number) => `${size.toLocaleString()} bytes`;

export function SupportRequestDetails({ id }: { id: string }) {
  const { query, result: request } = useOne<OwnSupportRequest>({
    resource: "support-requests",
    id,
    meta: { apiPath: apiRoutes.supportRequests.mine() },
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
          <Typography.Text code>{request.vin}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="ECU ids">{request.ecuIds.join(", ")}</Descriptions.Item>
        <Descriptions.Item label="Read file">
          {request.readFile ? bytes(request.readFile.size) : "none sent"}
        </Descriptions.Item>
        {request.firmwareId && (
          <Descriptions.Item label="Supported with firmware">{request.firmwareId}</Descriptions.Item>
        )}
      </Descriptions>
      <Typography.Title level={5} style={{ margin: 0 }}>
        What happened
      </Typography.Title>
      <Timeline
        items={[
          { children: <HistoryEntry at={request.createdAt} what="You asked for support" /> },
          ...request.history.map((change) => ({
            children: (
              <HistoryEntry
                at={change.at}
                what={
                  <>
                    Moved to <SupportRequestStatusTag status={change.status} />
                  </>
                }
                note={change.note}
              />
            ),
          })),
        ]}
      />
    </Flex>
  );
}

function HistoryEntry({ at, what, note }: { at: string; what: ReactNode; note?: string | null }) {
  return (
    <>
      <Typography.Text type="secondary">{when(at)}</Typography.Text>
      <div>{what}</div>
      {note && <Typography.Paragraph style={{ margin: 0 }}>{note}</Typography.Paragraph>}
    </>
  );
}
