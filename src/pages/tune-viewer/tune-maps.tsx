import { useCustom } from "@refinedev/core";
import { Alert, Card, Col, Empty, Row, Segmented, Skeleton } from "antd";
import { useMemo } from "react";
import { useSearchParams } from "react-router";
import type { TuneFile, TuneMaps } from "../../../contracts/tune-files";
import { ItemTree } from "./item-tree";
import { ItemView } from "./item-view";
import { EditorToolbar, useTuneEditor } from "./tune-editor";
import { changedItemIds } from "./model";

/** The maps of a tune the caller may view: item tree at the left, the chosen item at the right; item and mode live in the URL. */
export function TuneMapsView({ tune }: { tune: TuneFile }) {
  const [params, setParams] = useSearchParams();
  const { query } = useCustom<TuneMaps>({ url: `tune-files/${tune.id}/maps`, method: "get", queryOptions: { staleTime: 60_000 } });
  const maps = query.data?.data;
  const mayEdit = tune.access.owner && tune.access.download;
  const mode = params.get("mode") === "edit" && mayEdit ? "edit" : params.get("mode") === "stock" ? "stock" : "values";
  const editor = useTuneEditor(tune, mode === "edit");
  const changed = useMemo(() => (maps ? changedItemIds(maps.values, maps.stock) : new Set<string>()), [maps]);
  const update = (key: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );

  if (query.isError) return <Alert type="error" showIcon role="alert" message={query.error.message} />;
  if (!maps) return <Skeleton active />;
  if (!maps.definition) return <Alert type="info" showIcon message={`Firmware ${maps.firmwareId} has no map definition yet; the checksum report above is what can be shown.`} />;

  const { items, categories } = maps.definition;
  // Without a choice, open the first changed map: that is what a buyer or reviewer came to see.
  const selectedId = params.get("item") ?? items.find((item) => changed.has(item.id))?.id ?? items[0]?.id;
  const item = items.find((candidate) => candidate.id === selectedId);
  const compare = mode === "stock" && maps.stock !== null;
  // While editing, values are read from the edited image in the browser; otherwise from the server's reading.
  const edited = mode === "edit" && item ? editor.valuesOf(item) : null;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={8} xl={6}>
        <Card size="small" title="Maps">
          <ItemTree items={items} categories={categories} changed={changed} selected={item?.id} onSelect={(id) => update("item", id)} />
        </Card>
      </Col>
      <Col xs={24} md={16} xl={18}>
        <Card
          size="small"
          extra={
            <Segmented
              aria-label="Show"
              value={mode}
              onChange={(value) => update("mode", value === "values" ? null : value)}
              options={[
                { label: "Values", value: "values" },
                { label: "Compare with stock", value: "stock", disabled: maps.stock === null },
                ...(mayEdit ? [{ label: "Edit", value: "edit" }] : []),
              ]}
            />
          }
        >
          {mode === "edit" && editor.error && !editor.image ? (
            <Alert type="error" showIcon role="alert" message={editor.error} />
          ) : mode === "edit" && !edited ? (
            <Skeleton active />
          ) : item ? (
            <ItemView
              key={item.id}
              item={item}
              values={edited ?? maps.values[item.id]}
              stock={compare ? maps.stock?.[item.id] : undefined}
              editing={edited ? { selection: editor.selectionOf(item), onCellClick: (row, col, extend) => editor.select(item, row, col, extend) } : undefined}
              toolbar={edited && <EditorToolbar editor={editor} item={item} values={edited} tune={tune} onSaved={() => void query.refetch()} />}
            />
          ) : (
            <Empty description="The definition lists no maps" />
          )}
        </Card>
      </Col>
    </Row>
  );
}
