/**
 * What to show of a refused API call: the data provider turns the error shape's field list into
 * `errors` (path → message) and keeps its `description`, the sentence naming what is wrong.
 */
interface ApiFailure {
  message?: string;
  description?: string;
  errors?: Record<string, string>;
}

/** The message for one field, if the server named that field. */
export function fieldMessage(error: unknown, ...paths: string[]): string | null {
  const errors = (error as ApiFailure | null)?.errors ?? {};
  for (const path of paths) if (errors[path]) return errors[path];
  return null;
}

/** The sentence to show for a refusal: the server's description, else its message. */
export function failureText(error: unknown): string {
  const failure = error as ApiFailure | null;
  return failure?.description ?? failure?.message ?? "The request failed";
}
