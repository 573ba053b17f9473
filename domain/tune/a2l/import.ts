/**
 * A2L (ASAM MCD-2 MC) into our definition document: the calibration objects
 * of the file's first MODULE, each CHARACTERISTIC (VALUE, VAL_BLK, ASCII,
 * CURVE, MAP) and each AXIS_PTS (a shared axis, also an item of its own so
 * that it can be tuned). What cannot be read is skipped with its name, line
 * and reason, the rest imported.
 *
 * - Addresses are ECU memory; the image is a file: file offset = ECU address
 *   − `addressOffset`. An item outside the image is skipped, naming its ECU
 *   address.
 * - Byte order: the item's BYTE_ORDER (an axis description's for its axis),
 *   else MOD_COMMON's, else MSB_FIRST. MSB_FIRST is big endian, MSB_LAST
 *   little endian; the deprecated LITTLE_ENDIAN and BIG_ENDIAN stand,
 *   as the standard defines them, for MSB_FIRST and MSB_LAST.
 * - A map's X axis runs across its columns and Y down its rows; FNC_VALUES
 *   ROW_DIR stores the map row after row, COLUMN_DIR column after column. A
 *   VAL_BLK's MATRIX_DIM gives the columns first, then the rows.
 * - Axes: STD_AXIS reads the points the record stores (AXIS_PTS_X/Y),
 *   COM_AXIS those of the AXIS_PTS it names, FIX_AXIS computes them
 *   (FIX_AXIS_PAR offset + i·2^shift, FIX_AXIS_PAR_DIST offset + i·distance,
 *   FIX_AXIS_PAR_LIST) as raw values shown through the axis's conversion.
 *   CURVE_AXIS and RES_AXIS, axes stored as differences and axes with a
 *   verbal conversion read from the image are left out with a note; the map
 *   keeps its size.
 * - Values: a VALUE with a verbal conversion is an enum, one with a BIT_MASK
 *   of one bit a flag; a BIT_MASK of several bits is not supported. ASCII is
 *   a 1-D table of its character codes. The lower and upper limits are the
 *   physical limits for writing. CUBOID and higher, virtual characteristics
 *   (computed by the calibration tool, not in memory) are skipped.
 * - Categories: the FUNCTIONs that define (DEF_CHARACTERISTIC) or list
 *   (the item's FUNCTION_LIST) an item.
 */
import { type TuneItem, tuneDefinitionSchema } from "../../../contracts/tune-definition";
import {
  checkedItem,
  type DefinitionImport,
  type DefinitionSkipped,
  Skip,
  slug,
  summarize,
  UniqueIds,
} from "../import-common";
import { type Block, blocksNamed, isBlock, numberOf, readBlocks, type Token, tokensOf } from "./blocks";
import { type Context, endianOf, refuse } from "./context";
import { axisPtsDocument, characteristicDocument } from "./items";
import { ALIGNMENT_KEYWORDS } from "./layouts";

export interface A2lImportOptions {
  firmwareId: string;
  /** The firmware's image size: an A2L describes ECU memory and does not give it. */
  imageSize?: number;
  /** The stock image: the number of axis points a record stores is read from it. */
  stockImage?: Uint8Array;
  /** ECU address of the image's first byte (file offset = ECU address − addressOffset); 0 when absent. */
  addressOffset?: number;
  /** Files uploaded with the A2L, by name, for its `/include`s. */
  includes?: Readonly<Record<string, string>>;
}

function moduleOf(top: Array<Token | Block>, warnings: string[]): Block {
  const project = top.find((p): p is Block => isBlock(p) && p.name === "PROJECT");
  if (!project) return refuse("an A2L without /begin PROJECT: nothing to read");
  const modules = blocksNamed(project, "MODULE");
  if (modules.length === 0) return refuse("the A2L's PROJECT has no MODULE: nothing to read");
  if (modules.length > 1)
    warnings.push(
      `the A2L describes ${modules.length} modules; the first, ${tokensOf(modules[0])[0]?.text ?? ""}, is imported`,
    );
  return modules[0];
}

