/**
 * Open custom tune requests on the dashboard: a customer's own (each opening its ticket on the
 * car's page), a dealer's queue waiting on them (opening in the queue).
 */
import { useCustom } from "@refinedev/core";
import { Badge, Card, List, Space, Typography } from "antd";
import { apiPaths } from "../../../contracts/api-paths";
import { FINAL_STATES, TUNING_REQUEST_STATES } from "../../../contracts/tuning-request-states";
import type { TuningRequestSummary } from "../../../contracts/tuning-requests";
import { Link } from "../../components/link";
import { StateTag } from "../../components/tuning-requests/state-tag";

const OPEN = TUNING_REQUEST_STATES.filter((state) => !FINAL_STATES.includes(state));

export function OpenRequests({ uid, dealer }: { uid: string; dealer: boolean }) {
  const { query } = useCustom<{ data: TuningRequestSummary[]; total: number }>({
    url: apiPaths["tuning-requests"].list,
    method: "get",
    config: {
      filters: [
        { field: "state", operator: "in", value: OPEN },
        { field: dealer ? "dealerUid" : "customerUid", operator: "eq", value: uid },
      ],
      query: { pageSize: 5 },
    },
  });
  const requests = query.data?.data.data ?? [];
  const total = query.data?.data.total ?? 0;
  if (!query.isLoading && total === 0) return null;
  const linkOf = (request: TuningRequestSummary) =>
    dealer ? `/tuning-requests/show/${request.id}` : `/my-devices/${request.vehicleId}?request=${request.id}`;
  return (
    <Card
      title={dealer ? `Tuning requests waiting (${total})` : "Your custom tunes"}
      loading={query.isLoading}
      extra={dealer && <Link to="/tuning-requests">The queue</Link>}
    >
      <List
        aria-label="Open tuning requests"
        dataSource={requests}
        renderItem={(request) => (
          <List.Item>
            <Space wrap>
              <Badge count={request.unread} size="small">
                <Link to={linkOf(request)}>{request.reference}</Link>
              </Badge>
              <Typography.Text>{request.vehicleName}</Typography.Text>
              <Typography.Text type="secondary">{dealer ? request.customerName : request.dealerName}</Typography.Text>
              <StateTag state={request.state} />
            </Space>
          </List.Item>
        )}
      />
    </Card>
  );
}
