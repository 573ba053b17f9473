/**
 * The inspection report of a tune image (contracts/tune-files Inspection):
 * which firmware it is, every checksum with stored and computed values, the
 * state of each patch, and what changed against stock by map. Shown before a
 * dealer saves an upload and in the patch apply tool.
 */
import { UploadOutlined } from "@ant-design/icons";
import { type HttpError, useCustomMutation } from "@refinedev/core";
import { Alert, Button, Descriptions, Flex, Progress, Table, Tag, Typography, Upload } from "antd";
import { useState } from "react";
import { apiRoutes } from "../../contracts/api-paths";
import type { ChecksumReport, Inspection, InspectionChange, LocalInspection } from "../../contracts/tune-files";
import { useUpload } from "./resource/use-upload";

const hexAddress = (n: number) => `0x${n.toString(16).toUpperCase()}`;
const STATE_COLOURS: Record<string, string> = { applied: "green", absent: "default", conflict: "red" };

export function ChecksumTable({ checksums }: { checksums: ChecksumReport[] }) {
  return (
    <Table
      size="small"
      rowKey="name"
      pagination={false}
      dataSource={checksums}
      aria-label="Checksums"
      columns={[
        { dataIndex: "name", title: "Checksum" },
        { dataIndex: "type", title: "Type" },
        {
          dataIndex: "valid",
          title: "Result",
          render: (valid: boolean) => (valid ? <Tag color="green">valid</Tag> : <Tag color="red">fails</Tag>),
        },
        // A hex value is one word: it never breaks across lines.
        {
          dataIndex: "stored",
          title: "Stored",
          render: (v: string) => (
            <Typography.Text code style={{ whiteSpace: "nowrap" }}>
              {v}
            </Typography.Text>
          ),
        },
        {
          dataIndex: "computed",
          title: "Computed",
          render: (v: string) => (
            <Typography.Text code style={{ whiteSpace: "nowrap" }}>
              {v}
            </Typography.Text>
          ),
        },
      ]}
    />
  );
}

export function PatchStateTag({ state }: { state: string }) {
  return <Tag color={STATE_COLOURS[state]}>{state}</Tag>;
}

function changeItems(change: InspectionChange) {
  if (change.items.length === 0)
    return change.checksums.length ? (
      `checksum ${change.checksums.join(", ")}`
    ) : (
      <Typography.Text type="secondary">outside any map</Typography.Text>
    );
  return change.items.map((item) => {
    const first = item.cells[0];
    // In the definition's own decimals: the raw scaling gave "4.91153958 → 5.64633684".
    const shown = (value: number) =>
      item.decimals !== undefined ? value.toFixed(item.decimals) : String(Number(value.toPrecision(6)));
    const sample = first
      ? ` (${shown(first.before)} → ${shown(first.after)}${item.unit ? ` ${item.unit}` : ""}${item.cells.length > 1 ? `, ${item.cells.length} cells` : ""})`
      : "";
    return (
      <div key={`${item.id}-${item.part}`}>
        {item.title}
        {item.part !== "z" ? ` ${item.part} axis` : ""}
        {sample}
      </div>
    );
  });
}

/**
 * `changesTable: false` keeps the count of changed regions and maps in the summary but leaves the
 * table out, for a page that shows the changed maps itself (the tune viewer).
 */
