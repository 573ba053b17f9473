/**
 * One user for support: the account (identity, role, status, dealer profile) and what can be done
 * to it, then everything of theirs — vehicles, data logs, flash sessions, tuning requests, orders
 * with refunds, the ledger with adjustments, private collections, a dealer's profile change
 * requests — and the audit of the account. Each section links to its own pages. An id that names
 * no user shows the 404 page.
 */
import { type HttpError, useCustom } from "@refinedev/core";
import { Card, Descriptions, Flex, Skeleton, Space, Tag } from "antd";
import { useState } from "react";
import { useNavigate, useParams } from "react-router";
import type { Account } from "../../../contracts/account";
import { apiRoutes } from "../../../contracts/api-paths";
import { ErrorPage } from "../../components/error-page";
import { Link } from "../../components/link";
import { PageFrame } from "../../components/page-frame";
import { OrdersTable } from "../../components/payments/orders-table";
import { ProfileChangeReview } from "../../components/profile-change-requests/review";
import { useRecordMissing } from "../../components/record-not-found";
import { failureText } from "../../lib/http-errors";
import { RepositoryAccessList } from "../tune-files/repositories";
import { Transactions } from "../tune-files/transactions";
import { AccountActions } from "./account-actions";
import { BalanceAdjustment } from "./balance-adjustment";
import { ROLE_COLORS, when } from "./presentation";
import { AuditTable, UserDataLogs, UserFlashSessions, UserTuningRequests, UserVehicles } from "./sections";

export function UsersShow() {
  const { userId = "" } = useParams();
  const navigate = useNavigate();
  // A change made here (an adjustment, a role) makes the sections that show it read again.
  const [version, setVersion] = useState(0);
  const { query } = useCustom<Account>({
    url: apiRoutes.users.record(userId),
    method: "get",
    errorNotification: false,
  });
  const account = query.data?.data;
  const failure = query.error as (HttpError & { description?: string }) | null;
  if (useRecordMissing(failure)) return null;
  const name = account?.deletedAt ? "Deleted account" : (account?.displayName ?? account?.email ?? userId);
  const changed = () => {
    setVersion((n) => n + 1);
    void query.refetch();
  };
  return (
    <PageFrame title={query.isLoading ? "User" : name} subtitle={account?.email ?? undefined}>
      {failure && (
        <ErrorPage
          error={{
            statusCode: failure.statusCode ?? 500,
            message: "Could not load the user",
            description: failureText(failure),
          }}
        />
      )}
      {query.isLoading && <Skeleton active />}
      {account && (
        <Flex vertical gap={16}>
          <Card size="small" title="Account">
            <Flex vertical gap={16}>
              <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered>
                <Descriptions.Item label="Name">{account.displayName ?? "—"}</Descriptions.Item>
                <Descriptions.Item label="Email">
                  <Space wrap>
                    {account.email ?? "—"}
                    {account.email && (
                      <Tag color={account.emailVerified ? "green" : "gold"}>
                        {account.emailVerified ? "verified" : "not verified"}
                      </Tag>
                    )}
                  </Space>
                </Descriptions.Item>
                <Descriptions.Item label="Role">
                  <Tag color={ROLE_COLORS[account.role]}>{account.role}</Tag>
                </Descriptions.Item>
                <Descriptions.Item label="Status">
                  {account.deletedAt ? (
                    <Tag>deleted {when(account.deletedAt)}</Tag>
                  ) : account.disabled ? (
                    <Tag color="red">disabled</Tag>
                  ) : (
                    <Tag color="green">active</Tag>
                  )}
                </Descriptions.Item>
                <Descriptions.Item label="Created">{when(account.creationTime)}</Descriptions.Item>
                <Descriptions.Item label="Last sign-in">{when(account.lastSignInTime)}</Descriptions.Item>
                <Descriptions.Item label="Signs in with">
                  {account.providerData.map((provider) => provider.providerId).join(", ") || "—"}
                </Descriptions.Item>
                <Descriptions.Item label="Dealer profile">
                  {account.profile.dealer ? (
                    <Space wrap>
                      <Link to={`/managed-dealers/${account.profile.dealer.id}`}>
                        {account.profile.dealer.businessName}
                      </Link>
                      <Tag>{account.profile.dealer.status}</Tag>
                    </Space>
                  ) : (
                    "none"
                  )}
                </Descriptions.Item>
                <Descriptions.Item label="User id">{account.uid}</Descriptions.Item>
              </Descriptions>
              <AccountActions account={account} onChanged={changed} onDeleted={() => navigate("/admin/users")} />
            </Flex>
          </Card>
          <UserVehicles key={`vehicles-${version}`} uid={account.uid} />
          <UserFlashSessions uid={account.uid} />
          <UserDataLogs uid={account.uid} />
          <UserTuningRequests uid={account.uid} role={account.role} />
          <Card size="small" title="Orders">
            <OrdersTable uid={account.uid} />
          </Card>
          <Card size="small" title="Transactions">
            <Flex vertical gap={16}>
              <Transactions key={version} uid={account.uid} />
              {!account.deletedAt && <BalanceAdjustment uid={account.uid} onDone={changed} />}
            </Flex>
          </Card>
          <RepositoryAccessList uid={account.uid} />
          {account.profile.dealer && <ProfileChangeReview uid={account.uid} />}
          <AuditTable
            key={`audit-${version}`}
            title="Audit of this account"
            emptyText="No changes made to this account yet"
            query={{ "subjectUid[eq]": account.uid }}
          />
          {account.role !== "customer" && (
            <AuditTable
              key={`actor-${version}`}
              title="Changes made by this user"
              emptyText="This user has changed nothing of anyone else's"
              query={{ "actorUid[eq]": account.uid }}
            />
          )}
        </Flex>
      )}
    </PageFrame>
  );
}
