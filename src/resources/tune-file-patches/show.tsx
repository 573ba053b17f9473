/** A patch's entries and what it is compatible with (GET /tune-file-patches/{id}/compatible). */
import { useCustom, useOne } from "@refinedev/core";
import { Button, Descriptions, Divider, Flex, Skeleton, Table, Tag, Typography } from "antd";
import { apiRoutes } from "../../../contracts/api-paths";
import type { TuneFilePatch } from "../../../contracts/tune-files";
import { useRecordMissing } from "../../components/record-not-found";
import { PatchStateTag } from "../../components/tune-inspection";

interface Compatible {
  firmware: Array<{ firmwareId: string; known: boolean; stockState: string | null }>;
  tuneFiles: Array<{ id: string; title: string; firmwareId: string; version: number; state: string }>;
}

export function PatchShow({ id, onEdit }: { id: string; onEdit: () => void }) {
  const { result: patch, query } = useOne<TuneFilePatch>({ resource: "tune-file-patches", id });
  const { query: compatibleQuery } = useCustom<Compatible>({
    url: apiRoutes.tuneFilePatches.compatible(String(id)),
    method: "get",
  });
  const compatible = compatibleQuery.data?.data;
  const missing = useRecordMissing(query.error);
  if (missing) return null;
  if (query.isLoading || !patch) return <Skeleton active />;
  return (
    <Flex vertical gap={16}>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="Title">{patch.title}</Descriptions.Item>
        {patch.description && <Descriptions.Item label="Description">{patch.description}</Descriptions.Item>}
        <Descriptions.Item label="Firmware">
          {patch.firmwareIds.map((f) => (
            <Tag key={f}>{f}</Tag>
          ))}
        </Descriptions.Item>
        <Descriptions.Item label="Entries">{patch.entries.length}</Descriptions.Item>
      </Descriptions>
      <Button onClick={onEdit} style={{ alignSelf: "start" }}>
        Edit patch
      </Button>
      <Table
        size="small"
        rowKey="address"
        dataSource={patch.entries}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        aria-label="Entries"
        columns={[
          {
            dataIndex: "address",
            title: "Address",
            render: (a: number) => <Typography.Text code>{`0x${a.toString(16).toUpperCase()}`}</Typography.Text>,
          },
          { dataIndex: "patch", title: "Patch", render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          { dataIndex: "base", title: "Base", render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
        ]}
      />
      <Divider orientation="left">Compatible with</Divider>
      {compatibleQuery.isLoading ? (
        <Skeleton active />
      ) : (
        <>
          <Table
            size="small"
            rowKey="firmwareId"
            pagination={false}
            dataSource={compatible?.firmware ?? []}
            aria-label="Compatible firmware"
            columns={[
              { dataIndex: "firmwareId", title: "Firmware" },
              {
                dataIndex: "known",
                title: "Record",
                render: (known: boolean) => (known ? <Tag color="green">exists</Tag> : <Tag color="red">missing</Tag>),
              },
              {
                dataIndex: "stockState",
                title: "In the stock file",
                render: (state: string | null) => (state ? <PatchStateTag state={state} /> : "no stock file"),
              },
            ]}
          />
          <Table
            size="small"
            rowKey="id"
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            dataSource={compatible?.tuneFiles ?? []}
            aria-label="Compatible tune files"
            locale={{ emptyText: "No tune files for these firmware ids" }}
            columns={[
              { dataIndex: "title", title: "Tune file" },
              { dataIndex: "firmwareId", title: "Firmware" },
              { dataIndex: "version", title: "Version" },
              { dataIndex: "state", title: "State", render: (state: string) => <PatchStateTag state={state} /> },
            ]}
          />
        </>
      )}
    </Flex>
  );
}
