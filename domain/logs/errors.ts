export type LogParseErrorCode =
  | "empty"
  | "binary"
  | "no-header"
  | "no-data"
  | "no-time"
  | "ragged"
  | "too-many-columns"
  | "bad-format"
  | "unsupported"
  | "needs-companion";

/** A file the parser refuses; `message` is meant for the person who uploaded it. */
export class LogParseError extends Error {
  readonly code: LogParseErrorCode;
  /** 1-based line the problem was found on, when there is one. */
  readonly line?: number;

  constructor(code: LogParseErrorCode, message: string, line?: number) {
    super(message);
    this.name = "LogParseError";
    this.code = code;
    this.line = line;
  }
}
