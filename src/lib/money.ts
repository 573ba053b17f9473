/** Money travels as whole minor units (cents) with its currency (contracts/payments); people read it in major units. */
export function formatMoney(cents: number | null, currency: string | null): string {
  if (cents === null || currency === null) return "—";
  return new Intl.NumberFormat(undefined, { style: "currency", currency }).format(cents / 100);
}

/** Cents from an amount typed in major units. */
export const centsOf = (major: number) => Math.round(major * 100);
