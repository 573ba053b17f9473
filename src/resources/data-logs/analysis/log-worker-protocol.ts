/** The messages between the page (log-worker-client.ts) and the log worker (log-worker.ts): each request carries an id its answer repeats. */
import type { DynoProfile } from "../../../../contracts/data-logs";
import type { PullThresholds } from "../../../../domain/logs/pulls";
import type { XyBox } from "./log-worker-analysis";
import type { PullChannels } from "./pull-channels";

export type WorkerRequest = { id: number } & (
  | { type: "load"; blob: Blob }
  | { type: "layout"; blob: Blob }
  | { type: "time"; blob: Blob }
  | { type: "channel"; index: number; blob: Blob }
  | { type: "channels"; blob: Blob }
  | { type: "compute"; channelId: string; expression: string; unit: string }
  | { type: "view"; t0: number; t1: number; pixels: number; ids: string[] }
  | { type: "valuesAt"; t: number }
  | { type: "rows"; t0: number; t1: number; ids: string[] }
  | {
      type: "dyno";
      profile: DynoProfile;
      rpmId: string;
      speedId?: string;
      gearId?: string;
      gear?: number;
      throttleId?: string;
    }
  | { type: "pulls"; channels: PullChannels; thresholds: Partial<PullThresholds> }
  /** An empty condition clears the filter. */
  | { type: "filter"; condition: string }
  | {
      type: "xy";
      xId: string;
      yId: string;
      colourId?: string;
      box?: XyBox;
      t0: number;
      t1: number;
      width: number;
      height: number;
    }
);

export type WorkerResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };
