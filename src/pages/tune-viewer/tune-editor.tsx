import { DownloadOutlined, RedoOutlined, SaveOutlined, UndoOutlined } from "@ant-design/icons";
import { type HttpError, useCustomMutation, useDataProvider, useInvalidate } from "@refinedev/core";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Flex, Form, Input, InputNumber, Modal, Space, Tooltip, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { TuneItem } from "../../../contracts/tune-definition";
import type { TuneFile } from "../../../contracts/tune-files";
import type { ItemValues } from "../../../domain/tune/maps";
import { readItem } from "../../../domain/tune/maps";
import { ChecksumTable } from "../../components/tune-inspection";
import {
  type CellRange,
  editItem,
  emptyHistory,
  type History,
  mapCsv,
  type RangeOperation,
  recorded,
  redo,
  undo,
} from "./editing";
import { tuneImageQuery } from "./image-bytes";
import { axisLabels } from "./model";

export interface TuneEditor {
  image: Uint8Array | null;
  loading: boolean;
  error: string | null;
  history: History;
  /** The selected cells of an item: a selection belongs to the item it was made in. */
  selectionOf: (item: TuneItem) => CellRange | null;
  select: (item: TuneItem, row: number, col: number, extend: boolean) => void;
  apply: (item: TuneItem, operation: RangeOperation) => void;
  /** Sets a constant, flag or enum: one edit in the same history as a table's. */
  setScalar: (item: TuneItem, value: number) => void;
  undo: () => void;
  redo: () => void;
  valuesOf: (item: TuneItem) => ItemValues | null;
  reset: () => void;
}

/** The tune's image in the browser with an edit history; loaded only when the owner starts editing. */
export function useTuneEditor(tune: TuneFile, enabled: boolean): TuneEditor {
  const dataProvider = useDataProvider();
  const queryClient = useQueryClient();
  const [image, setImage] = useState<Uint8Array | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [history, setHistory] = useState<History>(emptyHistory);
  const [selection, setSelection] = useState<{ itemId: string; range: CellRange } | null>(null);
  // The image is changed in place (an 8 MiB copy per keystroke would be too slow): a counter makes React render again.
  const [, setRevision] = useState(0);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      // A copy: the cached bytes are the saved version, which the hex view shows.
      setImage(
        Uint8Array.from(await queryClient.fetchQuery(tuneImageQuery(dataProvider, tune.id, tune.currentVersion))),
      );
      setHistory(emptyHistory);
      setError(null);
    } catch (caught) {
      setError((caught as HttpError).message);
    } finally {
      setLoading(false);
    }
  }, [dataProvider, queryClient, tune.id, tune.currentVersion]);

  useEffect(() => {
    if (enabled && !image && !loading) void load();
  }, [enabled, image, loading, load]);

  const edit = (item: TuneItem, range: CellRange, operation: RangeOperation) => {
    if (!image) return;
    try {
      // Applied before the state update: the bytes change once, not once per render of a strict-mode updater.
      const done = editItem(image, item, range, operation);
      setHistory((current) => recorded(current, done));
      setRevision((n) => n + 1);
      setError(null);
    } catch (caught) {
      setError((caught as Error).message);
    }
  };

  return {
    image,
    loading,
    error,
    history,
    selectionOf: (item) => (selection?.itemId === item.id ? selection.range : null),
    select: (item, row, col, extend) => {
      setSelection((current) =>
        extend && current?.itemId === item.id
          ? { itemId: item.id, range: { ...current.range, row1: row, col1: col } }
          : { itemId: item.id, range: { row0: row, col0: col, row1: row, col1: col } },
      );
      setError(null);
    },
    apply: (item, operation) => {
      if (selection?.itemId === item.id) edit(item, selection.range, operation);
    },
    setScalar: (item, value) => edit(item, { row0: 0, col0: 0, row1: 0, col1: 0 }, { kind: "set", value }),
    undo: () => {
      if (image) setHistory(undo(image, history));
      setRevision((n) => n + 1);
    },
    redo: () => {
      if (image) setHistory(redo(image, history));
      setRevision((n) => n + 1);
    },
    valuesOf: (item) => (image ? readItem(image, item) : null),
    reset: () => {
      setImage(null);
      setSelection(null);
      setHistory(emptyHistory);
    },
  };
}

function downloadText(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  link.click();
  URL.revokeObjectURL(url);
}

