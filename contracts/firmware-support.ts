/**
 * The admin catalogue: the body
 * schemas the server validates with and the forms resolve with, the list
 * fields each endpoint allows, and the row shapes the API answers.
 *
 * PUT creates or updates: firmware records are keyed by their software id
 * (`firmwareId`), everything else by `id` (absent: create).
 *
 * Expressions are strings here: the server and the forms validate a firmware record and a PID
 * descriptor with the domain's versions of these schemas, which also check that the definition's
 * scalings and the descriptor's expression compile (domain/catalogue/checked-schemas.ts).
 */
import { z } from "zod";
import { storable } from "./list-query";
import { listResponseSchema } from "./list-response";
import {
  addressSchema,
  CHECKSUM_TYPES,
  type ChecksumScheme,
  checksumSchemeSchema,
  endianSchema,
  hexBytesSchema,
  type IdentifyRule,
  identifyRuleSchema,
  type TuneDefinition,
  type TuneItem,
  tuneDefinitionSchema,
} from "./tune-definition";

export const MAX_IMAGE_SIZE = 64 * 1024 * 1024;

const name = (what: string, max = 120) =>
  z.string().trim().min(1, `${what} must not be empty`).max(max, `${what} is at most ${max} characters`);

/** Software ids as ECUs report them: letters, digits and a few separators. */
export const firmwareIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, "firmware id is 1 to 64 letters, digits, '.', '_' or '-'");

const firmwareIdsSchema = z
  .array(firmwareIdSchema)
  .max(500)
  .refine((ids) => new Set(ids).size === ids.length, "a firmware id is listed twice");

/** A channel name usable in expressions. */
export const variableSchema = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
    "variable must start with a letter or '_' and hold only letters, digits and '_'",
  );

/**
 * The answers' schemas (`…Schema` without `Input`) describe records as the server stores and
 * sends them, checked against every answer outside production: plain objects with exactly the
 * keys sent, no defaults or transforms, so a schema never changes what it checks.
 */
const isoDateTime = z.iso.datetime();
/** What every catalogue record answers besides its own fields. */
const recordFields = { id: z.string(), createdAt: isoDateTime, updatedAt: isoDateTime };
const firmwareIdList = z.array(z.string());

/** Kept in real (float4) columns: a magnitude past about 3.4e38 (or a nonzero one under 1.2e-38) does not fit. */
const optionalNumber = z
  .number()
  .finite()
  .refine((n) => storable("real", n), "must be 0 or of magnitude 1.2e-38 to 3.4e38")
  .nullable()
  .default(null);

// ---------------------------------------------------------------------------
// Firmware support

export const flashBlockSchema = z.strictObject({
  name: name("block name", 64),
  number: z.number().int().min(0).max(255),
  baseAddress: addressSchema,
  length: z.number().int().positive(),
  fileOffset: z.number().int().min(0),
  transferSize: z.number().int().positive().max(0xffff),
});
export type FlashBlock = z.output<typeof flashBlockSchema>;

const canIdSchema = addressSchema.refine((id) => id <= 0x1fffffff, "a CAN id is at most 29 bits");

export const flashingProfileSchema = z
  .strictObject({
    /** UDS security access level: the odd "request seed" sub-function (0x01, 0x11, …). */
    securityLevel: z
      .number()
      .int()
      .min(1)
      .max(0x7d)
      .refine((n) => n % 2 === 1, "security level is odd (the request-seed sub-function)"),
    seedKeyAlgorithm: name("seed/key algorithm id", 64),
    requestCanId: canIdSchema,
    responseCanId: canIdSchema,
    p2TimeoutMs: z.number().int().min(1).max(65_535),
    p2StarTimeoutMs: z.number().int().min(1).max(655_350),
    /** The pre-flight refuses a flash below this battery voltage (COBB stops below 10 V; 12.0 V with a charger is safe). */
    minBatteryVolts: z
      .number()
      .min(9, "the minimum battery voltage is at least 9 V")
      .max(15, "the minimum battery voltage is at most 15 V")
      .default(12),
  })
  .refine((p) => p.requestCanId !== p.responseCanId, {
    path: ["responseCanId"],
    message: "request and response CAN ids must differ",
  });
