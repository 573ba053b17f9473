/**
 * "Import definition" on a firmware record: the admin chooses a TunerPro XDF
 * or a RomRaider/EcuFlash file (with the files of the roms it inherits from,
 * when they are kept apart), sees what the server read (items by kind,
 * categories, what was skipped and why, the patches and checksum schemes
 * found, and a few maps read from the stock file), ticks the patches and
 * checksums to keep, and saves: the definition replaces the record's.
 * Everything goes through the import endpoint's dry run, then the same call
 * without it; refusals show as alerts with the server's reasons. The files
 * are sent as they are (multipart, with upload progress): the server reads
 * each in its own encoding and puts a rom and its bases together, so a
 * definition of several megabytes imports like a small one. An A2L asks for
 * the offset between the ECU addresses it gives and the file first.
 */
import { ImportOutlined } from "@ant-design/icons";
import { useCustomMutation, useInvalidate } from "@refinedev/core";
import {
  Alert,
  Button,
  Collapse,
  Descriptions,
  Flex,
  Form,
  Input,
  List,
  Progress,
  Select,
  Table,
  Tag,
  Typography,
} from "antd";
import { useRef, useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { FirmwareSupport } from "../../../contracts/firmware-support";
import type { TuneFilePatch, XdfImported } from "../../../contracts/tune-files";
import { useUpload } from "../../components/resource/use-upload";
import { parseAddressText } from "../../lib/address-text";
import { MapGrid } from "../../pages/tune-viewer/map-grid";
import type { ApiHttpError } from "../../providers/http";

type Stored = Omit<XdfImported, "patches"> & {
  patches: TuneFilePatch[];
  saved: { definition: boolean; checksums: string[]; refusedChecksums: Array<{ name: string; reason: string }> };
};

interface Problem {
  message: string;
  description?: string;
  /** Field messages of a refused save (a patch or checksum the file does not have). */
  issues?: Array<{ path: string; message: string }>;
  /** The roms of a file whose rom could not be told: the admin picks one. */
  roms?: string[];
}

const FORMATS: Record<XdfImported["format"], string> = {
  xdf: "TunerPro XDF",
  "xdf-1.x": "TunerPro XDF 1.x (text)",
  romraider: "RomRaider",
  ecuflash: "EcuFlash",
  a2l: "ASAM A2L",
};
const KINDS: Record<string, string> = {
  table2d: "2-D tables",
  table1d: "1-D tables",
  constant: "constants",
  flag: "flags",
  enum: "enums",
};
const hex = (n: number) => `0x${n.toString(16).toUpperCase()}`;

function problemOf(error: ApiHttpError | Error): Problem {
  const api = error as ApiHttpError;
  const data = api.data as unknown;
  const issues = Array.isArray(data) ? (data as Array<{ path: string; message: string }>) : undefined;
  const roms =
    data && typeof data === "object" && "roms" in data && Array.isArray((data as { roms: unknown }).roms)
      ? (data as { roms: string[] }).roms
      : undefined;
  return {
    message: error.message,
    ...(api.description && { description: api.description }),
    ...(issues && { issues }),
    ...(roms && { roms }),
  };
}

function Preview({
  preview,
  patchIndexes,
  onPatches,
  checksumNames,
  onChecksums,
}: {
  preview: XdfImported;
  patchIndexes: number[];
  onPatches: (indexes: number[]) => void;
  checksumNames: string[];
  onChecksums: (names: string[]) => void;
}) {
  const { summary, definition } = preview;
  const kinds = Object.entries(summary.byKind).filter(([, n]) => n > 0);
  return (
    <Flex vertical gap={12} data-testid="definition-preview">
      <Descriptions size="small" bordered column={1}>
        <Descriptions.Item label="Format">{FORMATS[preview.format]}</Descriptions.Item>
        {preview.rom && (
          <Descriptions.Item label="ROM">
            {preview.rom.xmlId}
            {preview.rom.inherits.length > 0 && ` (inherits ${preview.rom.inherits.join(", ")})`}
          </Descriptions.Item>
        )}
        <Descriptions.Item label="Items">
          <Flex gap={4} wrap data-testid="preview-items">
            <Typography.Text strong>{summary.items} items</Typography.Text>
            {kinds.map(([kind, n]) => (
              <Tag key={kind}>
                {n} {KINDS[kind] ?? kind}
              </Tag>
            ))}
          </Flex>
        </Descriptions.Item>
        <Descriptions.Item label="Categories">
          <span data-testid="preview-categories">{definition.categories.length}</span>
          {definition.categories.length > 0 && (
            <Typography.Text type="secondary">
              {" "}
              ·{" "}
              {definition.categories
                .slice(0, 8)
                .map((c) => c.name)
                .join(", ")}
              {definition.categories.length > 8 ? ", …" : ""}
            </Typography.Text>
          )}
        </Descriptions.Item>
        <Descriptions.Item label="Skipped">
          <span data-testid="preview-skipped">{summary.skipped} skipped</span>
        </Descriptions.Item>
        <Descriptions.Item label="Patches found">{summary.patches}</Descriptions.Item>
        <Descriptions.Item label="Checksums found">{summary.checksums}</Descriptions.Item>
      </Descriptions>

      {summary.items === 0 && (
        <Alert
          type="warning"
          showIcon
          message="Nothing in this file can be imported for this firmware"
          description={preview.warnings
            .filter((w) => !w.includes(" skipped: "))
            .slice(0, 5)
            .map((w) => <div key={w}>{w}</div>)}
        />
      )}

      {preview.skipped.length > 0 && (
        <>
          <Typography.Title level={5}>Skipped, with the reason</Typography.Title>
          <List
            size="small"
            aria-label="Skip reasons"
            dataSource={summary.skippedReasons.slice(0, 5)}
            renderItem={(r) => (
              <List.Item>
                {r.count} × {r.reason}
              </List.Item>
            )}
          />
          <Table
            size="small"
            aria-label="Skipped elements"
            rowKey={(s) => `${s.line}-${s.element}-${s.title ?? ""}-${s.reason}`}
            dataSource={preview.skipped}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            columns={[
              { dataIndex: "element", title: "Element" },
              {
                dataIndex: "title",
                title: "Title",
                render: (title?: string) => title ?? <Typography.Text type="secondary">untitled</Typography.Text>,
              },
              { dataIndex: "line", title: "Line" },
              { dataIndex: "reason", title: "Reason" },
            ]}
          />
        </>
      )}

      {preview.patches.length > 0 && (
        <>
          <Typography.Title level={5}>Patches to store</Typography.Title>
          <Table
            size="small"
            aria-label="Patches found"
            rowKey={(_, i) => String(i)}
            dataSource={preview.patches.map((patch, index) => ({ ...patch, index }))}
            pagination={false}
            rowSelection={{
              selectedRowKeys: patchIndexes.map(String),
              onChange: (keys) => onPatches(keys.map(Number)),
            }}
            columns={[
              { dataIndex: "title", title: "Patch" },
              {
                key: "entries",
                title: "Entries",
                render: (_, patch) =>
                  patch.entries.map((e) => `${hex(e.address)} (${e.patch.length / 2} bytes)`).join(", "),
              },
            ]}
          />
        </>
      )}

      {preview.checksums.length > 0 && (
        <>
          <Typography.Title level={5}>Checksum schemes to add</Typography.Title>
          <Table
            size="small"
            aria-label="Checksums found"
            rowKey="name"
            dataSource={preview.checksums}
            pagination={false}
            rowSelection={{
              selectedRowKeys: checksumNames,
              onChange: (keys) => onChecksums(keys.map(String)),
            }}
            columns={[
              { dataIndex: "name", title: "Checksum" },
              { dataIndex: "type", title: "Type" },
              {
                key: "ranges",
                title: "Ranges",
                render: (_, s) => s.ranges.map(([a, b]) => `${hex(a)}–${hex(b)}`).join(", "),
              },
              { key: "store", title: "Stored at", render: (_, s) => hex(s.store.address) },
            ]}
          />
          <Typography.Text type="secondary">
            A scheme that does not verify on the stock file is refused when saving.
          </Typography.Text>
        </>
      )}

      {preview.samples && preview.samples.length > 0 && (
        <>
          <Typography.Title level={5}>Maps read from the stock file</Typography.Title>
          <Flex vertical gap={12} data-testid="preview-samples">
            {preview.samples.map((sample) => (
              <div key={sample.id} data-testid="preview-sample">
                <Typography.Text strong>{sample.title}</Typography.Text>
                {sample.kind === "table1d" || sample.kind === "table2d" ? (
                  <MapGrid values={sample} />
                ) : (
                  <div>
                    {sample.labels?.[0] ?? sample.values[0]}
                    {sample.unit ? ` ${sample.unit}` : ""}
                  </div>
                )}
              </div>
            ))}
          </Flex>
        </>
      )}

      {preview.warnings.length > summary.skipped && (
        <Collapse
          size="small"
          items={[
            {
              key: "notes",
              label: `${preview.warnings.length - summary.skipped} notes on imported items`,
              children: (
                <List
                  size="small"
                  dataSource={preview.warnings.slice(summary.skipped)}
                  renderItem={(w) => <List.Item>{w}</List.Item>}
                />
              ),
            },
          ]}
        />
      )}
    </Flex>
  );
}

function ProblemAlert({ problem }: { problem: Problem }) {
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      message={problem.message}
      description={
        <>
          {problem.description && <div>{problem.description}</div>}
          {problem.issues?.map((issue) => (
            <div key={issue.path}>
              {issue.path}: {issue.message}
            </div>
          ))}
        </>
      }
    />
  );
}