/** Set, add, multiply by a percentage or interpolate the selected cells; undo, redo, export and save. */
export function EditorToolbar({
  editor,
  item,
  values,
  tune,
  onSaved,
}: {
  editor: TuneEditor;
  item: TuneItem;
  values: ItemValues;
  tune: TuneFile;
  onSaved: () => void;
}) {
  const [amount, setAmount] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const table = item.kind === "table1d" || item.kind === "table2d";
  const ready = editor.selectionOf(item) !== null && table;
  const needAmount = !ready || amount === null;
  const exportCsv = () => {
    const cols = item.kind === "table1d" ? values.values.length : values.cols;
    const rows = item.kind === "table1d" ? 1 : values.rows;
    downloadText(
      `${item.id}.csv`,
      mapCsv(
        { ...values, rows, cols },
        axisLabels(values.x, cols),
        item.kind === "table1d" ? [""] : axisLabels(values.y, rows),
      ),
    );
  };
  return (
    <Flex vertical gap={8} data-testid="map-editor">
      <Flex gap={8} wrap align="center">
        <InputNumber
          aria-label="Amount"
          placeholder={table ? "value or %" : "tables only"}
          value={amount}
          onChange={(v) => setAmount(v)}
          disabled={!table}
          style={{ width: 140 }}
        />
        <Space.Compact>
          <Button disabled={needAmount} onClick={() => editor.apply(item, { kind: "set", value: amount! })}>
            Set
          </Button>
          <Button disabled={needAmount} onClick={() => editor.apply(item, { kind: "add", value: amount! })}>
            Add
          </Button>
          <Button disabled={needAmount} onClick={() => editor.apply(item, { kind: "percent", value: amount! })}>
            ± %
          </Button>
          <Tooltip title="Fill the selection from its corners">
            <Button disabled={!ready} onClick={() => editor.apply(item, { kind: "interpolate" })}>
              Interpolate
            </Button>
          </Tooltip>
        </Space.Compact>
        <Button
          icon={<UndoOutlined />}
          aria-label="Undo"
          disabled={editor.history.undo.length === 0}
          onClick={editor.undo}
        />
        <Button
          icon={<RedoOutlined />}
          aria-label="Redo"
          disabled={editor.history.redo.length === 0}
          onClick={editor.redo}
        />
        {table && (
          <Button icon={<DownloadOutlined />} onClick={exportCsv}>
            CSV
          </Button>
        )}
        <Button
          type="primary"
          icon={<SaveOutlined />}
          disabled={editor.history.undo.length === 0}
          onClick={() => setSaving(true)}
        >
          Save as new version
        </Button>
      </Flex>
      <Typography.Text type="secondary">
        {table
          ? "Click a cell to select it, shift-click another to select the range between them."
          : "Type the value in its unit, or choose it, below; undo and redo work as for tables."}
      </Typography.Text>
      {editor.error && <Alert type="error" showIcon role="alert" message={editor.error} />}
      {saving && editor.image && (
        <SaveDialog
          tune={tune}
          image={editor.image}
          onClose={(saved) => {
            setSaving(false);
            // Only now: the dialog shows the report until the user leaves it, then the editor reloads the new version.
            if (saved) {
              editor.reset();
              onSaved();
            }
          }}
        />
      )}
    </Flex>
  );
}

/** Uploads the edited image as a new version; the server fixes the checksums and its report is shown before the dialog closes. */
function SaveDialog({
  tune,
  image,
  onClose,
}: {
  tune: TuneFile;
  image: Uint8Array;
  onClose: (saved: boolean) => void;
}) {
  const [form] = Form.useForm<{ version: string; notes: string }>();
  const { mutate, mutation } = useCustomMutation<TuneFile>();
  const invalidate = useInvalidate();
  const [saved, setSaved] = useState<TuneFile | null>(null);
  const save = ({ version, notes }: { version: string; notes: string }) => {
    const body = new FormData();
    body.append("version", version);
    body.append("notes", notes ?? "");
    body.append("fixChecksums", "true");
    body.append(
      "file",
      new Blob([image as Uint8Array<ArrayBuffer>], { type: "application/octet-stream" }),
      `${tune.firmwareId}.bin`,
    );
    mutate(
      {
        url: apiRoutes.tuneFiles.blob(tune.id),
        method: "post",
        values: body,
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          setSaved(data);
          void invalidate({ resource: "tune-files", id: tune.id, invalidates: ["detail", "list"] });
        },
      },
    );
  };
  const version = saved?.versions?.find((v) => v.number === saved.currentVersion);
  return (
    <Modal
      open
      title={saved ? `Saved as version ${saved.currentVersion}` : "Save as a new version"}
      onCancel={() => onClose(saved !== null)}
      okText={saved ? "Done" : "Save"}
      onOk={() => (saved ? onClose(true) : form.submit())}
      confirmLoading={mutation.isPending}
      cancelButtonProps={{ style: saved ? { display: "none" } : undefined }}
    >
      {saved && version ? (
        <Flex vertical gap={8} data-testid="saved-report">
          <Typography.Text>The server checked and fixed the checksums:</Typography.Text>
          <ChecksumTable checksums={version.checksums} />
        </Flex>
      ) : (
        <Form
          form={form}
          layout="vertical"
          onFinish={save}
          initialValues={{ version: `${tune.currentVersion + 1}.0`, notes: "" }}
        >
          <Form.Item
            name="version"
            label="Version label"
            rules={[{ required: true, message: "Give the version a label" }]}
          >
            <Input maxLength={40} />
          </Form.Item>
          <Form.Item name="notes" label="Notes">
            <Input.TextArea maxLength={2000} rows={3} />
          </Form.Item>
          {mutation.error && (
            <Alert
              type="error"
              showIcon
              role="alert"
              message={mutation.error.message}
              description={(mutation.error as HttpError & { description?: string }).description}
            />
          )}
        </Form>
      )}
    </Modal>
  );
}