export type FlashingProfile = z.output<typeof flashingProfileSchema>;

const hex = (n: number) => `0x${n.toString(16).toUpperCase()}`;

export const firmwareSupportInputSchema = z
  .strictObject({
    firmwareId: firmwareIdSchema,
    ecuFamily: name("ECU family", 64),
    manufacturer: name("manufacturer", 64),
    imageSize: z
      .number()
      .int()
      .positive("image size must be a positive number of bytes")
      .max(MAX_IMAGE_SIZE, "image size is at most 64 MiB"),
    identify: z.array(identifyRuleSchema).max(32).default([]),
    checksums: z.array(checksumSchemeSchema).max(64).default([]),
    definition: tuneDefinitionSchema.nullable().default(null),
    notes: z.string().max(4000).default(""),
  })
  .superRefine((record, ctx) => {
    record.identify.forEach((rule, i) => {
      const length = rule.bytes !== undefined ? rule.bytes.length / 2 : (rule.text ?? "").length;
      if (rule.address + length > record.imageSize) {
        ctx.addIssue({
          code: "custom",
          path: ["identify", i, "address"],
          message: `rule at ${hex(rule.address)} runs past the image size`,
        });
      }
    });
    record.checksums.forEach((scheme, i) => {
      const end = Math.max(scheme.store.address + scheme.store.size - 1, ...scheme.ranges.map(([, e]) => e));
      if (end >= record.imageSize) {
        ctx.addIssue({
          code: "custom",
          path: ["checksums", i],
          message: `scheme "${scheme.name}" reaches ${hex(end)}, past the image size`,
        });
      }
    });
    if (record.definition) {
      if (record.definition.firmwareId !== record.firmwareId) {
        ctx.addIssue({
          code: "custom",
          path: ["definition", "firmwareId"],
          message: `the definition is for ${record.definition.firmwareId}, not ${record.firmwareId}`,
        });
      }
      if (record.definition.imageSize !== record.imageSize) {
        ctx.addIssue({
          code: "custom",
          path: ["definition", "imageSize"],
          message: `the definition's image size ${record.definition.imageSize} differs from ${record.imageSize}`,
        });
      }
    }
  });
export type FirmwareSupportInput = z.input<typeof firmwareSupportInputSchema>;
export type FirmwareSupportValues = z.output<typeof firmwareSupportInputSchema>;

export const flashingSupportInputSchema = z
  .strictObject({
    firmwareId: firmwareIdSchema,
    enabled: z.boolean(),
    profile: flashingProfileSchema.nullable(),
    blocks: z.array(flashBlockSchema).max(64),
  })
  .superRefine((value, ctx) => {
    if (value.enabled && !value.profile)
      ctx.addIssue({ code: "custom", path: ["profile"], message: "flashing needs a profile" });
    if (value.enabled && value.blocks.length === 0)
      ctx.addIssue({ code: "custom", path: ["blocks"], message: "flashing needs at least one block" });
  });
export type FlashingSupportInput = z.input<typeof flashingSupportInputSchema>;

export const fileRefSchema = z.strictObject({ sha256: z.string(), size: z.number().int().min(0) });
export type FileRef = z.infer<typeof fileRefSchema>;

// The stored documents as answered: what their input schemas parse to (addresses as numbers,
// layouts resolved). `satisfies` keeps each in step with that parse output.
const storedIdentifyRuleSchema = z.strictObject({
  address: z.number().int(),
  bytes: z.string().optional(),
  text: z.string().optional(),
}) satisfies z.ZodType<IdentifyRule>;

const storedChecksumSchemeSchema = z.strictObject({
  name: z.string(),
  type: z.enum(CHECKSUM_TYPES),
  ranges: z.array(z.tuple([z.number().int(), z.number().int()])),
  store: z.strictObject({ address: z.number().int(), size: z.number().int(), endian: endianSchema }),
}) satisfies z.ZodType<ChecksumScheme>;

/**
 * A definition's frame is checked; its items only for being objects: they are the resolved
 * elements and axes tuneDefinitionSchema parses to on write, and a schema of every item kind
 * as parsed would repeat tune-definition.ts.
 */
