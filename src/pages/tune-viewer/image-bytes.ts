import { type DataProvider, useDataProvider } from "@refinedev/core";
import { useQuery } from "@tanstack/react-query";
import { apiRoutes } from "../../../contracts/api-paths";

/** An image's bytes from a download endpoint (the server checks the caller may download it). */
export async function fetchImage(dataProvider: () => DataProvider, url: string): Promise<Uint8Array> {
  const { data } = await dataProvider().custom!({ url, method: "get", meta: { responseType: "blob" } });
  return new Uint8Array(await (data as unknown as Blob).arrayBuffer());
}

/**
 * A tune's image (its current version), downloaded once per tune and version
 * and shared by the hex view, the hex diff and the editor (which edits a copy).
 */
export function tuneImageQuery(dataProvider: () => DataProvider, tuneId: string, version?: number) {
  return {
    queryKey: ["tune-image", tuneId, version],
    queryFn: () => fetchImage(dataProvider, apiRoutes.tuneFiles.download(tuneId)),
    staleTime: Infinity,
    // 8 MiB each: keep only what is on screen, not every tune looked at in the session.
    gcTime: 30_000,
  };
}

export function useTuneImage(tuneId: string, version?: number, enabled = true) {
  const dataProvider = useDataProvider();
  return useQuery({ ...tuneImageQuery(dataProvider, tuneId, version), enabled });
}
