import { DeleteOutlined, EditOutlined, InboxOutlined, ShareAltOutlined } from "@ant-design/icons";
import { getDefaultFilter, useTable } from "@refinedev/antd";
import { type CrudFilters, useCreate, useDelete, useNotification, useOne, useUpdate } from "@refinedev/core";
import {
  Button,
  DatePicker,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Progress,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  Upload,
} from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import type { DataLogDetail, DataLogSummary } from "../../../contracts/data-logs";
import { FullScreenPage } from "../../components/layouts/slim-header";
import { useUpload } from "../../components/resource/use-upload";
import { failureText } from "../../lib/http-errors";
import { pairLogUploadFiles } from "../../lib/log-upload-files";
import { type FormatRefusal, FormatRefused, formatRefusalOf, OwnFormatRequests } from "./format-request";
import { ShareDialog } from "./share-dialog";
import { useLogVehicles } from "./vehicles";

/** Format ids the parser stores (domain/logs FORMAT_IDS), with the loggers' names. */
const FORMATS: Record<string, string> = {
  mhd: "MHD",
  bootmod3: "bootmod3",
  "cobb-accessport": "COBB Accessport",
  "hp-tuners": "HP Tuners",
  romraider: "RomRaider",
  obdlink: "OBDLink",
  jb4: "JB4",
  me7logger: "ME7Logger",
  vcds: "VCDS",
  simostools: "SimosTools",
  "haltech-nsp": "Haltech",
  ecumaster: "ECUMaster",
  bluedriver: "BlueDriver",
  zeitronix: "Zeitronix",
  evoscan: "EvoScan",
  volvologger: "VolvoLogger",
  winlog: "WinLog",
  megalogviewer: "MegaLogViewer",
  link: "Link ECU",
  emerald: "Emerald ECU",
  "generic-csv": "CSV",
};

interface SearchValues {
  q?: string;
  format?: string;
  vehicleId?: string;
  createdAt?: [Dayjs, Dayjs] | null;
}

const formatDuration = (seconds: number) =>
  seconds >= 60 ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s` : `${seconds.toFixed(1)} s`;
const formatSize = (bytes: number) =>
  bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MiB` : `${Math.max(1, Math.round(bytes / 1024))} KiB`;

/** What the picker offers; the server reads any file by its content, whatever its name. */
const LOG_FILE_TYPES = ".csv,.txt,.log,.mlg,.msl,.llg,.llg5,.lg1,.lg2,.daq,.emublog,.gz,text/csv,text/plain";

