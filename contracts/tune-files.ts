/**
 * Tune files, tune-file patches and baked files:
 * the request bodies both sides validate with, and the shapes the API answers.
 */
import { z } from "zod";
import { INT4_MAX } from "./list-query";
import { listResponseSchema } from "./list-response";
import {
  checksumSchemeSchema,
  itemValuesSchema,
  patchSchema,
  readNumber,
  TUNE_ITEM_KINDS,
  tuneDefinitionSchema,
} from "./tune-definition";

/** A stored version's number: versions are counted in an integer column, so at most INT4_MAX. */
const versionNumber = (number: z.ZodNumber) =>
  number
    .int("version is a whole number")
    .min(1, "version is at least 1")
    .max(INT4_MAX, `version is at most ${INT4_MAX}`);
/** `?version=` of a tune's inspection, download and stock differences. */
export const tuneVersionQuerySchema = z.strictObject({ version: versionNumber(z.coerce.number()).optional() });

const text = (label: string, max: number) =>
  z.string().trim().min(1, `${label} must not be empty`).max(max, `${label} is at most ${max} characters`);

/** Multipart fields of `POST /tune-files` and `POST /tune-files/{id}/blob` (strings, as forms send them). */
export const tuneFileCreateSchema = z.strictObject({
  title: text("title", 120),
  description: z.string().trim().max(4000).default(""),
  version: text("version", 40).default("1.0"),
  notes: z.string().trim().max(2000).default(""),
});
export type TuneFileCreateInput = z.input<typeof tuneFileCreateSchema>;

export const tuneFileVersionSchema = z.strictObject({
  version: text("version", 40),
  notes: z.string().trim().max(2000).default(""),
});

export const tuneFileUpdateSchema = z
  .strictObject({
    title: text("title", 120).optional(),
    description: z.string().trim().max(4000).optional(),
    mayView: z.boolean().optional(),
    mayDownload: z.boolean().optional(),
    /** Which stored version buyers get. */
    currentVersion: versionNumber(z.number()).optional(),
    /** One of the dealer's repositories (offered only to its members), or null for the open storefront. */
    repositoryId: z.uuid("repositoryId must be an id").nullable().optional(),
  })
  .refine((value) => Object.keys(value).length > 0, { message: "send at least one field to change" });
export type TuneFileUpdate = z.input<typeof tuneFileUpdateSchema>;

export const currencies = ["EUR", "GBP", "USD"] as const;

export const tuneFilePublishSchema = z.strictObject({
  /** In minor units (cents), so no float ever holds money. */
  priceCents: z
    .number()
    .int("the price is whole cents")
    .min(0, "the price cannot be negative")
    .max(10_000_000, "the price is at most 100,000.00"),
  currency: z.enum(currencies, { error: `currency is one of ${currencies.join(", ")}` }),
  /** Who may buy: these customers' emails, or anyone when empty. */
  buyerEmails: z
    .array(z.email("not an email address").transform((email) => email.toLowerCase()))
    .max(200)
    .default([]),
  mayView: z.boolean().optional(),
  mayDownload: z.boolean().optional(),
});
export type TuneFilePublishInput = z.input<typeof tuneFilePublishSchema>;

export const tuneFileGrantSchema = z.strictObject({ vehicleId: z.uuid("vehicleId must be an id") });
/** 201 when the grant was made, 200 when the vehicle already held it (`created` says which). */
export const tuneFileGrantAnswerSchema = z.strictObject({
  tuneFileId: z.string(),
  vehicleId: z.string(),
  customerUid: z.string(),
  created: z.boolean(),
});

const uuids = (label: string) => z.array(z.uuid(`${label} must be ids`)).max(100);

export const inspectPatchSchema = z.strictObject({
  tuneFileId: z.uuid("tuneFileId must be an id"),
  /** Defaults to the tune's current version. */
  version: versionNumber(z.number()).optional(),
  patchIds: uuids("patchIds").min(1, "choose at least one patch"),
});

export const bakeRequestSchema = z.strictObject({
  tuneFileId: z.uuid("tuneFileId must be an id"),
  patchIds: uuids("patchIds").default([]),
});
export type BakeRequest = z.input<typeof bakeRequestSchema>;

/** `PUT /tune-file-patches`: the contract's patch, with a UUID id when updating. */
export const tuneFilePatchInputSchema = patchSchema.safeExtend({ id: z.uuid("id must be an id").optional() });
export type TuneFilePatchInput = z.input<typeof tuneFilePatchInputSchema>;

/** The largest definition file imported, each file of several included (8 MiB). */
export const DEFINITION_MAX_BYTES = 8 * 1024 * 1024;

