/**
 * The contract's definition schemas with every scaling checked: an expression of `X` that does
 * not compile is refused at parse time, so a bad one never reaches the viewer. The check sits on
 * the scaling field itself (the schemas are built again over it), so its issue has the field's
 * path and comes in the same order and alongside the same other issues as any field's would.
 *
 * Whatever validates a definition written by someone (a firmware record's PUT and form, the
 * definition imports, the answers that carry a definition) uses these, not the contract's shapes.
 */
import { z } from "zod";
import { itemSchemasOver, type ScalingSchema, tuneDefinitionSchemaOver } from "../../contracts/tune-definition";
import { localInspectionSchema, tuneMapsSchema, xdfImportedSchema, xdfStoredSchema } from "../../contracts/tune-files";
import { validateExpression } from "../expression";

const scalingExpressionSchema: ScalingSchema = z.string().superRefine((src, ctx) => {
  const result = validateExpression(src, ["X"]);
  if (!result.ok)
    ctx.addIssue({ code: "custom", message: `expression ${JSON.stringify(src)}: ${result.error.message}` });
});

export const checkedTuneItemSchema = itemSchemasOver(scalingExpressionSchema).tuneItemSchema;

export const checkedTuneDefinitionSchema = tuneDefinitionSchemaOver(checkedTuneItemSchema);

// The answers that carry a definition, checked outside production like every answer.
export const checkedLocalInspectionSchema = localInspectionSchema.extend({
  definition: checkedTuneDefinitionSchema.nullable().optional(),
});
export const checkedXdfImportedSchema = xdfImportedSchema.extend({ definition: checkedTuneDefinitionSchema });
export const checkedXdfStoredSchema = xdfStoredSchema.extend({ definition: checkedTuneDefinitionSchema });
export const checkedTuneMapsSchema = tuneMapsSchema.extend({ definition: checkedTuneDefinitionSchema.nullable() });
