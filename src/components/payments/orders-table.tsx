/**
 * Orders of one user, as buyer or as seller, for support: what was bought, from or by whom, for
 * how much and the platform's fee, its state, and for a paid licence the refund (the licence is
 * removed, the payment refunded and the dealer's sale and fee reversed; the customer is told the
 * reason). The list is the server's (`GET /payments/orders`), paged there.
 */
import { type HttpError, useCustom, useCustomMutation } from "@refinedev/core";
import { Alert, Button, Segmented, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { OrderListItem, OrderStatus } from "../../../contracts/payments";
import { failureText, fieldMessage } from "../../lib/http-errors";
import { formatMoney } from "../../lib/money";
import { ReasonDialog } from "../dialogs/reason-dialog";

const PAGE_SIZE = 10;
const STATUS_COLORS: Record<OrderStatus, string> = { created: "default", failed: "orange", paid: "green", refunded: "cyan", expired: "default" };

interface OrderPage {
  data: OrderListItem[];
  total: number;
}

function Refund({ order, onDone }: { order: OrderListItem; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { mutate, mutation } = useCustomMutation();
  if (!order.vehicleId || !order.tuneFileId) return null;
  const submit = (reason: string) =>
    mutate(
      {
        url: apiRoutes.vehicles.purchases(order.vehicleId!),
        method: "post",
        values: { tuneFileId: order.tuneFileId, reason },
        successNotification: { type: "success", message: `${order.title}: refunded and licence removed` },
        errorNotification: false,
      },
      {
        onSuccess: () => {
          setOpen(false);
          onDone();
        },
        onError: (failure: HttpError) => setError(fieldMessage(failure, "reason") ?? failureText(failure)),
      },
    );
  return (
    <>
      <Button size="small" danger onClick={() => setOpen(true)}>
        Refund
      </Button>
      {open && (
        <ReasonDialog
          title={`Refund ${order.title}`}
          okText="Refund and remove"
          explanation={`${formatMoney(order.amountCents, order.currency)} goes back to ${order.customerName ?? "the customer"}, the licence is removed and the dealer's sale and fee are reversed. The customer is told the reason.`}
          required="give a reason: the customer is told it"
          sending={mutation.isPending}
          error={error}
          onSubmit={submit}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
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
      {query.isError && <Alert type="error" showIcon message="Could not load the orders" description={failureText(query.error)} />}
      <Table
        rowKey="id"
        size="small"
        aria-label="Orders"
        scroll={{ x: true }}
        loading={query.isLoading}
        dataSource={query.data?.data.data ?? []}
        locale={{ emptyText: side === "customerUid" ? "Nothing bought yet" : "Nothing sold yet" }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: query.data?.data.total ?? 0, onChange: setPage, showSizeChanger: false }}
        columns={[
          { dataIndex: "createdAt", title: "Ordered", render: (at: string) => new Date(at).toLocaleString() },
          { dataIndex: "title", title: "Tune" },
          side === "customerUid"
            ? { dataIndex: "dealerName", title: "Dealer", render: (name: string | null) => name ?? "—" }
            : { dataIndex: "customerName", title: "Customer", render: (name: string | null) => name ?? "—" },
          { key: "amount", title: "Amount", align: "right", render: (_, order: OrderListItem) => formatMoney(order.amountCents, order.currency) },
          { key: "fee", title: "Platform fee", align: "right", render: (_, order: OrderListItem) => formatMoney(order.feeCents, order.currency) },
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
          { key: "actions", title: "", render: (_, order: OrderListItem) => (order.status === "paid" && order.amountCents > 0 ? <Refund order={order} onDone={refresh} /> : null) },
        ]}
      />
    </Space>
  );
}
