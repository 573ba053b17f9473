/**
 * One tuning request as both sides work it: the car (identity and stock read), the customer's
 * questionnaire and logs (opening the log view), the revisions with their map changes, the
 * thread (every move, message, file and assignment with who and when), what the caller may do
 * and a message box with a file. The ticket follows its event stream, so it updates live, and is
 * marked read as it is shown.
 */
import { PaperClipOutlined } from "@ant-design/icons";
import { type HttpError, useCustom, useCustomMutation, useOne } from "@refinedev/core";
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  Input,
  Skeleton,
  Space,
  Tag,
  Timeline,
  Typography,
  Upload,
} from "antd";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { apiRoutes } from "../../../contracts/api-paths";
import type { DataLogSummary } from "../../../contracts/data-logs";
import { FINAL_STATES } from "../../../contracts/tuning-request-states";
import { TUNING_REQUEST_EVENT, type TuningRequest, type TuningRequestEvent } from "../../../contracts/tuning-requests";
import { failureText } from "../../lib/http-errors";
import { formatMoney } from "../../lib/money";
import { API_PREFIX } from "../../providers/data-provider";
import { useSession } from "../../providers/session-context";
import { openSessionStream } from "../../providers/session-stream";
import { useRecordMissing } from "../record-not-found";
import { DueTag } from "./due-tag";
import { MapChanges } from "./revision-changes";
import { STATE_LABELS, StateTag } from "./state-tag";
import { TicketActions } from "./ticket-actions";

const when = (at: string) => new Date(at).toLocaleString();
const fileUrl = (ticket: TuningRequest, fileId: string) =>
  `${API_PREFIX}/${apiRoutes.tuningRequests.file(ticket.id, fileId)}`;

function LogLink({ id }: { id: string }) {
  const { result } = useOne<DataLogSummary>({ resource: "data-logs", id, queryOptions: { retry: false } });
  return <Link to={`/tuning-tools/data-logs/${id}`}>{result?.title ?? `Log ${id.slice(0, 8)}`}</Link>;
}

function ThreadEntry({ ticket, event }: { ticket: TuningRequest; event: TuningRequestEvent }) {
  const who =
    event.actor === "system"
      ? "The portal"
      : event.actor === "customer"
        ? (ticket.customerName ?? "The customer")
        : event.actor === "admin"
          ? "Support"
          : (ticket.dealerName ?? "The dealer");
  const what =
    event.kind === "submitted"
      ? "asked for a custom tune"
      : event.kind === "transition"
        ? `moved it to ${event.to ? STATE_LABELS[event.to] : "?"}`
        : event.kind === "revision"
          ? "sent a revision"
          : event.kind === "assignment"
            ? "changed the assignment"
            : "wrote";
  const files = ticket.files.filter((file) => event.fileIds.includes(file.id));
  return (
    <Flex vertical gap={2} data-testid="thread-entry">
      <Typography.Text>
        <Typography.Text strong>{who}</Typography.Text> {what}{" "}
        <Typography.Text type="secondary">· {when(event.at)}</Typography.Text>
      </Typography.Text>
      {event.text && (
        <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginBottom: 0 }}>{event.text}</Typography.Paragraph>
      )}
      {files.length > 0 && (
        <Space wrap>
          {files.map((file) => (
            <Typography.Link key={file.id} href={fileUrl(ticket, file.id)} download>
              <PaperClipOutlined /> {file.name}
            </Typography.Link>
          ))}
        </Space>
      )}
      {event.logIds.length > 0 && (
        <Space wrap>
          {event.logIds.map((id) => (
            <LogLink key={id} id={id} />
          ))}
        </Space>
      )}
    </Flex>
  );
}

