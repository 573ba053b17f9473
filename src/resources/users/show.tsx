/**
 * One user for support: the account (identity, role, status, dealer profile), then the user's
 * money — orders bought and sold with refunds, the ledger with its balances — and the private
 * collections they reach. An id that names no user shows the 404 page.
 */
import { type HttpError, useCustom } from "@refinedev/core";
import { Card, Descriptions, Flex, Skeleton, Space, Tag } from "antd";
import { useState } from "react";
import { useParams } from "react-router";
import { BalanceAdjustment } from "./balance-adjustment";
import type { Account } from "../../../contracts/account";
import { apiRoutes } from "../../../contracts/api-paths";
import { ErrorPage } from "../../components/error-page";
import { PageFrame } from "../../components/page-frame";
import { ProfileChangeReview } from "../../components/profile-change-requests/review";
import { OrdersTable } from "../../components/payments/orders-table";
import { failureText } from "../../lib/http-errors";
import { RepositoryAccessList } from "../my-tunes/repositories";
import { Transactions } from "../my-tunes/transactions";

const ROLE_COLORS = { customer: "default", dealer: "blue", admin: "purple" } as const;
const when = (value: string | null) => (value ? new Date(value).toLocaleString() : "—");

export function UsersShow() {
  const { userId = "" } = useParams();
  // A new adjustment makes the ledger read again.
  const [ledgerVersion, setLedgerVersion] = useState(0);
  const { query } = useCustom<Account>({ url: apiRoutes.users.record(userId), method: "get", errorNotification: false });
  const account = query.data?.data;
  const failure = query.error as (HttpError & { description?: string }) | null;
  if (failure?.statusCode === 404) return <ErrorPage error={{ statusCode: 404, message: "Page Not Found", description: `No user has the id ${userId}.` }} />;
  const name = account?.displayName ?? account?.email ?? userId;
  return (
    <PageFrame title={query.isLoading ? "User" : name} subtitle={account?.email ?? undefined}>
      {failure && <ErrorPage error={{ statusCode: failure.statusCode ?? 500, message: "Could not load the user", description: failureText(failure) }} />}
      {query.isLoading && <Skeleton active />}
      {account && (
        <Flex vertical gap={16}>
          <Card size="small" title="Account">
            <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered>
              <Descriptions.Item label="Name">{account.displayName ?? "—"}</Descriptions.Item>
              <Descriptions.Item label="Email">
                <Space wrap>
                  {account.email ?? "—"}
                  {account.email && <Tag color={account.emailVerified ? "green" : "gold"}>{account.emailVerified ? "verified" : "not verified"}</Tag>}
                </Space>
              </Descriptions.Item>
              <Descriptions.Item label="Role">
                <Tag color={ROLE_COLORS[account.role]}>{account.role}</Tag>
              </Descriptions.Item>
              <Descriptions.Item label="Status">{account.disabled ? <Tag color="red">disabled</Tag> : <Tag color="green">active</Tag>}</Descriptions.Item>
              <Descriptions.Item label="Created">{when(account.creationTime)}</Descriptions.Item>
              <Descriptions.Item label="Last sign-in">{when(account.lastSignInTime)}</Descriptions.Item>
              <Descriptions.Item label="Dealer profile">
                {account.profile.dealer ? (
                  <Space wrap>
                    {account.profile.dealer.businessName}
                    <Tag>{account.profile.dealer.status}</Tag>
                  </Space>
                ) : (
                  "none"
                )}
              </Descriptions.Item>
              <Descriptions.Item label="User id">{account.uid}</Descriptions.Item>
            </Descriptions>
          </Card>
          <Card size="small" title="Orders">
            <OrdersTable uid={account.uid} />
          </Card>
          <Card size="small" title="Transactions">
            <Flex vertical gap={16}>
              <Transactions key={ledgerVersion} uid={account.uid} />
              <BalanceAdjustment uid={account.uid} onDone={() => setLedgerVersion((n) => n + 1)} />
            </Flex>
          </Card>
          <RepositoryAccessList uid={account.uid} />
          {account.profile.dealer && <ProfileChangeReview uid={account.uid} />}
        </Flex>
      )}
    </PageFrame>
  );
}
