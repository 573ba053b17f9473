import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { inflateRawSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { deserializeColumns } from "../../../../domain/logs";
import { parseLogFile } from "../../../../server/services/log-parse";
import { MORE_FIXTURE_DIR } from "./support/fixtures";

/** The path POST /data-logs takes after storing the upload: the worker parses the file as stored. */
describe("upload parse worker", () => {
  let dir = "";
  afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

  it("reads a MegaLogViewer binary .mlg upload instead of refusing it as binary", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "mlg-"));
    const columnsPath = path.join(dir, "log.columns");
    const outcome = await parseLogFile({ inputPath: path.join(MORE_FIXTURE_DIR, "speeduino.mlg"), columnsPath });
    if (!outcome.ok) throw new Error(`refused: ${outcome.code} ${outcome.message}`);
    expect(outcome.summary.format).toBe("megalogviewer");
    expect(outcome.summary.rowCount).toBe(139);
    const stored = await readFile(columnsPath);
    expect(stored.readUInt32LE(4), "each array deflated (version 3)").toBe(3);
    const columns = deserializeColumns(stored, inflateRawSync);
    expect(columns.channels.find((c) => c.name === "RPM")?.unit).toBe("rpm");
  });
});
