/** Tuning requests as a table: reference, car, the other side, state, age since the customer last acted, unread messages, assignee, quote, due date (late marked). */
import { Badge, Space, Table, Typography } from "antd";
import type { TuningRequestSummary } from "../../../contracts/tuning-requests";
import { formatMoney } from "../../lib/money";
import { formatDueDay } from "../../lib/quote-due";
import { LateTag } from "./due-tag";
import { StateTag } from "./state-tag";

const age = (at: string) => {
  const hours = (Date.now() - new Date(at).getTime()) / 3_600_000;
  return hours < 1 ? "just now" : hours < 48 ? `${Math.floor(hours)} h` : `${Math.floor(hours / 24)} days`;
};

export function RequestTable({
  requests,
  side,
  loading,
  onOpen,
  pagination,
}: {
  requests: TuningRequestSummary[];
  side: "customer" | "dealer";
  loading: boolean;
  onOpen: (request: TuningRequestSummary) => void;
  pagination?: false | { current: number; pageSize: number; total: number; onChange: (page: number) => void };
}) {
  return (
    <Table
      rowKey="id"
      size="small"
      aria-label="Tuning requests"
      scroll={{ x: true }}
      loading={loading}
      dataSource={requests}
      pagination={pagination === undefined ? false : pagination}
      locale={{ emptyText: side === "dealer" ? "No request matches" : "No custom tune asked for this car yet" }}
      onRow={(request) => ({ onClick: () => onOpen(request), style: { cursor: "pointer" } })}
      columns={[
        {
          dataIndex: "reference",
          title: "Request",
          render: (reference: string, request: TuningRequestSummary) => (
            <Badge count={request.unread} size="small" offset={[8, 0]} title={`${request.unread} unread`}>
              <Typography.Link onClick={() => onOpen(request)}>{reference}</Typography.Link>
            </Badge>
          ),
        },
        { dataIndex: "vehicleName", title: "Car" },
        side === "dealer"
          ? { dataIndex: "customerName", title: "Customer" }
          : { dataIndex: "dealerName", title: "Dealer" },
        {
          dataIndex: "state",
          title: "State",
          render: (state: TuningRequestSummary["state"]) => <StateTag state={state} />,
        },
        { dataIndex: "lastCustomerActionAt", title: "Customer's last word", render: (at: string) => age(at) },
        { dataIndex: "assignee", title: "Assigned", render: (assignee: string | null) => assignee ?? "—" },
        {
          key: "quote",
          title: "Quote",
          render: (_, request: TuningRequestSummary) =>
            request.quote ? formatMoney(request.quote.priceCents, request.quote.currency) : "—",
        },
        {
          dataIndex: "dueAt",
          title: "Due",
          render: (dueAt: string | null, request: TuningRequestSummary) =>
            dueAt ? (
              <Space size={4} wrap={false}>
                {formatDueDay(dueAt)}
                <LateTag request={request} />
              </Space>
            ) : (
              "—"
            ),
        },
        { dataIndex: "revisions", title: "Revisions", align: "right" },
      ]}
    />
  );
}
