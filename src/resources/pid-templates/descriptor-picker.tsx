/**
 * The ordered channel list of a template: search descriptors on the server
 * (never a 10-option lookup), add them, move them up and down. Names of the
 * chosen ids come from one useMany.
 */
import { ArrowDownOutlined, ArrowUpOutlined, CloseOutlined } from "@ant-design/icons";
import { useList, useMany } from "@refinedev/core";
import { Button, List, Select, Typography } from "antd";
import { useState } from "react";
import { apiPaths } from "../../../contracts/api-paths";
import type { PidDescriptor } from "../../../contracts/firmware-support";

const meta = { apiPath: apiPaths["pid-descriptors"].list };

export function DescriptorPicker({
  id,
  value,
  onChange,
}: {
  id?: string;
  value: string[];
  onChange: (ids: string[]) => void;
}) {
  const [search, setSearch] = useState("");
  const { result: found } = useList<PidDescriptor>({
    resource: "pid-descriptors",
    meta,
    filters: [{ field: "q", operator: "contains", value: search }],
    pagination: { currentPage: 1, pageSize: 20 },
  });
  const { result: chosen } = useMany<PidDescriptor>({
    resource: "pid-descriptors",
    ids: value,
    meta,
    queryOptions: { enabled: value.length > 0 },
  });
  const byId = new Map([...(chosen?.data ?? []), ...(found?.data ?? [])].map((d) => [d.id, d]));
  const move = (from: number, to: number) => {
    const next = [...value];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item);
    onChange(next);
  };
  return (
    <>
      <Select
        id={id}
        showSearch
        filterOption={false}
        value={null}
        placeholder="Search descriptors to add"
        onSearch={setSearch}
        onChange={(picked: string) => picked && !value.includes(picked) && onChange([...value, picked])}
        options={(found?.data ?? [])
          .filter((d) => !value.includes(d.id))
          .map((d) => ({ value: d.id, label: `${d.name} (${d.variable})` }))}
        style={{ width: "100%", marginBottom: 8 }}
      />
      <List
        size="small"
        bordered
        dataSource={value}
        locale={{ emptyText: "No channels yet" }}
        aria-label="Template channels"
        renderItem={(descriptorId, index) => {
          const descriptor = byId.get(descriptorId);
          return (
            <List.Item
              actions={[
                <Button
                  key="up"
                  size="small"
                  icon={<ArrowUpOutlined />}
                  aria-label="Move up"
                  disabled={index === 0}
                  onClick={() => move(index, index - 1)}
                />,
                <Button
                  key="down"
                  size="small"
                  icon={<ArrowDownOutlined />}
                  aria-label="Move down"
                  disabled={index === value.length - 1}
                  onClick={() => move(index, index + 1)}
                />,
                <Button
                  key="remove"
                  size="small"
                  icon={<CloseOutlined />}
                  aria-label="Remove"
                  onClick={() => onChange(value.filter((v) => v !== descriptorId))}
                />,
              ]}
            >
              {index + 1}. {descriptor ? descriptor.name : descriptorId}{" "}
              {descriptor && <Typography.Text code>{descriptor.variable}</Typography.Text>}
            </List.Item>
          );
        }}
      />
    </>
  );
}
