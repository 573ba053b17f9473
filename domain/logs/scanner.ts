/**
 * The data-row scanner: one pass over the bytes, numbers parsed in place into typed columns.
 *
 * Per cell the fast path reads sign, digits and a decimal separator and divides the integer
 * mantissa by an exact power of ten, which is correctly rounded while the mantissa stays below
 * 2^53. Anything else (exponents, quotes, clock times, text, very long mantissas) takes the slow
 * path over the cell's bytes. No strings are made for ordinary cells.
 */

/** Column target meaning "not stored" (identity columns, VCDS's extra TIME columns…). */
export const SKIP = -1;
/** Column target meaning "this is the time column". */
export const TIME = -2;

export interface ScanSpec {
  delimiter: number;
  decimalComma: boolean;
  /** Cells a row should have. */
  columnCount: number;
  /** Per source column: SKIP, TIME or the channel index to store into. */
  targets: Int32Array;
  channelCount: number;
  /** Time cells may be clock times ("14:16:03.520"), read as seconds since midnight. */
  clockTime: boolean;
  /** Decodes the text of rows kept for messages and footers. */
  decoder: TextDecoder;
  /**
   * Sparse loggers (ECUMaster) leave a cell empty when a channel was not sampled on that row;
   * the value then holds until the next sample instead of making a gap.
   */
  holdEmpty: boolean;
  /** Lines starting with these bytes are markers read apart: not counted as bad rows. */
  markLine?: Uint8Array;
}

export interface CellProblem {
  line: number;
  text: string;
}

export interface RowProblem {
  line: number;
  cells: number;
}

export interface ScanResult {
  rowCount: number;
  /** Raw time values as written (after clock conversion); empty when the format has no time column. */
  time: Float64Array;
  columns: Float32Array[];
  /** Unreadable (non-empty, non-numeric) cells per channel, with the first one seen. */
  unreadable: number[];
  firstUnreadable: (CellProblem | undefined)[];
  /** Rows with another cell count than the header; the first few are kept for messages. */
  raggedCount: number;
  ragged: RowProblem[];
  /** Rows inside the data skipped because their time cell was unreadable (first few kept). */
  badTime: CellProblem[];
  badTimeCount: number;
  /** Rows after the last row with a readable time: a footer (text of the first 200 kept). */
  footer: CellProblem[];
  footerCount: number;
  /** The file ended in the middle of a row (no final line break and too few cells). */
  truncatedLastLine?: RowProblem;
}

const KEPT_PROBLEMS = 20;
/** Footers are short; a longer run of unreadable rows is bad data, not a footer. */
const KEPT_FOOTER_LINES = 200;
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const MAX_EXACT = 9007199254740991;

const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const QUOTE = 34;

interface Ctx {
  spec: ScanSpec;
  capacity: number;
  row: number;
  time: Float64Array;
  columns: Float32Array[];
  held: Float64Array;
  unreadable: number[];
  firstUnreadable: (CellProblem | undefined)[];
  raggedCount: number;
  ragged: RowProblem[];
  badTime: CellProblem[];
  badTimeCount: number;
  /** Skipped rows since the last committed one: they are a footer if no good row follows. */
  trailing: CellProblem[];
  trailingCount: number;
  lastRowCells: number;
  lastRowLine: number;
}

/**
 * Scans data rows from byte `start` (line `firstLine`, 1-based) to the end of `bytes`.
 * Blank lines are skipped.
 */
