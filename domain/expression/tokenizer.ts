/** Source text to tokens: numbers, identifiers and operators, each with its position. */
import { ExpressionError } from "./errors";

export type Token =
  | { kind: "number"; text: string; value: number; position: number }
  | { kind: "identifier"; text: string; position: number }
  | { kind: "operator"; text: string; position: number }
  | { kind: "end"; text: ""; position: number };

const OPERATORS = [
  "&&",
  "||",
  "<=",
  ">=",
  "==",
  "!=",
  "!",
  "+",
  "-",
  "*",
  "/",
  "%",
  "^",
  "(",
  ")",
  ",",
  "?",
  ":",
  "<",
  ">",
];
const NUMBER = /(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/y;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;
// A number glued to letters (`2x`, `0x`, `1e`) is a typo, not a product.
const NUMBER_TAIL = /[A-Za-z0-9_.]+/y;

export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") {
      i++;
      continue;
    }
    if ((ch >= "0" && ch <= "9") || (ch === "." && /\d/.test(src[i + 1] ?? ""))) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(src);
      let text = match ? match[0] : ch;
      NUMBER_TAIL.lastIndex = i + text.length;
      const tail = NUMBER_TAIL.exec(src);
      if (tail) {
        text += tail[0];
        throw new ExpressionError(`Invalid number '${text}' at ${i}`, i, text.length);
      }
      const value = text.startsWith("0x") || text.startsWith("0X") ? parseInt(text.slice(2), 16) : Number(text);
      tokens.push({ kind: "number", text, value, position: i });
      i += text.length;
      continue;
    }
    IDENTIFIER.lastIndex = i;
    const identifier = IDENTIFIER.exec(src);
    if (identifier) {
      tokens.push({ kind: "identifier", text: identifier[0], position: i });
      i += identifier[0].length;
      continue;
    }
    const operator = OPERATORS.find((op) => src.startsWith(op, i));
    if (operator) {
      tokens.push({ kind: "operator", text: operator, position: i });
      i += operator.length;
      continue;
    }
    throw new ExpressionError(`Unexpected character '${ch}' at ${i}`, i, 1);
  }
  tokens.push({ kind: "end", text: "", position: src.length });
  return tokens;
}
