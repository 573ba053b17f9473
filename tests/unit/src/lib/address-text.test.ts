import { describe, expect, it } from "vitest";
import { parseAddressText } from "../../../../src/lib/address-text";

describe("parseAddressText", () => {
  it("reads hex with 0x and decimal digits, spaces around ignored", () => {
    expect(parseAddressText("0x80000000")).toEqual({ value: 0x8000_0000 });
    expect(parseAddressText(" 0x8000FFFF ")).toEqual({ value: 2_147_549_183 });
    expect(parseAddressText("4096")).toEqual({ value: 4096 });
  });

  it("refuses what is neither, and an address past 32 bits, saying what to write", () => {
    expect(parseAddressText("80000000h")).toEqual({ error: "Write the address as hex (0x80000000) or decimal digits" });
    expect(parseAddressText("-1")).toEqual({ error: "Write the address as hex (0x80000000) or decimal digits" });
    expect(parseAddressText("0x100000000")).toEqual({ error: "At most 0xFFFFFFFF" });
  });
});
