/**
 * What the compared logs' workers are asked for beside this log's: the time chart's points of the
 * same range and the X–Y plot's points of the same channels, each log's range shifted by its
 * offset so its points land on this log's time axis.
 */
import type { DataLogChannel } from "../../../../contracts/data-logs";
import type { SeriesPoints } from "../../../lib/downsample";
import type { Conversion } from "../../../lib/log-units";
import type { ComparedLog } from "./use-compared-logs";
import { XY_OVERLAY_COLOURS } from "./xy-canvas";
import { type ComparedXy, converted, convertedRange, type XyChoice } from "./xy-view";

/** Where a compared log's channel's points are kept among the view's. */
export const comparedKey = (logId: string, channelId: string) => `${logId}\u0000${channelId}`;

/** The compared logs' views of the range, keyed by `comparedKey`, on this log's time axis. */
export async function comparedViews(
  logs: readonly ComparedLog[],
  wish: { t0: number; t1: number; pixels: number; ids: string[] },
): Promise<Array<[string, SeriesPoints]>> {
  const answers = await Promise.all(
    logs.map(async (log) => {
      const ids = [...new Set(wish.ids.flatMap((id) => log.matches.get(id)?.id ?? []))];
      if (log.status !== "ready" || ids.length === 0) return [];
      const view = await log.worker.view({ ...wish, t0: wish.t0 - log.offset, t1: wish.t1 - log.offset, ids });
      return view.ids.map((id, i): [string, SeriesPoints] => {
        const { time, values } = view.series[i];
        const shifted = new Float64Array(time.length);
        for (let k = 0; k < time.length; k++) shifted[k] = time[k] + log.offset;
        return [comparedKey(log.id, id), { time: shifted, values }];
      });
    }),
  );
  return answers.flat();
}

/**
 * The compared logs' X–Y points for this log's choice of channels (their matched ones), in the
 * units `conversionOf` gives a compared channel matched to this log's `baseId`.
 */
export async function comparedXy(
  logs: readonly ComparedLog[],
  body: XyChoice & { t0: number; t1: number; width: number; height: number },
  conversionOf: (baseId: string, theirs: DataLogChannel) => Conversion,
): Promise<ComparedXy[]> {
  const answers = await Promise.all(
    logs.map(async (log, k): Promise<ComparedXy[]> => {
      const [xChannel, yChannel] = [log.matches.get(body.xId), log.matches.get(body.yId)];
      if (log.status !== "ready" || !xChannel || !yChannel) return [];
      const { x, y, xRange, yRange } = await log.worker.xy({
        xId: xChannel.id,
        yId: yChannel.id,
        t0: body.t0 - log.offset,
        t1: body.t1 - log.offset,
        width: body.width,
        height: body.height,
      });
      const [xc, yc] = [conversionOf(body.xId, xChannel), conversionOf(body.yId, yChannel)];
      return [
        {
          title: log.title,
          colour: XY_OVERLAY_COLOURS[k % XY_OVERLAY_COLOURS.length],
          x: converted(x, xc),
          y: converted(y, yc),
          xRange: xRange && convertedRange(xRange, xc),
          yRange: yRange && convertedRange(yRange, yc),
        },
      ];
    }),
  );
  return answers.flat();
}
