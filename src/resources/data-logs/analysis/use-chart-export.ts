/**
 * The log view's two exports: the CSV of the visible range and the charted channels, in the units
 * shown (every sample, read from the worker, not the drawn points), and the PNG of the chart.
 */
import { App, theme } from "antd";
import type { RefObject } from "react";
import { useStableCallback } from "../../../components/stable-callback";
import { exportFileName, logCsvParts } from "../../../lib/log-export";
import type { Conversion } from "../../../lib/log-units";
import { chartPng, download } from "./chart-export";
import type { LogChartHandle, TimeRange } from "./log-chart";
import type { LogWorker } from "./log-worker-client";

export interface ExportedChannel {
  id: string;
  name: string;
  conversion: Conversion;
}

interface ChartExportOptions {
  worker: RefObject<LogWorker | null>;
  chart: RefObject<LogChartHandle | null>;
  getRange: () => TimeRange;
  /** The charted channels, in the panes' order. */
  channels: () => ExportedChannel[];
  /** The log's title, which the files are named after. */
  title: string;
}

export function useChartExport({ worker, chart, getRange, channels, title }: ChartExportOptions) {
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const failed = (error: unknown) =>
    void message.error(`The export failed: ${error instanceof Error ? error.message : String(error)}`);

  const csv = useStableCallback(async () => {
    const range = getRange();
    const shown = channels();
    try {
      const rows = await worker.current!.rows({ t0: range[0], t1: range[1], ids: shown.map((c) => c.id) });
      const parts = logCsvParts(
        rows.time,
        shown.map((channel, i) => ({ name: channel.name, values: rows.values[i], conversion: channel.conversion })),
      );
      download(new Blob(parts, { type: "text/csv;charset=utf-8" }), exportFileName(title, range, "csv"));
    } catch (error) {
      failed(error);
    }
  });
  const png = useStableCallback(async () => {
    try {
      const blob = await chartPng(chart.current?.canvases() ?? [], token.colorBgContainer);
      download(blob, exportFileName(title, getRange(), "png"));
    } catch (error) {
      failed(error);
    }
  });
  return { csv, png };
}
