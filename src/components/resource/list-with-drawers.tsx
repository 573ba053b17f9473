/**
 * The admin catalogue page: a server-paged list with search, its create and edit forms (and a
 * record view, when it has one) in drawers on routes of their own over the list, and on each
 * row "Edit" and a confirmed delete. Each catalogue says only what differs: its columns, its
 * form, its labels.
 *
 *   <ListWithDrawers<ObdFunction> resource="obd-functions" path="/admin/obd-functions"
 *     sort={{ field: "name", order: "asc" }} title="OBD functions" subtitle="…" createLabel="New function"
 *     searchPlaceholder="Search name" tableLabel="OBD functions" nameOf={(fn) => fn.name}
 *     columns={({ filters, sorters }) => <>…<Table.Column …/></>}
 *     form={{ createTitle: "New OBD function", editTitle: "Edit OBD function", render: (id, drawer) => <ObdFunctionForm id={id} onSaved={drawer.close} /> }} />
 *
 * The list and its drawers read and write the resource's paths in contracts/api-paths.ts.
 */
import { PlusOutlined } from "@ant-design/icons";
import type { BaseRecord, CrudFilter, CrudSort } from "@refinedev/core";
import { Button, Flex, Space, Table } from "antd";
import type { ReactNode } from "react";
import { type ApiResource, apiPaths } from "../../../contracts/api-paths";
import { PageFrame } from "../page-frame";
import { ConfirmDelete } from "./delete-button";
import { type DrawerRoute, RouteDrawer, useDrawerRoute } from "./drawer-route";
import { ListSearch } from "./list-search";
import { useResourceTable } from "./use-resource-table";

export interface ListContext {
  filters: CrudFilter[];
  sorters: CrudSort[];
  drawer: DrawerRoute;
}

export interface ListWithDrawersProps<Row extends BaseRecord & { id: string }> {
  resource: ApiResource;
  /** The list's route; the drawers' routes are under it (src/components/resource/drawer-route.tsx). */
  path: string;
  sort: CrudSort;
  title: string;
  subtitle: string;
  /** The label of the primary button that opens the create drawer. */
  createLabel: string;
  /** More buttons in the page header, before the create button. */
  extra?: (list: ListContext) => ReactNode;
  /** Above the search, e.g. the tabs of a group of catalogues. */
  sections?: ReactNode;
  searchPlaceholder: string;
  /** Lets the search row wrap. */
  searchWrap?: boolean;
  tableLabel?: string;
  /** The table's columns before the actions column. */
  columns: (list: ListContext) => ReactNode;
  /** The record's name in the delete confirmation. */
  nameOf: (row: Row) => string;
  /** False when records are never edited: the rows offer only delete. */
  editable?: boolean;
  drawerWidth?: number;
  form: { createTitle: string; editTitle?: string; render: (id: string | undefined, drawer: DrawerRoute) => ReactNode };
  show?: { title: string; render: (id: string, drawer: DrawerRoute) => ReactNode };
  /**
   * Places the search and the table on the page when they are not simply one under the other
   * (e.g. in the first of several tabs); the default puts the search in a row above the table.
   */
  arrange?: (parts: { search: ReactNode; table: ReactNode }) => ReactNode;
  /** More drawers or dialogs of the page. */
  children?: ReactNode;
}

export function ListWithDrawers<Row extends BaseRecord & { id: string }>({
  resource,
  path,
  sort,
  title,
  subtitle,
  createLabel,
  extra,
  sections,
  searchPlaceholder,
  searchWrap,
  tableLabel,
  columns,
  nameOf,
  editable = true,
  drawerWidth,
  form,
  show,
  arrange,
  children,
}: ListWithDrawersProps<Row>) {
  const drawer = useDrawerRoute(path);
  const { tableProps, filters, setFilters, sorters } = useResourceTable<Row>(resource, sort, {
    meta: { apiPath: apiPaths[resource].list },
  });
  const list: ListContext = { filters, sorters, drawer };
  const create = (
    <Button type="primary" icon={<PlusOutlined />} onClick={drawer.create}>
      {createLabel}
    </Button>
  );
  const search = <ListSearch filters={filters} setFilters={setFilters} placeholder={searchPlaceholder} />;
  const table = (
    // A table wider than a phone scrolls in its own frame instead of the page (scroll.x "max-content").
    <Table {...tableProps} rowKey="id" size="middle" aria-label={tableLabel} scroll={{ x: "max-content" }}>
      {columns(list)}
      <Table.Column
        key="actions"
        title="Actions"
        render={(_, row: Row) => (
          <Space>
            {editable && (
              <Button size="small" onClick={() => drawer.edit(row.id)}>
                Edit
              </Button>
            )}
            <ConfirmDelete resource={resource} apiPath={apiPaths[resource].record} id={row.id} name={nameOf(row)} />
          </Space>
        )}
      />
    </Table>
  );
  return (
    <PageFrame
      title={title}
      subtitle={subtitle}
      extra={
        extra ? (
          <>
            {extra(list)}
            {create}
          </>
        ) : (
          create
        )
      }
    >
      {sections}
      {arrange ? (
        arrange({ search, table })
      ) : (
        <>
          <Flex gap={8} wrap={searchWrap}>
            {search}
          </Flex>
          {table}
        </>
      )}
      <RouteDrawer
        open={drawer.action === "create"}
        title={form.createTitle}
        onClose={drawer.close}
        width={drawerWidth}
      >
        {form.render(undefined, drawer)}
      </RouteDrawer>
      {editable && (
        <RouteDrawer open={drawer.action === "edit"} title={form.editTitle} onClose={drawer.close} width={drawerWidth}>
          {drawer.id && form.render(drawer.id, drawer)}
        </RouteDrawer>
      )}
      {show && (
        <RouteDrawer open={drawer.action === "show"} title={show.title} onClose={drawer.close} width={drawerWidth}>
          {drawer.id && show.render(drawer.id, drawer)}
        </RouteDrawer>
      )}
      {children}
    </PageFrame>
  );
}