/** Imports an A2L's calibration objects into a definition. */
export function importA2l(text: string, options: A2lImportOptions): DefinitionImport {
  const offset = options.addressOffset ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0)
    refuse(`addressOffset must be a non-negative whole number, got ${offset}`);
  const imageSize = options.imageSize;
  if (imageSize === undefined || !Number.isInteger(imageSize) || imageSize <= 0)
    refuse("an A2L does not give the image size: give the firmware's image size");
  const firmwareId = tuneDefinitionSchema.shape.firmwareId.safeParse(options.firmwareId);
  if (!firmwareId.success) refuse("a firmware id is needed");

  const tree = readBlocks(text, options.includes ?? {});
  const warnings: string[] = [];
  const skipped: DefinitionSkipped[] = [];
  const skipElement = (element: string, title: string | undefined, line: number, reason: string) => {
    skipped.push({ element, ...(title && { title }), line, reason });
    warnings.push(`${element} ${title ? JSON.stringify(title) : "(untitled)"} on line ${line} skipped: ${reason}`);
  };
  for (const missing of tree.missingIncludes) {
    skipElement(
      "/include",
      missing.name,
      missing.line,
      `${missing.name} was not uploaded with the A2L${missing.file ? ` (included by ${missing.file})` : ""}: upload it together with the A2L to read what it holds`,
    );
  }
  const module = moduleOf(tree.top, warnings);

  const ctx: Context = {
    imageSize: imageSize!,
    offset,
    ...(options.stockImage && { stock: options.stockImage }),
    endian: "big",
    deposit: "ABSOLUTE",
    alignments: new Map(),
    tables: { methods: new Map(), tabs: new Map(), units: new Map() },
    layouts: new Map(),
    axisPts: new Map(),
    notes: [],
  };
  const characteristics: Block[] = [];
  const axisPts: Block[] = [];
  const functionsOf = new Map<string, string[]>();
  const addFunction = (item: string, fn: string) => {
    const list = functionsOf.get(item) ?? [];
    if (!list.includes(fn)) list.push(fn);
    functionsOf.set(item, list);
  };
  for (const part of module.content) {
    if (!isBlock(part)) continue;
    const name = tokensOf(part)[0]?.text ?? "";
    switch (part.name) {
      case "COMPU_METHOD":
        ctx.tables.methods.set(name, part);
        break;
      case "COMPU_TAB":
      case "COMPU_VTAB":
      case "COMPU_VTAB_RANGE":
        ctx.tables.tabs.set(name, part);
        break;
      case "UNIT":
        ctx.tables.units.set(name, part);
        break;
      case "RECORD_LAYOUT":
        ctx.layouts.set(name, part);
        break;
      case "AXIS_PTS":
        ctx.axisPts.set(name, part);
        axisPts.push(part);
        break;
      case "CHARACTERISTIC":
        characteristics.push(part);
        break;
      case "FUNCTION":
        for (const def of blocksNamed(part, "DEF_CHARACTERISTIC"))
          for (const item of tokensOf(def)) addFunction(item.text, name);
        break;
      case "MOD_COMMON": {
        const tokens = tokensOf(part);
        for (let i = 1; i < tokens.length; i++) {
          const word = tokens[i].text;
          if (word === "BYTE_ORDER") {
            try {
              ctx.endian = endianOf(tokens[i + 1]?.text, "MOD_COMMON");
            } catch (error) {
              if (!(error instanceof Skip)) throw error;
              refuse(`MOD_COMMON on line ${part.line}: ${error.message}`);
            }
          } else if (word === "DEPOSIT") ctx.deposit = tokens[i + 1]?.text ?? ctx.deposit;
          else if (ALIGNMENT_KEYWORDS.has(word)) {
            const n = numberOf(tokens[i + 1]);
            if (n !== undefined) ctx.alignments.set(word, n);
          }
        }
        break;
      }
    }
  }

  const categoryIds = new UniqueIds();
  const categoryByName = new Map<string, string>();
  const categories: Array<{ id: string; name: string }> = [];
  const categoryOf = (name: string) => {
    let id = categoryByName.get(name);
    if (id === undefined) {
      id = categoryIds.take(slug(name));
      categoryByName.set(name, id);
      categories.push({ id, name });
    }
    return id;
  };

  const itemIds = new UniqueIds();
  const items: TuneItem[] = [];
  const importOne = (block: Block, build: (ctx: Context, block: Block) => Record<string, unknown>) => {
    const t = tokensOf(block);
    const name = t[0]?.text ?? "";
    ctx.notes = [];
    try {
      const document = build(ctx, block);
      for (const list of blocksNamed(block, "FUNCTION_LIST"))
        for (const fn of tokensOf(list)) addFunction(name, fn.text);
      const fns = (functionsOf.get(name) ?? []).map(categoryOf);
      const longId = t[1]?.quoted ? t[1].text.trim() : "";
      const item = checkedItem(
        {
          id: "item",
          title: name,
          ...(longId && longId !== name && { description: longId }),
          ...(fns.length > 0 && { category: fns[0] }),
          ...(fns.length > 1 && { categories: fns }),
          ...document,
        },
        ctx.imageSize,
      );
      item.id = itemIds.take(slug(name));
      items.push(item);
      const place = block.file ? ` in ${block.file}` : "";
      for (const note of ctx.notes)
        warnings.push(`${block.name} ${JSON.stringify(name)} on line ${block.line}${place}: ${note}`);
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      skipElement(
        block.name,
        name || undefined,
        block.line,
        block.file ? `in ${block.file}: ${error.message}` : error.message,
      );
    }
  };
  for (const block of characteristics) importOne(block, characteristicDocument);
  for (const block of axisPts) importOne(block, axisPtsDocument);

  const definition = { firmwareId: firmwareId.data!, imageSize: imageSize!, categories, items };
  return {
    format: "a2l",
    definition,
    patches: [],
    checksums: [],
    skipped,
    warnings,
    summary: summarize(definition, [], [], skipped),
  };
}
