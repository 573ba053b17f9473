/**
 * The car's custom tunes on its page: the tuning requests made for it (a dealer sees those made
 * to them), one opened as its ticket in a drawer (`?request=<id>` links there, from
 * notifications, the dashboard and the checkout), and for the owner the way to ask a dealer.
 */
import { useCustom } from "@refinedev/core";
import { Button, Card, Drawer } from "antd";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { apiRoutes } from "../../../contracts/api-paths";
import type { TuningRequestSummary } from "../../../contracts/tuning-requests";
import type { Vehicle } from "../../../contracts/user-vehicles";
import { useEscapeCloses } from "../escape-closes";
import { NewTuningRequest } from "../tuning-requests/new-request";
import { RequestTable } from "../tuning-requests/request-table";
import { TuningRequestTicket } from "../tuning-requests/ticket";

export function CustomTunes({ vehicle, owner }: { vehicle: Vehicle; owner: boolean }) {
  const [params, setParams] = useSearchParams();
  const [asking, setAsking] = useState(false);
  const { query } = useCustom<{ data: TuningRequestSummary[]; total: number }>({
    url: apiRoutes.vehicles.tuningRequests(vehicle.id),
    method: "get",
    config: { query: { pageSize: 50 } },
  });
  const open = params.get("request");
  const show = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set("request", id);
        else next.delete("request");
        return next;
      },
      { replace: false },
    );
  const closeTicket = () => {
    show(null);
    void query.refetch();
  };
  useEscapeCloses(Boolean(open), closeTicket);
  return (
    <Card
      size="small"
      title="Custom tunes"
      extra={
        owner && (
          <Button type="primary" size="small" onClick={() => setAsking(true)}>
            Ask a dealer for a custom tune
          </Button>
        )
      }
    >
      <RequestTable
        requests={query.data?.data.data ?? []}
        side={owner ? "customer" : "dealer"}
        loading={query.isLoading}
        onOpen={(request) => show(request.id)}
      />
      <Drawer
        open={asking}
        title={`A custom tune for ${vehicle.name}`}
        onClose={() => setAsking(false)}
        width={720}
        destroyOnHidden
      >
        <NewTuningRequest
          vehicle={vehicle}
          onMade={(ticket) => {
            setAsking(false);
            void query.refetch();
            show(ticket.id);
          }}
        />
      </Drawer>
      <Drawer open={Boolean(open)} title="Tuning request" onClose={closeTicket} width={920} destroyOnHidden>
        {open && <TuningRequestTicket id={open} side={owner ? "customer" : "dealer"} />}
      </Drawer>
    </Card>
  );
}