const storedDefinitionSchema = z.strictObject({
  firmwareId: z.string(),
  imageSize: z.number().int(),
  categories: z.array(z.strictObject({ id: z.string(), name: z.string() })),
  items: z.array(
    z.custom<TuneItem>(
      (item) => typeof item === "object" && item !== null && !Array.isArray(item),
      "an item is an object",
    ),
  ),
}) satisfies z.ZodType<TuneDefinition>;

const storedFlashBlockSchema = z.strictObject({
  name: z.string(),
  number: z.number().int(),
  baseAddress: z.number().int(),
  length: z.number().int(),
  fileOffset: z.number().int(),
  transferSize: z.number().int(),
}) satisfies z.ZodType<FlashBlock>;

const storedFlashingProfileSchema = z.strictObject({
  securityLevel: z.number().int(),
  seedKeyAlgorithm: z.string(),
  requestCanId: z.number().int(),
  responseCanId: z.number().int(),
  p2TimeoutMs: z.number().int(),
  p2StarTimeoutMs: z.number().int(),
  minBatteryVolts: z.number(),
}) satisfies z.ZodType<FlashingProfile>;

/**
 * A firmware record (GET by id, PUT, the stock file and bootloader uploads, PUT flashing-support):
 * its input fields as parsed, the flashing support and the files it has.
 */
export const firmwareSupportSchema = z.strictObject({
  ...recordFields,
  firmwareId: z.string(),
  ecuFamily: z.string(),
  manufacturer: z.string(),
  imageSize: z.number().int(),
  identify: z.array(storedIdentifyRuleSchema),
  checksums: z.array(storedChecksumSchemeSchema),
  definition: storedDefinitionSchema.nullable(),
  notes: z.string(),
  flashing: z.strictObject({
    enabled: z.boolean(),
    profile: storedFlashingProfileSchema.nullable(),
    blocks: z.array(storedFlashBlockSchema),
    bootloader: z.strictObject({ ...fileRefSchema.shape, name: z.string() }).nullable(),
  }),
  stockFile: z.strictObject({ ...fileRefSchema.shape, uploadedAt: isoDateTime }).nullable(),
});
export type FirmwareSupport = z.infer<typeof firmwareSupportSchema>;

/** List rows leave the large documents out; `hasDefinition` says whether there is one. */
export const firmwareSupportRowSchema = firmwareSupportSchema
  .omit({ definition: true, checksums: true, identify: true })
  .extend({
    hasDefinition: z.boolean(),
    checksumCount: z.number().int().min(0),
    identifyCount: z.number().int().min(0),
  });
export type FirmwareSupportRow = z.infer<typeof firmwareSupportRowSchema>;
export const firmwareSupportPageSchema = listResponseSchema(firmwareSupportRowSchema);

/**
 * `GET …/{id}/first-setup`: what a new record's stock read proposes. The printable part numbers and
 * software ids found in it (each with its offset) for identify rules, and every checksum scheme the
 * catalogue knows for images of this size, tried on the read.
 */
export const firmwareFirstSetupSchema = z.strictObject({
  candidates: z.array(
    z.strictObject({
      offset: z.number().int(),
      text: z.string(),
      kind: z.enum(["software-id", "hardware-number", "part-number"]),
    }),
  ),
  schemes: z.array(
    z.strictObject({
      scheme: storedChecksumSchemeSchema,
      /** The firmware records the scheme was found on. */
      from: z.array(z.string()),
      verifies: z.boolean(),
      unusable: z.string().optional(),
    }),
  ),
});
export type FirmwareFirstSetup = z.infer<typeof firmwareFirstSetupSchema>;

export const firmwareSupportList = {
  sort: ["firmwareId", "manufacturer", "ecuFamily", "imageSize", "updatedAt"],
  filter: ["firmwareId", "manufacturer", "ecuFamily", "imageSize", "updatedAt", "hasStockFile", "flashingEnabled"],
} as const;

// ---------------------------------------------------------------------------
// Supported vehicles

const year = z.number().int().min(1970, "year is 1970 or later").max(2100, "year is 2100 or earlier");

