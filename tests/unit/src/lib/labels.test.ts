import { describe, expect, it } from "vitest";

import { emptyLabel, labels } from "../../../../src/lib/labels";

describe("default English labels", () => {
  it("include Close, No data and No matching data", () => {
    expect(labels.close).toBe("Close");
    expect(labels.noData).toBe("No data");
    expect(labels.noMatchingData).toBe("No matching data");
  });

  it("word the dialog error as 'An error occurred: {error}'", () => {
    expect(labels.dialogError("boom")).toBe("An error occurred: boom");
  });

  it("say 'No matching data' for search components and 'No data' elsewhere", () => {
    expect(emptyLabel("Select")).toBe("No matching data");
    expect(emptyLabel("Cascader")).toBe("No matching data");
    expect(emptyLabel("Table")).toBe("No data");
    expect(emptyLabel("List")).toBe("No data");
    expect(emptyLabel()).toBe("No data");
  });
});
