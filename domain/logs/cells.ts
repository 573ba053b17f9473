/** Text-level helpers for header and preamble lines (data rows go through the byte scanner). */

export const DELIMITERS = [",", ";", "\t", "|"] as const;
export type Delimiter = (typeof DELIMITERS)[number];

/** Splits one line into trimmed cells; double quotes group a cell and `""` is a literal quote. */
export function splitCells(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"') {
        if (line[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else cell += ch;
    } else if (ch === '"' && cell.trim() === "") {
      cell = "";
      quoted = true;
    } else if (ch === delimiter) {
      cells.push(cell.trim());
      cell = "";
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

const NUMBER_DOT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const NUMBER_COMMA = /^[-+]?(\d+,?\d*|,\d+)([eE][-+]?\d+)?$/;
const CLOCK = /^\d{1,2}:\d{2}(:\d{2})?([.,]\d+)?$/;

export function isNumberText(cell: string, decimalComma = false): boolean {
  return (decimalComma ? NUMBER_COMMA : NUMBER_DOT).test(cell);
}

export function isClockText(cell: string): boolean {
  return CLOCK.test(cell);
}

/** True when most non-empty cells read as numbers or clock times, i.e. the line is data. */
export function looksLikeDataRow(cells: string[], decimalComma = false): boolean {
  let numeric = 0;
  let filled = 0;
  for (const cell of cells) {
    if (cell === "") continue;
    filled++;
    if (isNumberText(cell, decimalComma) || isClockText(cell)) numeric++;
  }
  return numeric > 0 && numeric * 2 >= filled;
}

/** True when the line could name columns: at least two cells and few of them numbers. */
export function looksLikeHeaderRow(cells: string[]): boolean {
  let text = 0;
  let filled = 0;
  for (const cell of cells) {
    if (cell === "") continue;
    filled++;
    if (!isNumberText(cell) && !isNumberText(cell, true) && !isClockText(cell)) text++;
  }
  return cells.length >= 2 && text > 0 && text * 2 > filled;
}

/**
 * A delimiter file's data lines give it away: the delimiter is the one that splits the header
 * and the next lines into the same number (≥ 2) of cells. Decimal commas are only possible when
 * the delimiter is not a comma, and show as cells like "0,38".
 */
export function detectDelimiter(
  header: string,
  samples: string[],
): { delimiter: Delimiter; decimalComma: boolean } | undefined {
  let best: { delimiter: Delimiter; decimalComma: boolean; score: number } | undefined;
  for (const delimiter of DELIMITERS) {
    const width = splitCells(header, delimiter).length;
    if (width < 2) continue;
    let agreeing = 0;
    let commaNumbers = 0;
    let dotNumbers = 0;
    for (const line of samples) {
      const cells = splitCells(line, delimiter);
      if (cells.length === width || (cells.length === width + 1 && cells[width] === "")) agreeing++;
      for (const cell of cells) {
        if (/^[-+]?\d*,\d+$/.test(cell)) commaNumbers++;
        else if (/^[-+]?\d*\.\d+$/.test(cell)) dotNumbers++;
      }
    }
    if (samples.length > 0 && agreeing * 2 < samples.length) continue;
    const score = agreeing * 1000 + width;
    if (!best || score > best.score) {
      best = { delimiter, decimalComma: delimiter !== "," && commaNumbers > dotNumbers, score };
    }
  }
  return best && { delimiter: best.delimiter, decimalComma: best.decimalComma };
}
