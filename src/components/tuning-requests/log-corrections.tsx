/**
 * "Correct from logs": the dealer lays the request's logs on a map of the tune the next revision
 * starts from, sees the correction they propose beside the evidence (hits and means per cell),
 * accepts it cell by cell or all, and delivers the accepted cells as the next revision with the
 * reasons in plain words, which the customer reads on the revision.
 */
import { LineChartOutlined } from "@ant-design/icons";
import { type HttpError, useCustom, useCustomMutation, useOne } from "@refinedev/core";
import { Alert, Button, Flex, Input, InputNumber, Modal, Select, Skeleton, Space, Typography } from "antd";
import { useMemo, useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { DataLogSummary } from "../../../contracts/data-logs";
import type { CorrectionBody, RequestMaps } from "../../../contracts/tuning-request-corrections";
import type { TuningRequest } from "../../../contracts/tuning-requests";
import { failureText } from "../../lib/http-errors";
import {
  acceptedCorrection,
  CORRECTION_INPUTS,
  type CorrectionKind,
  changedCells,
  correctionKindOf,
  correctionReasons,
  inputChannels,
  mapOnAxes,
  proposeCorrection,
} from "../../lib/logs-on-map";
import { AxisChoice, MinSamplesInput, useAxisChoice } from "../logs-on-map/axis-choice";
import { CorrectionGrid } from "../logs-on-map/correction-grid";
import { useLogColumns } from "../logs-on-map/use-log-columns";

interface Props {
  ticket: TuningRequest;
  onChanged: (ticket: TuningRequest) => void;
}

const KINDS: { value: CorrectionKind; label: string }[] = [
  { value: "fuel", label: "Fuel: lambda against target" },
  { value: "boost", label: "Boost: actual against target" },
  { value: "timing", label: "Timing: knock correction" },
];
/** The largest change per cell offered first: a percentage for fuel, the map's own unit otherwise. */
const DEFAULT_LIMIT: Record<CorrectionKind, number> = { fuel: 10, boost: 2, timing: 3 };

/** Every log the customer attached, on asking and with each revision request. */
const requestLogIds = (ticket: TuningRequest) => [
  ...new Set([...ticket.logIds, ...ticket.events.flatMap((event) => event.logIds)]),
];

/** A log's title, read one by one: the list answers only the caller's own logs, the record a request's too. */
function LogTitle({ id }: { id: string }) {
  const { result } = useOne<DataLogSummary>({ resource: "data-logs", id, queryOptions: { retry: false } });
  return <>{result?.title ?? `Log ${id.slice(0, 8)}`}</>;
}

function CorrectionDialog({ ticket, onChanged, onClose }: Props & { onClose: () => void }) {
  const number = ticket.revisions + 1;
  const allLogs = requestLogIds(ticket);
  const maps = useCustom<RequestMaps>({ url: apiRoutes.tuningRequests.maps(ticket.id), method: "get" });
  const usable = (maps.query.data?.data.maps ?? []).filter((map) => mapOnAxes(map.values));
  const [mapId, setMapId] = useState<string | null>(null);
  const [logIds, setLogIds] = useState<string[]>(allLogs);
  const chosen = usable.find((map) => map.values.id === mapId) ?? null;
  const { logs, loading, error: logError } = useLogColumns(logIds);
  const axes = useAxisChoice(logs, chosen?.values ?? null);
  const [kind, setKind] = useState<CorrectionKind | null>(null);
  const effectiveKind = kind ?? (chosen ? correctionKindOf(chosen.title, chosen.values.unit) : "fuel");
  const [inputs, setInputs] = useState<Record<string, string | null>>({});
  const guessed = logs[0] ? inputChannels(effectiveKind, logs[0].channels) : {};
  const picked = Object.fromEntries(
    CORRECTION_INPUTS[effectiveKind].map((input) => [input.name, inputs[input.name] ?? guessed[input.name] ?? null]),
  );
  const [minSamples, setMinSamples] = useState(3);
  const [limit, setLimit] = useState<number | null>(null);
  const [accepted, setAccepted] = useState<Map<number, number>>(new Map());
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const delivering = useCustomMutation<TuningRequest>();

  const onAxes = chosen ? mapOnAxes(chosen.values) : null;
  const proposal = useMemo(() => {
    if (!chosen || !onAxes || !axes.x || logs.length === 0) return null;
    if (Object.values(picked).some((name) => !name)) return null;
    const max = limit ?? DEFAULT_LIMIT[effectiveKind];
    try {
      const correction = proposeCorrection(
        logs,
        onAxes,
        { kind: effectiveKind, x: axes.x, y: axes.y ?? undefined, inputs: picked as Record<string, string> },
        { minSamples, maxChangePerCell: effectiveKind === "fuel" ? { percent: max } : { absolute: max } },
      );
      return { correction };
    } catch (failure) {
      return { failure: (failure as Error).message };
    }
  }, [chosen, onAxes, axes.x, axes.y, logs, JSON.stringify(picked), minSamples, limit, effectiveKind]);
  const correction = proposal && "correction" in proposal ? proposal.correction : null;
  const kept = correction ? acceptedCorrection(correction, accepted) : null;
  const reasons =
    kept && chosen && onAxes
      ? correctionReasons(effectiveKind, kept, onAxes, chosen.values, logs.length, axes.units)
      : [];
  const cells = kept && chosen ? changedCells(kept, chosen.values.cols) : [];

  const acceptAll = () =>
    setAccepted(new Map((correction?.cells ?? []).flatMap((cell, k) => (cell ? [[k, cell.after] as const] : []))));
  const toggle = (k: number) =>
    setAccepted((current) => {
      const next = new Map(current);
      if (next.has(k)) next.delete(k);
      else if (correction?.cells[k]) next.set(k, correction.cells[k]!.after);
      return next;
    });
  const deliver = () => {
    if (!chosen) return;
    setError(null);
    const body: CorrectionBody = { itemId: chosen.values.id, cells, reasons, note };
    delivering.mutate(
      {
        url: apiRoutes.tuningRequests.corrections(ticket.id),
        method: "post",
        values: body,
        successNotification: { type: "success", message: `Revision ${number} delivered` },
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          onChanged(data);
          onClose();
        },
        onError: (failure: HttpError) => setError(failureText(failure)),
      },
    );
  };

  return (
    <Modal
      open
      width={960}
      title={`Correct from logs: ${ticket.reference}`}
      okText={`Deliver revision ${number}`}
      okButtonProps={{ disabled: cells.length === 0, loading: delivering.mutation.isPending }}
      onOk={deliver}
      onCancel={onClose}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        {allLogs.length === 0 && (
          <Alert type="info" showIcon message="The customer attached no logs to this request." />
        )}
        {maps.query.isLoading ? (
          <Skeleton active paragraph={{ rows: 2 }} />
        ) : maps.query.error ? (
          <Alert type="error" showIcon role="alert" message={failureText(maps.query.error)} />
        ) : (
          <Space wrap>
            <Select
              aria-label="Map"
              placeholder="A map of the tune"
              style={{ minWidth: 240 }}
              value={mapId}
              onChange={(id) => {
                setMapId(id);
                setAccepted(new Map());
                setKind(null);
                setInputs({});
              }}
              showSearch
              optionFilterProp="label"
              options={usable.map((map) => ({ value: map.values.id, label: map.title }))}
            />
            <Select
              aria-label="Logs"
              mode="multiple"
              style={{ minWidth: 240 }}
              value={logIds}
              onChange={(ids) => {
                setLogIds(ids);
                setAccepted(new Map());
              }}
              options={allLogs.map((id) => ({
                value: id,
                label: <LogTitle id={id} />,
              }))}
            />
          </Space>
        )}
        {logError && <Alert type="error" showIcon role="alert" message={logError} />}
        {chosen && logs.length > 0 && (
          <>
            <AxisChoice choice={axes} logs={logs} />
            <Space wrap>
              <Select
                aria-label="Correction"
                style={{ minWidth: 240 }}
                value={effectiveKind}
                onChange={(value) => {
                  setKind(value);
                  setInputs({});
                  setAccepted(new Map());
                }}
                options={KINDS}
              />
              {CORRECTION_INPUTS[effectiveKind].map((input) => (
                <Select
                  key={input.name}
                  aria-label={`Channel: ${input.name}`}
                  placeholder={input.name}
                  style={{ minWidth: 160 }}
                  value={picked[input.name]}
                  onChange={(name) => setInputs((current) => ({ ...current, [input.name]: name }))}
                  options={logs[0].channels.map((c) => ({ value: c.name, label: `${input.name}: ${c.name}` }))}
                />
              ))}
              <MinSamplesInput value={minSamples} onChange={setMinSamples} />
              <InputNumber
                aria-label="Limit per cell"
                addonBefore="limit per cell"
                addonAfter={effectiveKind === "fuel" ? "%" : chosen.values.unit}
                min={0}
                value={limit ?? DEFAULT_LIMIT[effectiveKind]}
                onChange={(value) => setLimit(value)}
              />
            </Space>
          </>
        )}
        {loading && <Skeleton active paragraph={{ rows: 3 }} />}
        {proposal && "failure" in proposal && <Alert type="warning" showIcon message={proposal.failure} />}
        {correction && chosen && (
          <>
            <Space wrap>
              <Typography.Text>
                {`${correction.cells.filter(Boolean).length} cells proposed, ${accepted.size} accepted`}
              </Typography.Text>
              <Button onClick={acceptAll}>Accept all</Button>
              <Button onClick={() => setAccepted(new Map())} disabled={accepted.size === 0}>
                Accept none
              </Button>
            </Space>
            <CorrectionGrid
              label="Proposed corrections"
              values={chosen.values}
              histogram={correction.histogram}
              correction={correction}
              accepted={accepted}
              onToggle={toggle}
            />
          </>
        )}
        {reasons.length > 0 && (
          <Flex vertical data-testid="correction-reasons">
            <Typography.Text strong>What the customer reads</Typography.Text>
            {reasons.map((reason) => (
              <Typography.Text key={reason}>{reason}</Typography.Text>
            ))}
          </Flex>
        )}
        <Input.TextArea
          value={note}
          onChange={(event) => setNote(event.target.value)}
          rows={2}
          placeholder="Your own words for this revision"
          aria-label="Revision note"
          maxLength={2000}
        />
        {error && <Alert type="error" showIcon role="alert" message="Not delivered" description={error} />}
      </Flex>
    </Modal>
  );
}

/** "Correct from logs": opens the dialog. */
export function LogCorrections({ ticket, onChanged }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<LineChartOutlined />} onClick={() => setOpen(true)} style={{ alignSelf: "start" }}>
        Correct from logs
      </Button>
      {open && <CorrectionDialog ticket={ticket} onChanged={onChanged} onClose={() => setOpen(false)} />}
    </>
  );
}
