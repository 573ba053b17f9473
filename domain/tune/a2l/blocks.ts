/**
 * The A2L text (ASAM MCD-2 MC) as a tree of `/begin NAME … /end NAME` blocks:
 * words (identifiers, keywords and numbers, decimal or `0x` hex), strings in
 * double quotes (`\"` and `""` escape a quote, and they may span lines),
 * comments `/* … *\/` and `//` to the end of the line. `/include "file"`
 * splices the named file in where it stands, from the files uploaded with the
 * A2L; one that is missing is reported by name and the rest is read. The
 * `A2ML` block describes the grammar of interface data (IF_DATA) in a language
 * of its own: it is passed over whole.
 *
 * A block left open, an `/end` that closes another block, an unterminated
 * string or comment: the file is refused, naming the line.
 */
import { TuneError } from "../errors";

export interface Token {
  text: string;
  /** A quoted string (its quotes removed, escapes resolved) rather than a word. */
  quoted: boolean;
  line: number;
  /** The file it was read from: undefined for the A2L itself, else the include's name. */
  file?: string;
}

export interface Block {
  name: string;
  line: number;
  file?: string;
  /** Words, strings and nested blocks, in the order written. */
  content: Array<Token | Block>;
}

export interface MissingInclude {
  name: string;
  line: number;
  file?: string;
}

export const isBlock = (part: Token | Block): part is Block => "content" in part;

const refuse = (message: string): never => {
  throw new TuneError("definition_invalid", message, { problems: [message] });
};

const where = (line: number, file?: string) => (file ? `${file} line ${line}` : `line ${line}`);

/** Words and strings of one text, in order. */
export function tokenize(text: string, file?: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === "\n") {
      line++;
      i++;
    } else if (c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v") {
      i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) refuse(`${where(line, file)}: a comment /* is not closed before the file ends`);
      for (let j = i; j < end; j++) if (text[j] === "\n") line++;
      i = end + 2;
    } else if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? n : end;
    } else if (c === '"') {
      const start = line;
      let value = "";
      let j = i + 1;
      for (;;) {
        if (j >= n) refuse(`${where(start, file)}: a string is not closed before the file ends`);
        const d = text[j];
        if (d === "\\" && j + 1 < n) {
          const e = text[j + 1];
          value += e === "n" ? "\n" : e === "t" ? "\t" : e;
          j += 2;
        } else if (d === '"' && text[j + 1] === '"') {
          value += '"';
          j += 2;
        } else if (d === '"') {
          j++;
          break;
        } else {
          if (d === "\n") line++;
          value += d;
          j++;
        }
      }
      tokens.push({ text: value, quoted: true, line: start, ...(file && { file }) });
      i = j;
    } else {
      let j = i;
      while (j < n && !/\s/.test(text[j]) && text[j] !== '"' && !(text[j] === "/" && text[j + 1] === "*")) j++;
      tokens.push({ text: text.slice(i, j), quoted: false, line, ...(file && { file }) });
      i = j;
    }
  }
  return tokens;
}

/** An include's text by the name written: exactly, else by its base name in any case (paths differ between machines). */
function includeText(name: string, includes: Readonly<Record<string, string>>): [string, string] | undefined {
  if (Object.hasOwn(includes, name)) return [name, includes[name]];
  const base = (s: string) => s.split(/[\\/]/).pop()!.toLowerCase();
  const wanted = base(name);
  const found = Object.keys(includes).find((key) => base(key) === wanted);
  return found === undefined ? undefined : [found, includes[found]];
}

/** Tokens with every `/include` replaced by the included file's tokens. */
function expandIncludes(
  tokens: Token[],
  includes: Readonly<Record<string, string>>,
  missing: MissingInclude[],
  open: string[],
): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.quoted || token.text.toLowerCase() !== "/include") {
      out.push(token);
      continue;
    }
    const target = tokens[i + 1];
    if (!target) refuse(`${where(token.line, token.file)}: /include names no file`);
    i++;
    const found = includeText(target.text, includes);
    if (!found) {
      missing.push({ name: target.text, line: token.line, ...(token.file && { file: token.file }) });
      continue;
    }
    const [name, text] = found;
    if (open.includes(name)) refuse(`${where(token.line, token.file)}: ${name} includes itself`);
    out.push(...expandIncludes(tokenize(text, name), includes, missing, [...open, name]));
  }
  return out;
}