function MessageBox({ ticket, onChanged }: { ticket: TuningRequest; onChanged: (ticket: TuningRequest) => void }) {
  const [text, setText] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { mutate, mutation } = useCustomMutation<TuningRequest>();
  const send = () => {
    setError(null);
    const done = {
      onSuccess: ({ data }: { data: TuningRequest }) => {
        setText("");
        setFile(null);
        onChanged(data);
      },
      onError: (failure: HttpError) => setError(failureText(failure)),
    };
    if (file) {
      const data = new FormData();
      data.append("text", text);
      data.append("file", file);
      mutate(
        {
          url: apiRoutes.tuningRequests.files(ticket.id),
          method: "post",
          values: data,
          successNotification: false,
          errorNotification: false,
        },
        done,
      );
    } else
      mutate(
        {
          url: apiRoutes.tuningRequests.record(ticket.id),
          method: "patch",
          values: { action: "message", text },
          successNotification: false,
          errorNotification: false,
        },
        done,
      );
  };
  return (
    <Flex vertical gap={8}>
      <Input.TextArea
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={3}
        maxLength={4000}
        placeholder="Write to the other side"
        aria-label="Message"
      />
      <Space wrap>
        <Button type="primary" onClick={send} loading={mutation.isPending} disabled={!text.trim() && !file}>
          Send
        </Button>
        <Upload
          beforeUpload={(chosen) => {
            setFile(chosen);
            return false;
          }}
          showUploadList={false}
        >
          <Button icon={<PaperClipOutlined />}>{file ? file.name : "Attach a file"}</Button>
        </Upload>
        {file && (
          <Button type="link" onClick={() => setFile(null)}>
            Remove the file
          </Button>
        )}
      </Space>
      {error && <Alert type="error" showIcon message="The message was not sent" description={error} />}
    </Flex>
  );
}

