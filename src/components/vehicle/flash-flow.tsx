/**
 * Flashing from the car's page: choose a licensed tune, bake it onto the stock read, check what
 * the page can check, hand the flash over to the phone app (QR code and link), follow it live,
 * and from a failed flash go straight to recovery. Back to stock is always one click away.
 * The real pre-flight runs in the app with the car's live values (flash-authentication); the
 * car's event stream brings its result here, a refusal naming the check that failed.
 */
import { CheckCircleTwoTone, CloseCircleTwoTone, QuestionCircleTwoTone } from "@ant-design/icons";
import { type HttpError, useCustom, useCustomMutation } from "@refinedev/core";
import { Alert, Button, Card, Flex, List, Progress, QRCode, Select, Space, Steps, Typography } from "antd";
import { useEffect, useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import {
  DEFAULT_MIN_BATTERY_VOLTS,
  type FlashLog,
  type FlashSessionDetail,
  type PreflightEvent,
} from "../../../contracts/flash-logs";
import type { BakedTuneFile, VehicleTunes } from "../../../contracts/tune-files";
import type { Vehicle } from "../../../contracts/user-vehicles";
import { flashDeepLink, type Handover } from "../../lib/flash-handover";
import { type FlashProgress, progressLabel } from "../../lib/flash-progress";
import { FlashSteps } from "./vehicle-history";

const MIN_BATTERY_VOLTS = DEFAULT_MIN_BATTERY_VOLTS;

interface Check {
  label: string;
  state: "ok" | "failed" | "unknown";
  detail: string;
}

function pageChecks(vehicle: Vehicle, handover: Handover | null): Check[] {
  return [
    {
      label: "Supported for flashing",
      state: vehicle.support.flashing ? "ok" : "failed",
      detail: vehicle.support.reason ?? `${vehicle.support.ecuFamily ?? ""} ${vehicle.firmwareId ?? ""}`.trim(),
    },
    {
      label: "Stock read stored (the way back)",
      state: vehicle.stockDump ? "ok" : "failed",
      detail: vehicle.stockDump
        ? `${vehicle.stockDump.size.toLocaleString()} bytes`
        : "read the ECU with the app first",
    },
    {
      label: "File chosen",
      state: handover ? "ok" : "failed",
      detail: handover
        ? handover.kind === "stock"
          ? "the stock read"
          : "the baked tune"
        : "bake a tune or choose back to stock",
    },
    {
      label: `Battery at last connect ≥ ${MIN_BATTERY_VOLTS.toFixed(1)} V`,
      state:
        vehicle.lastBatteryVolts === null ? "unknown" : vehicle.lastBatteryVolts >= MIN_BATTERY_VOLTS ? "ok" : "failed",
      detail:
        vehicle.lastBatteryVolts === null
          ? "the app reads it before writing"
          : `${vehicle.lastBatteryVolts.toFixed(1)} V; connect a charger while flashing`,
    },
  ];
}

const ICONS = {
  ok: <CheckCircleTwoTone twoToneColor="#52c41a" />,
  failed: <CloseCircleTwoTone twoToneColor="#ff4d4f" />,
  unknown: <QuestionCircleTwoTone />,
};

function PreflightList({ checks }: { checks: Check[] }) {
  return (
    <List
      size="small"
      aria-label="Pre-flight"
      dataSource={checks}
      renderItem={(check) => (
        <List.Item data-testid={`check-${check.state}`}>
          <Space>
            {ICONS[check.state]}
            <Typography.Text>{check.label}</Typography.Text>
            <Typography.Text type="secondary">{check.detail}</Typography.Text>
          </Space>
        </List.Item>
      )}
    />
  );
}

function HandoverPanel({ handover }: { handover: Handover }) {
  const link = flashDeepLink(handover);
  return (
    <Flex gap={16} align="center" wrap>
      <QRCode value={link} size={160} aria-label="QR code for the app" />
      <Flex vertical gap={8} style={{ maxWidth: 420 }}>
        <Typography.Text>
          Scan with the app on the phone connected to the car, or open the link on that phone.
        </Typography.Text>
        <Typography.Link href={link} data-testid="deep-link">
          Open in the app
        </Typography.Link>
        <Typography.Text type="secondary">
          The app runs the pre-flight with the car's live values, unlocks the ECU with the key the portal gives it, and
          reports every step here.
        </Typography.Text>
      </Flex>
    </Flex>
  );
}

/** What the app's pre-flight found with the car's live values: every check run, the refusal first. */
function AppPreflight({ preflight }: { preflight: PreflightEvent }) {
  const failed = preflight.checks.find((check) => !check.ok);
  return (
    <Alert
      type={preflight.passed ? "success" : "error"}
      showIcon
      data-testid="app-preflight"
      message={
        preflight.passed
          ? `The app's pre-flight passed (${preflight.checks.length} checks)`
          : `The app's pre-flight refused the flash: ${failed ? `${failed.check} — ${failed.message}` : preflight.failed}`
      }
      description={
        <List
          size="small"
          aria-label="The app's pre-flight"
          dataSource={preflight.checks}
          renderItem={(check) => (
            <List.Item>
              <Space>
                {ICONS[check.ok ? "ok" : "failed"]}
                <Typography.Text>{check.check}</Typography.Text>
                <Typography.Text type="secondary">{check.message}</Typography.Text>
              </Space>
            </List.Item>
          )}
        />
      }
    />
  );
}

function LiveSession({ log, progress }: { log: FlashLog; progress: FlashProgress }) {
  const steps = progress.steps[log.id] ?? [];
  const percent = log.result === "success" ? 100 : (log.progress?.percent ?? 0);
  return (
    <Flex vertical gap={8} data-testid="live-flash">
      <Typography.Text strong>
        {log.kind === "stock" ? "Writing the stock read" : `Flashing ${log.tuneTitle ?? "the file"}`}:{" "}
        <span data-testid="live-status">{log.result === "running" ? progressLabel(log) : log.result}</span>
      </Typography.Text>
      <Progress
        percent={Math.round(percent)}
        status={log.result === "running" ? "active" : log.result === "success" ? "success" : "exception"}
      />
      {steps.length > 0 && <FlashSteps steps={steps} />}
    </Flex>
  );
}

const failedWhere = (log: FlashLog) =>
  log.failedStep === "block" && log.failedBlock !== null
    ? ` at block ${log.failedBlock}`
    : log.failedStep
      ? ` at ${log.failedStep}`
      : "";

/** A failed or abandoned flash: resume from its failed block, or write the stock read back. */
function Recovery({
  vehicle,
  failed,
  onHandover,
}: {
  vehicle: Vehicle;
  failed: FlashLog;
  onHandover: (handover: Handover) => void;
}) {
  return (
    <Alert
      type="error"
      showIcon
      data-testid="recovery"
      message={`The last flash ${failed.result === "abandoned" ? "stopped reporting" : "failed"}${failedWhere(failed)}`}
      description={
        <Flex vertical gap={8}>
          <Typography.Text>
            The ECU usually still runs its bootloader and accepts a new programming session. Keep the ignition on and a
            charger connected.
          </Typography.Text>
          <Space wrap>
            {failed.kind === "tune" && failed.bakedTuneFileId && failed.failedBlock !== null && (
              <Button
                onClick={() =>
                  onHandover({
                    vehicleId: vehicle.id,
                    kind: "tune",
                    bakedTuneFileId: failed.bakedTuneFileId as string,
                    recoversId: failed.id,
                    resumeFromBlock: failed.failedBlock as number,
                  })
                }
              >
                Resume from block {failed.failedBlock}
              </Button>
            )}
            <Button
              type="primary"
              danger
              disabled={!vehicle.stockDump}
              onClick={() => onHandover({ vehicleId: vehicle.id, kind: "stock", recoversId: failed.id })}
            >
              Recover: back to stock
            </Button>
          </Space>
        </Flex>
      }
    />
  );
}

export function FlashFlow({ vehicle, progress }: { vehicle: Vehicle; progress: FlashProgress }) {
  const [handover, setHandover] = useState<Handover | null>(null);
  const [tuneFileId, setTuneFileId] = useState<string | null>(null);
  const [bakeError, setBakeError] = useState<string | null>(null);
  const tunes = useCustom<VehicleTunes>({ url: apiRoutes.vehicles.tuneFiles(vehicle.id), method: "get" });
  const refetchTunes = tunes.query.refetch;
  // A licence bought (or refunded, or used by a flash) while the page is open changes what may be flashed.
  useEffect(() => {
    if (progress.orderVersion + progress.endedVersion > 0) void refetchTunes();
  }, [progress.orderVersion, progress.endedVersion, refetchTunes]);
  const bake = useCustomMutation<BakedTuneFile>();
  const lastFailedId =
    vehicle.lastFlash && (vehicle.lastFlash.result === "failed" || vehicle.lastFlash.result === "abandoned")
      ? vehicle.lastFlash.id
      : null;
  const lastFailed = useCustom<FlashSessionDetail>({
    url: apiRoutes.vehicles.flashLog(vehicle.id, String(lastFailedId)),
    method: "get",
    queryOptions: { enabled: Boolean(lastFailedId) },
  });
  const bought = tunes.query.data?.data.bought ?? [];
  const live = progress.latestId ? progress.logs[progress.latestId] : undefined;
  const liveEnded = Boolean(live && live.result !== "running");
  // The hand-over was for the flash that just ended: the link is spent, a new flash starts a new one.
  useEffect(() => {
    if (liveEnded) setHandover(null);
  }, [live?.id, liveEnded]);
  const failed =
    live && (live.result === "failed" || live.result === "abandoned")
      ? live
      : !live && lastFailedId
        ? lastFailed.query.data?.data.log
        : undefined;

  const bakeAndHandOver = () => {
    if (!tuneFileId) return;
    setBakeError(null);
    bake.mutate(
      {
        url: apiRoutes.vehicles.tempBake(vehicle.id, "0"),
        method: "post",
        values: { tuneFileId, patchIds: [] },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => setHandover({ vehicleId: vehicle.id, kind: "tune", bakedTuneFileId: data.id }),
        onError: (error: HttpError & { description?: string }) => setBakeError(error.description ?? error.message),
      },
    );
  };
  // The app's pre-flight belongs to this hand-over only if it came after the flash that is shown.
  const preflight =
    progress.preflight && (!live || Date.parse(progress.preflight.at) >= Date.parse(live.lastReportAt))
      ? progress.preflight
      : null;
  const current =
    live && live.result !== "running" ? 4 : live ? 3 : preflight && !preflight.passed ? 1 : handover ? 2 : 0;

  return (
    <Card
      id="flash"
      title="Flash"
      extra={
        <Button
          danger={false}
          disabled={!vehicle.stockDump}
          onClick={() => setHandover({ vehicleId: vehicle.id, kind: "stock" })}
          data-testid="back-to-stock"
        >
          Back to stock
        </Button>
      }
    >
      <Flex vertical gap={16}>
        {failed && !(live && live.result === "running") && (
          <Recovery vehicle={vehicle} failed={failed} onHandover={setHandover} />
        )}
        <Steps
          size="small"
          current={current}
          status={preflight && !preflight.passed && current === 1 ? "error" : undefined}
          items={[
            { title: "Choose and bake" },
            { title: "Pre-flight" },
            { title: "Hand over to the app" },
            { title: "Flashing" },
            { title: "Result" },
          ]}
        />
        <Space wrap>
          <Select
            style={{ minWidth: 260 }}
            placeholder={bought.length ? "A tune licensed for this car" : "No tunes licensed for this car yet"}
            aria-label="Tune to flash"
            value={tuneFileId ?? undefined}
            onChange={setTuneFileId}
            options={bought.map((tune) => ({ value: tune.id, label: `${tune.title} v${tune.currentVersion}` }))}
          />
          <Button
            type="primary"
            disabled={!tuneFileId || !vehicle.stockDump || !vehicle.support.flashing}
            loading={bake.mutation.isPending}
            onClick={bakeAndHandOver}
          >
            Bake and flash
          </Button>
        </Space>
        {bake.mutation.isPending && <Progress percent={50} status="active" showInfo={false} aria-label="Baking" />}
        {bakeError && <Alert type="error" showIcon message="Baking failed" description={bakeError} />}
        <PreflightList checks={pageChecks(vehicle, handover)} />
        {preflight && <AppPreflight preflight={preflight} />}
        {handover && vehicle.support.flashing && <HandoverPanel handover={handover} />}
        {live && <LiveSession log={live} progress={progress} />}
        {live?.result === "success" && (
          <Alert
            type="success"
            showIcon
            message={
              live.kind === "stock"
                ? "Stock is on the car: the car is back on its stock read"
                : `${live.tuneTitle ?? "The tune"} is on the car`
            }
            data-testid="flash-done"
          />
        )}
      </Flex>
    </Card>
  );
}