/**
 * `POST /tune-file-patches/import-xdf`: a definition file, TunerPro XDF (XML or 1.x text), RomRaider/EcuFlash
 * XML or an A2L, told apart by its content (`xml` holds any of them). Sent as multipart, the files come
 * as `file` parts and the other fields as form fields (`definitionImportFieldsSchema`).
 */
export const xdfImportSchema = z.strictObject({
  xml: z.string().min(1, "the definition file is empty").max(DEFINITION_MAX_BYTES),
  firmwareId: text("firmwareId", 64),
  /** Store the file's patches (otherwise only the preview is answered). */
  dryRun: z.boolean().default(true),
  /**
   * With dryRun false: also make the file's definition the firmware record's (replacing the one it has)
   * and add its checksum schemes that verify on the record's stock file. Off by default, so importing
   * patches never replaces a definition.
   */
  saveDefinition: z.boolean().default(false),
  /** RomRaider/EcuFlash: the xmlid of the rom to import when the file holds several and none can be told from the firmware. */
  romId: text("romId", 128).optional(),
  /** A2L: the ECU address of the image's first byte (file offset = ECU address − addressOffset); 0 when absent. */
  addressOffset: z
    .number()
    .int("addressOffset is a whole number")
    .min(0, "addressOffset must not be negative")
    .max(0xffff_ffff, "addressOffset fits 32 bits")
    .optional(),
  /** With dryRun false: which of the file's patches to store, by their position in the preview's `patches` (all when absent). */
  patchIndexes: z
    .array(z.number().int("patchIndexes are whole numbers").min(0, "patchIndexes start at 0"))
    .max(10_000)
    .optional(),
  /** With saveDefinition: which of the file's checksum schemes to add, by name (all when absent). */
  checksumNames: z.array(z.string()).max(1000).optional(),
});

/** The multipart form of the import: every field of the JSON body but the text, which comes as the files. */
export const definitionImportFieldsSchema = xdfImportSchema.omit({ xml: true });

export const tuneFileList = {
  sort: ["title", "firmwareId", "updatedAt", "createdAt", "priceCents"],
  filter: ["firmwareId", "dealerUid", "published", "updatedAt"],
} as const;

export const tuneFilePatchList = {
  sort: ["title", "updatedAt"],
  filter: ["firmwareIds", "title", "updatedAt"],
} as const;

/** A moment as the API writes it: an ISO 8601 date-time in UTC (`Date.prototype.toISOString`). */
const isoDateTime = z.iso.datetime();

export const checksumReportSchema = z.strictObject({
  name: z.string(),
  type: z.string(),
  valid: z.boolean(),
  stored: z.string(),
  computed: z.string(),
});
export type ChecksumReport = z.infer<typeof checksumReportSchema>;

/** A stored version as the API answers it (`tuneFileVersionSchema` is the body that uploads one). */
export const tuneFileVersionAnswerSchema = z.strictObject({
  number: z.number().int(),
  label: z.string(),
  notes: z.string(),
  sha256: z.string(),
  size: z.number().int().min(0),
  checksums: z.array(checksumReportSchema),
  createdAt: isoDateTime,
});
export type TuneFileVersion = z.infer<typeof tuneFileVersionAnswerSchema>;

export const tuneFileSchema = z.strictObject({
  id: z.string(),
  dealerUid: z.string(),
  dealerName: z.string().nullable(),
  firmwareId: z.string(),
  title: z.string(),
  description: z.string(),
  currentVersion: z.number().int(),
  published: z.boolean(),
  priceCents: z.number().int().nullable(),
  currency: z.enum(currencies).nullable(),
  buyerEmails: z.array(z.string()),
  mayView: z.boolean(),
  mayDownload: z.boolean(),
  /** The dealer's repository it is in (offered only to that repository's members), or null. */
  repositoryId: z.string().nullable(),
  /** What the caller may do with it (owner or admin: everything; buyer: within protection). */
  access: z.strictObject({ owner: z.boolean(), bought: z.boolean(), view: z.boolean(), download: z.boolean() }),
  /** Present for owners and admins; buyers see the current version only. */
  versions: z.array(tuneFileVersionAnswerSchema).optional(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type TuneFile = z.infer<typeof tuneFileSchema>;

/** `GET /tune-files`: a page of tunes, never with their versions. */
export const tuneFilePageSchema = listResponseSchema(tuneFileSchema);

/**
 * A published tune as a signed-out visitor reads it in a dealer's catalogue: what is for sale and
 * for how much, without the dealer's user id, the buyers it is offered to or any version's detail.
 */
export const publicTuneFileSchema = tuneFileSchema.pick({
  id: true,
  dealerName: true,
  firmwareId: true,
  title: true,
  description: true,
  priceCents: true,
  currency: true,
  mayView: true,
  mayDownload: true,
  updatedAt: true,
});
export type PublicTuneFile = z.infer<typeof publicTuneFileSchema>;
export const publicTuneFilePageSchema = listResponseSchema(publicTuneFileSchema);

export const inspectionChangeSchema = z.strictObject({
  start: z.number().int(),
  end: z.number().int(),
  length: z.number().int(),
  checksums: z.array(z.string()),
  items: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      kind: z.string(),
      part: z.string(),
      unit: z.string().optional(),
      /** The definition's decimals for this part's values. */
      decimals: z.number().int().optional(),
      cells: z.array(
        z.strictObject({ row: z.number().int(), col: z.number().int(), before: readNumber, after: readNumber }),
      ),
    }),
  ),
});
export type InspectionChange = z.infer<typeof inspectionChangeSchema>;