export const supportedVehicleInputSchema = z
  .strictObject({
    id: z.uuid().optional(),
    make: name("make", 64),
    model: name("model", 64),
    generation: z.string().trim().max(64).default(""),
    engine: name("engine", 64),
    yearFrom: year,
    yearTo: year.nullable().default(null),
    ecu: name("ECU", 64),
    firmwareIds: firmwareIdsSchema.min(1, "name at least one firmware id"),
  })
  .refine((v) => v.yearTo === null || v.yearTo >= v.yearFrom, {
    path: ["yearTo"],
    message: "the last year is before the first",
  });
export type SupportedVehicleInput = z.input<typeof supportedVehicleInputSchema>;
export const supportedVehicleSchema = z.strictObject({
  ...recordFields,
  make: z.string(),
  model: z.string(),
  generation: z.string(),
  engine: z.string(),
  yearFrom: z.number().int(),
  yearTo: z.number().int().nullable(),
  ecu: z.string(),
  firmwareIds: firmwareIdList,
});
export type SupportedVehicle = z.infer<typeof supportedVehicleSchema>;

export const supportedVehicleList = {
  sort: ["make", "model", "engine", "yearFrom", "updatedAt"],
  filter: ["make", "model", "engine", "yearFrom", "yearTo", "ecu", "firmwareIds"],
} as const;

// ---------------------------------------------------------------------------
// OBD functions

export const OBD_FUNCTION_CATEGORIES = [
  "read-codes",
  "clear-codes",
  "reset-adaptations",
  "service-functions",
  "live-data",
  "coding",
] as const;
export const SAFETY_LEVELS = ["none", "caution", "dangerous"] as const;

export const obdFunctionInputSchema = z
  .strictObject({
    id: z.uuid().optional(),
    name: name("name"),
    category: z.enum(OBD_FUNCTION_CATEGORIES, {
      error: `category must be one of ${OBD_FUNCTION_CATEGORIES.join(", ")}`,
    }),
    description: z.string().max(2000).default(""),
    request: hexBytesSchema,
    expectedResponse: hexBytesSchema,
    firmwareIds: firmwareIdsSchema.default([]),
    confirmationText: z.string().trim().max(500).nullable().default(null),
    safetyLevel: z.enum(SAFETY_LEVELS).default("none"),
  })
  .refine((f) => f.safetyLevel === "none" || (f.confirmationText ?? "") !== "", {
    path: ["confirmationText"],
    message: "a function that changes the car needs a confirmation text",
  });
export type ObdFunctionInput = z.input<typeof obdFunctionInputSchema>;
export const obdFunctionSchema = z.strictObject({
  ...recordFields,
  name: z.string(),
  category: z.enum(OBD_FUNCTION_CATEGORIES),
  description: z.string(),
  /** Hex bytes, upper case without spaces. */
  request: z.string(),
  expectedResponse: z.string(),
  firmwareIds: firmwareIdList,
  confirmationText: z.string().nullable(),
  safetyLevel: z.enum(SAFETY_LEVELS),
});
export type ObdFunction = z.infer<typeof obdFunctionSchema>;

export const obdFunctionList = {
  sort: ["name", "category", "safetyLevel", "updatedAt"],
  filter: ["name", "category", "safetyLevel", "firmwareIds"],
} as const;

// ---------------------------------------------------------------------------
// PID descriptors

export const PID_SOURCES = ["obd", "uds", "ram"] as const;
/**
 * A descriptor's scaling reads the raw value as `x` (VW_Flash) or its bytes as
 * `A`..`D` (Torque), so both imports keep their equations as written.
 */
export const PID_EXPRESSION_VARIABLES = ["x", "A", "B", "C", "D"] as const;

