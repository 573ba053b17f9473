/**
 * Every account, for support: searched by email or name anywhere in them, filtered by role and
 * status, sorted by sign-up or last sign-in; a row opens the user's page. Admins open accounts here
 * with a role (the person is invited to set a password).
 */
import { UserAddOutlined } from "@ant-design/icons";
import { Button, Flex, Segmented, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useNavigate } from "react-router";
import type { Role } from "../../../contracts/account";
import type { UserSummary } from "../../../contracts/users";
import { PageFrame } from "../../components/page-frame";
import { ListSearch } from "../../components/resource/list-search";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { NewUserDialog } from "./new-user";
import { ROLE_COLORS, userPath, when } from "./presentation";

const ROLE_VIEWS = [
  { value: "all", label: "All" },
  { value: "customer", label: "Customers" },
  { value: "dealer", label: "Dealers" },
  { value: "admin", label: "Admins" },
] as const;
const STATUS_VIEWS = [
  { value: "any", label: "Any status" },
  { value: "active", label: "Active" },
  { value: "disabled", label: "Disabled" },
  { value: "deleted", label: "Deleted" },
] as const;

type RoleView = (typeof ROLE_VIEWS)[number]["value"];
type StatusView = (typeof STATUS_VIEWS)[number]["value"];

export function UsersList() {
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const { tableProps, filters, setFilters } = useResourceTable<UserSummary>("users", {
    field: "createdAt",
    order: "desc",
  });
  const valueFor = (field: string) =>
    filters.find((filter) => "field" in filter && filter.field === field)?.value as string | undefined;
  const role: RoleView = (valueFor("role") as Role | undefined) ?? "all";
  const status: StatusView =
    valueFor("deleted") === "true"
      ? "deleted"
      : valueFor("disabled") === "true"
        ? "disabled"
        : valueFor("disabled") === "false"
          ? "active"
          : "any";
  const chooseStatus = (value: StatusView) =>
    setFilters(
      [
        {
          field: "disabled",
          operator: "eq",
          value: value === "disabled" ? "true" : value === "active" ? "false" : undefined,
        },
        {
          field: "deleted",
          operator: "eq",
          value: value === "deleted" ? "true" : value === "any" ? undefined : "false",
        },
      ],
      "merge",
    );

  return (
    <PageFrame
      title="Users"
      subtitle="Accounts of customers, dealers and administrators"
      extra={
        <Button type="primary" icon={<UserAddOutlined />} onClick={() => setCreating(true)}>
          New user
        </Button>
      }
    >
      <Flex vertical gap={12}>
        <Flex gap={12} wrap align="center">
          <ListSearch filters={filters} setFilters={setFilters} placeholder="Email or name, or any part of them" />
          <Segmented
            aria-label="Role"
            options={ROLE_VIEWS.map((v) => ({ value: v.value, label: v.label }))}
            value={role}
            onChange={(value) =>
              setFilters([{ field: "role", operator: "eq", value: value === "all" ? undefined : value }], "merge")
            }
          />
          <Segmented
            aria-label="Status"
            options={STATUS_VIEWS.map((v) => ({ value: v.value, label: v.label }))}
            value={status}
            onChange={(value) => chooseStatus(value as StatusView)}
          />
        </Flex>
        <Table
          {...tableProps}
          rowKey="uid"
          aria-label="Users"
          scroll={{ x: "max-content" }}
          onRow={(user) => ({ onClick: () => navigate(userPath(user.uid)), style: { cursor: "pointer" } })}
          columns={[
            {
              dataIndex: "email",
              title: "User",
              sorter: true,
              render: (_: unknown, user: UserSummary) => (
                <Flex vertical>
                  <Typography.Link href={userPath(user.uid)} onClick={(event) => event.preventDefault()}>
                    {user.deletedAt ? "Deleted account" : (user.displayName ?? user.email ?? user.uid)}
                  </Typography.Link>
                  {user.email && user.displayName && <Typography.Text type="secondary">{user.email}</Typography.Text>}
                </Flex>
              ),
            },
            {
              dataIndex: "role",
              title: "Role",
              render: (value: Role, user: UserSummary) => (
                <Space size={4} wrap>
                  <Tag color={ROLE_COLORS[value]}>{value}</Tag>
                  {user.dealer && <Tag>{`${user.dealer.businessName}: ${user.dealer.status}`}</Tag>}
                </Space>
              ),
            },
            {
              dataIndex: "disabled",
              title: "Status",
              render: (_: unknown, user: UserSummary) =>
                user.deletedAt ? (
                  <Tag>deleted</Tag>
                ) : user.disabled ? (
                  <Tag color="red">disabled</Tag>
                ) : user.emailVerified ? (
                  <Tag color="green">active</Tag>
                ) : (
                  <Tag color="gold">email not verified</Tag>
                ),
            },
            { dataIndex: "createdAt", title: "Signed up", sorter: true, render: when },
            { dataIndex: "lastSignInAt", title: "Last sign-in", sorter: true, render: when },
          ]}
        />
      </Flex>
      <NewUserDialog open={creating} onClose={() => setCreating(false)} onCreated={(uid) => navigate(userPath(uid))} />
    </PageFrame>
  );
}
