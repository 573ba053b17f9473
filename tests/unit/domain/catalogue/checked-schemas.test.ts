import { describe, expect, it } from "vitest";
import { firmwareSupportInputSchema, pidDescriptorInputSchema } from "../../../../contracts/firmware-support";
import {
  checkedFirmwareSupportInputSchema,
  checkedPidDescriptorInputSchema,
} from "../../../../domain/catalogue/checked-schemas";

const record = (toPhysical: string) => ({
  firmwareId: "F",
  ecuFamily: "E",
  manufacturer: "M",
  imageSize: 256,
  definition: {
    firmwareId: "F",
    imageSize: 256,
    items: [{ id: "c", title: "C", kind: "constant", z: { address: 4, toPhysical } }],
  },
});

const pid = (expression?: string) => ({
  name: "Engine speed",
  variable: "rpm",
  source: "uds",
  address: "0xf40c",
  length: 2,
  ...(expression !== undefined && { expression }),
});

describe("catalogue body schemas with expressions checked", () => {
  it("refuses a firmware record whose definition has a scaling that does not compile, at the scaling's path", () => {
    const result = checkedFirmwareSupportInputSchema.safeParse(record("X*(2"));
    expect(result.error?.issues.map((i) => ({ path: i.path.join("."), message: i.message }))).toEqual([
      {
        path: "definition.items.0.z.toPhysical",
        message: `expression "X*(2": Expected ')' but the expression ended at 4`,
      },
    ]);
    expect(firmwareSupportInputSchema.safeParse(record("X*(2")).success).toBe(true);
  });

  it("keeps the record's own checks and defaults", () => {
    const parsed = checkedFirmwareSupportInputSchema.parse(record("X*2"));
    expect(parsed).toMatchObject({ identify: [], checksums: [], notes: "" });
    expect(checkedFirmwareSupportInputSchema.parse({ ...record("X"), definition: undefined }).definition).toBeNull();
    const mismatch = checkedFirmwareSupportInputSchema.safeParse({ ...record("X"), imageSize: 512 });
    expect(mismatch.error?.issues.map((i) => i.path.join("."))).toEqual(["definition.imageSize"]);
  });

  it("refuses a PID expression that does not compile, with its 1-based column and the error's span as params", () => {
    const result = checkedPidDescriptorInputSchema.safeParse(pid("x *"));
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ["expression"],
        message: "Unexpected end of expression at 3 (at 4)",
        params: { message: "Unexpected end of expression at 3", position: 3, length: 1 },
      }),
    ]);
    expect(pidDescriptorInputSchema.safeParse(pid("x *")).success).toBe(true);
  });

  it("reads a PID expression over x or the bytes A to D only, and keeps the contract's limits and default", () => {
    expect(checkedPidDescriptorInputSchema.parse(pid("A*256+B")).expression).toBe("A*256+B");
    expect(checkedPidDescriptorInputSchema.parse(pid()).expression).toBe("x");
    expect(checkedPidDescriptorInputSchema.safeParse(pid("rpm / 4")).error?.issues[0].message).toBe(
      "Unknown variable 'rpm' at 0 (at 1)",
    );
    expect(checkedPidDescriptorInputSchema.safeParse(pid("")).error?.issues.map((i) => i.message)).toEqual([
      "expression must not be empty",
      "Empty expression (at 1)",
    ]);
    const limits = checkedPidDescriptorInputSchema.safeParse({ ...pid("x"), min: 5, max: 1 });
    expect(limits.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual(["max: max is below min"]);
  });
});
