import { describe, expect, it } from "vitest";
import { pairLogUploadFiles } from "../../../../src/lib/log-upload-files";

const named = (...names: string[]) => names.map((name) => ({ name }));

describe("pairLogUploadFiles", () => {
  it("sends one picked file as the log", () => {
    expect(pairLogUploadFiles(named("pull.csv"))).toEqual({ file: { name: "pull.csv" } });
  });

  it("sends an Emerald .lg2 picked with its .lg1 as the companion, in either order", () => {
    const pair = { file: { name: "run.lg1" }, companion: { name: "RUN.LG2" } };
    expect(pairLogUploadFiles(named("run.lg1", "RUN.LG2"))).toEqual(pair);
    expect(pairLogUploadFiles(named("RUN.LG2", "run.lg1"))).toEqual(pair);
  });

  it("refuses two logs or three files, saying what to pick", () => {
    for (const files of [named("a.csv", "b.csv"), named("a.lg1", "a.lg2", "b.csv"), named("a.lg2", "b.lg2")]) {
      const paired = pairLogUploadFiles(files);
      expect(paired).toEqual({ error: expect.stringMatching(/^Pick one log at a time/) });
    }
  });
});