export interface A2lTree {
  /** The words and blocks at the top of the file (ASAP2_VERSION, PROJECT…). */
  top: Array<Token | Block>;
  missingIncludes: MissingInclude[];
}

/** The whole text as blocks, includes spliced in. */
export function readBlocks(text: string, includes: Readonly<Record<string, string>> = {}): A2lTree {
  const missingIncludes: MissingInclude[] = [];
  const tokens = expandIncludes(tokenize(text), includes, missingIncludes, []);
  const root: Block = { name: "", line: 0, content: [] };
  const stack: Block[] = [root];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const keyword = token.quoted ? "" : token.text.toLowerCase();
    if (keyword === "/begin") {
      const name = tokens[i + 1];
      if (!name || name.quoted) refuse(`${where(token.line, token.file)}: /begin is not followed by a block name`);
      i++;
      const block: Block = { name: name.text, line: token.line, ...(token.file && { file: token.file }), content: [] };
      stack[stack.length - 1].content.push(block);
      if (name.text === "A2ML") {
        // The grammar of IF_DATA is written in A2ML, not in A2L: its words are not ours to read.
        let j = i + 1;
        while (j < tokens.length && !(tokens[j].text === "/end" && tokens[j + 1]?.text === "A2ML")) j++;
        if (j >= tokens.length) refuse(`${where(token.line, token.file)}: /begin A2ML is not closed by /end A2ML`);
        i = j + 1;
        continue;
      }
      stack.push(block);
    } else if (keyword === "/end") {
      const name = tokens[i + 1];
      const open = stack[stack.length - 1];
      if (stack.length === 1)
        refuse(`${where(token.line, token.file)}: /end ${name?.text ?? ""} closes no open block`.trimEnd());
      if (!name || name.text !== open.name) {
        refuse(
          `${where(token.line, token.file)}: /end ${name?.text ?? "(nothing)"} where /begin ${open.name} of ${where(open.line, open.file)} is still open`,
        );
      }
      i++;
      stack.pop();
    } else {
      stack[stack.length - 1].content.push(token);
    }
  }
  if (stack.length > 1) {
    const open = stack[stack.length - 1];
    refuse(
      `${where(open.line, open.file)}: /begin ${open.name} is not closed by /end ${open.name} before the file ends`,
    );
  }
  return { top: root.content, missingIncludes };
}

/** Whether a text is an A2L: `ASAP2_VERSION`, `A2ML_VERSION` or `/begin PROJECT` first, after comments. */
export function isA2l(text: string): boolean {
  const head = text
    .slice(0, 64 * 1024)
    .replace(/^\uFEFF/, "")
    .replace(/^(?:\s+|\/\*[\s\S]*?\*\/|\/\/[^\n]*)*/, "");
  return /^(?:ASAP2_VERSION|A2ML_VERSION)\b/.test(head) || /^\/begin\s+PROJECT\b/i.test(head);
}

// ---------------------------------------------------------------------------
// Reading a block's parameters

/** The direct words and strings of a block, nested blocks left out. */
export function tokensOf(block: Block): Token[] {
  return block.content.filter((part): part is Token => !isBlock(part));
}

export function blocksNamed(block: Block, name: string): Block[] {
  return block.content.filter((part): part is Block => isBlock(part) && part.name === name);
}

/** A number as A2L writes it: decimal, with a fraction or an exponent, or `0x` hex; undefined when it is not one. */
export function numberOf(token: Token | undefined): number | undefined {
  if (!token || token.quoted) return undefined;
  const t = token.text;
  if (/^[-+]?0x[0-9a-f]+$/i.test(t)) return (t.startsWith("-") ? -1 : 1) * parseInt(t.replace(/^[-+]?0x/i, ""), 16);
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return Number(t);
  return undefined;
}

/**
 * The words after `keyword` among a block's own words past its fixed
 * parameters (`from`): `count` of them, or undefined when the keyword is not
 * there.
 */
export function keyword(block: Block, name: string, count: number, from: number): Token[] | undefined {
  const tokens = tokensOf(block);
  for (let i = from; i < tokens.length; i++) {
    if (!tokens[i].quoted && tokens[i].text === name) return tokens.slice(i + 1, i + 1 + count);
  }
  return undefined;
}
