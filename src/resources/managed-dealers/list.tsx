/**
 * Dealers: for everyone, the directory of approved dealers, searched by name or by the vehicles
 * their published tunes cover, each name a link to the dealer's page; for admins the same list with every status, the applications to
 * decide, and suspensions, each change with the reason the dealer is told.
 */
import { getDefaultFilter, type HttpError, useCustomMutation, useInvalidate } from "@refinedev/core";
import { Alert, Button, Flex, Segmented, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { apiRoutes } from "../../../contracts/api-paths";
import { DEALER_TRANSITIONS, type Dealer, type DealerProfile, type DealerStatus } from "../../../contracts/dealers";
import { ReasonDialog } from "../../components/dialogs/reason-dialog";
import { PageFrame } from "../../components/page-frame";
import { dealerLogoUrl } from "../../components/profile-change-requests/parts";
import { ListSearch } from "../../components/resource/list-search";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { failureText, fieldMessage } from "../../lib/http-errors";
import { useSessionState } from "../../providers/session-context";

const STATUS_COLORS: Record<DealerStatus, string> = {
  pending: "gold",
  approved: "green",
  rejected: "red",
  suspended: "volcano",
};
const ACTION_LABELS: Record<DealerStatus, string> = {
  approved: "Approve",
  rejected: "Reject",
  suspended: "Suspend",
  pending: "Reopen",
};
const STATUS_VIEWS = [
  { value: "all", label: "All" },
  { value: "pending", label: "Applications" },
  { value: "approved", label: "Approved" },
  { value: "suspended", label: "Suspended" },
  { value: "rejected", label: "Rejected" },
] as const;

const isProfile = (dealer: Dealer | DealerProfile): dealer is DealerProfile => "userUid" in dealer;

interface PendingChange {
  dealer: DealerProfile;
  status: DealerStatus;
}

/** Asks for the reason of a status change and sends it; the server's field error shows under the field. */
function StatusChangeDialog({ change, onClose }: { change: PendingChange | null; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const { mutate, mutation } = useCustomMutation<DealerProfile>();
  const invalidate = useInvalidate();
  if (!change) return null;
  const verb =
    change.dealer.status === "suspended" && change.status === "approved" ? "Reinstate" : ACTION_LABELS[change.status];
  const submit = (reason: string) =>
    mutate(
      {
        url: apiRoutes.dealers.status(change.dealer.id),
        method: "patch",
        values: { status: change.status, reason },
        successNotification: { type: "success", message: `${change.dealer.businessName}: ${change.status}` },
        errorNotification: false,
      },
      {
        onSuccess: () => {
          void invalidate({ resource: "managed-dealers", invalidates: ["list"] });
          setError(null);
          onClose();
        },
        onError: (failure: HttpError) => setError(fieldMessage(failure, "reason", "status") ?? failureText(failure)),
      },
    );
  return (
    <ReasonDialog
      title={`${verb} ${change.dealer.businessName}`}
      okText={verb}
      danger={change.status !== "approved"}
      explanation={`The dealer is notified with this reason${change.status === "approved" ? " and can sell at their next request" : change.status === "suspended" ? " and loses the dealer role at once" : ""}.`}
      required="give a reason: the dealer is told it"
      sending={mutation.isPending}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    />
  );
}

export function VehicleTags({ dealer }: { dealer: Dealer }) {
  if (dealer.vehicles.length === 0) {
    // Tunes for firmware no catalogued vehicle runs yet: the firmware is what there is to show.
    if (dealer.firmwareIds.length) return <Typography.Text>firmware {dealer.firmwareIds.join(", ")}</Typography.Text>;
    return <Typography.Text type="secondary">no published tunes yet</Typography.Text>;
  }
  const shown = dealer.vehicles.slice(0, 6);
  return (
    <Space size={[4, 4]} wrap>
      {shown.map((vehicle) => (
        <Tag key={`${vehicle.make} ${vehicle.model}`}>
          {vehicle.make} {vehicle.model}
        </Tag>
      ))}
      {dealer.vehicles.length > shown.length && (
        <Typography.Text type="secondary">and {dealer.vehicles.length - shown.length} more</Typography.Text>
      )}
    </Space>
  );
}

export function ManagedDealersList() {
  const { role } = useSessionState();
  const admin = role === "admin";
  const { tableProps, filters, setFilters } = useResourceTable<Dealer | DealerProfile>("managed-dealers", {
    field: "businessName",
    order: "asc",
  });
  // The view is the list's status filter, which lives in the URL: a link may name it (the dashboard's "Dealer applications").
  const view = STATUS_VIEWS.find((v) => v.value === getDefaultFilter("status", filters, "eq"))?.value ?? "all";
  const [change, setChange] = useState<PendingChange | null>(null);
  const chooseView = (value: (typeof STATUS_VIEWS)[number]["value"]) => {
    setFilters([{ field: "status", operator: "eq", value: value === "all" ? undefined : value }], "merge");
  };

  return (
    <PageFrame
      title="Dealers"
      subtitle={
        admin
          ? "Applications, approved dealers and suspensions"
          : "Tuners with published tunes, and the vehicles they tune"
      }
    >
      <Flex vertical gap={12}>
        <Flex gap={12} wrap align="center">
          <ListSearch
            filters={filters}
            setFilters={setFilters}
            placeholder="Business, or a vehicle such as Golf or 335i"
          />
          {admin && (
            <Segmented
              aria-label="Status"
              options={STATUS_VIEWS.map((v) => ({ value: v.value, label: v.label }))}
              value={view}
              onChange={(value) => chooseView(value as typeof view)}
            />
          )}
        </Flex>
        {!admin && tableProps.dataSource?.length === 0 && !tableProps.loading && (
          <Alert
            type="info"
            showIcon
            message="No dealer matches"
            description="Try another vehicle or business name, or ask us through the contact form: we onboard tuners for new vehicles."
          />
        )}
        <Table
          {...tableProps}
          rowKey="id"
          aria-label="Dealers"
          columns={[
            {
              dataIndex: "businessName",
              title: "Dealer",
              sorter: true,
              render: (name: string, dealer: Dealer | DealerProfile) => (
                <Flex vertical>
                  <Flex gap={8} align="center">
                    {dealer.logoSha256 && (
                      <img
                        src={dealerLogoUrl(dealer.id, dealer.logoSha256)}
                        alt={`${name} logo`}
                        style={{ height: 32, maxWidth: 96, objectFit: "contain" }}
                      />
                    )}
                    <Link to={`/managed-dealers/${dealer.id}`}>
                      <Typography.Text strong>{name}</Typography.Text>
                    </Link>
                  </Flex>
                  {dealer.website && (
                    <Typography.Link href={dealer.website} target="_blank" rel="noopener noreferrer">
                      {dealer.website.replace(/^https?:\/\//, "")}
                    </Typography.Link>
                  )}
                  {isProfile(dealer) && (
                    <Typography.Text type="secondary">{dealer.email ?? dealer.userUid}</Typography.Text>
                  )}
                </Flex>
              ),
            },
            {
              dataIndex: "country",
              title: "Country",
              sorter: true,
              render: (country: string | null) => country ?? "—",
            },
            { key: "vehicles", title: "Vehicles they tune", render: (_, dealer) => <VehicleTags dealer={dealer} /> },
            { dataIndex: "publishedTunes", title: "Published tunes", render: (n: number) => n.toLocaleString() },
            ...(admin
              ? [
                  {
                    dataIndex: "status",
                    title: "Status",
                    sorter: true,
                    render: (status: DealerStatus, dealer: Dealer | DealerProfile) => (
                      <Flex vertical>
                        <Tag color={STATUS_COLORS[status]}>{status}</Tag>
                        {isProfile(dealer) && dealer.statusReason && (
                          <Typography.Text type="secondary">{dealer.statusReason}</Typography.Text>
                        )}
                      </Flex>
                    ),
                  },
                  {
                    key: "actions",
                    title: "Decide",
                    render: (_: unknown, dealer: Dealer | DealerProfile) =>
                      isProfile(dealer) && (
                        <Space wrap>
                          {DEALER_TRANSITIONS[dealer.status].map((status) => (
                            <Button
                              key={status}
                              size="small"
                              danger={status !== "approved"}
                              onClick={() => setChange({ dealer, status })}
                            >
                              {dealer.status === "suspended" && status === "approved"
                                ? "Reinstate"
                                : ACTION_LABELS[status]}
                            </Button>
                          ))}
                        </Space>
                      ),
                  },
                ]
              : []),
          ]}
        />
      </Flex>
      <StatusChangeDialog change={change} onClose={() => setChange(null)} />
    </PageFrame>
  );
}
