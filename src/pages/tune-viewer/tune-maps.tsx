import { useCustom, useDataProvider, useList } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Card, Col, Empty, Flex, Row, Segmented, Select, Skeleton, Typography } from "antd";
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { apiRoutes } from "../../../contracts/api-paths";
import type { TuneItem } from "../../../contracts/tune-definition";
import type { TuneFile, TuneMaps } from "../../../contracts/tune-files";
import { writeAddressParam } from "../../lib/address-param";
import { useTuneImage } from "./image-bytes";
import { ItemTree } from "./item-tree";
import { itemValuesQuery, localItemValues } from "./item-values";
import { ItemView } from "./item-view";
import { useTuneAndStockImages } from "./stock-image";
import { EditorToolbar, useTuneEditor } from "./tune-editor";

// Monaco is several MB: fetched only when someone opens the hex view or the hex diff.
const HexView = lazy(() => import("./hex-view"));
const HexDiff = lazy(() => import("./hex-diff"));

type Mode = "values" | "compare" | "hex" | "edit";

/** True from the first idle moment after `ready`: work the user has not asked for yet waits for the page to be drawn. */
function useIdle(ready: boolean): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (!ready || idle) return;
    const handle = requestIdleCallback(() => setIdle(true), { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }, [ready, idle]);
  return idle;
}

/**
 * The maps of a tune the caller may view: item tree at the left, the chosen
 * item (or the image's bytes) at the right. Values come one item at a time;
 * item, mode and what is compared with live in the URL.
 */