export function scanRows(bytes: Uint8Array, start: number, firstLine: number, spec: ScanSpec): ScanResult {
  const end = bytes.length;
  let lastBreak = end - 1;
  while (lastBreak >= start && bytes[lastBreak] !== LF && bytes[lastBreak] !== CR) lastBreak--;
  const bodyEnd = lastBreak + 1;
  const capacity = estimateRows(bytes, start, end);
  const ctx: Ctx = {
    spec,
    capacity,
    row: 0,
    time: new Float64Array(capacity),
    columns: Array.from({ length: spec.channelCount }, () => new Float32Array(capacity)),
    held: new Float64Array(spec.channelCount).fill(NaN),
    unreadable: new Array(spec.channelCount).fill(0),
    firstUnreadable: new Array(spec.channelCount).fill(undefined),
    raggedCount: 0,
    ragged: [],
    badTime: [],
    badTimeCount: 0,
    trailing: [],
    trailingCount: 0,
    lastRowCells: spec.columnCount,
    lastRowLine: 0,
  };

  // Every line of the body ends with a line break, so the hot loop needs no bounds checks;
  // an unterminated last line is copied into a small buffer with one appended.
  const line = scanSegment(ctx, bytes, start, bodyEnd, firstLine);
  let truncatedLastLine: RowProblem | undefined;
  if (bodyEnd < end) {
    const tail = new Uint8Array(end - bodyEnd + 1);
    tail.set(bytes.subarray(bodyEnd));
    tail[tail.length - 1] = LF;
    const rowsBefore = ctx.row;
    scanSegment(ctx, tail, 0, tail.length, line);
    if (ctx.row > rowsBefore && ctx.lastRowCells < spec.columnCount) {
      // The last row was cut short by the end of the file: its last cell may be a partial number.
      truncatedLastLine = { line: ctx.lastRowLine, cells: ctx.lastRowCells };
      ctx.row--;
      ctx.raggedCount--;
      ctx.ragged = ctx.ragged.filter((r) => r.line !== ctx.lastRowLine);
    }
  }

  const rows = ctx.row;
  // Views, not copies, when the estimate was close: copying 80 MB costs more than the slack.
  const fitted = <T extends Float32Array | Float64Array>(a: T): T =>
    (ctx.capacity - rows > ctx.capacity / 8 ? a.slice(0, rows) : a.subarray(0, rows)) as T;
  return {
    rowCount: rows,
    time: fitted(ctx.time),
    columns: ctx.columns.map(fitted),
    unreadable: ctx.unreadable,
    firstUnreadable: ctx.firstUnreadable,
    raggedCount: ctx.raggedCount,
    ragged: ctx.ragged,
    badTime: ctx.badTime,
    badTimeCount: ctx.badTimeCount,
    footer: ctx.trailing,
    footerCount: ctx.trailingCount,
    truncatedLastLine,
  };
}

/** Row count guess from the average length of the first lines; columns grow if it is short. */
function estimateRows(bytes: Uint8Array, start: number, end: number): number {
  const sampleEnd = Math.min(end, start + 64 * 1024);
  let lf = 0;
  let cr = 0;
  for (let i = start; i < sampleEnd; i++) {
    if (bytes[i] === LF) lf++;
    else if (bytes[i] === CR) cr++;
  }
  // CRLF counts once; files with lone CRs (WinLog) have no LF at all.
  const breaks = lf > 0 ? lf : cr;
  if (breaks === 0) return 16;
  const perLine = (sampleEnd - start) / breaks;
  return Math.ceil(((end - start) / perLine) * 1.02) + 16;
}

function grow(ctx: Ctx): void {
  const capacity = Math.ceil(ctx.capacity * 1.5) + 16;
  const time = new Float64Array(capacity);
  time.set(ctx.time);
  ctx.time = time;
  ctx.columns = ctx.columns.map((c) => {
    const next = new Float32Array(capacity);
    next.set(c);
    return next;
  });
  ctx.capacity = capacity;
}

