/** Choosing some of a car's data logs (newest first, searched by title), to attach to a tuning request. */
import { useCustom } from "@refinedev/core";
import { Select } from "antd";
import { apiPaths } from "../../../contracts/api-paths";
import type { DataLogSummary } from "../../../contracts/data-logs";

export interface VehicleLogsSelectProps {
  vehicleId: string | null;
  value?: string[];
  onChange?: (ids: string[]) => void;
  onBlur?: () => void;
  label: string;
}

export function VehicleLogsSelect({ vehicleId, value, onChange, onBlur, label }: VehicleLogsSelectProps) {
  const logs = useCustom<{ data: DataLogSummary[] }>({
    url: apiPaths["data-logs"].list,
    method: "get",
    config: {
      filters: vehicleId ? [{ field: "vehicleId", operator: "eq", value: vehicleId }] : [],
      sorters: [{ field: "createdAt", order: "desc" }],
      query: { pageSize: 50 },
    },
  });
  return (
    <Select
      mode="multiple"
      optionFilterProp="label"
      aria-label={label}
      placeholder="Logs of this car"
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      loading={logs.query.isLoading}
      options={(logs.query.data?.data.data ?? []).map((log) => ({
        value: log.id,
        label: `${log.title} (${new Date(log.createdAt).toLocaleDateString()})`,
      }))}
    />
  );
}