export function TuneMapsView({ tune }: { tune: TuneFile }) {
  const [params, setParams] = useSearchParams();
  const mayEdit = tune.access.owner && tune.access.download;
  const requested = params.get("mode");
  const mode: Mode =
    requested === "edit" && mayEdit
      ? "edit"
      : requested === "hex" && tune.access.download
        ? "hex"
        : requested === "compare"
          ? "compare"
          : "values";
  const against = mode === "compare" ? params.get("against") : null;
  // Built from the address bar, not the router's copy: the chosen map is written there without the router (below).
  const update = (changes: Record<string, string | null>) =>
    setParams(
      () => {
        const next = new URLSearchParams(window.location.search);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );

  // The map shown is state here, written to the address bar without a router navigation: a navigation
  // renders the whole app shell again, which alone took most of the time a map switch may take (docs/develop/benchmarks.md).
  const itemParam = params.get("item");
  const [chosenItem, setChosenItem] = useState(itemParam);
  useEffect(() => setChosenItem(itemParam), [itemParam]);
  const selectItem = useCallback((id: string) => {
    setChosenItem(id);
    writeAddressParam("item", id);
  }, []);

  const { query } = useCustom<TuneMaps>({
    url: apiRoutes.tuneFiles.maps(tune.id),
    method: "get",
    queryOptions: { staleTime: 60_000 },
  });
  const { query: comparedQuery } = useCustom<TuneMaps>({
    url: apiRoutes.tuneFiles.maps(tune.id),
    method: "get",
    config: { query: { against: against ?? undefined } },
    queryOptions: { enabled: against !== null, staleTime: 60_000 },
  });
  const maps = query.data?.data;
  const compared = against ? comparedQuery.data?.data : maps;
  const changed = useMemo(() => new Set(compared?.changed ?? []), [compared]);
  const editor = useTuneEditor(tune, mode === "edit");

  const items = maps?.definition?.items ?? [];
  // Without a choice, open the first changed map: that is what a buyer or reviewer came to see.
  const selectedId = chosenItem ?? maps?.changed[0] ?? items[0]?.id;
  const item = items.find((candidate) => candidate.id === selectedId);
  const dataProvider = useDataProvider();
  const queryClient = useQueryClient();
  // Kept once true: once values are read from the image, the query holds no data for the map shown.
  const [firstShown, setFirstShown] = useState(false);
  // Opening the hex view of an 8 MiB image within a second needs Monaco and the bytes here already:
  // both are fetched in idle time once the first map is on screen, for whoever may download the image.
  const preload = useIdle(firstShown && tune.access.download);
  const prefetched = useTuneImage(tune.id, tune.currentVersion, preload).data;
  // Once those bytes are here a map's values are read from them, with no request (about a third of a switch).
  // Only without a base: the stock file is not the caller's to download, so comparisons ask the server.
  const readsLocally = mode === "values" && prefetched !== undefined;
  const local = useMemo(
    () => (readsLocally && item ? localItemValues(prefetched, item) : null),
    [readsLocally, prefetched, item],
  );
  const valuesQuery = useQuery({
    ...itemValuesQuery(dataProvider, tune, selectedId ?? "", against),
    enabled: item !== undefined && mode !== "edit" && mode !== "hex" && local === null,
  });
  useEffect(() => {
    if (valuesQuery.data !== undefined || local !== null) setFirstShown(true);
  }, [valuesQuery.data, local]);
  const { id: tuneId, currentVersion } = tune;
  // Stable while the tune and the comparison stay: a new function would render the whole tree again, so
  // whether values are read locally (which changes when the image arrives) is read through a ref.
  const readsLocallyRef = useRef(readsLocally);
  useEffect(() => {
    readsLocallyRef.current = readsLocally;
  }, [readsLocally]);
  const prefetchItem = useCallback(
    (id: string) => {
      if (!readsLocallyRef.current)
        void queryClient.prefetchQuery(itemValuesQuery(dataProvider, { id: tuneId, currentVersion }, id, against));
    },
    [queryClient, dataProvider, tuneId, currentVersion, against],
  );
  useEffect(() => {
    if (!preload) return;
    let cancel: () => void = () => undefined;
    let done = false;
    void import("./hex-view").then((module) => {
      if (prefetched && !done) cancel = module.prepareDumpWhenIdle(prefetched);
    });
    return () => {
      done = true;
      cancel();
    };
  }, [preload, prefetched]);

  if (query.isError) return <Alert type="error" showIcon role="alert" message={query.error.message} />;
  if (!maps) return <Skeleton active />;
  if (!maps.definition) {
    return (
      <Flex vertical gap={16}>
        <Alert
          type="info"
          showIcon
          message={`Firmware ${maps.firmwareId} has no map definition yet; the checksum report above and the bytes are what can be shown.`}
        />
        {tune.access.download && <TuneHex tune={tune} items={[]} />}
      </Flex>
    );
  }

  const baseLabel = compared?.base?.kind === "tune" ? compared.base.title : "Stock";
  // While editing, values are read from the edited image in the browser; otherwise from the saved image when it is here, or the server's reading.
  const edited = mode === "edit" && item ? editor.valuesOf(item) : null;
  const shown = local ? { values: local, base: null } : valuesQuery.data;
  const modes = [
    { label: "Values", value: "values" },
    { label: "Compare", value: "compare" },
    ...(tune.access.download ? [{ label: "Hex", value: "hex" }] : []),
    ...(mayEdit ? [{ label: "Edit", value: "edit" }] : []),
  ];

  let content: ReactNode;
  if (mode === "hex")
    content = (
      <TuneHex tune={tune} items={items} selected={item} onOpenItem={(id) => update({ item: id, mode: null })} />
    );
  else if (mode === "compare" && params.get("diff") === "hex") {
    content = against ? (
      <TuneHexDiff tune={tune} otherId={against} otherTitle={baseLabel} />
    ) : (
      <StockHexDiff tune={tune} />
    );
  } else if (mode === "edit" && editor.error && !editor.image)
    content = <Alert type="error" showIcon role="alert" message={editor.error} />;
  else if (!item) content = <Empty description="The definition lists no maps" />;
  else if (mode === "edit") {
    content = edited ? (
      <ItemView
        key={item.id}
        item={item}
        values={edited}
        editing={{
          selection: editor.selectionOf(item),
          onCellClick: (row, col, extend) => editor.select(item, row, col, extend),
          onSetScalar: (value) => editor.setScalar(item, value),
        }}
        toolbar={
          <EditorToolbar editor={editor} item={item} values={edited} tune={tune} onSaved={() => void query.refetch()} />
        }
      />
    ) : (
      <Skeleton active />
    );
  } else if (valuesQuery.isError)
    content = <Alert type="error" showIcon role="alert" message={valuesQuery.error.message} />;
  else if (!shown || shown.values.id !== item.id) content = <Skeleton active />;
  else {
    content = (
      <ItemView
        key={item.id}
        item={item}
        values={shown.values}
        stock={mode === "compare" ? (shown.base ?? undefined) : undefined}
        baseLabel={baseLabel}
        onShowBytes={tune.access.download ? () => update({ mode: "hex" }) : undefined}
      />
    );
  }

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={8} xl={6}>
        <Card size="small" title="Maps">
          <ItemTree
            items={items}
            categories={maps.definition.categories}
            changed={changed}
            selected={item?.id}
            onSelect={selectItem}
            onHover={prefetchItem}
          />
        </Card>
      </Col>
      <Col xs={24} md={16} xl={18}>
        <Card
          size="small"
          title={
            mode === "compare" && (
              <CompareWith
                tune={tune}
                against={against}
                hasStock={maps.base !== null}
                hexDiff={params.get("diff") === "hex"}
                onChange={update}
              />
            )
          }
          extra={
            <Segmented
              aria-label="Show"
              value={mode}
              onChange={(value) => update({ mode: value === "values" ? null : value, diff: null })}
              options={modes}
            />
          }
        >
          {mode === "compare" && !against && maps.base === null ? (
            <Alert
              type="info"
              showIcon
              message="There is no stock file for this firmware: choose another tune to compare with."
            />
          ) : (
            content
          )}
        </Card>
      </Col>
    </Row>
  );
}