function scanSegment(ctx: Ctx, bytes: Uint8Array, pos: number, end: number, line: number): number {
  const spec = ctx.spec;
  const delim = spec.delimiter;
  const dot = spec.decimalComma ? 44 : 46;
  const ncol = spec.columnCount;
  const targets = spec.targets;
  const hold = spec.holdEmpty;
  const held = ctx.held;
  const clockTime = spec.clockTime;
  const timed = targets.includes(TIME);
  const skipTab = delim !== TAB;
  let columns = ctx.columns;
  let time = ctx.time;
  let row = ctx.row;

  while (pos < end) {
    let c = bytes[pos];
    if (c === LF || c === CR) {
      pos += c === CR && bytes[pos + 1] === LF ? 2 : 1;
      line++;
      continue;
    }
    if (c === SPACE || c === TAB) {
      // Whitespace-only lines are blank too; otherwise the row starts at `pos` as before.
      let p = pos;
      while (bytes[p] === SPACE || bytes[p] === TAB) p++;
      if (bytes[p] === LF || bytes[p] === CR) {
        pos = p;
        continue;
      }
    }
    if (row === ctx.capacity) {
      ctx.row = row;
      grow(ctx);
      columns = ctx.columns;
      time = ctx.time;
    }
    let col = 0;
    let rowTime = NaN;
    let lastCellEmpty = false;
    for (;;) {
      const target = col < ncol ? targets[col] : SKIP;
      while (c === SPACE || (c === TAB && skipTab)) c = bytes[++pos];
      const cellStart = pos;
      let value = NaN;
      let empty = false;
      if (target === SKIP) {
        if (c === QUOTE) pos = skipQuoted(bytes, pos);
        c = bytes[pos];
        while (c !== delim && c !== LF && c !== CR) c = bytes[++pos];
        empty = pos === cellStart;
      } else {
        let neg = false;
        if (c === 45) {
          neg = true;
          c = bytes[++pos];
        } else if (c === 43) c = bytes[++pos];
        const intStart = pos;
        let m = 0;
        while (c >= 48 && c <= 57) {
          m = m * 10 + (c - 48);
          c = bytes[++pos];
        }
        let digits = pos - intStart;
        let frac = 0;
        if (c === dot) {
          const fracStart = ++pos;
          c = bytes[pos];
          while (c >= 48 && c <= 57) {
            m = m * 10 + (c - 48);
            c = bytes[++pos];
          }
          frac = pos - fracStart;
          digits += frac;
        }
        if (c === SPACE || c === TAB) {
          while (c === SPACE || (c === TAB && skipTab)) c = bytes[++pos];
        }
        if (digits > 0 && m <= MAX_EXACT && frac < 23 && (c === delim || c === LF || c === CR)) {
          value = frac === 0 ? m : m / POW10[frac];
          if (neg) value = -value;
        } else if (digits === 0 && pos === cellStart && (c === delim || c === LF || c === CR)) {
          empty = true;
        } else {
          pos = cellStart;
          if (bytes[pos] === QUOTE) pos = skipQuoted(bytes, pos);
          c = bytes[pos];
          while (c !== delim && c !== LF && c !== CR) c = bytes[++pos];
          value = readSlow(bytes, cellStart, pos, dot, target === TIME && clockTime);
          empty = Number.isNaN(value) && isBlankCell(bytes, cellStart, pos);
        }
        if (target === TIME) {
          rowTime = value;
        } else if (!Number.isNaN(value)) {
          columns[target][row] = value;
          if (hold) held[target] = value;
        } else {
          if (empty && hold) {
            value = held[target];
          } else if (!empty) {
            ctx.unreadable[target]++;
            if (ctx.firstUnreadable[target] === undefined) {
              ctx.firstUnreadable[target] = { line, text: cellText(bytes, cellStart, pos) };
            }
          }
          columns[target][row] = value;
        }
      }
      lastCellEmpty = empty;
      col++;
      if (c === delim) {
        c = bytes[++pos];
        continue;
      }
      break;
    }

    // A trailing delimiter (VCDS, JB4) adds one empty cell that is not a column.
    const cells = col === ncol + 1 && lastCellEmpty ? ncol : col;
    if (cells < ncol) {
      for (let k = cells; k < ncol; k++) {
        const target = targets[k];
        if (target >= 0) columns[target][row] = hold ? held[target] : NaN;
      }
    }
    if (cells !== ncol) {
      ctx.raggedCount++;
      if (ctx.ragged.length < KEPT_PROBLEMS) ctx.ragged.push({ line, cells });
    }
    ctx.lastRowCells = cells;
    ctx.lastRowLine = line;

    if (timed && Number.isNaN(rowTime)) {
      // The row stays uncommitted: the next row overwrites what was stored at this index.
      // A row of bare delimiters (",,,,", spreadsheet exports) is a blank line, not a bad row.
      const lineStart = lineStartOf(bytes, pos);
      if (!isDelimitersOnly(bytes, lineStart, pos, delim) && !startsWith(bytes, lineStart, pos, spec.markLine)) {
        ctx.trailingCount++;
        if (ctx.trailing.length < KEPT_FOOTER_LINES) {
          ctx.trailing.push({ line, text: lineText(spec.decoder, bytes, lineStart, pos) });
        }
      }
      if (cells !== ncol) {
        ctx.raggedCount--;
        if (ctx.ragged.length > 0 && ctx.ragged[ctx.ragged.length - 1].line === line) ctx.ragged.pop();
      }
    } else {
      if (ctx.trailingCount > 0) {
        ctx.badTimeCount += ctx.trailingCount;
        for (const p of ctx.trailing) if (ctx.badTime.length < KEPT_PROBLEMS) ctx.badTime.push(p);
        ctx.trailing = [];
        ctx.trailingCount = 0;
      }
      time[row] = rowTime;
      row++;
    }

    pos += c === CR && bytes[pos + 1] === LF ? 2 : 1;
    line++;
  }
  ctx.row = row;
  return line;
}