export const pidDescriptorInputSchema = z
  .strictObject({
    id: z.uuid().optional(),
    name: name("name"),
    variable: variableSchema,
    unit: z.string().trim().max(32).default(""),
    source: z.enum(PID_SOURCES, { error: `source must be one of ${PID_SOURCES.join(", ")}` }),
    /** Mode 01 PID, DID or RAM address, as hex. */
    address: z
      .string()
      .regex(/^0x[0-9A-Fa-f]{1,8}$/, 'address is hex like "0x2032"')
      .transform((s) => `0x${s.slice(2).toUpperCase()}`),
    length: z.number().int().min(1).max(8),
    signed: z.boolean().default(false),
    endian: z.enum(["big", "little"]).default("big"),
    /** Of PID_EXPRESSION_VARIABLES; the domain's schema checks that it compiles (domain/catalogue/checked-schemas.ts). */
    expression: z.string().min(1, "expression must not be empty").max(1000).default("x"),
    decimals: z.number().int().min(0).max(6).default(2),
    min: optionalNumber,
    max: optionalNumber,
    warnMin: optionalNumber,
    warnMax: optionalNumber,
    smoothing: z.number().min(0).max(1).default(0),
    firmwareIds: firmwareIdsSchema.default([]),
  })
  .refine((d) => d.min === null || d.max === null || d.min <= d.max, { path: ["max"], message: "max is below min" });
