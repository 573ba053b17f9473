/**
 * An address as an admin types it: hex with `0x` (`0x80000000`, as tuners write them) or
 * decimal digits. Answers the number, or the message to show under the field.
 */
import { addressSchema } from "../../contracts/tune-definition";

export function parseAddressText(text: string, max = 0xffff_ffff): { value: number } | { error: string } {
  const trimmed = text.trim();
  const parsed = addressSchema.safeParse(/^\d+$/.test(trimmed) ? Number(trimmed) : trimmed);
  if (!parsed.success) return { error: "Write the address as hex (0x80000000) or decimal digits" };
  if (parsed.data > max) return { error: `At most 0x${max.toString(16).toUpperCase()}` };
  return { value: parsed.data };
}
