/** The one error the compiler throws: a message and the span of source text it points at. */

export class ExpressionError extends Error {
  readonly position: number;
  readonly length: number;

  constructor(message: string, position: number, length: number) {
    super(message);
    this.name = "ExpressionError";
    this.position = position;
    this.length = Math.max(length, 1);
  }

  toJSON(): ExpressionErrorInfo {
    return { message: this.message, position: this.position, length: this.length };
  }
}

export interface ExpressionErrorInfo {
  message: string;
  /** 0-based character index of the offending text. */
  position: number;
  length: number;
}
