/**
 * Orders of one user, as buyer or as seller, for support: what was bought, from or by whom, for
 * how much and the platform's fee, its state, and for a paid licence the refund (the licence is
 * removed, the payment refunded and the dealer's sale and fee reversed; the customer is told the
 * reason). The list is the server's (`GET /payments/orders`), paged there.
 */
import { useCustom } from "@refinedev/core";
import { Alert, Segmented, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { OrderListItem, OrderStatus } from "../../../contracts/payments";
import { failureText } from "../../lib/http-errors";
import { formatMoney } from "../../lib/money";
import { LicenceRemoval } from "./licence-removal";

const PAGE_SIZE = 10;
const STATUS_COLORS: Record<OrderStatus, string> = {
  created: "default",
  failed: "orange",
  paid: "green",
  refunded: "cyan",
  expired: "default",
};

interface OrderPage {
  data: OrderListItem[];
  total: number;
}

export function OrdersTable({ uid }: { uid: string }) {
  const [side, setSide] = useState<"customerUid" | "dealerUid">("customerUid");
  const [page, setPage] = useState(1);
  const { query } = useCustom<OrderPage>({
    url: apiRoutes.payments.orders(),
    method: "get",
    config: { filters: [{ field: side, operator: "eq", value: uid }], query: { page, pageSize: PAGE_SIZE } },
  });
  const refresh = () => void query.refetch();
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      <Segmented
        aria-label="Orders as"
        value={side}
        onChange={(value) => {
          setSide(value as typeof side);
          setPage(1);
        }}
        options={[
          { value: "customerUid", label: "Bought" },
          { value: "dealerUid", label: "Sold" },
        ]}
      />
      {query.isError && (
        <Alert type="error" showIcon message="Could not load the orders" description={failureText(query.error)} />
      )}
      <Table
        rowKey="id"
        size="small"
        aria-label="Orders"
        scroll={{ x: true }}
        loading={query.isLoading}
        dataSource={query.data?.data.data ?? []}
        locale={{ emptyText: side === "customerUid" ? "Nothing bought yet" : "Nothing sold yet" }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: query.data?.data.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          { dataIndex: "createdAt", title: "Ordered", render: (at: string) => new Date(at).toLocaleString() },
          { dataIndex: "title", title: "Tune" },
          side === "customerUid"
            ? { dataIndex: "dealerName", title: "Dealer", render: (name: string | null) => name ?? "—" }
            : { dataIndex: "customerName", title: "Customer", render: (name: string | null) => name ?? "—" },
          {
            key: "amount",
            title: "Amount",
            align: "right",
            render: (_, order: OrderListItem) => formatMoney(order.amountCents, order.currency),
          },
          {
            key: "fee",
            title: "Platform fee",
            align: "right",
            render: (_, order: OrderListItem) => formatMoney(order.feeCents, order.currency),
          },
          {
            dataIndex: "status",
            title: "Status",
            render: (status: OrderStatus, order: OrderListItem) => (
              <Space direction="vertical" size={0}>
                <Tag color={STATUS_COLORS[status]}>{status}</Tag>
                {order.refundReason && <Typography.Text type="secondary">{order.refundReason}</Typography.Text>}
              </Space>
            ),
          },
          {
            key: "actions",
            title: "",
            render: (_, order: OrderListItem) =>
              order.status === "paid" && order.amountCents > 0 && order.vehicleId && order.tuneFileId ? (
                <LicenceRemoval
                  vehicleId={order.vehicleId}
                  tuneFileId={order.tuneFileId}
                  title={order.title}
                  paid
                  verb="Refund"
                  explanation={`${formatMoney(order.amountCents, order.currency)} goes back to ${order.customerName ?? "the customer"}, the licence is removed and the dealer's sale and fee are reversed. The customer is told the reason.`}
                  onDone={refresh}
                />
              ) : null,
          },
        ]}
      />
    </Space>
  );
}
