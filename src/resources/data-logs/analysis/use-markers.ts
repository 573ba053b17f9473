/**
 * A log's markers through the data provider: the list (the owner's page or a share link's), and
 * for the owner adding, changing and removing them. A refusal is handed back for the panel to show.
 */
import { useCustom, useCustomMutation } from "@refinedev/core";
import { useCallback } from "react";
import { apiRoutes } from "../../../../contracts/api-paths";
import type { DataLogMarker, DataLogMarkerInput, DataLogMarkerPatch } from "../../../../contracts/data-log-markers";

/** Where a view reads its markers: a log the caller reads (writable when the server says so) or a share link (read only). */
export type MarkerSource = { logId: string } | { token: string };

const NONE: DataLogMarker[] = [];

export interface Markers {
  list: DataLogMarker[];
  writable: boolean;
  loadError: unknown;
  add(input: DataLogMarkerInput): Promise<void>;
  update(id: string, patch: DataLogMarkerPatch): Promise<void>;
  remove(id: string): Promise<void>;
  saving: boolean;
}

/** The markers of `source`; none, and nothing asked, without one. */
export function useMarkers(source: MarkerSource | undefined): Markers {
  const logId = source && "logId" in source ? source.logId : null;
  const token = source && "token" in source ? source.token : null;
  const url = logId ? apiRoutes.dataLogMarkers.list(logId) : apiRoutes.dataLogMarkers.shared(token ?? "");
  const { query } = useCustom<{ data: DataLogMarker[]; total: number; writable: boolean }>({
    url,
    method: "get",
    errorNotification: false,
    queryOptions: { enabled: Boolean(source), retry: false, refetchOnWindowFocus: false },
  });
  const { mutateAsync, mutation } = useCustomMutation<DataLogMarker>();
  const refetch = query.refetch;
  const send = useCallback(
    async (method: "post" | "patch" | "delete", path: string, values: object, done: string) => {
      await mutateAsync({
        url: path,
        method,
        values,
        errorNotification: false,
        successNotification: () => ({ type: "success", message: done }),
      });
      await refetch();
    },
    [mutateAsync, refetch],
  );
  const add = useCallback(
    (input: DataLogMarkerInput) => send("post", apiRoutes.dataLogMarkers.list(logId!), input, "Marker added"),
    [send, logId],
  );
  const update = useCallback(
    (id: string, patch: DataLogMarkerPatch) =>
      send("patch", apiRoutes.dataLogMarkers.record(logId!, id), patch, "Marker changed"),
    [send, logId],
  );
  const remove = useCallback(
    (id: string) => send("delete", apiRoutes.dataLogMarkers.record(logId!, id), {}, "Marker removed"),
    [send, logId],
  );
  return {
    list: query.data?.data.data ?? NONE,
    // The server says: a dealer reading a customer's log may not change its markers.
    writable: logId !== null && query.data?.data.writable === true,
    loadError: query.error,
    add,
    update,
    remove,
    saving: mutation.isPending,
  };
}