export type PidDescriptorInput = z.input<typeof pidDescriptorInputSchema>;
/** A PID descriptor's own fields, as stored; the CSV import previews rows of these too. */
const pidDescriptorFields = {
  name: z.string(),
  variable: z.string(),
  unit: z.string(),
  source: z.enum(PID_SOURCES),
  /** Hex, upper case after the `0x`. */
  address: z.string(),
  length: z.number().int(),
  signed: z.boolean(),
  endian: endianSchema,
  expression: z.string(),
  decimals: z.number().int(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  warnMin: z.number().nullable(),
  warnMax: z.number().nullable(),
  smoothing: z.number(),
  firmwareIds: firmwareIdList,
};
export const pidDescriptorSchema = z.strictObject({ ...recordFields, ...pidDescriptorFields });
export type PidDescriptor = z.infer<typeof pidDescriptorSchema>;

export const pidDescriptorList = {
  sort: ["name", "variable", "source", "unit", "updatedAt"],
  filter: ["id", "name", "variable", "source", "unit", "firmwareIds"],
} as const;

// ---------------------------------------------------------------------------
// PID templates

export const pidTemplateInputSchema = z
  .strictObject({
    id: z.uuid().optional(),
    name: name("name"),
    description: z.string().max(2000).default(""),
    descriptorIds: z.array(z.uuid()).min(1, "a template needs at least one descriptor").max(200),
    sampleRateHz: z.number().positive("sample rate must be positive").max(1000, "sample rate is at most 1000 Hz"),
    firmwareIds: firmwareIdsSchema.default([]),
    vehicleFamily: z.string().trim().max(64).default(""),
  })
  .refine((t) => new Set(t.descriptorIds).size === t.descriptorIds.length, {
    path: ["descriptorIds"],
    message: "a descriptor is listed twice",
  })
  .refine((t) => t.firmwareIds.length > 0 || t.vehicleFamily !== "", {
    path: ["firmwareIds"],
    message: "name a firmware or a vehicle family",
  });
export type PidTemplateInput = z.input<typeof pidTemplateInputSchema>;
export const pidTemplateSchema = z.strictObject({
  ...recordFields,
  name: z.string(),
  description: z.string(),
  /** In logging order. */
  descriptorIds: z.array(z.string()),
  sampleRateHz: z.number(),
  firmwareIds: firmwareIdList,
  vehicleFamily: z.string(),
});
export type PidTemplate = z.infer<typeof pidTemplateSchema>;

export const pidTemplateList = {
  sort: ["name", "sampleRateHz", "vehicleFamily", "updatedAt"],
  filter: ["name", "vehicleFamily", "firmwareIds", "descriptorIds"],
} as const;

// ---------------------------------------------------------------------------
// Computed descriptors

/**
 * The expression is checked by the server (server/services/computed-descriptors.ts), which knows
 * the channel variables: a syntax error or an unknown channel answers with its position.
 */
export const computedDescriptorInputSchema = z.strictObject({
  id: z.uuid().optional(),
  name: name("name"),
  variable: variableSchema,
  unit: z.string().trim().max(32).default(""),
  expression: z.string().min(1, "expression must not be empty").max(2000),
  decimals: z.number().int().min(0).max(6).default(2),
  min: optionalNumber,
  max: optionalNumber,
});
export type ComputedDescriptorInput = z.input<typeof computedDescriptorInputSchema>;
/** A computed descriptor's own fields, as stored; the CSV import previews rows of these too. */
const computedDescriptorFields = {
  name: z.string(),
  variable: z.string(),
  unit: z.string(),
  expression: z.string(),
  decimals: z.number().int(),
  min: z.number().nullable(),
  max: z.number().nullable(),
};
export const computedDescriptorSchema = z.strictObject({
  ...recordFields,
  ...computedDescriptorFields,
  /** The channel variables the expression reads. */
  variables: z.array(z.string()),
});
export type ComputedDescriptor = z.infer<typeof computedDescriptorSchema>;

export const computedDescriptorList = {
  sort: ["name", "variable", "unit", "updatedAt"],
  filter: ["name", "variable", "unit", "variables"],
} as const;

/**
 * `GET /firmware-support/channel-variables`: the PID and computed channels whose variable starts
 * with `q`, for the expression editor's completion.
 */
export const channelVariableSchema = z.strictObject({
  variable: z.string(),
  name: z.string(),
  unit: z.string(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  kind: z.enum(["pid", "computed"]),
});
export type ChannelVariable = z.infer<typeof channelVariableSchema>;
export const channelVariablesSchema = z.strictObject({ data: z.array(channelVariableSchema) });

// ---------------------------------------------------------------------------
// PID CSV import (POST /firmware-support/pid-descriptors/import)

const importRowErrorSchema = z.strictObject({
  field: z.string(),
  message: z.string(),
  /** Character position in the expression, for expression errors. */
  position: z.number().optional(),
});

const importRowFields = { line: z.number().int(), errors: z.array(importRowErrorSchema) };

/**
 * One row of the file: the descriptor it makes, as the PUT would store it. A row that failed its
 * schema keeps what was read, as written (defaults not applied, numbers that did not parse as
 * NaN), so its value is only an object.
 */
export const pidImportRowSchema = z.union([
  z.strictObject({ ...importRowFields, kind: z.literal("pid"), value: z.strictObject(pidDescriptorFields) }),
  z.strictObject({ ...importRowFields, kind: z.literal("computed"), value: z.strictObject(computedDescriptorFields) }),
  z.strictObject({ ...importRowFields, kind: z.enum(["pid", "computed"]), value: z.record(z.string(), z.unknown()) }),
]);
export type PidImportRow = z.infer<typeof pidImportRowSchema>;

/** The preview (dryRun, 200); an import answers it with the count written (201). */
export const pidImportPreviewSchema = z.strictObject({
  format: z.enum(["vwflash", "torque"]),
  rows: z.array(pidImportRowSchema),
  valid: z.number().int().min(0),
  invalid: z.number().int().min(0),
});
export const pidImportResultSchema = pidImportPreviewSchema.extend({ imported: z.number().int().min(0) });

/** The `data` of a 400 for a bad expression: where, for the editor's marker. */
export interface ExpressionIssue {
  path: "expression";
  message: string;
  position: number;
  length: number;
}

// ---------------------------------------------------------------------------
// Password storage

export const firmwareSecretInputSchema = z.strictObject({
  id: z.uuid().optional(),
  firmwareId: firmwareIdSchema,
  label: name("label", 64),
  securityLevel: z.number().int().min(1).max(0x7d),
  secret: z.string().min(1, "secret must not be empty").max(4096),
});
export type FirmwareSecretInput = z.input<typeof firmwareSecretInputSchema>;
export const firmwareSecretRowSchema = z.strictObject({
  id: z.string(),
  firmwareId: z.string(),
  label: z.string(),
  securityLevel: z.number().int(),
  /** Always masked in lists and PUT answers; the clear text comes only from POST …/{id}/reveal. */
  secret: z.string(),
  updatedAt: isoDateTime,
});
export type FirmwareSecretRow = z.infer<typeof firmwareSecretRowSchema>;
export const firmwareSecretPageSchema = listResponseSchema(firmwareSecretRowSchema);

export const firmwareSecretList = {
  sort: ["firmwareId", "label", "updatedAt"],
  filter: ["firmwareId", "label"],
} as const;

// ---------------------------------------------------------------------------
// Support (onboarding) requests

export const SUPPORT_REQUEST_STATUSES = ["new", "investigating", "supported", "rejected"] as const;
export type SupportRequestStatus = (typeof SUPPORT_REQUEST_STATUSES)[number];

export const vinSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-HJ-NPR-Z0-9]{17}$/, "a VIN is 17 letters and digits, without I, O or Q");

