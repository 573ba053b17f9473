/**
 * The dealer's queue (/tuning-requests): open requests first, filtered by state (or late: the work
 * owed and past its due date) and searched by reference, car, VIN or assignee, with the age since
 * the customer last acted, unread messages and the due date; ordered by the longest waiting or the
 * soonest due. A request opens as its ticket in a drawer (/tuning-requests/show/:id). Admins see
 * every dealer's queue. The dealer's own terms (free revision days) are set here too.
 */
import { type HttpError, useCustom, useCustomMutation } from "@refinedev/core";
import { Button, Flex, Input, InputNumber, Segmented, Space, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import type { DealerProfile } from "../../../contracts/dealers";
import { FINAL_STATES, TUNING_REQUEST_STATES, WORK_OWED_STATES } from "../../../contracts/tuning-request-states";
import type { TuningRequestSummary } from "../../../contracts/tuning-requests";
import { PageFrame } from "../../components/page-frame";
import { RouteDrawer, useDrawerRoute } from "../../components/resource/drawer-route";
import { RequestTable } from "../../components/tuning-requests/request-table";
import { STATE_LABELS } from "../../components/tuning-requests/state-tag";
import { TuningRequestTicket } from "../../components/tuning-requests/ticket";
import { failureText } from "../../lib/http-errors";
import { useSessionState } from "../../providers/session-context";

export const TUNING_REQUESTS_PATH = "/tuning-requests";
const PAGE_SIZE = 20;
const OPEN = TUNING_REQUEST_STATES.filter((state) => !FINAL_STATES.includes(state));

function RevisionTerms({ uid }: { uid: string }) {
  const profile = useCustom<DealerProfile>({
    url: apiRoutes.users.dealer(uid),
    method: "get",
    errorNotification: false,
  });
  const [days, setDays] = useState<number | null>(null);
  const { mutate, mutation } = useCustomMutation<DealerProfile>();
  const dealer = profile.query.data?.data;
  if (!dealer) return null;
  const shown = days ?? dealer.freeRevisionDays;
  return (
    <Space wrap>
      <Typography.Text>Free revisions for</Typography.Text>
      <InputNumber
        min={0}
        max={365}
        value={shown}
        onChange={(value) => setDays(value === null ? null : Number(value))}
        aria-label="Free revision days"
        style={{ width: 80 }}
      />
      <Typography.Text>days after the first delivery</Typography.Text>
      <Button
        size="small"
        loading={mutation.isPending}
        disabled={shown === dealer.freeRevisionDays}
        onClick={() =>
          mutate(
            {
              url: apiRoutes.dealers.settings(dealer.id),
              method: "patch",
              values: { freeRevisionDays: shown },
              successNotification: { type: "success", message: `New quotes give ${shown} days of free revisions` },
              errorNotification: (error?: HttpError) => ({ type: "error", message: failureText(error) }),
            },
            { onSuccess: () => void profile.query.refetch() },
          )
        }
      >
        Save
      </Button>
    </Space>
  );
}

export function TuningRequestsList() {
  const drawer = useDrawerRoute(TUNING_REQUESTS_PATH);
  const { user, role } = useSessionState();
  // A link may name the state shown (the dashboard's queue by state: `?state=quoted`, or `?state=late`).
  const [searchParams] = useSearchParams();
  const asked = searchParams.get("state");
  const askedState = asked && [...TUNING_REQUEST_STATES, "late"].includes(asked) ? asked : null;
  const [state, setState] = useState<string>(askedState ?? "open");
  const [q, setQ] = useState("");
  const [order, setOrder] = useState<"waiting" | "due">("waiting");
  const [page, setPage] = useState(1);
  // Also when the page is kept alive and a link names another state.
  useEffect(() => {
    if (askedState) {
      setState(askedState);
      setPage(1);
    }
  }, [askedState]);
  // Late is judged at the moment the view was chosen, so the query stays the same between renders.
  const now = useMemo(() => new Date().toISOString(), [state, page, q, order]);
  const filters =
    state === "open"
      ? [{ field: "state", operator: "in" as const, value: OPEN }]
      : state === "late"
        ? [
            { field: "state", operator: "in" as const, value: WORK_OWED_STATES },
            { field: "dueAt", operator: "lt" as const, value: now },
          ]
        : state === "all"
          ? []
          : [{ field: "state", operator: "eq" as const, value: state }];
  const { query } = useCustom<{ data: TuningRequestSummary[]; total: number }>({
    url: apiPaths["tuning-requests"].list,
    method: "get",
    config: {
      filters,
      // Tickets without a due date come after the dated ones.
      sorters: [{ field: order === "due" ? "dueAt" : "lastCustomerActionAt", order: "asc" }],
      query: { page, pageSize: PAGE_SIZE, ...(q.trim() && { q: q.trim() }) },
    },
  });
  return (
    <PageFrame
      title="Tuning requests"
      subtitle={
        role === "admin"
          ? "Every dealer's custom tune requests"
          : "Custom tunes your customers asked for, the longest waiting first"
      }
    >
      <Flex vertical gap={12}>
        {role === "dealer" && user && <RevisionTerms uid={user.uid} />}
        <Flex gap={12} wrap align="center">
          {/* Seven states do not fit a phone: the control scrolls on its own instead of the page sideways. */}
          <div style={{ maxWidth: "100%", overflowX: "auto" }}>
            <Segmented
              aria-label="State"
              value={state}
              onChange={(value) => {
                setState(String(value));
                setPage(1);
              }}
              options={[
                { value: "open", label: "Open" },
                { value: "late", label: "Late" },
                ...TUNING_REQUEST_STATES.map((s) => ({ value: s, label: STATE_LABELS[s] })),
                { value: "all", label: "All" },
              ]}
            />
          </div>
          <Segmented
            aria-label="Order"
            value={order}
            onChange={(value) => {
              setOrder(value as "waiting" | "due");
              setPage(1);
            }}
            options={[
              { value: "waiting", label: "Longest waiting" },
              { value: "due", label: "Due first" },
            ]}
          />
          <Input.Search
            allowClear
            placeholder="Reference, car, VIN or assignee"
            onSearch={(value) => (setQ(value), setPage(1))}
            style={{ maxWidth: 320 }}
            aria-label="Search requests"
          />
        </Flex>
        <RequestTable
          requests={query.data?.data.data ?? []}
          side="dealer"
          loading={query.isLoading}
          onOpen={(request) => drawer.show(request.id)}
          pagination={{ current: page, pageSize: PAGE_SIZE, total: query.data?.data.total ?? 0, onChange: setPage }}
        />
      </Flex>
      <RouteDrawer
        open={drawer.action === "show"}
        title="Tuning request"
        onClose={() => (drawer.close(), void query.refetch())}
        width={920}
      >
        {drawer.id && <TuningRequestTicket id={drawer.id} side="dealer" />}
      </RouteDrawer>
    </PageFrame>
  );
}
