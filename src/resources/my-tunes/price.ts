/** Prices travel as whole cents (contracts/tune-files); people read and type them in major units. */
export function formatPrice(cents: number | null, currency: string | null): string {
  if (cents === null || currency === null) return "—";
  return new Intl.NumberFormat(undefined, { style: "currency", currency }).format(cents / 100);
}

export const centsOf = (major: number) => Math.round(major * 100);
