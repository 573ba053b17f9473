/**
 * What a revision changed, map by map, as the customer reads it: how many cells moved and by how
 * much, against the car's stock read and against the revision before. Never the bytes.
 */
import { Table, Typography } from "antd";
import type { MapChange } from "../../../contracts/tuning-requests";

const amount = (value: number, unit: string | null) =>
  `${Number.isInteger(value) ? value : value.toPrecision(3)}${unit ? ` ${unit}` : ""}`;

export function MapChanges({ changes, label }: { changes: MapChange[] | null; label: string }) {
  if (changes === null)
    return <Typography.Text type="secondary">The dealer keeps the changes of this tune private.</Typography.Text>;
  return (
    <Table
      size="small"
      rowKey="id"
      pagination={false}
      aria-label={label}
      dataSource={changes}
      locale={{ emptyText: "No map changed" }}
      columns={[
        { dataIndex: "title", title: "Map" },
        { dataIndex: "cells", title: "Cells changed", align: "right" },
        {
          key: "max",
          title: "Largest change",
          align: "right",
          render: (_, change: MapChange) => amount(change.maxDelta, change.unit),
        },
        {
          key: "mean",
          title: "Mean change",
          align: "right",
          render: (_, change: MapChange) => amount(change.meanDelta, change.unit),
        },
      ]}
    />
  );
}
