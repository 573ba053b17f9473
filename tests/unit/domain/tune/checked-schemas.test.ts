import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  checkedLocalInspectionSchema,
  checkedTuneDefinitionSchema,
  checkedTuneItemSchema,
  checkedTuneMapsSchema,
  checkedXdfImportedSchema,
  checkedXdfStoredSchema,
} from "../../../../domain/tune/checked-schemas";

function issues(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

const badDefinition = {
  firmwareId: "F",
  imageSize: 256,
  items: [{ id: "c", title: "C", kind: "constant", z: { address: 4, toPhysical: "X*(2" } }],
};

describe("definition schemas with scalings checked", () => {
  it("refuses a bad scaling expression with its position", () => {
    expect(issues(checkedTuneDefinitionSchema, badDefinition)).toEqual([
      `items.0.z.toPhysical: expression "X*(2": Expected ')' but the expression ended at 4`,
    ]);
  });

  it("checks every scaling of X (toRaw, axes) on its own field, in field order, beside the other checks", () => {
    expect(
      issues(checkedTuneDefinitionSchema, {
        firmwareId: "F",
        imageSize: 256,
        items: [
          {
            id: "t",
            title: "T",
            kind: "table1d",
            z: { address: 0, rows: 4, toPhysical: "X", toRaw: "X$" },
            x: { address: 10, count: 3, toPhysical: "Y * 2" },
          },
        ],
      }),
    ).toEqual([
      "items.0.z.toRaw: expression \"X$\": Unexpected character '$' at 1",
      "items.0.x.toPhysical: expression \"Y * 2\": Unknown variable 'Y' at 0",
      "items.0.x.count: axis x has 3 entries but the table has 4 cells",
    ]);
  });

  it("reports a bad scaling even when another field of the item is refused", () => {
    expect(
      issues(checkedTuneItemSchema, { id: "c", kind: "constant", z: { address: 4, toPhysical: "foo(X)" } }),
    ).toEqual([
      "title: Invalid input: expected string, received undefined",
      "z.toPhysical: expression \"foo(X)\": Unknown function 'foo' at 0",
    ]);
  });

  it("accepts the scalings that compile and parses like the contract's schema", () => {
    const doc = checkedTuneDefinitionSchema.parse({
      ...badDefinition,
      items: [
        { id: "c", title: "C", kind: "constant", z: { address: 4, toPhysical: "(X-40)*0.75", toRaw: "X/0.75+40" } },
      ],
    });
    expect(doc.items[0].z).toEqual({
      address: 4,
      bits: 8,
      signed: false,
      endian: "big",
      float: false,
      toPhysical: "(X-40)*0.75",
      toRaw: "X/0.75+40",
    });
  });

  it("checks the definition in the answers that carry one", () => {
    const definition = { ...badDefinition, categories: [] };
    const path = (schema: z.ZodType, answer: object) =>
      schema.safeParse(answer).error?.issues.map((i) => i.path.join("."));
    for (const schema of [
      checkedLocalInspectionSchema,
      checkedTuneMapsSchema,
      checkedXdfImportedSchema,
      checkedXdfStoredSchema,
    ]) {
      const shape = (schema as unknown as z.ZodObject).shape;
      expect(Object.keys(shape)).toContain("definition");
      expect(path(shape.definition as z.ZodType, definition)).toEqual(["items.0.z.toPhysical"]);
    }
  });
});
