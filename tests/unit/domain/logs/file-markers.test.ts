import { describe, expect, it } from "vitest";
import { fileMarkersOf } from "../../../../domain/logs/file-markers";

describe("fileMarkersOf", () => {
  it("reads each marker's label and seconds in the order the file wrote them", () => {
    expect(fileMarkersOf({ markers: "2 @ 25.340 s; Record Start @ 0.000 s; EOL @ 52.787 s" })).toEqual([
      { label: "2", seconds: 25.34 },
      { label: "Record Start", seconds: 0 },
      { label: "EOL", seconds: 52.787 },
    ]);
  });

  it("gives none for a log without markers and leaves out an entry in another form", () => {
    expect(fileMarkersOf(undefined)).toEqual([]);
    expect(fileMarkersOf({ markers: "" })).toEqual([]);
    expect(fileMarkersOf({ groups: "A:003" })).toEqual([]);
    expect(fileMarkersOf({ markers: "no time here; 4 @ 1.5 s" })).toEqual([{ label: "4", seconds: 1.5 }]);
  });

  it("names a marker written without a label", () => {
    expect(fileMarkersOf({ markers: "@ 3.000 s" })).toEqual([{ label: "Marker", seconds: 3 }]);
  });
});
