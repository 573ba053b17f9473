/** Header cells to channel names and units. */

export interface HeaderParts {
  name: string;
  unit: string;
  /** A source tag written before the name, e.g. "RAM" from bootmod3's "(RAM) Boost[psi]". */
  prefix?: string;
}

const PREFIX = /^\(([A-Z][A-Z0-9]{1,5})\)\s*(?=\S)/;
const BRACKET_UNIT = /^(.*?)\s*\[([^[\]]*)\]$/;
const PAREN_UNIT = /^(.*?)\s*\(([^()]*)\)$/;

/**
 * Splits "Name (unit)", "Name[unit]" and "(RAM) Name[unit]". A trailing parenthesis that reads
 * as a qualifier rather than a unit — OBDLink's "O2 voltage (Bank 1  Sensor 1)" — stays in the name.
 */
export function parseHeaderCell(raw: string): HeaderParts {
  let text = raw.trim();
  let prefix: string | undefined;
  const tagged = PREFIX.exec(text);
  if (tagged) {
    prefix = tagged[1];
    text = text.slice(tagged[0].length);
  }
  const bracket = BRACKET_UNIT.exec(text);
  if (bracket && bracket[1] !== "") {
    return { name: cleanName(bracket[1]), unit: normalizeUnit(bracket[2]), prefix };
  }
  const paren = PAREN_UNIT.exec(text);
  if (paren && paren[1] !== "" && isPlausibleUnit(paren[2])) {
    return { name: cleanName(paren[1]), unit: normalizeUnit(paren[2]), prefix };
  }
  return { name: cleanName(text), unit: "", prefix };
}

/** Units are short symbols; "Bank 1  Sensor 1" or "current probe" are parts of a name. */
function isPlausibleUnit(text: string): boolean {
  const unit = text.trim();
  if (unit.length > 16) return false;
  const words = unit.split(/\s+/).filter(Boolean);
  return words.length <= 1 || (words.length === 2 && !/\d/.test(unit));
}

/**
 * One spelling per unit where loggers differ in notation only: "-" and "" mean none, and MHD
 * writes "*" for the degree sign ("*C", "*CRK", "*").
 */
export function normalizeUnit(raw: string): string {
  const unit = raw.trim().replace(/\s+/g, " ");
  if (unit === "-" || unit === "--") return "";
  if (unit.startsWith("*")) return `°${unit.slice(1)}`;
  return unit;
}

export function cleanName(raw: string): string {
  return raw.trim().replace(/\s+/g, " ");
}

/** Lower-case ASCII-ish slug; letters of other scripts are kept so such names stay distinct. */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * Makes names unique by numbering repeats ("MAP", "MAP #2"), the way the logger's own screens
 * show two gauges of the same kind; returns the indices of the renamed entries for warnings.
 */
export function uniquifyNames(names: string[]): { names: string[]; renamed: number[] } {
  const seen = new Map<string, number>();
  const taken = new Set(names.map((n) => n.toLowerCase()));
  const out: string[] = [];
  const renamed: number[] = [];
  names.forEach((name, index) => {
    const key = name.toLowerCase();
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count === 1) {
      out.push(name);
      return;
    }
    let n = count;
    while (taken.has(`${key} #${n}`)) n++;
    const unique = `${name} #${n}`;
    taken.add(unique.toLowerCase());
    out.push(unique);
    renamed.push(index);
  });
  return { names: out, renamed };
}

/** Ids from names, unique even when two different names slug the same ("A/F" and "A-F"). */
export function uniqueIds(names: string[]): string[] {
  const used = new Set<string>();
  return names.map((name, index) => {
    const base = slugify(name) || `channel-${index + 1}`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return id;
  });
}
