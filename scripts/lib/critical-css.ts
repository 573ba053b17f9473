/**
 * The part of a stylesheet a page uses: the rules whose selectors name only classes present in the
 * page's markup. antd writes the styles of every variant of each component it renders (all button
 * types, every menu mode); a page snapshot needs a few of them (scripts/lib/prerender.ts).
 *
 * Made for the flat CSS antd's style engine writes: rules, `@media`/`@supports`/`@layer` blocks
 * (pruned inside), other at-rules (`@keyframes`, `@font-face`) kept whole. A selector without
 * classes (`html`, `a`, `[hidden]`) is kept.
 */

/** Every class named in the markup's class attributes. */
export function classesInMarkup(html: string): Set<string> {
  const classes = new Set<string>();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g))
    for (const name of match[1].split(/\s+/)) if (name) classes.add(name);
  return classes;
}

function selectorApplies(selector: string, classes: Set<string>): boolean {
  for (const match of selector.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) if (!classes.has(match[1])) return false;
  return true;
}

/** The index just after the block that opens at `open` (the index of its `{`), strings and comments skipped. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const char = css[i];
    if (char === '"' || char === "'") {
      i = css.indexOf(char, i + 1);
      if (i < 0) break;
    } else if (char === "/" && css[i + 1] === "*") {
      i = css.indexOf("*/", i + 2) + 1;
      if (i <= 0) break;
    } else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return i + 1;
  }
  throw new Error(`Unbalanced braces in CSS after "${css.slice(open, open + 60)}"`);
}

export function criticalCss(css: string, classes: Set<string>): string {
  let out = "";
  let at = 0;
  while (at < css.length) {
    const open = css.indexOf("{", at);
    if (open < 0) break;
    const prelude = css.slice(at, open).trim();
    const end = blockEnd(css, open);
    const body = css.slice(open + 1, end - 1);
    if (prelude.startsWith("@")) {
      if (/^@(media|supports|layer|container)\b/.test(prelude)) {
        const inner = criticalCss(body, classes);
        if (inner) out += `${prelude}{${inner}}`;
      } else out += `${prelude}{${body}}`;
    } else {
      const kept = prelude.split(",").filter((selector) => selectorApplies(selector, classes));
      if (kept.length > 0) out += `${kept.join(",")}{${body}}`;
    }
    at = end;
  }
  return out;
}
