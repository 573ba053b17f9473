/**
 * The user's ledger: every money movement they are part of (a customer's payments and refunds,
 * a dealer's sales, platform fees and their reversals), newest first, with the balance per
 * currency and a CSV export for a spreadsheet.
 */
import { useCustom } from "@refinedev/core";
import { Alert, Flex, Space, Statistic, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { LedgerEntry, LedgerKind } from "../../../contracts/payments";
import { formatMoney } from "../../lib/money";
import { API_PREFIX } from "../../providers/data-provider";

const KIND_COLORS: Record<LedgerKind, string> = {
  payment: "blue",
  refund: "cyan",
  sale: "green",
  fee: "orange",
  "sale-reversal": "red",
  "fee-reversal": "gold",
  adjustment: "purple",
};
const PAGE_SIZE = 20;

interface LedgerPage {
  data: LedgerEntry[];
  total: number;
  balances: Array<{ currency: string; amountCents: number }>;
}

export function Transactions({ uid }: { uid: string }) {
  const [page, setPage] = useState(1);
  const { query } = useCustom<LedgerPage>({
    url: apiRoutes.users.transactions(uid),
    method: "get",
    config: { query: { page, pageSize: PAGE_SIZE } },
  });
  const ledger = query.data?.data;
  if (query.isError)
    return <Alert type="error" showIcon message="Could not load the transactions" description={query.error?.message} />;
  return (
    <Flex vertical gap={12}>
      <Space size="large" wrap>
        {(ledger?.balances ?? []).map((balance) => (
          <Statistic
            key={balance.currency}
            title={`Balance in ${balance.currency}`}
            value={formatMoney(balance.amountCents, balance.currency)}
          />
        ))}
        <Typography.Link href={`${API_PREFIX}/${apiRoutes.users.transactionsCsv(uid)}`} download>
          Export CSV
        </Typography.Link>
      </Space>
      <Table
        rowKey="id"
        aria-label="Transactions"
        loading={query.isLoading}
        dataSource={ledger?.data ?? []}
        locale={{ emptyText: "No money has moved yet" }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: ledger?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          { dataIndex: "createdAt", title: "Date", render: (at: string) => new Date(at).toLocaleString() },
          {
            dataIndex: "kind",
            title: "Kind",
            render: (kind: LedgerKind) => <Tag color={KIND_COLORS[kind]}>{kind}</Tag>,
          },
          { dataIndex: "description", title: "Description" },
          {
            key: "amount",
            title: "Amount",
            align: "right",
            render: (_, entry: LedgerEntry) => (
              <Typography.Text type={entry.amountCents < 0 ? "danger" : "success"}>
                {formatMoney(entry.amountCents, entry.currency)}
              </Typography.Text>
            ),
          },
        ]}
      />
    </Flex>
  );
}