/** Upload with progress: the file goes to the server, which parses it and answers the log or the reason it cannot. */
function LogUpload({ vehicles }: { vehicles: VehicleOptions }) {
  const { mutateAsync } = useCreate<DataLogDetail>();
  const navigate = useNavigate();
  const upload = useUpload();
  const [uploading, setUploading] = useState<string | null>(null);
  const progress = uploading !== null && upload.percent !== null ? { name: uploading, percent: upload.percent } : null;
  // Untouched (undefined), the upload goes to the likely car; cleared (null), to no vehicle.
  const [picked, setPicked] = useState<string | null | undefined>();
  const vehicleId = picked === undefined ? vehicles.likely : (picked ?? undefined);
  const { open } = useNotification();
  const [refused, setRefused] = useState<FormatRefusal | null>(null);

  const send = async (files: File[]) => {
    setRefused(null);
    const paired = pairLogUploadFiles(files);
    if ("error" in paired) {
      open?.({ type: "error", message: "Not uploaded", description: paired.error });
      return;
    }
    const { file, companion } = paired;
    setUploading(file.name);
    upload.start();
    try {
      const { data } = await mutateAsync({
        resource: "data-logs",
        values: { file, companion, vehicleId },
        meta: { multipart: true, onUploadProgress: upload.onUploadProgress },
        successNotification: () => ({ type: "success", message: "Log uploaded", description: file.name }),
        // The server's sentence says what is wrong: the line, or the file the log needs beside it.
        errorNotification: (error) => ({ type: "error", message: "Not uploaded", description: failureText(error) }),
      });
      navigate(`/tuning-tools/data-logs/${data.id}`);
    } catch (error) {
      // The error notification has shown the server's reason; a format we do not read may be asked for.
      setRefused(formatRefusalOf(file, error));
    } finally {
      setUploading(null);
      upload.finish();
    }
  };
  return (
    <Flex vertical gap={8}>
      {/* Wraps below the label on a phone: a fixed-width select beside it squeezed "Vehicle" to one letter a line. */}
      <Space wrap>
        <Typography.Text id="upload-vehicle-label">Vehicle</Typography.Text>
        <Select
          aria-labelledby="upload-vehicle-label"
          placeholder={vehicles.options.length ? "None: file it under no vehicle" : "You have no vehicles yet"}
          allowClear
          disabled={progress !== null || vehicles.options.length === 0}
          loading={vehicles.loading}
          value={vehicleId}
          onChange={(value?: string) => setPicked(value ?? null)}
          options={vehicles.options}
          style={{ width: 320, maxWidth: "100%" }}
        />
      </Space>
      <Upload.Dragger
        accept={LOG_FILE_TYPES}
        multiple
        showUploadList={false}
        disabled={progress !== null}
        beforeUpload={(file, fileList) => {
          // antd calls this once per picked file: the first call sends them all, as one upload.
          if (file === fileList[0]) void send(fileList);
          return Upload.LIST_IGNORE;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">Drop a log here or click to upload</p>
        <p className="ant-upload-hint">
          MHD, bootmod3, COBB Accessport, HP Tuners, RomRaider, OBDLink, JB4, ME7Logger, VCDS, Haltech, ECUMaster,
          MegaLogViewer, Link… any CSV with a header, up to 256 MiB. An Emerald .lg1 goes with its .lg2: pick both.
        </p>
      </Upload.Dragger>
      {progress && (
        <div data-testid="upload-progress">
          <Typography.Text>
            {progress.percent < 100 ? `Uploading ${progress.name}` : `Reading ${progress.name}…`}
          </Typography.Text>
          <Progress percent={progress.percent} status={progress.percent < 100 ? "active" : "normal"} />
        </div>
      )}
      {refused && <FormatRefused key={refused.file.name} refusal={refused} onDone={() => setRefused(null)} />}
      <OwnFormatRequests />
    </Flex>
  );
}

type VehicleOptions = ReturnType<typeof useLogVehicles>;

/** Title, notes, tags and vehicle; the list carries no notes, so the record is read first. */
function EditDialog({
  log,
  vehicles,
  onClose,
}: {
  log: DataLogSummary;
  vehicles: VehicleOptions;
  onClose: () => void;
}) {
  const { mutate, mutation } = useUpdate();
  const { result } = useOne<DataLogDetail>({ resource: "data-logs", id: log.id });
  const [form] = Form.useForm<{ title: string; notes: string; tags: string[]; vehicleId?: string }>();
  return (
    <Modal
      title="Edit log"
      open
      onCancel={onClose}
      okText="Save"
      confirmLoading={mutation.isPending}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      {result && (
        <Form
          form={form}
          // Its own ids: the list's filter form has a vehicleId field too, and each label must name its own.
          name="edit-log"
          layout="vertical"
          initialValues={{
            title: result.title,
            notes: result.notes,
            tags: result.tags,
            vehicleId: result.vehicleId ?? undefined,
          }}
          onFinish={(values) =>
            mutate(
              {
                resource: "data-logs",
                id: log.id,
                values: { ...values, title: values.title.trim(), vehicleId: values.vehicleId ?? null },
              },
              { onSuccess: onClose },
            )
          }
        >
          <Form.Item
            name="title"
            label="Title"
            rules={[{ required: true, whitespace: true, message: "A log needs a title" }]}
          >
            <Input maxLength={200} autoFocus />
          </Form.Item>
          <Form.Item name="notes" label="Notes">
            <Input.TextArea rows={4} maxLength={20_000} />
          </Form.Item>
          <Form.Item name="tags" label="Tags">
            <Select mode="tags" tokenSeparators={[","]} maxCount={20} placeholder="e.g. 3rd gear pull, stage 1" />
          </Form.Item>
          <Form.Item
            name="vehicleId"
            label="Vehicle"
            extra="The virtual dyno keeps its profile with the vehicle, for every log of it."
          >
            <Select allowClear placeholder="No vehicle" options={vehicles.options} loading={vehicles.loading} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/** The share dialog needs the log's channels, which the list does not carry. */
function ShareFromList({ log, onClose }: { log: DataLogSummary; onClose: () => void }) {
  const { result } = useOne<DataLogDetail>({ resource: "data-logs", id: log.id });
  return <ShareDialog logId={log.id} title={log.title} channels={result?.channels ?? []} open onClose={onClose} />;
}

export function DataLogsList() {
  const { tableProps, searchFormProps, filters } = useTable<DataLogSummary, never, SearchValues>({
    resource: "data-logs",
    syncWithLocation: true,
    sorters: { initial: [{ field: "createdAt", order: "desc" }] },
    onSearch: ({ q, format, vehicleId, createdAt }): CrudFilters => [
      { field: "q", operator: "contains", value: q },
      { field: "format", operator: "eq", value: format },
      { field: "vehicleId", operator: "eq", value: vehicleId },
      {
        field: "createdAt",
        operator: "between",
        value: createdAt ? [createdAt[0].startOf("day").toDate(), createdAt[1].endOf("day").toDate()] : undefined,
      },
    ],
  });
  const { mutate: remove } = useDelete();
  const [editing, setEditing] = useState<DataLogSummary | null>(null);
  const [sharing, setSharing] = useState<DataLogSummary | null>(null);
  const range = getDefaultFilter("createdAt", filters, "between") as string[] | undefined;
  const vehicles = useLogVehicles();

  return (
    <FullScreenPage>
      <Flex vertical gap={16} style={{ maxWidth: 1280, margin: "0 auto" }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          Data logs
        </Typography.Title>
        <LogUpload vehicles={vehicles} />
        <Form
          {...searchFormProps}
          layout="inline"
          initialValues={{
            q: getDefaultFilter("q", filters, "contains"),
            format: getDefaultFilter("format", filters, "eq"),
            vehicleId: getDefaultFilter("vehicleId", filters, "eq"),
            createdAt: range?.length === 2 ? [dayjs(range[0]), dayjs(range[1])] : undefined,
          }}
          onValuesChange={() => searchFormProps.form?.submit()}
        >
          <Form.Item name="q">
            <Input.Search
              placeholder="Search title, file, notes"
              allowClear
              aria-label="Search logs"
              style={{ width: 260 }}
            />
          </Form.Item>
          <Form.Item name="format">
            <Select
              placeholder="Any logger"
              allowClear
              aria-label="Logger"
              style={{ width: 180 }}
              options={Object.entries(FORMATS).map(([value, label]) => ({ value, label }))}
            />
          </Form.Item>
          <Form.Item name="vehicleId">
            <Select
              placeholder="Any vehicle"
              allowClear
              aria-label="Vehicle filter"
              style={{ width: 200 }}
              options={vehicles.options}
              loading={vehicles.loading}
            />
          </Form.Item>
          <Form.Item name="createdAt">
            <DatePicker.RangePicker aria-label="Uploaded between" />
          </Form.Item>
        </Form>
        <Table<DataLogSummary> {...tableProps} rowKey="id" aria-label="Data logs">
          <Table.Column<DataLogSummary>
            dataIndex="title"
            title="Title"
            sorter
            render={(title: string, log) => (
              <Space direction="vertical" size={0}>
                <Link to={`/tuning-tools/data-logs/${log.id}`}>{title}</Link>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {log.fileName} · {formatSize(log.fileSize)}
                </Typography.Text>
              </Space>
            )}
          />
          <Table.Column<DataLogSummary>
            dataIndex="vehicleId"
            title="Vehicle"
            render={(id: string | null) => vehicles.nameOf(id) ?? <Typography.Text type="secondary">—</Typography.Text>}
          />
          <Table.Column<DataLogSummary>
            dataIndex="format"
            title="Logger"
            render={(format: string) => <Tag>{FORMATS[format] ?? format}</Tag>}
          />
          <Table.Column<DataLogSummary>
            dataIndex="durationSeconds"
            title="Length"
            sorter
            render={(seconds: number) => formatDuration(seconds)}
          />
          <Table.Column<DataLogSummary>
            dataIndex="rowCount"
            title="Rows"
            sorter
            render={(rows: number, log) => `${rows.toLocaleString()} × ${log.channelCount}`}
          />
          <Table.Column<DataLogSummary>
            dataIndex="tags"
            title="Tags"
            render={(tags: string[]) => tags.map((tag) => <Tag key={tag}>{tag}</Tag>)}
          />
          <Table.Column<DataLogSummary>
            dataIndex="createdAt"
            title="Uploaded"
            sorter
            defaultSortOrder="descend"
            render={(at: string) => new Date(at).toLocaleString()}
          />
          <Table.Column<DataLogSummary>
            key="actions"
            title=""
            render={(_, log) => (
              <Space>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={`Edit ${log.title}`}
                  onClick={() => setEditing(log)}
                />
                <Button
                  size="small"
                  icon={<ShareAltOutlined />}
                  aria-label={`Share ${log.title}`}
                  onClick={() => setSharing(log)}
                />
                <Popconfirm
                  title={`Delete ${log.title}?`}
                  description="The log, its file and its share links go. This cannot be undone."
                  okText="Delete"
                  okButtonProps={{ danger: true }}
                  onConfirm={() => remove({ resource: "data-logs", id: log.id })}
                >
                  <Button size="small" danger icon={<DeleteOutlined />} aria-label={`Delete ${log.title}`} />
                </Popconfirm>
              </Space>
            )}
          />
        </Table>
      </Flex>
      {editing && <EditDialog log={editing} vehicles={vehicles} onClose={() => setEditing(null)} />}
      {sharing && <ShareFromList log={sharing} onClose={() => setSharing(null)} />}
    </FullScreenPage>
  );
}
