/**
 * The review queue: dealers' requests to change their business identity, open ones first and
 * oldest first; each row opens the review (current and requested values, documents, Approve or
 * Reject with a note). Decided requests are a filter away.
 */
import { getDefaultFilter } from "@refinedev/antd";
import { Segmented, Space, Table, Tag } from "antd";
import { Link } from "react-router";
import {
  BUSINESS_IDENTITY_LABELS,
  PROFILE_CHANGE_STATES,
  type ProfileChangeQueueItem,
  type ProfileChangeState,
} from "../../../contracts/profile-change-requests";
import { PageFrame } from "../../components/page-frame";
import { changedFields } from "../../components/profile-change-requests/parts";
import { ProfileChangeReview } from "../../components/profile-change-requests/review";
import { useResourceTable } from "../../components/resource/use-resource-table";

const STATE_COLORS: Record<ProfileChangeState, string> = { open: "gold", approved: "green", rejected: "red" };

export function ProfileChangeRequestsList() {
  const { tableProps, filters, setFilters, tableQuery } = useResourceTable<ProfileChangeQueueItem>(
    "profile-change-requests",
    { field: "submittedAt", order: "asc" },
    {
      filters: { initial: [{ field: "state", operator: "eq", value: "open" }] },
    },
  );
  const state = (getDefaultFilter("state", filters, "eq") as ProfileChangeState | undefined) ?? "open";
  return (
    <PageFrame
      title="Profile changes"
      subtitle="Dealers' requests to change their legal name, company number, VAT id, address or logo"
    >
      <Segmented<ProfileChangeState>
        aria-label="Show"
        value={state}
        options={PROFILE_CHANGE_STATES.map((value) => ({
          value,
          label: value === "open" ? "Waiting for review" : value === "approved" ? "Approved" : "Rejected",
        }))}
        onChange={(value) => setFilters([{ field: "state", operator: "eq", value }], "replace")}
      />
      <Table<ProfileChangeQueueItem>
        {...tableProps}
        rowKey="id"
        size="middle"
        aria-label="Profile change requests"
        expandable={{
          expandedRowRender: (row) => (
            <ProfileChangeReview uid={row.userUid} onDecided={() => void tableQuery.refetch()} />
          ),
          expandRowByClick: true,
        }}
        columns={[
          {
            title: "Dealer",
            render: (_: unknown, row) => (
              <Link to={`/admin/users/${row.userUid}`} onClick={(event) => event.stopPropagation()}>
                {row.identity.businessName}
              </Link>
            ),
          },
          { title: "Account", dataIndex: "email" },
          {
            title: "Changes",
            render: (_: unknown, row) => (
              <Space wrap size={4}>
                {changedFields(row).map((field) => (
                  <Tag key={field}>{BUSINESS_IDENTITY_LABELS[field]}</Tag>
                ))}
                {row.logo && <Tag>{BUSINESS_IDENTITY_LABELS.logo}</Tag>}
              </Space>
            ),
          },
          { title: "Documents", render: (_: unknown, row) => row.documents.length },
          {
            title: "Sent",
            dataIndex: "submittedAt",
            sorter: true,
            render: (at: string) => new Date(at).toLocaleString(),
          },
          {
            title: "State",
            dataIndex: "state",
            render: (value: ProfileChangeState) => <Tag color={STATE_COLORS[value]}>{value}</Tag>,
          },
        ]}
      />
    </PageFrame>
  );
}