export const supportRequestInputSchema = z.strictObject({
  vin: vinSchema,
  make: name("make", 64),
  model: name("model", 64),
  year,
  ecuIds: z.array(name("ECU id", 64)).min(1, "give at least one ECU id").max(16),
});
export type SupportRequestInput = z.input<typeof supportRequestInputSchema>;

export const supportRequestUpdateSchema = z
  .strictObject({
    status: z.enum(SUPPORT_REQUEST_STATUSES).optional(),
    note: z.string().trim().min(1).max(4000).optional(),
    firmwareId: firmwareIdSchema.optional(),
  })
  .refine((u) => u.status !== "supported" || u.firmwareId !== undefined, {
    path: ["firmwareId"],
    message: "marking a request supported links it to a firmware record",
  });
export type SupportRequestUpdate = z.input<typeof supportRequestUpdateSchema>;

/** What a request says of the vehicle and where it stands, the same for admins and the requester. */
const supportRequestBaseFields = {
  id: z.string(),
  vin: z.string(),
  make: z.string(),
  model: z.string(),
  year: z.number().int(),
  ecuIds: z.array(z.string()),
  readFile: fileRefSchema.nullable(),
  status: z.enum(SUPPORT_REQUEST_STATUSES),
  firmwareId: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

export const supportRequestSchema = z.strictObject({
  ...supportRequestBaseFields,
  requesterUid: z.string(),
  requesterEmail: z.string().nullable(),
  notes: z.array(z.strictObject({ at: z.iso.datetime(), by: z.string(), text: z.string() })),
});
export type SupportRequest = z.infer<typeof supportRequestSchema>;

export const supportRequestList = {
  sort: ["createdAt", "status", "make", "year"],
  filter: ["status", "make", "model", "year", "vin", "firmwareId", "createdAt"],
} as const;

/** One change of status as the requester was told it: the note is the one the admin gave with that change. */
export const supportRequestStatusChangeSchema = z.strictObject({
  at: z.iso.datetime(),
  status: z.enum(SUPPORT_REQUEST_STATUSES),
  note: z.string().nullable(),
});
export type SupportRequestStatusChange = z.infer<typeof supportRequestStatusChangeSchema>;

/**
 * A request as its requester sees it (`GET /user-vehicles/support-request/mine`):
 * what they sent and what they were told, never the admins' working notes;
 * `firmwareId` stays null until the request is supported.
 */
export const ownSupportRequestSchema = z.strictObject({
  ...supportRequestBaseFields,
  history: z.array(supportRequestStatusChangeSchema),
});
export type OwnSupportRequest = z.infer<typeof ownSupportRequestSchema>;

/** The admin's list of requests and the requester's own: pages of the shapes above. */
export const supportRequestPageSchema = listResponseSchema(supportRequestSchema);
export const ownSupportRequestPageSchema = listResponseSchema(ownSupportRequestSchema);

export const ownSupportRequestList = {
  sort: ["createdAt", "status"],
  filter: ["status"],
} as const;

// ---------------------------------------------------------------------------
// Firmware support matrix

/** One firmware and what it has: booleans for its documents and files, counts of what names it. */
export const firmwareMatrixRowSchema = z.strictObject({
  firmwareId: z.string(),
  manufacturer: z.string(),
  ecuFamily: z.string(),
  definition: z.boolean(),
  stockFile: z.boolean(),
  bootloader: z.boolean(),
  flashing: z.boolean(),
  vehicles: z.number().int().min(0),
  pidTemplates: z.number().int().min(0),
  obdFunctions: z.number().int().min(0),
});
export type FirmwareMatrixRow = z.infer<typeof firmwareMatrixRowSchema>;
export const firmwareMatrixPageSchema = listResponseSchema(firmwareMatrixRowSchema);
