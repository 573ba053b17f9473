import { useGetIdentity, useList } from "@refinedev/core";
import { useCallback, useMemo } from "react";
import type { DataLogSummary } from "../../../contracts/data-logs";
import type { VehicleTunes } from "../../../contracts/tune-files";

type ListedVehicle = VehicleTunes["vehicle"] & { ownerUid: string };

/**
 * The vehicles a log can be filed under: the signed-in user's own (the server refuses any other),
 * the one a new log most likely belongs to, and the names of every vehicle the list may show (an
 * admin sees other people's logs).
 */
export function useLogVehicles() {
  const { data: identity } = useGetIdentity<{ uid: string }>();
  // GET /user-vehicles answers at most 200, the caller's own first among them for a customer.
  const { result, query } = useList<ListedVehicle>({ resource: "user-vehicles", pagination: { pageSize: 200 } });
  const listed = result.data;
  const own = useMemo(() => listed.filter((vehicle) => vehicle.ownerUid === identity?.uid), [listed, identity?.uid]);
  const options = useMemo(
    () =>
      own.map((vehicle) => ({
        value: vehicle.id,
        label: vehicle.vin ? `${vehicle.name} (${vehicle.vin})` : vehicle.name,
      })),
    [own],
  );
  const names = useMemo(() => new Map(listed.map((vehicle) => [vehicle.id, vehicle.name])), [listed]);
  const nameOf = useCallback((id: string | null) => (id ? (names.get(id) ?? "A vehicle") : null), [names]);
  // A new log most likely comes from the car the last one came from; else the first of the user's own.
  const latest = useList<DataLogSummary>({
    resource: "data-logs",
    pagination: { pageSize: 1 },
    sorters: [{ field: "createdAt", order: "desc" }],
  });
  const lastUsed = latest.result.data[0]?.vehicleId ?? null;
  const likely = own.find((vehicle) => vehicle.id === lastUsed)?.id ?? own[0]?.id;
  return { options, nameOf, likely, loading: query.isLoading };
}
