/** The tune-file engine: pure functions over images, definitions, checksums and patches. */

export { type BakeFirmware, type BakeInput, type BakeReport, type BakeResult, bake } from "./bake";
export { bytesToHex, copyImage, hexToBytes } from "./bytes";
export {
  type ChecksumOptions,
  type ChecksumResult,
  computeChecksum,
  type FixOptions,
  type FixReport,
  fixAll,
  verifyAll,
} from "./checksums";
export { type Crc32, crc32 } from "./crc32";
export {
  combineDefinitionFiles,
  type DefinitionFile,
  type DefinitionImportOptions,
  definitionOfFiles,
  importDefinition,
  isA2l,
  sampleMaps,
  xmlRootName,
} from "./definition-import";
export { type DecodedDefinition, decodeDefinitionFile } from "./definition-text";
export {
  type ByteRange,
  type CellChange,
  type ChangedItem,
  type ChangedRange,
  changedItemIds,
  changedRanges,
  type DiffOptions,
  diffImages,
  type ExtentIndex,
  type ItemChangeSummary,
  indexExtents,
  overlapping,
  summarizeChanges,
} from "./diff";
export { type ElementType, elementBytes, rawLimits, readElement, writeElement } from "./elements";
export { hexAddress, TuneError, type TuneErrorCode } from "./errors";
export {
  type IdentifiableFirmware,
  type IdentifyMismatch,
  identifyFirmware,
  identifyMismatches,
  matchesIdentify,
} from "./identify";
export { imageSizeText } from "./image-size";
export type { DefinitionFormat, DefinitionImport, DefinitionSkipped } from "./import-common";
export {
  type AxisValues,
  type ItemExtent,
  type ItemPart,
  type ItemValues,
  itemExtents,
  readCell,
  readItem,
  scalingFunction,
  writeCell,
  writeItem,
} from "./maps";
export {
  applyPatches,
  type PatchOptions,
  type PatchOutcome,
  type PatchState,
  type PatchStateResult,
  patchState,
  removePatch,
} from "./patches";
export { convertExpression, decimalsOf, importRomRaider, type RomRaiderImportOptions } from "./romraider";
export { importXdf, type XdfImport, type XdfImportOptions, type XdfSkipped } from "./xdf";
export { exportXdf, type XdfExportOptions } from "./xdf-export";
