import { getDefaultSortOrder } from "@refinedev/antd";
import { Button, Flex, Table, Tabs, Tag } from "antd";
import { useState } from "react";
import type { TuneFilePatch } from "../../../contracts/tune-files";
import { exactFilter } from "../../components/resource/column-filters";
import { ListWithDrawers } from "../../components/resource/list-with-drawers";
import { ApplyTool } from "./apply-tool";
import { PatchForm } from "./form";
import { PatchShow } from "./show";

const PATCHES_PATH = "/admin/tune-file-patches";

export function TuneFilePatchesList() {
  const [tab, setTab] = useState("patches");
  return (
    <ListWithDrawers<TuneFilePatch>
      resource="tune-file-patches"
      path={PATCHES_PATH}
      sort={{ field: "title", order: "asc" }}
      title="Tune-file patches"
      subtitle="Byte patches per firmware: entries with the bytes they replace, checked against each firmware's stock file"
      createLabel="New patch"
      searchPlaceholder="Search title and description"
      arrange={({ search, table }) => (
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: "patches",
              label: "Patches",
              children: (
                <Flex vertical gap={12}>
                  {search}
                  {table}
                </Flex>
              ),
            },
            { key: "apply", label: "Apply tool", children: <ApplyTool /> },
          ]}
        />
      )}
      columns={({ filters, sorters, drawer }) => (
        <>
          <Table.Column
            dataIndex="title"
            title="Title"
            sorter
            defaultSortOrder={getDefaultSortOrder("title", sorters)}
            render={(value: string, row: TuneFilePatch) => (
              <Button type="link" onClick={() => drawer.show(row.id)} style={{ padding: 0 }}>
                {value}
              </Button>
            )}
          />
          <Table.Column
            dataIndex="firmwareIds"
            title="Firmware"
            {...exactFilter("firmwareIds", "Firmware", filters)}
            render={(ids: string[]) => ids.map((id) => <Tag key={id}>{id}</Tag>)}
          />
          <Table.Column key="entries" title="Entries" render={(_, row: TuneFilePatch) => row.entries.length} />
          <Table.Column
            dataIndex="updatedAt"
            title="Updated"
            sorter
            render={(v: string) => new Date(v).toLocaleString()}
          />
        </>
      )}
      nameOf={(row) => row.title}
      drawerWidth={760}
      form={{
        createTitle: "New patch",
        editTitle: "Edit patch",
        render: (id, drawer) => <PatchForm id={id} onSaved={(saved) => drawer.show(saved.id)} />,
      }}
      show={{ title: "Patch", render: (id, drawer) => <PatchShow id={id} onEdit={() => drawer.edit(id)} /> }}
    />
  );
}
