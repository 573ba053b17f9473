/**
 * An antd stylesheet cut into parts, each a file of its own. A browser parses a stylesheet in one
 * task when its last byte arrives: the dashboard's sheet (antd's styles) was one long task on a
 * 4× slower CPU, blocking taps while the portal started. Parts of at most
 * STYLESHEET_PART_BYTES parse in tasks of their own. Linked in order, they cascade as the whole
 * would: the cuts fall only between top-level rules, never inside a block, a string or a comment.
 */
export const STYLESHEET_PART_BYTES = 150_000;

/** The offsets just after each top-level rule of `css` (its closing brace, or `;` for a statement such as `@import`). */
function ruleEnds(css: string): number[] {
  const ends: number[] = [];
  let depth = 0;
  for (let at = 0; at < css.length; at++) {
    const char = css[at];
    if (char === "/" && css[at + 1] === "*") {
      const close = css.indexOf("*/", at + 2);
      at = close < 0 ? css.length : close + 1;
    } else if (char === '"' || char === "'") {
      // To the matching quote, skipping escaped characters.
      for (at++; at < css.length && css[at] !== char; at++) if (css[at] === "\\") at++;
    } else if (char === "{") depth++;
    else if (char === "}") {
      depth = Math.max(0, depth - 1);
      if (depth === 0) ends.push(at + 1);
    } else if (char === ";" && depth === 0) ends.push(at + 1);
  }
  return ends;
}

/**
 * `css` in order, in parts of at most `maxBytes` (UTF-8) each, cut between top-level rules; a
 * single rule larger than that is a part of its own. Joined, the parts are `css` again.
 */
export function splitStylesheet(css: string, maxBytes = STYLESHEET_PART_BYTES): string[] {
  const bytes = (text: string) => Buffer.byteLength(text, "utf8");
  if (bytes(css) <= maxBytes) return [css];
  const parts: string[] = [];
  let start = 0;
  let lastEnd = 0;
  // Bytes from `start` to `lastEnd`: the part being filled.
  let size = 0;
  for (const end of [...ruleEnds(css), css.length]) {
    if (end <= lastEnd) continue;
    const rule = bytes(css.slice(lastEnd, end));
    if (size > 0 && size + rule > maxBytes) {
      parts.push(css.slice(start, lastEnd));
      start = lastEnd;
      size = 0;
    }
    size += rule;
    lastEnd = end;
  }
  if (start < css.length) parts.push(css.slice(start));
  return parts;
}