/** What to compare with: stock or another tune of the same firmware the caller may view; bytes side by side when both may be downloaded. */
function CompareWith({
  tune,
  against,
  hasStock,
  hexDiff,
  onChange,
}: {
  tune: TuneFile;
  against: string | null;
  hasStock: boolean;
  hexDiff: boolean;
  onChange: (changes: Record<string, string | null>) => void;
}) {
  const { result, query } = useList<TuneFile>({
    resource: "tune-files",
    pagination: { pageSize: 100 },
    filters: [{ field: "firmwareId", operator: "eq", value: tune.firmwareId }],
    sorters: [{ field: "title", order: "asc" }],
  });
  const others = result.data.filter((other) => other.id !== tune.id && other.access.view);
  const other = others.find((candidate) => candidate.id === against);
  return (
    <Flex gap={8} align="center" wrap>
      <Typography.Text>Compare with</Typography.Text>
      <Select
        aria-label="Compare with"
        style={{ minWidth: 260 }}
        loading={query.isLoading}
        value={against ?? (hasStock ? "stock" : undefined)}
        placeholder="another tune"
        onChange={(value: string) => onChange({ against: value === "stock" ? null : value, diff: null })}
        options={[
          ...(hasStock ? [{ value: "stock", label: "Stock" }] : []),
          ...others.map((candidate) => ({
            value: candidate.id,
            label: `${candidate.title}${candidate.access.owner ? " (yours)" : candidate.access.bought ? " (bought)" : ""}`,
          })),
        ]}
        notFoundContent="No other tune of this firmware that you may view"
      />
      {tune.access.download && (other ? other.access.download : against === null && hasStock) && (
        <Segmented
          aria-label="Comparison"
          value={hexDiff ? "hex" : "maps"}
          onChange={(value) => onChange({ diff: value === "hex" ? "hex" : null })}
          options={[
            { label: "Maps", value: "maps" },
            { label: "Hex diff", value: "hex" },
          ]}
        />
      )}
    </Flex>
  );
}

function TuneHex({
  tune,
  items,
  selected,
  onOpenItem,
}: {
  tune: TuneFile;
  items: readonly TuneItem[];
  selected?: TuneItem;
  onOpenItem?: (id: string) => void;
}) {
  const image = useTuneImage(tune.id, tune.currentVersion);
  if (image.isError) return <Alert type="error" showIcon role="alert" message={image.error.message} />;
  if (!image.data) return <Skeleton active />;
  return (
    <Suspense fallback={<Skeleton active />}>
      <HexView bytes={image.data} items={items} selected={selected} onOpenItem={onOpenItem} />
    </Suspense>
  );
}

/** Against stock: the stock side is the tune's bytes with the stock bytes the tune changes laid over (the stock file is for admins). */
function StockHexDiff({ tune }: { tune: TuneFile }) {
  const { images, error } = useTuneAndStockImages(tune.id, tune.currentVersion);
  if (error) return <Alert type="error" showIcon role="alert" message={error.message} />;
  if (!images) return <Skeleton active />;
  return (
    <Suspense fallback={<Skeleton active />}>
      <HexDiff left={images.stock} right={images.tune} leftLabel="Stock" rightLabel={tune.title} />
    </Suspense>
  );
}

function TuneHexDiff({ tune, otherId, otherTitle }: { tune: TuneFile; otherId: string; otherTitle: string }) {
  const mine = useTuneImage(tune.id, tune.currentVersion);
  const theirs = useTuneImage(otherId);
  const error = mine.error ?? theirs.error;
  if (error) return <Alert type="error" showIcon role="alert" message={error.message} />;
  if (!mine.data || !theirs.data) return <Skeleton active />;
  return (
    <Suspense fallback={<Skeleton active />}>
      <HexDiff left={theirs.data} right={mine.data} leftLabel={otherTitle} rightLabel={tune.title} />
    </Suspense>
  );
}
