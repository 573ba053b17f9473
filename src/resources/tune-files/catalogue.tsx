/** A dealer's own tune files (admins: everyone's), filtered and sorted on the server and synced to the URL. */
import { PlusOutlined } from "@ant-design/icons";
import { getDefaultSortOrder } from "@refinedev/antd";
import { Button, Flex, Table, Tag } from "antd";
import { apiPaths } from "../../../contracts/api-paths";
import type { TuneFile } from "../../../contracts/tune-files";
import { choiceFilter, exactFilter } from "../../components/resource/column-filters";
import { ConfirmDelete } from "../../components/resource/delete-button";
import type { DrawerRoute } from "../../components/resource/drawer-route";
import { ListSearch } from "../../components/resource/list-search";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { formatMoney } from "../../lib/money";

export function TuneCatalogue({ dealerUid, drawer }: { dealerUid: string | null; drawer: DrawerRoute }) {
  const { tableProps, filters, setFilters, sorters } = useResourceTable<TuneFile>(
    "tune-files",
    { field: "updatedAt", order: "desc" },
    {
      // Customers see published tunes in the same endpoint; the catalogue is the dealer's own.
      filters: { permanent: dealerUid ? [{ field: "dealerUid", operator: "eq", value: dealerUid }] : [] },
    },
  );
  return (
    <Flex vertical gap={12}>
      <Flex gap={8} wrap justify="space-between">
        <ListSearch filters={filters} setFilters={setFilters} placeholder="Search title, description, firmware" />
        <Button type="primary" icon={<PlusOutlined />} onClick={drawer.create}>
          Upload a tune
        </Button>
      </Flex>
      <Table {...tableProps} rowKey="id" size="middle" aria-label="Tune catalogue">
        <Table.Column
          dataIndex="title"
          title="Title"
          sorter
          defaultSortOrder={getDefaultSortOrder("title", sorters)}
          render={(value: string, row: TuneFile) => (
            <Button type="link" onClick={() => drawer.show(row.id)} style={{ padding: 0 }}>
              {value}
            </Button>
          )}
        />
        <Table.Column
          dataIndex="firmwareId"
          title="Firmware"
          sorter
          {...exactFilter("firmwareId", "Firmware", filters)}
        />
        <Table.Column dataIndex="currentVersion" title="Version" />
        <Table.Column
          dataIndex="published"
          title="Listing"
          {...choiceFilter("published", "Listing", filters, [
            { value: "true", label: "Published" },
            { value: "false", label: "Not published" },
          ])}
          render={(published: boolean) => (published ? <Tag color="green">published</Tag> : <Tag>draft</Tag>)}
        />
        <Table.Column
          dataIndex="priceCents"
          title="Price"
          sorter
          render={(_, row: TuneFile) => formatMoney(row.priceCents, row.currency)}
        />
        <Table.Column
          dataIndex="updatedAt"
          title="Updated"
          sorter
          defaultSortOrder={getDefaultSortOrder("updatedAt", sorters)}
          render={(v: string) => new Date(v).toLocaleString()}
        />
        <Table.Column
          key="actions"
          title=""
          render={(_, row: TuneFile) => (
            <ConfirmDelete resource="tune-files" apiPath={apiPaths["tune-files"].record} id={row.id} name={row.title} />
          )}
        />
      </Table>
    </Flex>
  );
}
