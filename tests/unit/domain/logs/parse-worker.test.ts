import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync, inflateRawSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { deserializeColumns } from "../../../../domain/logs";
import { parseLogFile } from "../../../../server/services/log-parse";
import { MORE_FIXTURE_DIR, NEW_FORMAT_DIR } from "./support/fixtures";

/** The path POST /data-logs takes after storing the upload: the worker parses the file as stored. */
describe("upload parse worker", () => {
  let dir = "";
  afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));
  const workDir = async () => {
    dir ||= await mkdtemp(path.join(tmpdir(), "log-parse-"));
    return dir;
  };

  it("reads a MegaLogViewer binary .mlg upload instead of refusing it as binary", async () => {
    const columnsPath = path.join(await workDir(), "log.columns");
    const outcome = await parseLogFile({ inputPath: path.join(MORE_FIXTURE_DIR, "speeduino.mlg"), columnsPath });
    if (!outcome.ok) throw new Error(`refused: ${outcome.code} ${outcome.message}`);
    expect(outcome.summary.format).toBe("megalogviewer");
    expect(outcome.summary.rowCount).toBe(139);
    const stored = await readFile(columnsPath);
    expect(stored.readUInt32LE(4), "each array deflated (version 3)").toBe(3);
    const columns = deserializeColumns(stored, inflateRawSync);
    expect(columns.channels.find((c) => c.name === "RPM")?.unit).toBe("rpm");
  });

  it("reads an Emerald .lg1 with the .lg2 it is given as a companion", async () => {
    const outcome = await parseLogFile({
      inputPath: path.join(NEW_FORMAT_DIR, "emerald-idle-and-rev.lg1"),
      columnsPath: path.join(await workDir(), "emerald.columns"),
      companions: [{ name: "emerald-idle-and-rev.lg2", path: path.join(NEW_FORMAT_DIR, "emerald-idle-and-rev.lg2") }],
    });
    if (!outcome.ok) throw new Error(`refused: ${outcome.code} ${outcome.message}`);
    expect(outcome.summary.format).toBe("emerald");
    expect(outcome.summary.rowCount).toBe(2515);
  });

  it("unpacks a gzip upload and reads the log inside", async () => {
    const inputPath = path.join(await workDir(), "log.csv.gz");
    await writeFile(inputPath, gzipSync("Time,RPM\n0,800\n0.5,900\n"));
    const outcome = await parseLogFile({ inputPath, columnsPath: path.join(dir, "gz.columns") });
    if (!outcome.ok) throw new Error(`refused: ${outcome.code} ${outcome.message}`);
    expect(outcome.summary.channels.map((c) => c.name)).toEqual(["RPM"]);
  });

  it("refuses a damaged gzip upload saying so, instead of failing", async () => {
    const inputPath = path.join(await workDir(), "broken.gz");
    await writeFile(inputPath, gzipSync("Time,RPM\n0,800\n").subarray(0, 12));
    const outcome = await parseLogFile({ inputPath, columnsPath: path.join(dir, "broken.columns") });
    expect(outcome).toEqual({
      ok: false,
      code: "unsupported",
      line: undefined,
      message: "The file starts like a gzip-compressed file but does not unpack: it is damaged or cut short.",
    });
  });
});
