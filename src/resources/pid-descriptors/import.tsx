/**
 * PID descriptor import: a VW_Flash or Torque CSV is previewed row by row
 * (computed rows become computed descriptors) with each row's errors, then the
 * valid rows are imported. The server parses and checks, so the preview shows
 * exactly what the import would do.
 */
import { type HttpError, useCustomMutation, useInvalidate } from "@refinedev/core";
import { Alert, Button, Flex, Form, Input, Select, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import { sourceOptions } from "./form";

interface PreviewRow {
  line: number;
  kind: "pid" | "computed";
  value: { name: string; variable: string; unit?: string; expression: string; address?: string };
  errors: Array<{ field: string; message: string }>;
}
interface Preview {
  format: string;
  rows: PreviewRow[];
  valid: number;
  invalid: number;
  imported?: number;
}

export function PidImport() {
  const [csv, setCsv] = useState("");
  const [format, setFormat] = useState<"auto" | "vwflash" | "torque">("auto");
  const [source, setSource] = useState<string | undefined>();
  const [firmwareIds, setFirmwareIds] = useState<string[]>([]);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<HttpError | null>(null);
  const { mutate, mutation } = useCustomMutation<Preview>();
  const invalidate = useInvalidate();

  const send = (dryRun: boolean) =>
    mutate(
      {
        url: apiRoutes.firmwareSupport.importPidDescriptors(),
        method: "post",
        values: { csv, format, firmwareIds, dryRun, skipInvalid: !dryRun, ...(source && { source }) },
        successNotification: dryRun
          ? false
          : (data) => ({
              type: "success",
              message: `Imported ${(data?.data as Preview | undefined)?.imported ?? 0} descriptors`,
            }),
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          setError(null);
          setPreview(data);
          if (!dryRun) {
            void invalidate({ resource: "pid-descriptors", invalidates: ["list"] });
            void invalidate({ resource: "computed-descriptors", invalidates: ["list"] });
          }
        },
        onError: (failure) => setError(failure),
      },
    );

  return (
    <Flex vertical gap={12}>
      <Form layout="vertical">
        <Form.Item label="CSV file" htmlFor="pid-csv-file">
          <input
            id="pid-csv-file"
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void file.text().then((text) => (setCsv(text), setPreview(null)));
            }}
          />
        </Form.Item>
        <Form.Item label="Or paste it" htmlFor="pid-csv-text">
          <Input.TextArea
            id="pid-csv-text"
            rows={5}
            value={csv}
            onChange={(e) => (setCsv(e.target.value), setPreview(null))}
            style={{ fontFamily: "monospace", fontSize: 12 }}
          />
        </Form.Item>
        <Flex gap={12} wrap>
          <Form.Item label="Format" htmlFor="pid-csv-format">
            <Select
              id="pid-csv-format"
              value={format}
              onChange={setFormat}
              style={{ width: 160 }}
              options={[
                { value: "auto", label: "Detect" },
                { value: "vwflash", label: "VW_Flash" },
                { value: "torque", label: "Torque" },
              ]}
            />
          </Form.Item>
          <Form.Item label="Source" htmlFor="pid-csv-source" help="Empty: from the address">
            <Select
              id="pid-csv-source"
              allowClear
              value={source}
              onChange={setSource}
              style={{ width: 200 }}
              options={sourceOptions}
            />
          </Form.Item>
          <Form.Item label="Applies to firmware" htmlFor="pid-csv-firmware">
            <Select
              id="pid-csv-firmware"
              mode="tags"
              open={false}
              value={firmwareIds}
              onChange={setFirmwareIds}
              style={{ minWidth: 200 }}
            />
          </Form.Item>
        </Flex>
      </Form>
      <Flex gap={8}>
        <Button onClick={() => send(true)} disabled={!csv.trim()} loading={mutation.isPending && !preview}>
          Preview
        </Button>
        <Button
          type="primary"
          onClick={() => send(false)}
          disabled={!preview || preview.valid === 0 || preview.imported !== undefined}
          loading={mutation.isPending && Boolean(preview)}
        >
          Import {preview ? preview.valid : ""} valid rows
        </Button>
      </Flex>
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          message={error.message}
          description={(error as HttpError & { description?: string }).description}
        />
      )}
      {preview && (
        <>
          <Typography.Text>
            {preview.format === "vwflash" ? "VW_Flash" : "Torque"} file: {preview.valid} valid, {preview.invalid} with
            errors
            {preview.imported !== undefined && `; ${preview.imported} imported`}
          </Typography.Text>
          <Table<PreviewRow>
            dataSource={preview.rows}
            rowKey="line"
            size="small"
            pagination={false}
            aria-label="Import preview"
            columns={[
              { title: "Line", dataIndex: "line", width: 60 },
              {
                title: "Kind",
                dataIndex: "kind",
                render: (kind: string) => <Tag color={kind === "computed" ? "purple" : "blue"}>{kind}</Tag>,
              },
              { title: "Name", dataIndex: ["value", "name"] },
              {
                title: "Variable",
                dataIndex: ["value", "variable"],
                render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
              },
              { title: "Expression", dataIndex: ["value", "expression"] },
              {
                title: "Errors",
                dataIndex: "errors",
                render: (errors: PreviewRow["errors"]) =>
                  errors.length ? (
                    <Typography.Text type="danger">
                      {errors.map((e) => `${e.field}: ${e.message}`).join("; ")}
                    </Typography.Text>
                  ) : (
                    <Tag color="green">ok</Tag>
                  ),
              },
            ]}
          />
        </>
      )}
    </Flex>
  );
}
