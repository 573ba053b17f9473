/**
 * One entry for every definition format we read: the format is told by the
 * content, never by the file name. TunerPro XDF (XML `<XDFFORMAT>` or the
 * older 1.x text) goes to ./xdf.ts, RomRaider and EcuFlash XML (`<roms>` or
 * `<rom>`) to ./romraider.ts; anything else is refused with a message that
 * says what the file is not.
 */
import { TuneError } from "./errors";
import type { DefinitionImport } from "./import-common";
import { importRomRaider, type RomRaiderImportOptions } from "./romraider";
import { isLegacyXdf } from "./xdf-legacy";
import { importXdf } from "./xdf";

export type DefinitionImportOptions = RomRaiderImportOptions;

/** The name of the first element of an XML text, after its prolog (declaration, comments, DOCTYPE); undefined when it does not start like XML. */
export function xmlRootName(text: string): string | undefined {
  const prolog = /^\uFEFF?\s*(?:(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)\s*)*<([A-Za-z_][\w:.-]*)/;
  return prolog.exec(text.slice(0, 64 * 1024))?.[1];
}

/** Imports an XDF, a RomRaider or an EcuFlash definition, whichever the text is. */
export function importDefinition(text: string, options: DefinitionImportOptions): DefinitionImport {
  if (isLegacyXdf(text)) return importXdf(text, options);
  const root = xmlRootName(text);
  if (root !== undefined && /^roms?$/i.test(root)) return importRomRaider(text, options);
  if (root === undefined && !text.replace(/^\uFEFF/, "").trimStart().startsWith("<")) {
    throw new TuneError("definition_invalid", "not a definition we read: neither a TunerPro XDF (XML or 1.x text) nor a RomRaider/EcuFlash XML definition", { problems: [] });
  }
  if (root !== undefined && root.toUpperCase() !== "XDFFORMAT") {
    throw new TuneError(
      "definition_invalid",
      `not a definition we read: the root element is <${root}>; a TunerPro XDF has <XDFFORMAT>, a RomRaider/EcuFlash definition <roms> or <rom>`,
      { problems: [] },
    );
  }
  return importXdf(text, options);
}
