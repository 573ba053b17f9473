/** The tune-file engine: pure functions over images, definitions, checksums and patches. */
export { TuneError, hexAddress, type TuneErrorCode } from "./errors";
export { bytesToHex, hexToBytes, copyImage } from "./bytes";
export { readElement, writeElement, rawLimits, elementBytes, type ElementType } from "./elements";
export {
  readItem,
  readCell,
  writeItem,
  writeCell,
  itemExtents,
  scalingFunction,
  type ItemValues,
  type AxisValues,
  type ItemExtent,
  type ItemPart,
} from "./maps";
export { verifyAll, fixAll, computeChecksum, type ChecksumResult, type ChecksumOptions, type FixReport, type FixOptions } from "./checksums";
export { crc32, type Crc32 } from "./crc32";
export { patchState, applyPatches, removePatch, type PatchState, type PatchStateResult, type PatchOptions, type PatchOutcome } from "./patches";
export { diffImages, changedRanges, changedItemIds, summarizeChanges, type ItemChangeSummary, indexExtents, overlapping, type ExtentIndex, type ByteRange, type ChangedRange, type ChangedItem, type CellChange, type DiffOptions } from "./diff";
export { identifyFirmware, identifyMismatches, matchesIdentify, type IdentifyMismatch, type IdentifiableFirmware } from "./identify";
export { bake, type BakeInput, type BakeFirmware, type BakeResult, type BakeReport } from "./bake";
export { importXdf, type XdfImport, type XdfImportOptions, type XdfSkipped } from "./xdf";
export { importRomRaider, convertExpression, decimalsOf, type RomRaiderImportOptions } from "./romraider";
export { importDefinition, combineDefinitionFiles, sampleMaps, xmlRootName, type DefinitionImportOptions } from "./definition-import";
export type { DefinitionImport, DefinitionSkipped, DefinitionFormat } from "./import-common";
export { exportXdf, type XdfExportOptions } from "./xdf-export";
