/** Multipart form fields parsed with the contracts, refused with a 400 naming the field. */
import { z } from "zod";
import { fieldIssues, RequestValidationError } from "../errors";

/** Multipart fields are strings: parse them with the contract, and booleans from "true"/"false". */
export function fieldsOf<S extends z.ZodType>(
  schema: S,
  fields: Record<string, string>,
  flags: string[] = [],
): { input: z.output<S>; flags: Record<string, boolean> } {
  const values: Record<string, string> = { ...fields };
  const flagValues: Record<string, boolean> = {};
  for (const flag of flags) {
    const raw = values[flag];
    delete values[flag];
    if (raw !== undefined && raw !== "true" && raw !== "false") {
      throw new RequestValidationError("body", [{ path: flag, message: `${flag} must be true or false` }]);
    }
    flagValues[flag] = raw === "true";
  }
  const result = schema.safeParse(values);
  if (!result.success) throw new RequestValidationError("body", fieldIssues(result.error));
  return { input: result.data, flags: flagValues };
}

/** `patchIds` as a multipart field: a JSON array (the data provider's encoding) or comma separated. */
export function patchIdsField(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === "") return [];
  let ids: unknown;
  try {
    ids = JSON.parse(raw);
  } catch {
    ids = raw
      .split(",")
      .map((id) => id.trim())
      .filter(Boolean);
  }
  const result = z.array(z.uuid("patchIds must be ids")).max(100).safeParse(ids);
  if (!result.success)
    throw new RequestValidationError(
      "body",
      fieldIssues(result.error).map((issue) => ({ ...issue, path: "patchIds" })),
    );
  return result.data;
}

/**
 * Form fields parsed with a JSON body's contract, so a refusal names the same paths: the fields
 * named in `json` hold JSON (numbers, booleans and arrays, as the data provider encodes a value
 * that is not a string), the others are strings. A field that is not JSON is left a string, for
 * the contract to refuse with its own message.
 */
export function jsonFieldsOf<S extends z.ZodType>(
  schema: S,
  fields: Record<string, string>,
  json: readonly string[],
): z.output<S> {
  const values: Record<string, unknown> = { ...fields };
  for (const name of json) {
    const raw = fields[name];
    if (raw === undefined) continue;
    try {
      values[name] = JSON.parse(raw);
    } catch {
      values[name] = raw;
    }
  }
  const result = schema.safeParse(values);
  if (!result.success) throw new RequestValidationError("body", fieldIssues(result.error));
  return result.data;
}