export function TuningRequestTicket({ id, side }: { id: string; side: "customer" | "dealer" }) {
  const session = useSession();
  const { query } = useCustom<TuningRequest>({
    url: apiRoutes.tuningRequests.record(id),
    method: "get",
    errorNotification: false,
  });
  const [live, setLive] = useState<TuningRequest | null>(null);
  const read = useCustomMutation();
  const ticket = live ?? query.data?.data ?? null;

  useEffect(() => {
    setLive(null);
    return openSessionStream(session, apiRoutes.tuningRequests.listen(id), {
      [TUNING_REQUEST_EVENT]: (data) => setLive(JSON.parse(data) as TuningRequest),
    });
  }, [id, session]);
  // Shown is read: the other side's new messages stop counting as unread.
  const unread = ticket?.unread ?? 0;
  useEffect(() => {
    if (unread > 0)
      read.mutate({
        url: apiRoutes.tuningRequests.record(id),
        method: "patch",
        values: { action: "read" },
        successNotification: false,
        errorNotification: false,
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the count changes
  }, [id, unread]);

  // In the dealer's queue the address names the request; on the car's page a stale ?request= only fails here.
  const missing = useRecordMissing(query.error, side === "dealer");
  if (missing) return null;
  if (query.isLoading && !ticket) return <Skeleton active />;
  if (!ticket)
    return <Alert type="error" showIcon message="Could not load the request" description={failureText(query.error)} />;
  const stock = ticket.files.find((file) => file.kind === "stock-read");
  const q = ticket.questionnaire;
  return (
    <Flex vertical gap={16} data-testid="tuning-request">
      <Space wrap align="center">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {ticket.reference}
        </Typography.Title>
        <StateTag state={ticket.state} />
        {ticket.assignee && <Tag>worked by {ticket.assignee}</Tag>}
        {ticket.quote && (
          <Tag color="blue">{`${formatMoney(ticket.quote.priceCents, ticket.quote.currency)} · ${ticket.quote.expectedDays} days`}</Tag>
        )}
        {!FINAL_STATES.includes(ticket.state) && <DueTag request={ticket} />}
      </Space>
      {ticket.closedReason && (
        <Alert type="info" showIcon message={`${STATE_LABELS[ticket.state]}: ${ticket.closedReason}`} />
      )}
      {ticket.autoAcceptAt && (
        <Alert
          type="info"
          showIcon
          message={`Revision ${ticket.revisions} is accepted on ${new Date(ticket.autoAcceptAt).toLocaleDateString()} unless the customer asks for another.`}
        />
      )}
      <Card size="small" title="The car">
        <Descriptions size="small" column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label="Car">
            {ticket.vehicleId ? (
              <Link
                to={side === "customer" ? `/my-devices/${ticket.vehicleId}` : `/managed-devices/${ticket.vehicleId}`}
              >
                {ticket.vehicleName}
              </Link>
            ) : (
              ticket.vehicleName
            )}
          </Descriptions.Item>
          <Descriptions.Item label="VIN">{ticket.vehicle.vin ?? "—"}</Descriptions.Item>
          <Descriptions.Item label="Software">{ticket.vehicle.softwareId ?? ticket.firmwareId}</Descriptions.Item>
          <Descriptions.Item label="ECU serial">{ticket.vehicle.ecuSerial ?? "—"}</Descriptions.Item>
          <Descriptions.Item label="Stock read">
            {stock ? (
              <Typography.Link href={fileUrl(ticket, stock.id)} download>
                {`${(ticket.vehicle.stockSize / 1024).toFixed(0)} KiB · ${ticket.vehicle.stockSha256.slice(0, 12)}…`}
              </Typography.Link>
            ) : (
              "—"
            )}
          </Descriptions.Item>
          <Descriptions.Item label={side === "customer" ? "Dealer" : "Customer"}>
            {side === "customer" ? ticket.dealerName : ticket.customerName}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card size="small" title="What the customer asked for">
        <Descriptions size="small" column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label="Fuel">{q.fuel}</Descriptions.Item>
          <Descriptions.Item label="Transmission">{q.transmission}</Descriptions.Item>
          <Descriptions.Item label="Intake">{q.intake || "stock"}</Descriptions.Item>
          <Descriptions.Item label="Exhaust">{q.exhaust || "stock"}</Descriptions.Item>
          <Descriptions.Item label="Turbo">{q.turbo || "stock"}</Descriptions.Item>
          <Descriptions.Item label="Intercooler">{q.intercooler || "stock"}</Descriptions.Item>
          <Descriptions.Item label="Target power">{q.targetPowerHp ? `${q.targetPowerHp} hp` : "—"}</Descriptions.Item>
          <Descriptions.Item label="Logs">
            {ticket.logIds.length ? (
              <Space wrap>
                {ticket.logIds.map((logId) => (
                  <LogLink key={logId} id={logId} />
                ))}
              </Space>
            ) : (
              "none"
            )}
          </Descriptions.Item>
        </Descriptions>
        {q.notes && (
          <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginTop: 8, marginBottom: 0 }}>
            {q.notes}
          </Typography.Paragraph>
        )}
      </Card>
      <Card size="small" title="Revisions">
        {ticket.revisionList.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No revision delivered yet" />
        ) : (
          <Flex vertical gap={16}>
            {[...ticket.revisionList].reverse().map((revision) => (
              <Flex key={revision.number} vertical gap={8} data-testid="revision">
                <Space wrap>
                  <Typography.Text strong>Revision {revision.number}</Typography.Text>
                  <Typography.Text type="secondary">{when(revision.deliveredAt)}</Typography.Text>
                  {side === "customer" && ticket.vehicleId && revision.number === ticket.revisions && (
                    <Link to={`/my-devices/${ticket.vehicleId}`}>Flash it from the car's page</Link>
                  )}
                  {side === "dealer" && (
                    <Typography.Link href={fileUrl(ticket, revision.fileId)} download>
                      Download
                    </Typography.Link>
                  )}
                </Space>
                {revision.note && (
                  // A correction's note lists what changed and why, one line each.
                  <Typography.Text style={{ whiteSpace: "pre-wrap" }}>{revision.note}</Typography.Text>
                )}
                <MapChanges changes={revision.changesFromStock} label={`Revision ${revision.number} against stock`} />
                {revision.number > 1 && (
                  <MapChanges
                    changes={revision.changesFromPrevious}
                    label={`Revision ${revision.number} against revision ${revision.number - 1}`}
                  />
                )}
              </Flex>
            ))}
          </Flex>
        )}
      </Card>
      <Card size="small" title="What you can do">
        <TicketActions ticket={ticket} side={side} onChanged={setLive} />
      </Card>
      <Card size="small" title="Thread">
        <Timeline
          items={ticket.events.map((event) => ({
            key: event.id,
            children: <ThreadEntry ticket={ticket} event={event} />,
          }))}
        />
        <MessageBox ticket={ticket} onChanged={setLive} />
      </Card>
    </Flex>
  );
}
