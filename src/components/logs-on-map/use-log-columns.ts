/** Stored logs' channels and samples, each downloaded and read once per log (the server checks who may). */
import { useDataProvider } from "@refinedev/core";
import { useQueries } from "@tanstack/react-query";
import { apiRoutes } from "../../../contracts/api-paths";
import { readLogColumns } from "../../lib/log-columns";
import type { LogColumns } from "../../lib/logs-on-map";

export function useLogColumns(ids: readonly string[]): { logs: LogColumns[]; loading: boolean; error: string | null } {
  const dataProvider = useDataProvider();
  const queries = useQueries({
    queries: ids.map((id) => ({
      queryKey: ["log-columns", id],
      queryFn: async () => {
        const { data } = await dataProvider().custom!({
          url: apiRoutes.dataLogs.columns(id),
          method: "get",
          meta: { responseType: "blob" },
        });
        return readLogColumns(new Uint8Array(await (data as unknown as Blob).arrayBuffer()));
      },
      staleTime: Infinity,
      gcTime: 60_000,
    })),
  });
  const failed = queries.find((query) => query.error);
  return {
    logs: queries.flatMap((query) => (query.data ? [query.data] : [])),
    loading: queries.some((query) => query.isLoading),
    error: failed ? String((failed.error as Error).message) : null,
  };
}