export const inspectionSchema = z.strictObject({
  firmwareId: z.string().nullable(),
  size: z.number().int().min(0),
  sha256: z.string(),
  checksums: z.array(checksumReportSchema),
  patches: z.array(
    z.strictObject({ id: z.string(), title: z.string(), state: z.enum(["applied", "absent", "conflict"]) }),
  ),
  /** Null when there is no stock file to compare with (or the caller may not view the changes). */
  changes: z.array(inspectionChangeSchema).nullable(),
  /** Why `firmwareId` is null or `changes` is missing, in words. */
  notes: z.array(z.string()),
});
export type Inspection = z.infer<typeof inspectionSchema>;

/** `POST /tune-files/inspect?definition=true`: a local image's report with its firmware's definition (null when unidentified or undefined). */
export const localInspectionSchema = inspectionSchema.extend({
  definition: tuneDefinitionSchema.nullable().optional(),
});
export type LocalInspection = z.infer<typeof localInspectionSchema>;

const patchStates = ["applied", "absent", "conflict"] as const;

/** `POST /tune-files/inspect/patch`: the tune's inspection with the patches applied, each patch's state before, and the checksums fixed. */
export const patchPreviewSchema = inspectionSchema.extend({
  applied: z.array(z.strictObject({ id: z.string().optional(), title: z.string(), before: z.enum(patchStates) })),
  fixed: z.array(z.string()),
});

/** `GET /tune-file-patches/{id}/compatible`: the patch's state on each firmware's stock file and on the caller's tunes. */
export const patchCompatibilitySchema = z.strictObject({
  firmware: z.array(
    z.strictObject({ firmwareId: z.string(), known: z.boolean(), stockState: z.enum(patchStates).nullable() }),
  ),
  tuneFiles: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      firmwareId: z.string(),
      version: z.number().int(),
      state: z.enum(patchStates),
    }),
  ),
});

export const tuneFilePatchSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  firmwareIds: z.array(z.string()),
  entries: z.array(z.strictObject({ address: z.number().int(), patch: z.string(), base: z.string() })),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type TuneFilePatch = z.infer<typeof tuneFilePatchSchema>;

/** `GET /tune-file-patches`: a page of patches. */
export const tuneFilePatchPageSchema = listResponseSchema(tuneFilePatchSchema);

/**
 * `POST /tune-file-patches/import-xdf`: the definition read, the patches (stored ones with their ids and times; a dry
 * run's as read), what was skipped and, on a dry run against a firmware with a stock file, a few maps read from it.
 */
export const xdfImportedSchema = z.strictObject({
  /** "xdf" (XML), "xdf-1.x" (the older text format), "romraider" or "ecuflash" (RomRaider's XML in either tool's style), "a2l" (ASAM MCD-2 MC). */
  format: z.enum(["xdf", "xdf-1.x", "romraider", "ecuflash", "a2l"]),
  /** RomRaider/EcuFlash: the rom imported (its xmlid) and those it inherits from, farthest first. */
  rom: z.strictObject({ xmlId: z.string(), inherits: z.array(z.string()) }).optional(),
  definition: tuneDefinitionSchema,
  patches: z.array(patchSchema),
  /** Checksums whose algorithm we have; the others are in `skipped` as "not supported: <name> (…)". */
  checksums: z.array(checksumSchemeSchema),
  /** Elements not imported, each with where it is and why. */
  skipped: z.array(
    z.strictObject({
      element: z.string(),
      title: z.string().optional(),
      uniqueId: z.string().optional(),
      line: z.number().int(),
      reason: z.string(),
    }),
  ),
  /** Every skip as a sentence, then notes on imported items (an axis left out, labels filled in, base bytes read from stock). */
  warnings: z.array(z.string()),
  summary: z.strictObject({
    items: z.number().int(),
    byKind: z.record(z.enum(TUNE_ITEM_KINDS), z.number().int()),
    patches: z.number().int(),
    checksums: z.number().int(),
    skipped: z.number().int(),
    skippedReasons: z.array(z.strictObject({ reason: z.string(), count: z.number().int() })),
  }),
  /** Dry run with a stock file: a few maps (2-D tables first) read from it, so the admin sees whether the values make sense. */
  samples: z.array(itemValuesSchema.extend({ title: z.string() })).optional(),
});
export type XdfImported = z.infer<typeof xdfImportedSchema>;
export const xdfStoredSchema = xdfImportedSchema.extend({
  patches: z.array(tuneFilePatchSchema),
  /** What the firmware record received (saveDefinition): the definition, and checksum schemes added or refused with the reason. */
  saved: z.strictObject({
    definition: z.boolean(),
    checksums: z.array(z.string()),
    refusedChecksums: z.array(z.strictObject({ name: z.string(), reason: z.string() })),
  }),
});