/** The fields of the import form but the files, as the data provider encodes them (JSON for what is not a string). */
function importForm(files: readonly File[], fields: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined) form.append(name, typeof value === "string" ? value : JSON.stringify(value));
  for (const file of files) form.append("file", file, file.name);
  return form;
}

const isA2lName = (name: string) => /\.a2l$/i.test(name);

export function DefinitionImport({ record }: { record: FirmwareSupport }) {
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[] | null>(null);
  const [offsetText, setOffsetText] = useState("");
  const [romId, setRomId] = useState<string | undefined>();
  const [preview, setPreview] = useState<XdfImported | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [patchIndexes, setPatchIndexes] = useState<number[]>([]);
  const [checksumNames, setChecksumNames] = useState<string[]>([]);
  const [stored, setStored] = useState<Stored | null>(null);
  const upload = useUpload();
  const previewing = useCustomMutation<XdfImported>();
  const saving = useCustomMutation<Stored>();
  const invalidate = useInvalidate();
  const url = apiRoutes.tuneFilePatches.importDefinition();
  const withA2l = files?.some((file) => isA2lName(file.name)) ?? false;
  const offset = withA2l && offsetText.trim() !== "" ? parseAddressText(offsetText) : undefined;
  const offsetError = offset && "error" in offset ? offset.error : undefined;
  const addressOffset = offset && "value" in offset ? offset.value : undefined;
  const pending = previewing.mutation.isPending || saving.mutation.isPending;

  const ask = (chosen: readonly File[], rom: string | undefined, offsetValue: number | undefined) => {
    setProblem(null);
    setPreview(null);
    upload.start();
    previewing.mutate(
      {
        url,
        method: "post",
        values: importForm(chosen, {
          firmwareId: record.firmwareId,
          dryRun: true,
          romId: rom,
          addressOffset: offsetValue,
        }),
        meta: { onUploadProgress: upload.onUploadProgress },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          setPreview(data);
          setPatchIndexes(data.patches.map((_, i) => i));
          setChecksumNames(data.checksums.map((c) => c.name));
        },
        onError: (error) => setProblem(problemOf(error)),
        onSettled: () => upload.finish(),
      },
    );
  };

  const choose = (chosen: File[]) => {
    setStored(null);
    setRomId(undefined);
    setFiles(chosen);
    // An A2L's addresses mean nothing in the image without the offset: asked for before the preview.
    if (chosen.some((file) => isA2lName(file.name))) {
      setPreview(null);
      setProblem(null);
      return;
    }
    ask(chosen, undefined, undefined);
  };

  const save = () => {
    if (!files) return;
    setProblem(null);
    upload.start();
    saving.mutate(
      {
        url,
        method: "post",
        values: importForm(files, {
          firmwareId: record.firmwareId,
          dryRun: false,
          saveDefinition: true,
          patchIndexes,
          checksumNames,
          romId,
          addressOffset,
        }),
        meta: { onUploadProgress: upload.onUploadProgress },
        successNotification: { type: "success", message: `Saved the definition of ${record.firmwareId}` },
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          setStored(data);
          setPreview(null);
          void invalidate({ resource: "firmware-support", id: record.id, invalidates: ["list", "detail"] });
          void invalidate({ resource: "tune-file-patches", invalidates: ["list"] });
        },
        onError: (error) => setProblem(problemOf(error)),
        onSettled: () => upload.finish(),
      },
    );
  };

  return (
    <Flex vertical gap={12} data-testid="definition-import">
      <input
        ref={input}
        type="file"
        hidden
        multiple
        accept=".xdf,.xml,.a2l,text/xml"
        aria-label="Definition file"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = "";
          if (files.length) choose(files);
        }}
      />
      <Flex gap={8} align="center" wrap>
        <Button
          icon={<ImportOutlined />}
          onClick={() => input.current?.click()}
          loading={previewing.mutation.isPending}
        >
          Import definition
        </Button>
        <Typography.Text type="secondary">
          {files
            ? files.map((file) => file.name).join(" + ")
            : "A TunerPro XDF, a RomRaider/EcuFlash XML (choose the files of its base roms with it) or an A2L (with the files it includes)"}
        </Typography.Text>
      </Flex>
      {withA2l && files && (
        <Form layout="vertical" onFinish={() => ask(files, romId, addressOffset)} aria-label="A2L import">
          <Form.Item
            label="A2L address offset"
            htmlFor="a2l-address-offset"
            validateStatus={offsetError ? "error" : undefined}
            help={
              offsetError ?? "Subtracted from the A2L's ECU addresses to find them in the file (hex 0x… or decimal)"
            }
          >
            <Flex gap={8}>
              <Input
                id="a2l-address-offset"
                style={{ maxWidth: 200 }}
                placeholder="0x80000000"
                value={offsetText}
                onChange={(event) => setOffsetText(event.target.value)}
              />
              <Button htmlType="submit" disabled={offsetError !== undefined} loading={previewing.mutation.isPending}>
                Read the A2L
              </Button>
            </Flex>
          </Form.Item>
        </Form>
      )}
      {pending && upload.percent !== null && upload.percent < 100 && (
        <Progress percent={upload.percent} size="small" status="active" aria-label="Upload progress" />
      )}
      {pending && upload.percent === 100 && (
        <Typography.Text type="secondary" role="status">
          {previewing.mutation.isPending ? "Reading the definition…" : "Saving the definition…"}
        </Typography.Text>
      )}
      {problem && <ProblemAlert problem={problem} />}
      {problem?.roms && files && (
        <Select
          aria-label="ROM"
          placeholder="Choose the rom to import"
          style={{ maxWidth: 320 }}
          value={romId}
          options={problem.roms.map((r) => ({ value: r, label: r }))}
          onChange={(rom: string) => {
            setRomId(rom);
            ask(files, rom, addressOffset);
          }}
        />
      )}
      {preview && (
        <>
          <Preview
            preview={preview}
            patchIndexes={patchIndexes}
            onPatches={setPatchIndexes}
            checksumNames={checksumNames}
            onChecksums={setChecksumNames}
          />
          {record.definition && (
            <Alert
              type="warning"
              showIcon
              message={`Saving replaces the record's definition (${record.definition.items.length} maps).`}
            />
          )}
          <Flex gap={8}>
            <Button
              type="primary"
              onClick={save}
              loading={saving.mutation.isPending}
              disabled={preview.summary.items === 0}
            >
              Save definition, {checksumNames.length} checksum{checksumNames.length === 1 ? "" : "s"} and{" "}
              {patchIndexes.length} patch{patchIndexes.length === 1 ? "" : "es"}
            </Button>
            <Button onClick={() => (setPreview(null), setFiles(null))}>Cancel</Button>
          </Flex>
        </>
      )}
      {stored && (
        <Alert
          type="success"
          showIcon
          data-testid="definition-saved"
          message={`Saved: ${stored.definition.items.length} maps, ${stored.saved.checksums.length} checksum scheme${stored.saved.checksums.length === 1 ? "" : "s"} and ${stored.patches.length} patch${stored.patches.length === 1 ? "" : "es"}`}
          description={
            <>
              {stored.saved.checksums.length > 0 && <div>Checksums added: {stored.saved.checksums.join(", ")}</div>}
              {stored.saved.refusedChecksums.map((c) => (
                <div key={c.name}>
                  Checksum {c.name} not added: {c.reason}
                </div>
              ))}
              {stored.patches.length > 0 && <div>Patches stored: {stored.patches.map((p) => p.title).join(", ")}</div>}
            </>
          }
        />
      )}
    </Flex>
  );
}
