/**
 * A customer's tunes per vehicle: the vehicle's stock read (uploaded here,
 * as the app would after reading the ECU), the tunes bought for it (a paid one with its receipt), the
 * files baked from them and what the app reports it flashed. Downloads are offered only where the tune's
 * protection allows; the server refuses the rest anyway.
 */
import { DownloadOutlined, FireOutlined } from "@ant-design/icons";
import { type HttpError, useApiUrl, useCustom, useCustomMutation, useInvalidate, useList } from "@refinedev/core";
import { Alert, Button, Card, Empty, Flex, Select, Skeleton, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { FlashLog } from "../../../contracts/flash-logs";
import type { Licence } from "../../../contracts/payments";
import type { BakedTuneFile, TuneFile, TuneFilePatch, VehicleTunes } from "../../../contracts/tune-files";
import { ReceiptLink } from "../../components/payments/receipt-link";
import { FileUpload } from "../../components/resource/file-upload";
import { ChecksumTable } from "../../components/tune-inspection";
import { FlashResultTag } from "../../components/vehicle/flash-result-tag";
import { formatMoney } from "../../lib/money";
import { useSessionState } from "../../providers/session-context";

type Vehicle = VehicleTunes["vehicle"] & { ownerUid: string };

function BakeButton({ vehicleId, tune, onBaked }: { vehicleId: string; tune: TuneFile; onBaked: () => void }) {
  const [patchIds, setPatchIds] = useState<string[]>([]);
  const [error, setError] = useState<HttpError | null>(null);
  const { result: patches } = useList<TuneFilePatch>({
    resource: "tune-file-patches",
    pagination: { pageSize: 200 },
    filters: [{ field: "firmwareIds", operator: "eq", value: tune.firmwareId }],
  });
  const { mutate, mutation } = useCustomMutation<BakedTuneFile>();
  const bake = () =>
    mutate(
      {
        url: apiRoutes.vehicles.tempBake(vehicleId, "0"),
        method: "post",
        values: { tuneFileId: tune.id, patchIds },
        successNotification: { type: "success", message: `Baked ${tune.title}` },
        errorNotification: false,
      },
      { onSuccess: onBaked, onError: setError },
    );
  return (
    <Flex vertical gap={4}>
      <Space.Compact>
        <Select
          mode="multiple"
          allowClear
          placeholder="Patches (optional)"
          aria-label={`Patches for ${tune.title}`}
          style={{ minWidth: 220 }}
          value={patchIds}
          onChange={setPatchIds}
          options={patches.data.map((p) => ({ value: p.id, label: p.title }))}
        />
        <Button icon={<FireOutlined />} onClick={bake} loading={mutation.isPending}>
          Bake
        </Button>
      </Space.Compact>
      {error && (
        <Typography.Text type="danger">
          {(error as HttpError & { description?: string }).description ?? error.message}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** The last successful flash of each bake: what is (or was) on the car. */
function lastFlashes(flashes: FlashLog[]): Map<string, FlashLog> {
  const byBake = new Map<string, FlashLog>();
  for (const flash of flashes)
    if (flash.bakedTuneFileId && flash.result === "success" && !byBake.has(flash.bakedTuneFileId))
      byBake.set(flash.bakedTuneFileId, flash);
  return byBake;
}

function FlashTable({ flashes }: { flashes: FlashLog[] }) {
  return (
    <Table
      size="small"
      rowKey="id"
      dataSource={flashes}
      pagination={false}
      aria-label="Flash history"
      locale={{ emptyText: "Nothing flashed yet: flash a baked file from the app" }}
      columns={[
        { dataIndex: "flashedAt", title: "Flashed", render: (v: string) => new Date(v).toLocaleString() },
        {
          key: "what",
          title: "What",
          render: (_, f: FlashLog) =>
            f.kind === "stock"
              ? "stock read"
              : `${f.tuneTitle ?? "supplied image"}${f.tuneVersion ? ` v${f.tuneVersion}` : ""}`,
        },
        { dataIndex: "result", title: "Result", render: (v: FlashLog["result"]) => <FlashResultTag result={v} /> },
        { dataIndex: "message", title: "Message" },
        {
          dataIndex: "durationMs",
          title: "Took",
          render: (v: number | null) => (v === null ? "" : `${Math.round(v / 1000)} s`),
        },
        {
          dataIndex: "sha256",
          title: "SHA-256",
          render: (v: string) => <Typography.Text code>{v.slice(0, 16)}…</Typography.Text>,
        },
      ]}
    />
  );
}

function BakedTable({ baked, flashed }: { baked: BakedTuneFile[]; flashed: Map<string, FlashLog> }) {
  const apiUrl = useApiUrl();
  return (
    <Table
      size="small"
      rowKey="id"
      dataSource={baked}
      pagination={false}
      aria-label="Baked files"
      locale={{ emptyText: "Nothing baked yet" }}
      expandable={{ expandedRowRender: (row) => <ChecksumTable checksums={(row.report.checksums ?? []) as never} /> }}
      columns={[
        { dataIndex: "createdAt", title: "Baked", render: (v: string) => new Date(v).toLocaleString() },
        {
          dataIndex: "tuneVersion",
          title: "From",
          render: (v: number | null, row) => (row.tuneFileId ? `tune v${v}` : "supplied image"),
        },
        { dataIndex: "patchIds", title: "Patches", render: (ids: string[]) => ids.length },
        {
          dataIndex: "sha256",
          title: "SHA-256",
          render: (v: string) => <Typography.Text code>{v.slice(0, 16)}…</Typography.Text>,
        },
        {
          dataIndex: "expiresAt",
          title: "Kept",
          render: (v: string | null) => (v ? `until ${new Date(v).toLocaleString()}` : <Tag color="blue">kept</Tag>),
        },
        {
          key: "flashed",
          title: "Flashed",
          render: (_, row: BakedTuneFile) => {
            const flash = flashed.get(row.id);
            return flash ? (
              <Tag color="green">flashed {new Date(flash.flashedAt).toLocaleString()}</Tag>
            ) : (
              <Typography.Text type="secondary">not flashed</Typography.Text>
            );
          },
        },
        {
          key: "download",
          title: "File",
          render: (_, row: BakedTuneFile) =>
            row.download ? (
              <Button size="small" icon={<DownloadOutlined />} href={`${apiUrl}/baked-tune-files/${row.id}/download`}>
                Download
              </Button>
            ) : (
              <Typography.Text type="secondary">flash from the app</Typography.Text>
            ),
        },
      ]}
    />
  );
}

function VehicleCard({ vehicle }: { vehicle: Vehicle }) {
  const { query } = useCustom<VehicleTunes>({ url: apiRoutes.vehicles.tuneFiles(vehicle.id), method: "get" });
  const { query: flashQuery } = useCustom<{ data: FlashLog[]; total: number }>({
    url: apiRoutes.vehicles.flashLogs(vehicle.id),
    method: "get",
    config: { query: { pageSize: 20 } },
  });
  const flashes = flashQuery.data?.data.data ?? [];
  // The car's licences: a bought tune's receipt is its licence's order.
  const { query: licenceQuery } = useCustom<{ data: Licence[] }>({
    url: apiRoutes.vehicles.purchases(vehicle.id),
    method: "get",
  });
  const licenceOf = (tune: TuneFile) => licenceQuery.data?.data.data.find((licence) => licence.tuneFileId === tune.id);
  const invalidate = useInvalidate();
  const refresh = () => {
    void query.refetch();
    void invalidate({ resource: "user-vehicles", invalidates: ["list"] });
  };
  const tunes = query.data?.data;
  const { user, role } = useSessionState();
  // The stock read is the owner's: a dealer who manages the car reads it, and the server refuses them a new one.
  const ownsRead = role === "admin" || vehicle.ownerUid === user?.uid;
  return (
    <Card title={`${vehicle.name}${vehicle.vin ? ` · ${vehicle.vin}` : ""}`} data-testid={`vehicle-${vehicle.id}`}>
      <Flex vertical gap={16}>
        <Flex gap={16} align="start" wrap>
          <Typography.Text>
            Stock read:{" "}
            {vehicle.stockDump ? (
              <>
                {vehicle.firmwareId} · {vehicle.stockDump.size.toLocaleString()} bytes
              </>
            ) : (
              <Typography.Text type="warning">none yet: bakes start from it</Typography.Text>
            )}
          </Typography.Text>
          {ownsRead && (
            <FileUpload
              url={apiRoutes.vehicles.uploadTuneDump(vehicle.id, "0")}
              label={vehicle.stockDump ? "Replace the stock read" : "Upload the stock read"}
              resource="user-vehicles"
              id={vehicle.id}
              onUploaded={refresh}
            />
          )}
        </Flex>
        {query.isLoading || !tunes ? (
          <Skeleton active />
        ) : (
          <>
            <Typography.Title level={5}>Bought</Typography.Title>
            <Table
              size="small"
              rowKey="id"
              dataSource={tunes.bought}
              pagination={false}
              aria-label="Bought tunes"
              locale={{ emptyText: "No tunes bought for this vehicle" }}
              columns={[
                { dataIndex: "title", title: "Tune" },
                { dataIndex: "dealerName", title: "Dealer" },
                { dataIndex: "firmwareId", title: "Firmware" },
                { dataIndex: "currentVersion", title: "Version" },
                { key: "price", title: "Price", render: (_, t: TuneFile) => formatMoney(t.priceCents, t.currency) },
                {
                  key: "receipt",
                  title: "Receipt",
                  render: (_, t: TuneFile) => {
                    const licence = licenceOf(t);
                    return licence ? <ReceiptLink licence={licence} /> : null;
                  },
                },
                {
                  key: "bake",
                  title: "",
                  render: (_, t: TuneFile) =>
                    vehicle.stockDump ? <BakeButton vehicleId={vehicle.id} tune={t} onBaked={refresh} /> : null,
                },
              ]}
            />
            <Typography.Title level={5}>Baked</Typography.Title>
            <BakedTable baked={tunes.baked} flashed={lastFlashes(flashes)} />
            <Typography.Title level={5}>Flashed</Typography.Title>
            {flashQuery.isError ? (
              <Alert
                type="error"
                showIcon
                message="Could not load the flash history"
                description={flashQuery.error.message}
              />
            ) : (
              <FlashTable flashes={flashes} />
            )}
          </>
        )}
      </Flex>
    </Card>
  );
}

export function MyVehicles() {
  const { result, query } = useList<Vehicle>({ resource: "user-vehicles", pagination: { pageSize: 200 } });
  if (query.isLoading) return <Skeleton active />;
  if (query.isError)
    return <Alert type="error" showIcon message="Could not load your vehicles" description={query.error?.message} />;
  if (result.data.length === 0)
    return <Empty description="No vehicles yet: connect one with the app to buy, bake and flash tunes for it." />;
  return (
    <Flex vertical gap={16}>
      {result.data.map((vehicle) => (
        <VehicleCard key={vehicle.id} vehicle={vehicle} />
      ))}
    </Flex>
  );
}
