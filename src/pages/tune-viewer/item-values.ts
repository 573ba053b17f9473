import type { DataProvider } from "@refinedev/core";
import { apiRoutes } from "../../../contracts/api-paths";
import type { TuneItem } from "../../../contracts/tune-definition";
import type { TuneItemValues } from "../../../contracts/tune-files";
import { type ItemValues, readItem } from "../../../domain/tune/maps";

/**
 * One map's values and its base's (GET /tune-files/{id}/maps/{itemId}), as a
 * query the view reads and the tree prefetches when the pointer rests on an
 * entry: by the click the values are usually here.
 */
export function itemValuesQuery(
  dataProvider: () => DataProvider,
  tune: { id: string; currentVersion: number },
  itemId: string,
  against: string | null,
) {
  return {
    queryKey: ["tune-item-values", tune.id, tune.currentVersion, itemId, against],
    queryFn: async () => {
      const { data } = await dataProvider().custom!({
        url: apiRoutes.tuneFiles.mapItem(tune.id, encodeURIComponent(itemId)),
        method: "get",
        query: against ? { against } : undefined,
      });
      return data as unknown as TuneItemValues;
    },
    staleTime: 60_000,
  };
}

/**
 * A map's values read in the browser from the tune's image, with the same
 * reading as the server's and no request: the image is here only for callers
 * the server let download it. Null when the image cannot be read as the
 * definition says, so the request brings the server's answer or its error.
 */
export function localItemValues(image: Uint8Array, item: TuneItem): ItemValues | null {
  try {
    return readItem(image, item);
  } catch {
    return null;
  }
}
