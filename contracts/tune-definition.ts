/**
 * Map definitions, checksum schemes, identify rules and tune-file patches
 * (the formats are the schemas below), shared by the server and the app.
 *
 * Every schema is strict: an unknown key is refused, never dropped, so a typo
 * in a definition cannot silently turn into a default. Parsing normalises
 * (addresses become numbers, hex becomes upper case without spaces, defaults
 * are filled in) and the output is itself valid input, so a stored document
 * parses again unchanged.
 *
 * Scaling expressions are strings here: contracts hold shapes. The domain builds the
 * element, item and definition schemas again over a scaling that must compile
 * (domain/tune/checked-schemas.ts), which is what the API and the forms validate with.
 */
import { z } from "zod";

// ---------------------------------------------------------------------------
// Scalars

const ADDRESS_MESSAGE = 'must be a hex string like "0x6851CE" or a non-negative integer';

/** `"0x6851CE"` or `6851022`; parsed to a number. */
export const addressSchema = z
  .union([z.string(), z.number()], { error: `address ${ADDRESS_MESSAGE}` })
  .transform((value, ctx) => {
    if (typeof value === "number") {
      if (Number.isSafeInteger(value) && value >= 0) return value;
    } else if (/^0x[0-9a-fA-F]{1,12}$/.test(value)) {
      return parseInt(value.slice(2), 16);
    }
    ctx.addIssue({ code: "custom", message: `address ${ADDRESS_MESSAGE}, got ${JSON.stringify(value)}` });
    return z.NEVER;
  });

/** Bytes as hex (`"DEADBEEF"`, spaces between bytes allowed); normalised to upper case without spaces. */
export const hexBytesSchema = z.string().transform((value, ctx) => {
  const compact = value.replace(/\s+/g, "");
  if (compact.length === 0 || compact.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(compact)) {
    ctx.addIssue({ code: "custom", message: `must be hex bytes like "DEADBEEF", got ${JSON.stringify(value)}` });
    return z.NEVER;
  }
  return compact.toUpperCase();
});

