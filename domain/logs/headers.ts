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

/** A UTF-8 lead byte (C2–F4) then a continuation byte (80–BF), both read as Latin-1 characters. */
const LATIN1_READ_UTF8 = /[\u00c2-\u00f4][\u0080-\u00bf]/;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Undoes UTF-8 read as Latin-1 and written out again ("Â°" for "°", "ï¿½" for the replacement
 * character): text of Latin-1 characters only whose codes are valid UTF-8 bytes is decoded as
 * such. Anything else (a real "é", a "Â" before a space) is left as it is.
 */
export function repairMisdecoded(text: string): string {
  let repaired = text;
  // Twice at most: a unit re-encoded twice on its way into the file.
  for (let pass = 0; pass < 2 && LATIN1_READ_UTF8.test(repaired); pass++) {
    if (/[^\u0000-\u00ff]/.test(repaired)) break;
    try {
      repaired = strictUtf8.decode(Uint8Array.from(repaired, (char) => char.charCodeAt(0)));
    } catch {
      break;
    }
  }
  return repaired;
}

/**
 * One spelling per unit where loggers differ in notation only: "-" and "" mean none, and MHD
 * writes "*" for the degree sign ("*C", "*CRK", "*"). A mis-decoded unit is repaired first; a
 * replacement character leading a unit stood for the degree sign (a Latin-1 "°", byte B0, read
 * as UTF-8), the one non-ASCII character loggers put there.
 */
export function normalizeUnit(raw: string): string {
  // A units-row cell may wrap its unit: "(AFR)", "[rpm]".
  const unwrapped = raw.trim().replace(/^\((.*)\)$|^\[(.*)\]$/, "$1$2");
  const unit = repairMisdecoded(unwrapped.trim().replace(/\s+/g, " "));
  if (unit === "-" || unit === "--") return "";
  if (unit.startsWith("*") || unit.startsWith("\ufffd")) return `°${unit.slice(1)}`;
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