/** Position after a quoted cell's closing quote (or at the line end if it never closes). */
function skipQuoted(bytes: Uint8Array, pos: number): number {
  let i = pos + 1;
  for (;;) {
    const c = bytes[i];
    if (c === LF || c === CR) return i;
    if (c === QUOTE) {
      if (bytes[i + 1] === QUOTE) i += 2;
      else return i + 1;
    } else i++;
  }
}

function startsWith(bytes: Uint8Array, from: number, to: number, prefix: Uint8Array | undefined): boolean {
  if (!prefix || to - from < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[from + i] !== prefix[i]) return false;
  return true;
}

function isDelimitersOnly(bytes: Uint8Array, from: number, to: number, delim: number): boolean {
  for (let i = from; i < to; i++) {
    const c = bytes[i];
    if (c !== delim && c !== SPACE && c !== TAB && c !== QUOTE) return false;
  }
  return true;
}

function isBlankCell(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = bytes[i];
    if (c !== SPACE && c !== TAB && c !== QUOTE) return false;
  }
  return true;
}

const SLOW_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?$/;

/** Exponents, quoted numbers, long mantissas and clock times; NaN for anything else. */
function readSlow(bytes: Uint8Array, from: number, to: number, dot: number, clock: boolean): number {
  let text = cellText(bytes, from, to).trim();
  if (text.startsWith('"')) text = text.slice(1, text.endsWith('"') && text.length > 1 ? -1 : undefined).trim();
  if (dot === 44) text = text.replace(",", ".");
  if (SLOW_NUMBER.test(text)) return Number(text);
  if (clock) {
    const m = CLOCK.exec(text);
    if (m) return Number(m[1]) * 3600 + Number(m[2]) * 60 + (m[3] ? Number(m[3]) : 0);
  }
  return NaN;
}

function cellText(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, Math.min(to, from + 200)));
}

function lineStartOf(bytes: Uint8Array, pos: number): number {
  let i = pos;
  while (i > 0 && bytes[i - 1] !== LF && bytes[i - 1] !== CR) i--;
  return i;
}

function lineText(decoder: TextDecoder, bytes: Uint8Array, from: number, to: number): string {
  return decoder.decode(bytes.subarray(from, Math.min(to, from + 500)));
}
