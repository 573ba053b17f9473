import { Alert, Card, Col, Row, Segmented, Skeleton } from "antd";
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import type { TuneDefinition } from "../../../contracts/tune-definition";
import { readItem } from "../../../domain/tune/maps";
import { ItemTree } from "./item-tree";
import { ItemView } from "./item-view";

const HexView = lazy(() => import("./hex-view"));

/**
 * A local image the user opened: its maps read in the browser when the
 * server identified a firmware with a definition, and its bytes. The user
 * holds the file, so nothing here is protected.
 */
export function LocalImageView({
  file,
  definition,
  changed,
}: {
  file: File;
  definition: TuneDefinition | null;
  changed: ReadonlySet<string>;
}) {
  const [bytes, setBytes] = useState<Uint8Array | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [mode, setMode] = useState<"values" | "hex">(definition ? "values" : "hex");
  const [selectedId, setSelectedId] = useState<string | undefined>(definition?.items[0]?.id);
  useEffect(() => {
    let current = true;
    file.arrayBuffer().then(
      (buffer) => current && setBytes(new Uint8Array(buffer)),
      (caught: Error) => current && setError(`Could not read ${file.name}: ${caught.message}`),
    );
    return () => {
      current = false;
    };
  }, [file]);
  const item = definition?.items.find((candidate) => candidate.id === selectedId);
  const values = useMemo(() => {
    if (!bytes || !item) return { values: null, error: null };
    try {
      return { values: readItem(bytes, item), error: null };
    } catch (caught) {
      // An image shorter than the definition expects: say which map could not be read.
      return { values: null, error: (caught as Error).message };
    }
  }, [bytes, item]);

  if (error) return <Alert type="error" showIcon role="alert" message={error} />;
  if (!bytes) return <Skeleton active />;
  const hex = (
    <Suspense fallback={<Skeleton active />}>
      <HexView
        bytes={bytes}
        items={definition?.items ?? []}
        selected={item}
        onOpenItem={(id) => (setSelectedId(id), setMode("values"))}
      />
    </Suspense>
  );
  if (!definition)
    return (
      <Card size="small" title={`${file.name}: bytes`}>
        {hex}
      </Card>
    );
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={8} xl={6}>
        <Card size="small" title="Maps">
          <ItemTree
            items={definition.items}
            categories={definition.categories}
            changed={changed}
            selected={item?.id}
            onSelect={setSelectedId}
          />
        </Card>
      </Col>
      <Col xs={24} md={16} xl={18}>
        <Card
          size="small"
          title={file.name}
          extra={
            <Segmented
              aria-label="Show"
              value={mode}
              onChange={setMode}
              options={[
                { label: "Values", value: "values" },
                { label: "Hex", value: "hex" },
              ]}
            />
          }
        >
          {mode === "hex" ? (
            hex
          ) : values.error ? (
            <Alert type="error" showIcon role="alert" message={values.error} />
          ) : item && values.values ? (
            <ItemView key={item.id} item={item} values={values.values} onShowBytes={() => setMode("hex")} />
          ) : null}
        </Card>
      </Col>
    </Row>
  );
}
