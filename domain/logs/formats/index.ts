import { LogParseError } from "../errors";
import type { LogFormat, LogReader } from "../layout";
import type { TextLines } from "../text-lines";
import type { FormatId } from "../types";
import { blueDriver } from "./bluedriver";
import { bootmod3 } from "./bootmod3";
import { cobbAccessport } from "./cobb";
import { ecuMaster } from "./ecumaster";
import { evoScan } from "./evoscan";
import { genericCsv } from "./generic";
import { haltechNsp } from "./haltech";
import { hpTuners } from "./hp-tuners";
import { jb4 } from "./jb4";
import { me7Logger } from "./me7logger";
import { mhd } from "./mhd";
import { msl } from "./msl";
import { obdLink } from "./obdlink";
import { romRaider } from "./romraider";
import { simosTools } from "./simostools";
import { vcds } from "./vcds";
import { volvoLogger } from "./volvologger";
import { winLog } from "./winlog";
import { zeitronix } from "./zeitronix";

/**
 * Tried in order, most distinctive signature first: a file that matches a specific logger's
 * preamble must not be claimed by a looser header test (WinLog's ME7 names, OBDLink's and
 * VolvoLogger's "Time (sec)"). Whatever none of them claims is read as generic delimited text.
 */
export const FORMATS: readonly LogFormat[] = [
  haltechNsp,
  blueDriver,
  msl,
  hpTuners,
  me7Logger,
  winLog,
  vcds,
  jb4,
  obdLink,
  zeitronix,
  cobbAccessport,
  simosTools,
  mhd,
  bootmod3,
  romRaider,
  ecuMaster,
  evoScan,
  volvoLogger,
];

/** The reader for a format chosen by hand; ids arrive from requests, so unknown ones are refused. */
export function readerById(id: FormatId): LogReader {
  const reader = [...FORMATS, genericCsv].find((f) => f.id === id);
  if (!reader) throw new LogParseError("bad-format", `Unknown log format "${id}".`);
  return reader;
}

export function pickReader(lines: TextLines): LogReader {
  return FORMATS.find((format) => format.detect(lines)) ?? genericCsv;
}
