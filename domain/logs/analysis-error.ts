/** Bad input to the log analysis (pulls, filters, X–Y): `field` names the argument or threshold at fault. */
export class LogAnalysisError extends Error {
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.name = "LogAnalysisError";
    this.field = field;
  }
}

/** Throws naming `field` unless `values` has one entry per row. */
export function checkLength(field: string, values: ArrayLike<number>, rows: number): void {
  if (values.length !== rows)
    throw new LogAnalysisError(field, `${field} has ${values.length} values, expected ${rows} (one per row)`);
}