export const bakedTuneFileSchema = z.strictObject({
  id: z.string(),
  vehicleId: z.string(),
  firmwareId: z.string(),
  tuneFileId: z.string().nullable(),
  tuneVersion: z.number().int().nullable(),
  patchIds: z.array(z.string()),
  sha256: z.string(),
  size: z.number().int().min(0),
  slot: z.number().int().nullable(),
  expiresAt: isoDateTime.nullable(),
  report: z.record(z.string(), z.unknown()),
  download: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type BakedTuneFile = z.infer<typeof bakedTuneFileSchema>;

/** `GET /user-vehicles/{id}/tune-files`: a vehicle with the tunes bought for it and its bakes. */
/** A vehicle as the tune pages need it (and `POST /user-vehicles/{id}/upload-tune-dump/{slot}` answers it): its firmware and stock read. */
export const tuneVehicleSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  vin: z.string().nullable(),
  firmwareId: z.string().nullable(),
  stockDump: z
    .strictObject({ sha256: z.string(), size: z.number().int().min(0), slot: z.number().int().nullable() })
    .nullable(),
});

export const vehicleTunesSchema = z.strictObject({
  vehicle: tuneVehicleSchema,
  bought: z.array(tuneFileSchema),
  baked: z.array(bakedTuneFileSchema),
});
export type VehicleTunes = z.infer<typeof vehicleTunesSchema>;

/**
 * The tune viewer's query: a version (owners only, other than the current
 * one) and what to compare with, stock by default or another tune of the
 * same firmware the caller may view.
 */
export const tuneMapsQuerySchema = z.strictObject({
  version: versionNumber(z.coerce.number()).optional(),
  against: z.uuid("against must be a tune file's id").optional(),
});

/** What a tune is compared with: its firmware's stock file or another tune. */
export const tuneMapsBaseSchema = z.union([
  z.strictObject({ kind: z.literal("stock") }),
  z.strictObject({ kind: z.literal("tune"), tuneFileId: z.string(), title: z.string() }),
]);
export type TuneMapsBase = z.infer<typeof tuneMapsBaseSchema>;

/**
 * A tune's definition and its changed items (GET /tune-files/:id/maps). Values
 * come one item at a time (TuneItemValues): a definition of thousands of
 * items would otherwise be megabytes read and sent before the first map shows.
 */
export const tuneMapsSchema = z.strictObject({
  firmwareId: z.string(),
  version: z.number().int(),
  /** Null when the firmware has no definition: the viewer then shows the inspection (and the hex view when allowed). */
  definition: tuneDefinitionSchema.nullable(),
  /** Null without anything to compare with (no stock file). */
  base: tuneMapsBaseSchema.nullable(),
  /** Ids of the items whose values differ from the base, in definition order. */
  changed: z.array(z.string()),
});
export type TuneMaps = z.infer<typeof tuneMapsSchema>;

/**
 * One item in physical units (GET /tune-files/:id/maps/:itemId), read on the
 * server so that a buyer allowed to view but not to download sees the values
 * without ever receiving the image's bytes.
 */
export const tuneItemValuesSchema = z.strictObject({
  values: itemValuesSchema,
  /** The same item in the base (stock or the other tune); null without one. */
  base: itemValuesSchema.nullable(),
});
export type TuneItemValues = z.infer<typeof tuneItemValuesSchema>;

/** GET /tune-files/{id}/stock-differences: the stock bytes (base64) at each range where the tune differs from stock. */
export const stockDifferencesSchema = z.strictObject({
  size: z.number().int().min(0),
  regions: z.array(z.strictObject({ start: z.number().int(), bytes: z.string() })),
});
export type StockDifferences = z.infer<typeof stockDifferencesSchema>;
