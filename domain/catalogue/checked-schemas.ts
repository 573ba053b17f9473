/**
 * The catalogue's body schemas with their expressions checked, as the server validates them and
 * the forms resolve with: a firmware record whose definition has a scaling that does not compile,
 * and a PID descriptor whose expression does not (over PID_EXPRESSION_VARIABLES), are refused.
 * Each is the contract's schema with the one field swapped for its checked version, in its place,
 * so every other check, and the order and paths of the issues, stay the contract's.
 */
import {
  firmwareSupportInputSchema,
  PID_EXPRESSION_VARIABLES,
  pidDescriptorInputSchema,
} from "../../contracts/firmware-support";
import { validateExpression } from "../expression";
import { checkedTuneDefinitionSchema } from "../tune/checked-schemas";

export const checkedFirmwareSupportInputSchema = firmwareSupportInputSchema.safeExtend({
  definition: checkedTuneDefinitionSchema.nullable().default(null),
});

/** The contract's expression field (its length limits and default) with a check that it compiles. */
const pidExpressionSchema = pidDescriptorInputSchema.shape.expression
  .unwrap()
  .superRefine((src, ctx) => {
    const result = validateExpression(src, PID_EXPRESSION_VARIABLES);
    if (!result.ok)
      ctx.addIssue({
        code: "custom",
        message: `${result.error.message} (at ${result.error.position + 1})`,
        params: result.error,
      });
  })
  .default(pidDescriptorInputSchema.shape.expression.def.defaultValue);

export const checkedPidDescriptorInputSchema = pidDescriptorInputSchema.safeExtend({ expression: pidExpressionSchema });