/** A bit mask as a number or "0x…" string. */
const maskSchema = z
  .union([z.string(), z.number()], { error: "mask must be a number or a hex string" })
  .transform((value, ctx) => {
    const n =
      typeof value === "number" ? value : /^0x[0-9a-fA-F]{1,8}$/.test(value) ? parseInt(value.slice(2), 16) : NaN;
    if (!Number.isInteger(n) || n <= 0 || n > 0xffffffff) {
      ctx.addIssue({ code: "custom", message: `mask must be a non-zero 32-bit value, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return n;
  });

/**
 * What a scaling expression of `X` is parsed with: `z.string()` in this module's own schemas; the
 * domain's also checks that it compiles, on the field itself, so that its issue comes where and
 * when any other field's would.
 */
export type ScalingSchema = z.ZodType<string, string>;

export const endianSchema = z.enum(["big", "little"], { error: 'endian must be "big" or "little"' });
export type Endian = z.infer<typeof endianSchema>;

const bitsSchema = z.literal([8, 16, 32], { error: "bits must be 8, 16 or 32" });
export type ElementBits = z.infer<typeof bitsSchema>;

// ---------------------------------------------------------------------------
// Elements and axes

/** Element fields as written: everything optional but the address, defaults applied by `resolveElement`. */
const elementShapeOver = (scaling: ScalingSchema) => ({
  address: addressSchema,
  bits: bitsSchema.optional(),
  signed: z.boolean().optional(),
  endian: endianSchema.optional(),
  /** IEEE-754 single precision; implies 32 bits. */
  float: z.boolean().optional(),
  toPhysical: scaling.optional(),
  /** When absent, writing inverts `toPhysical` if it is linear and is refused otherwise. */
  toRaw: scaling.optional(),
  unit: z.string().optional(),
  decimals: z.number().int().min(0).max(12).optional(),
  /** Physical limits for writing. */
  min: z.number().optional(),
  max: z.number().optional(),
});
type ElementShape = ReturnType<typeof elementShapeOver>;

export interface ElementSpec {
  address: number;
  bits: ElementBits;
  signed: boolean;
  endian: Endian;
  float: boolean;
  toPhysical: string;
  toRaw?: string;
  unit?: string;
  decimals?: number;
  min?: number;
  max?: number;
}

export interface TableElementSpec extends ElementSpec {
  rows: number;
  cols: number;
  columnMajor: boolean;
}

type ElementInput = { [K in keyof ElementShape]?: z.output<ElementShape[K]> };

function checkElement(element: ElementInput, ctx: z.RefinementCtx): void {
  if (element.float && element.bits !== undefined && element.bits !== 32) {
    ctx.addIssue({ code: "custom", path: ["bits"], message: `float elements are 32 bits, got bits ${element.bits}` });
  }
  if (element.float && element.signed) {
    ctx.addIssue({ code: "custom", path: ["signed"], message: "float elements are always signed; drop signed" });
  }
  if (element.min !== undefined && element.max !== undefined && element.min > element.max) {
    ctx.addIssue({ code: "custom", path: ["min"], message: `min ${element.min} is greater than max ${element.max}` });
  }
}

function resolveElement(element: ElementInput & { address: number }): ElementSpec {
  const { address, bits, signed, endian, float, toPhysical, ...rest } = element;
  return {
    address,
    bits: float ? 32 : (bits ?? 8),
    signed: signed ?? false,
    endian: endian ?? "big",
    float: float ?? false,
    toPhysical: toPhysical ?? "X",
    ...rest,
  };
}

export interface LabelAxis {
  count: number;
  labels: string[];
  unit?: string;
}
export interface ImageAxis extends ElementSpec {
  count: number;
}
/** An axis is static labels or breakpoints read from the image; tell them apart with `"labels" in axis`. */
export type Axis = LabelAxis | ImageAxis;

const ELEMENT_KEYS = ["address", "bits", "signed", "endian", "float", "toPhysical", "toRaw", "min", "max"] as const;

// ---------------------------------------------------------------------------
// Items

const itemId = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, "id must be 1-128 letters, digits, '_', '.' or '-'");

const itemBase = {
  id: itemId,
  title: z.string().min(1, "title must not be empty"),
  category: z.string().optional(),
  /** Every category the item is in, `category` first, when it is in more than one (TunerPro lets an item sit in several). */
  categories: z.array(z.string()).min(2, "categories lists two or more; one goes in category").optional(),
  description: z.string().optional(),
};

/** The element, axis and item schemas over a scaling schema (see ScalingSchema). */
export function itemSchemasOver(scaling: ScalingSchema) {
  const elementShape = elementShapeOver(scaling);

  const elementSchema = z.strictObject(elementShape).superRefine(checkElement).transform(resolveElement);

  const tableElementSchema = z
    .strictObject({
      ...elementShape,
      rows: z.number().int().min(1).max(65_536).default(1),
      cols: z.number().int().min(1).max(65_536).default(1),
      columnMajor: z.boolean().default(false),
    })
    .superRefine(checkElement)
    .transform(
      ({ rows, cols, columnMajor, ...element }): TableElementSpec => ({
        ...resolveElement(element),
        rows,
        cols,
        columnMajor,
      }),
    );

  const axisSchema = z
    .strictObject({
      ...elementShape,
      address: addressSchema.optional(),
      count: z.number().int().min(1).max(65_536).optional(),
      labels: z.array(z.string()).min(1, "labels must not be empty").optional(),
    })
    .superRefine((axis, ctx) => {
      if (axis.labels) {
        const stray = ELEMENT_KEYS.filter((key) => axis[key] !== undefined);
        if (stray.length > 0) {
          ctx.addIssue({ code: "custom", message: `an axis with labels cannot also have ${stray.join(", ")}` });
        }
        if (axis.count !== undefined && axis.count !== axis.labels.length) {
          ctx.addIssue({
            code: "custom",
            path: ["count"],
            message: `count ${axis.count} differs from the ${axis.labels.length} labels`,
          });
        }
      } else if (axis.address === undefined) {
        ctx.addIssue({ code: "custom", message: "an axis needs either labels or an address" });
      } else {
        if (axis.count === undefined)
          ctx.addIssue({ code: "custom", path: ["count"], message: "an axis read from the image needs a count" });
        checkElement(axis, ctx);
      }
    })
    .transform(({ count, labels, ...element }): Axis => {
      if (labels) return { count: labels.length, labels, ...(element.unit !== undefined && { unit: element.unit }) };
      return { ...resolveElement({ ...element, address: element.address as number }), count: count as number };
    });

  const constantItemSchema = z.strictObject({ ...itemBase, kind: z.literal("constant"), z: elementSchema });

  const flagItemSchema = z
    .strictObject({ ...itemBase, kind: z.literal("flag"), z: elementSchema, mask: maskSchema })
    .superRefine((item, ctx) => {
      if (item.z.float)
        ctx.addIssue({ code: "custom", path: ["z", "float"], message: "a flag cannot be a float element" });
      else if (item.mask >= 2 ** item.z.bits) {
        ctx.addIssue({
          code: "custom",
          path: ["mask"],
          message: `mask 0x${item.mask.toString(16)} does not fit ${item.z.bits} bits`,
        });
      }
    });

  const enumItemSchema = z
    .strictObject({
      ...itemBase,
      kind: z.literal("enum"),
      z: elementSchema,
      values: z
        .array(z.strictObject({ raw: z.number().int(), label: z.string().min(1) }))
        .min(1, "an enum needs values"),
    })
    .superRefine((item, ctx) => {
      const seen = new Set<number>();
      item.values.forEach((value, i) => {
        if (seen.has(value.raw))
          ctx.addIssue({
            code: "custom",
            path: ["values", i, "raw"],
            message: `raw value ${value.raw} is listed twice`,
          });
        seen.add(value.raw);
      });
    });

  const table1dItemSchema = z
    .strictObject({ ...itemBase, kind: z.literal("table1d"), z: tableElementSchema, x: axisSchema.optional() })
    .superRefine((item, ctx) => {
      if (item.z.rows !== 1 && item.z.cols !== 1) {
        ctx.addIssue({
          code: "custom",
          path: ["z"],
          message: `a 1-D table has one row or one column, got ${item.z.rows}x${item.z.cols}`,
        });
      }
      const cells = item.z.rows * item.z.cols;
      if (item.x && item.x.count !== cells) {
        ctx.addIssue({
          code: "custom",
          path: ["x", "count"],
          message: `axis x has ${item.x.count} entries but the table has ${cells} cells`,
        });
      }
    });

  const table2dItemSchema = z
    .strictObject({
      ...itemBase,
      kind: z.literal("table2d"),
      z: tableElementSchema,
      x: axisSchema.optional(),
      y: axisSchema.optional(),
    })
    .superRefine((item, ctx) => {
      if (item.x && item.x.count !== item.z.cols) {
        ctx.addIssue({
          code: "custom",
          path: ["x", "count"],
          message: `axis x has ${item.x.count} entries but the table has ${item.z.cols} columns`,
        });
      }
      if (item.y && item.y.count !== item.z.rows) {
        ctx.addIssue({
          code: "custom",
          path: ["y", "count"],
          message: `axis y has ${item.y.count} entries but the table has ${item.z.rows} rows`,
        });
      }
    });

  const tuneItemSchema = z.discriminatedUnion(
    "kind",
    [constantItemSchema, flagItemSchema, enumItemSchema, table1dItemSchema, table2dItemSchema],
    { error: 'kind must be one of "constant", "flag", "enum", "table1d", "table2d"' },
  );

  return {
    elementSchema,
    tableElementSchema,
    axisSchema,
    constantItemSchema,
    flagItemSchema,
    enumItemSchema,
    table1dItemSchema,
    table2dItemSchema,
    tuneItemSchema,
  };
}

const itemSchemas = itemSchemasOver(z.string());
export const { elementSchema, tableElementSchema, axisSchema, tuneItemSchema } = itemSchemas;

export type TuneItem = z.output<typeof tuneItemSchema>;
export type TuneItemKind = TuneItem["kind"];
export type ConstantItem = z.output<typeof itemSchemas.constantItemSchema>;
export type FlagItem = z.output<typeof itemSchemas.flagItemSchema>;
export type EnumItem = z.output<typeof itemSchemas.enumItemSchema>;
export type Table1dItem = z.output<typeof itemSchemas.table1dItemSchema>;
export type Table2dItem = z.output<typeof itemSchemas.table2dItemSchema>;

/** Bytes an element occupies from its address. */
export function elementSpan(element: ElementSpec, count: number): number {
  return (element.bits / 8) * count;
}

/** Cells of an item's data element (1 for constants, flags and enums). */
export function itemCellCount(item: TuneItem): number {
  return item.kind === "table1d" || item.kind === "table2d" ? item.z.rows * item.z.cols : 1;
}

// ---------------------------------------------------------------------------
// Definition document

export const categorySchema = z.strictObject({ id: itemId, name: z.string().min(1) });
export type Category = z.infer<typeof categorySchema>;

/** The definition document over item schemas from itemSchemasOver. */
export function tuneDefinitionSchemaOver(items: typeof tuneItemSchema) {
  return z
    .strictObject({
      firmwareId: z.string().min(1, "firmwareId must not be empty"),
      imageSize: z.number().int().positive("imageSize must be a positive number of bytes"),
      categories: z.array(categorySchema).default([]),
      items: z.array(items),
    })
    .superRefine((doc, ctx) => {
      const categories = new Set(doc.categories.map((c) => c.id));
      const ids = new Set<string>();
      doc.items.forEach((item, i) => {
        if (ids.has(item.id))
          ctx.addIssue({ code: "custom", path: ["items", i, "id"], message: `item id "${item.id}" is used twice` });
        ids.add(item.id);
        if (item.category !== undefined && !categories.has(item.category)) {
          ctx.addIssue({
            code: "custom",
            path: ["items", i, "category"],
            message: `item "${item.id}" names unknown category "${item.category}"`,
          });
        }
        if (item.categories) {
          if (item.categories[0] !== item.category) {
            ctx.addIssue({
              code: "custom",
              path: ["items", i, "categories"],
              message: `item "${item.id}" lists categories that do not start with its category`,
            });
          }
          for (const category of item.categories) {
            if (!categories.has(category)) {
              ctx.addIssue({
                code: "custom",
                path: ["items", i, "categories"],
                message: `item "${item.id}" names unknown category "${category}"`,
              });
            }
          }
        }
        const parts: Array<[string, ElementSpec, number]> = [["z", item.z, itemCellCount(item)]];
        if (item.kind === "table1d" || item.kind === "table2d") {
          if (item.x && !("labels" in item.x)) parts.push(["x", item.x, item.x.count]);
        }
        if (item.kind === "table2d" && item.y && !("labels" in item.y)) parts.push(["y", item.y, item.y.count]);
        for (const [part, element, count] of parts) {
          const end = element.address + elementSpan(element, count);
          if (end > doc.imageSize) {
            ctx.addIssue({
              code: "custom",
              path: ["items", i, part, "address"],
              message: `item "${item.id}" ${part} ends at 0x${end.toString(16)}, beyond the image size 0x${doc.imageSize.toString(16)}`,
            });
          }
        }
      });
    });
}

export const tuneDefinitionSchema = tuneDefinitionSchemaOver(tuneItemSchema);

export type TuneDefinition = z.output<typeof tuneDefinitionSchema>;
export type TuneDefinitionInput = z.input<typeof tuneDefinitionSchema>;

// ---------------------------------------------------------------------------
// Checksums

export const CHECKSUM_TYPES = [
  "crc32",
  "crc32-msb",
  "word16-sum-inverse",
  "byte-sum-inverse",
  "subaru-sum32",
  "nissan-sum-xor",
  "byte-sum16",
  "byte-xor",
] as const;
export type ChecksumType = (typeof CHECKSUM_TYPES)[number];

/**
 * What each type stores, and the word it reads (ranges must cover whole words).
 * Sum-with-inverse and Nissan store two 32-bit values back to back.
 */
export const CHECKSUM_LAYOUT: Record<ChecksumType, { storeSize: number; word: number; endian: Endian }> = {
  crc32: { storeSize: 4, word: 1, endian: "big" },
  "crc32-msb": { storeSize: 4, word: 1, endian: "little" },
  "word16-sum-inverse": { storeSize: 8, word: 2, endian: "little" },
  "byte-sum-inverse": { storeSize: 8, word: 1, endian: "little" },
  "subaru-sum32": { storeSize: 4, word: 4, endian: "big" },
  "nissan-sum-xor": { storeSize: 8, word: 4, endian: "big" },
  "byte-sum16": { storeSize: 2, word: 1, endian: "big" },
  "byte-xor": { storeSize: 1, word: 1, endian: "big" },
};

const hex = (n: number) => `0x${n.toString(16).toUpperCase()}`;

/**
 * `ranges` ends are inclusive for every type, including those whose
 * manufacturers write them half-open. A scheme's own store bytes are
 * never part of its computation, which is what Nissan and byte-XOR specify and
 * what makes any scheme whose store sits inside its own range fixable.
 */
export const checksumSchemeSchema = z
  .strictObject({
    name: z.string().min(1, "name must not be empty"),
    type: z.enum(CHECKSUM_TYPES, { error: `type must be one of ${CHECKSUM_TYPES.join(", ")}` }),
    ranges: z.array(z.tuple([addressSchema, addressSchema])).min(1, "a checksum needs at least one range"),
    store: z.strictObject({
      address: addressSchema,
      size: z.number().int().positive().optional(),
      endian: endianSchema.optional(),
    }),
  })
  .superRefine((scheme, ctx) => {
    const layout = CHECKSUM_LAYOUT[scheme.type];
    if (scheme.store.size !== undefined && scheme.store.size !== layout.storeSize) {
      ctx.addIssue({
        code: "custom",
        path: ["store", "size"],
        message: `${scheme.type} stores ${layout.storeSize} bytes, got size ${scheme.store.size}`,
      });
    }
    const storeStart = scheme.store.address;
    const storeEnd = storeStart + layout.storeSize - 1;
    scheme.ranges.forEach(([start, end], i) => {
      if (start > end) {
        ctx.addIssue({
          code: "custom",
          path: ["ranges", i],
          message: `range ${hex(start)}-${hex(end)} ends before it starts`,
        });
        return;
      }
      if ((end - start + 1) % layout.word !== 0) {
        ctx.addIssue({
          code: "custom",
          path: ["ranges", i],
          message: `${scheme.type} reads ${layout.word}-byte words but range ${hex(start)}-${hex(end)} is ${end - start + 1} bytes`,
        });
      }
      if (storeStart <= end && storeEnd >= start && (storeStart - start) % layout.word !== 0) {
        ctx.addIssue({
          code: "custom",
          path: ["store", "address"],
          message: `store at ${hex(storeStart)} lies inside range ${hex(start)}-${hex(end)} but is not aligned to its ${layout.word}-byte words`,
        });
      }
    });
  })
  .transform((scheme) => ({
    ...scheme,
    store: {
      address: scheme.store.address,
      size: CHECKSUM_LAYOUT[scheme.type].storeSize,
      endian: scheme.store.endian ?? CHECKSUM_LAYOUT[scheme.type].endian,
    },
  }));

export type ChecksumScheme = z.output<typeof checksumSchemeSchema>;
export type ChecksumSchemeInput = z.input<typeof checksumSchemeSchema>;

// ---------------------------------------------------------------------------
// Identify rules

export const identifyRuleSchema = z
  .strictObject({ address: addressSchema, bytes: hexBytesSchema.optional(), text: z.string().min(1).optional() })
  .superRefine((rule, ctx) => {
    if ((rule.bytes === undefined) === (rule.text === undefined)) {
      ctx.addIssue({ code: "custom", message: "an identify rule needs exactly one of bytes or text" });
    }
  });
export type IdentifyRule = z.output<typeof identifyRuleSchema>;

// ---------------------------------------------------------------------------
// Patches

export const patchEntrySchema = z
  .strictObject({ address: addressSchema, patch: hexBytesSchema, base: hexBytesSchema })
  .superRefine((entry, ctx) => {
    if (entry.patch.length !== entry.base.length) {
      ctx.addIssue({
        code: "custom",
        message: `patch is ${entry.patch.length / 2} bytes but base is ${entry.base.length / 2} bytes at ${hex(entry.address)}`,
      });
    }
  });
export type PatchEntry = z.output<typeof patchEntrySchema>;

export const patchSchema = z
  .strictObject({
    id: z.string().min(1).optional(),
    title: z.string().min(1, "title must not be empty"),
    description: z.string().default(""),
    firmwareIds: z.array(z.string().min(1)).min(1, "a patch names at least one firmware id"),
    entries: z.array(patchEntrySchema).min(1, "a patch needs at least one entry"),
  })
  .superRefine((patch, ctx) => {
    const order = patch.entries.map((entry, index) => ({
      index,
      start: entry.address,
      end: entry.address + entry.patch.length / 2,
    }));
    order.sort((a, b) => a.start - b.start);
    for (let i = 1; i < order.length; i++) {
      if (order[i].start < order[i - 1].end) {
        ctx.addIssue({
          code: "custom",
          path: ["entries", order[i].index, "address"],
          message: `entry at ${hex(order[i].start)} overlaps the entry at ${hex(order[i - 1].start)}`,
        });
      }
    }
  });
export type Patch = z.output<typeof patchSchema>;
export type PatchInput = z.input<typeof patchSchema>;

/** The kinds of item a definition holds. */
export const TUNE_ITEM_KINDS = [
  "constant",
  "flag",
  "enum",
  "table1d",
  "table2d",
] as const satisfies readonly TuneItemKind[];

/** A number read from an image: any float, NaN and ±Infinity included (a float map may hold them; JSON writes them as null). */
export const readNumber = z.custom<number>((value) => typeof value === "number", "must be a number");

/** An axis as read from an image: numbers, or the labels the definition gives. */
export const axisValuesSchema = z.union([
  z.strictObject({ unit: z.string().optional(), labels: z.array(z.string()) }),
  z.strictObject({ unit: z.string().optional(), values: z.array(readNumber) }),
]);
export type AxisValues = z.infer<typeof axisValuesSchema>;

/** One item read from an image, as the tune viewer shows it. */
export const itemValuesSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(TUNE_ITEM_KINDS),
  rows: z.number().int(),
  cols: z.number().int(),
  unit: z.string().optional(),
  /** Row-major, rows × cols. Flags read 0 or 1; enums read their raw value. */
  values: z.array(readNumber),
  /** Enums only: the label of each value, null for a raw value the definition does not list. */
  labels: z.array(z.string().nullable()).optional(),
  x: axisValuesSchema.optional(),
  y: axisValuesSchema.optional(),
});
export type ItemValues = z.infer<typeof itemValuesSchema>;
