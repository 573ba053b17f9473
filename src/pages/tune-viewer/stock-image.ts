import { useDataProvider } from "@refinedev/core";
import { useQuery } from "@tanstack/react-query";
import { apiRoutes } from "../../../contracts/api-paths";
import type { StockDifferences } from "../../../contracts/tune-files";
import { useTuneImage } from "./image-bytes";

/** The stock image as the tune's bytes with the stock bytes laid over where they differ. */
export function stockFromDifferences(tune: Uint8Array, differences: StockDifferences): Uint8Array {
  if (differences.size !== tune.length)
    throw new Error(`The stock file is ${differences.size} bytes and the tune ${tune.length}`);
  const stock = Uint8Array.from(tune);
  for (const region of differences.regions) {
    const bytes = Uint8Array.from(atob(region.bytes), (c) => c.charCodeAt(0));
    stock.set(bytes, region.start);
  }
  return stock;
}

/**
 * A tune's image and its firmware's stock image, for a hex diff against stock.
 * The server sends only the stock bytes the tune changes (the stock file is
 * for admins), so the stock side is rebuilt from the tune's bytes.
 */
export function useTuneAndStockImages(tuneId: string, version: number) {
  const dataProvider = useDataProvider();
  const tune = useTuneImage(tuneId, version);
  const differences = useQuery({
    queryKey: ["tune-stock-differences", tuneId, version],
    queryFn: async () =>
      (
        await dataProvider().custom!<StockDifferences>({
          url: apiRoutes.tuneFiles.stockDifferences(tuneId),
          method: "get",
          query: { version },
        })
      ).data,
    staleTime: Infinity,
  });
  const error = tune.error ?? differences.error;
  const images =
    tune.data && differences.data
      ? { tune: tune.data, stock: stockFromDifferences(tune.data, differences.data) }
      : null;
  return { images, error };
}
