/**
 * One entry for every definition format we read: the format is told by the
 * content, never by the file name. TunerPro XDF (XML `<XDFFORMAT>` or the
 * older 1.x text) goes to ./xdf.ts, RomRaider and EcuFlash XML (`<roms>` or
 * `<rom>`) to ./romraider.ts, ASAM A2L (`ASAP2_VERSION` or `/begin PROJECT`
 * first) to ./a2l/import.ts; anything else is refused with a message that
 * says what the file is not.
 */
import { itemCellCount, type TuneDefinition, type TuneItem } from "../../contracts/tune-definition";
import { isA2l } from "./a2l/blocks";

export { isA2l };

import { importA2l } from "./a2l/import";
import { TuneError } from "./errors";
import type { DefinitionImport } from "./import-common";
import { type ItemValues, itemExtents, readItem } from "./maps";
import { importRomRaider, type RomRaiderImportOptions } from "./romraider";
import { importXdf } from "./xdf";
import { isLegacyXdf } from "./xdf-legacy";

export interface DefinitionImportOptions extends RomRaiderImportOptions {
  /** A2L: what to subtract from the ECU addresses the A2L gives to find them in the image (a read is a file, not memory). */
  addressOffset?: number;
  /** A2L: the files its `/include`s name, file name → text. */
  includes?: Readonly<Record<string, string>>;
}

/** The name of the first element of an XML text, after its prolog (declaration, comments, DOCTYPE); undefined when it does not start like XML. */
export function xmlRootName(text: string): string | undefined {
  const prolog =
    /^\uFEFF?\s*(?:(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)\s*)*<([A-Za-z_][\w:.-]*)/;
  return prolog.exec(text.slice(0, 64 * 1024))?.[1];
}

/** Imports an XDF, a RomRaider or EcuFlash definition or an A2L, whichever the text is. */
export function importDefinition(text: string, options: DefinitionImportOptions): DefinitionImport {
  // TunerPro's older binary XDFs start with the bytes 05 22 97; their layout is not publicly documented.
  if (text.startsWith('\u0005"'))
    throw new TuneError(
      "definition_invalid",
      "a TunerPro binary XDF: open it in TunerPro and save it as XML, then import that file",
      { problems: [] },
    );
  if (isLegacyXdf(text)) return importXdf(text, options);
  if (isA2l(text)) return importA2l(text, options);
  const root = xmlRootName(text);
  if (root !== undefined && /^roms?$/i.test(root)) return importRomRaider(text, options);
  if (
    root === undefined &&
    !text
      .replace(/^\uFEFF/, "")
      .trimStart()
      .startsWith("<")
  ) {
    throw new TuneError(
      "definition_invalid",
      "not a definition we read: neither a TunerPro XDF (XML or 1.x text), a RomRaider/EcuFlash XML definition nor an A2L",
      { problems: [] },
    );
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

/**
 * A few maps of an imported definition read from an image (the firmware's
 * stock file), for the import's preview: two 2-D tables, a 1-D table and a
 * single value when the definition has them, filled up to `limit` in
 * definition order. Tables of more than 4,096 cells and items the image
 * cannot hold are passed over.
 */
export function sampleMaps(
  definition: TuneDefinition,
  image: Uint8Array,
  limit = 4,
): Array<ItemValues & { title: string }> {
  const readable = definition.items.filter(
    (item) => itemCellCount(item) <= 4096 && itemExtents(item).every((e) => e.end <= image.length),
  );
  const wanted: Array<[TuneItem["kind"][], number]> = [
    [["table2d"], 2],
    [["table1d"], 1],
    [["constant", "enum", "flag"], 1],
  ];
  const chosen = new Set<TuneItem>();
  for (const [kinds, count] of wanted)
    readable
      .filter((i) => kinds.includes(i.kind))
      .slice(0, count)
      .forEach((i) => {
        chosen.add(i);
      });
  for (const item of readable) if (chosen.size < limit) chosen.add(item);
  return readable
    .filter((item) => chosen.has(item))
    .slice(0, limit)
    .map((item) => ({ ...readItem(image, item), title: item.title }));
}

/**
 * Several definition files as one text to import: a RomRaider/EcuFlash rom
 * and the files holding the roms it inherits from (EcuFlash keeps each base
 * in a file of its own) become one `<roms>` document, their declarations
 * dropped. One file is answered as it is; an XDF cannot be combined. Lines
 * in the import's answer then count in the combined text, files joined in
 * the order given.
 */
export function combineDefinitionFiles(texts: readonly string[]): string {
  if (texts.length === 1) return texts[0];
  if (texts.length === 0) throw new TuneError("definition_invalid", "no definition file", { problems: [] });
  const bodies = texts.map((text, i) => {
    const root = xmlRootName(text);
    if (root === undefined || !/^roms?$/i.test(root)) {
      throw new TuneError(
        "definition_invalid",
        `file ${i + 1} is not a RomRaider/EcuFlash definition: only those are imported together (a rom and the roms it inherits from); an XDF comes alone`,
        {
          problems: [],
        },
      );
    }
    const body = text.slice(text.search(new RegExp(`<${root}[\\s>/]`)));
    if (root.toLowerCase() === "rom") return body.trimEnd();
    const inner = /^<roms[^>]*>([\s\S]*)<\/roms>\s*$/i.exec(body.trimEnd());
    return inner ? inner[1].trim() : "";
  });
  return `<roms>\n${bodies.join("\n")}\n</roms>\n`;
}

/** One uploaded definition file, decoded. */
export interface DefinitionFile {
  name: string;
  text: string;
}

/**
 * The text to import and the options it needs, from the files chosen together: an A2L first
 * takes the others as the files its `/include`s name; otherwise they are combined (a rom and
 * the roms it inherits from).
 */
export function definitionOfFiles(files: readonly DefinitionFile[]): {
  text: string;
  includes?: Readonly<Record<string, string>>;
} {
  const [first, ...others] = files;
  if (first && isA2l(first.text) && others.length > 0)
    return { text: first.text, includes: Object.fromEntries(others.map((file) => [file.name, file.text])) };
  return { text: combineDefinitionFiles(files.map((file) => file.text)) };
}
