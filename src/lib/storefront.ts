/**
 * A car's storefront: which tunes for its firmware are still to buy, and whether the car already
 * holds a licence for every one on offer (then the page says so, rather than that none is sold).
 */
interface OfferedTune {
  id: string;
  dealerUid: string;
}

export function storefrontOf<T extends OfferedTune>(
  tunes: readonly T[],
  licensed: ReadonlySet<string>,
  viewerUid?: string,
) {
  const offers = tunes.filter((tune) => !licensed.has(tune.id) && tune.dealerUid !== viewerUid);
  return { offers, ownsEveryOffer: offers.length === 0 && tunes.some((tune) => licensed.has(tune.id)) };
}