export function InspectionReport({ report, changesTable = true }: { report: Inspection; changesTable?: boolean }) {
  const failing = report.checksums.filter((c) => !c.valid);
  const changedMaps = new Set(report.changes?.flatMap((range) => range.items.map((item) => item.id)) ?? []).size;
  return (
    <Flex vertical gap={12} data-testid="inspection-report">
      {report.notes.map((note) => (
        <Alert key={note} type={report.firmwareId ? "info" : "error"} showIcon message={note} />
      ))}
      <Descriptions size="small" bordered column={1}>
        <Descriptions.Item label="Firmware">{report.firmwareId ?? "not recognised"}</Descriptions.Item>
        <Descriptions.Item label="Size">{report.size.toLocaleString()} bytes</Descriptions.Item>
        <Descriptions.Item label="SHA-256">
          <Typography.Text code copyable>
            {report.sha256}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="Checksums">
          {report.checksums.length === 0 ? (
            "—"
          ) : failing.length === 0 ? (
            <Tag color="green">all {report.checksums.length} valid</Tag>
          ) : (
            <Tag color="red">{failing.length} failing</Tag>
          )}
        </Descriptions.Item>
        <Descriptions.Item label="Changed regions">
          {report.changes === null
            ? "not compared with stock"
            : `${report.changes.length} ${report.changes.length === 1 ? "region" : "regions"}, ${changedMaps} ${changedMaps === 1 ? "map" : "maps"}`}
        </Descriptions.Item>
      </Descriptions>
      {report.checksums.length > 0 && <ChecksumTable checksums={report.checksums} />}
      {report.patches.length > 0 && (
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={report.patches}
          aria-label="Patches"
          columns={[
            // A patch often shares its title with the map it writes ("Launch control"): the suffix tells them apart.
            { dataIndex: "title", title: "Patch", render: (title: string) => `${title} (patch)` },
            { dataIndex: "state", title: "State", render: (state: string) => <PatchStateTag state={state} /> },
          ]}
        />
      )}
      {changesTable && report.changes && report.changes.length > 0 && (
        <Table
          size="small"
          rowKey="start"
          dataSource={report.changes}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          aria-label="Changes against stock"
          columns={[
            {
              key: "range",
              title: "Range",
              render: (_, c: InspectionChange) => `${hexAddress(c.start)}–${hexAddress(c.end)}`,
            },
            { dataIndex: "length", title: "Bytes" },
            { key: "items", title: "Maps", render: (_, c: InspectionChange) => changeItems(c) },
          ]}
        />
      )}
    </Flex>
  );
}

/**
 * Choose an image and have it inspected (POST /tune-files/inspect, with
 * upload progress); the report is shown here and handed to the caller with
 * the file, which the caller sends again when the user goes on.
 */
export function InspectedImage({
  label,
  onInspected,
  withDefinition = false,
}: {
  label: string;
  onInspected: (file: File, report: LocalInspection | null) => void;
  /** Ask for the identified firmware's definition too (the tune viewer shows a local image's maps). */
  withDefinition?: boolean;
}) {
  const [file, setFile] = useState<File | null>(null);
  const upload = useUpload();
  const [report, setReport] = useState<Inspection | null>(null);
  const [error, setError] = useState<HttpError | null>(null);
  const { mutate, mutation } = useCustomMutation<LocalInspection>();

  const choose = (next: File) => {
    setFile(next);
    setReport(null);
    setError(null);
    onInspected(next, null);
    const form = new FormData();
    form.append("file", next);
    upload.start();
    mutate(
      {
        url: withDefinition ? `${apiRoutes.tuneFiles.inspect()}?definition=true` : apiRoutes.tuneFiles.inspect(),
        method: "post",
        values: form,
        meta: { onUploadProgress: upload.onUploadProgress },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          setReport(data);
          onInspected(next, data);
        },
        onError: setError,
        onSettled: () => upload.finish(),
      },
    );
    // Handled here: antd's own upload must not send the file anywhere.
    return false;
  };

  return (
    <Flex vertical gap={12}>
      <Upload beforeUpload={choose} showUploadList={false} accept=".bin,.ori,.mod,application/octet-stream">
        <Button icon={<UploadOutlined />} loading={mutation.isPending}>
          {file ? `Image: ${file.name}` : label}
        </Button>
      </Upload>
      {upload.percent !== null && (
        <Progress percent={upload.percent} size="small" status="active" aria-label="Upload progress" />
      )}
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          message={error.message}
          description={(error as HttpError & { description?: string }).description}
        />
      )}
      {report && <InspectionReport report={report} />}
    </Flex>
  );
}
