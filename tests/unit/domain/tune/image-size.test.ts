import { describe, expect, it } from "vitest";
import { imageSizeText } from "../../../../domain/tune";

describe("imageSizeText", () => {
  it("names whole mebibytes and kibibytes as people say them", () => {
    expect(imageSizeText(1024 * 1024)).toBe("1 MiB");
    expect(imageSizeText(8 * 1024 * 1024)).toBe("8 MiB");
    expect(imageSizeText(512 * 1024)).toBe("512 KiB");
    expect(imageSizeText(1536 * 1024)).toBe("1536 KiB");
  });

  it("gives a size that is no whole kibibyte in bytes, so a cut read shows as one", () => {
    expect(imageSizeText(524_287)).toBe("524,287 bytes");
    expect(imageSizeText(12)).toBe("12 bytes");
  });
});
