import { Alert, Input, Skeleton, Table } from "antd";
import { useMemo, useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { PublicSupportedVehicle } from "../../../contracts/public-site";
import { Link } from "../../components/link";
import { useApiRead } from "../../providers/services-context";

const years = (vehicle: PublicSupportedVehicle) => `${vehicle.yearFrom}–${vehicle.yearTo ?? "today"}`;

/** The vehicle families the catalogue supports, read from the API, searchable by make, model or engine. */
export function SupportedVehicles() {
  const list = useApiRead<{ data: PublicSupportedVehicle[] }>(apiRoutes.publicSite.supportedVehicles());
  const [search, setSearch] = useState("");
  const vehicles = list.status === "done" ? list.data.data : undefined;
  const shown = useMemo(() => {
    const words = search.toLowerCase().split(/\s+/).filter(Boolean);
    return (vehicles ?? []).filter((vehicle) => {
      const text = `${vehicle.make} ${vehicle.model} ${vehicle.generation} ${vehicle.engine}`.toLowerCase();
      return words.every((word) => text.includes(word));
    });
  }, [vehicles, search]);

  if (list.status === "loading") return <Skeleton active />;
  if (list.status === "error") {
    return (
      <Alert
        type="warning"
        showIcon
        message="The list of supported vehicles could not be loaded just now."
        description="Connect your car with the app: it tells you at once whether its software is supported."
      />
    );
  }
  return (
    <>
      <Input.Search
        aria-label="Search supported vehicles"
        placeholder="Search by make, model or engine"
        allowClear
        onChange={(event) => setSearch(event.target.value)}
        style={{ maxWidth: 420, marginBottom: 16 }}
      />
      <Table<PublicSupportedVehicle>
        size="small"
        rowKey={(vehicle) =>
          `${vehicle.make}|${vehicle.model}|${vehicle.generation}|${vehicle.engine}|${vehicle.yearFrom}`
        }
        dataSource={shown}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
        scroll={{ x: true }}
        locale={{
          emptyText: vehicles?.length
            ? "No supported vehicle matches that search."
            : "The catalogue is being filled: ask us about your car.",
        }}
        columns={[
          { title: "Make", dataIndex: "make" },
          { title: "Model", render: (_, vehicle) => [vehicle.model, vehicle.generation].filter(Boolean).join(" ") },
          { title: "Engine", dataIndex: "engine" },
          { title: "Years", render: (_, vehicle) => years(vehicle) },
        ]}
      />
      <p>
        Support depends on the ECU software, not only the model: the app checks yours before anything is written. Don’t
        see your car?{" "}
        {/* The request form is for signed-in users: signed out, its guard sends them to sign in and back here. */}
        <Link to="/vehicle-support/create">Ask us to support it</Link>.
      </p>
    </>
  );
}
