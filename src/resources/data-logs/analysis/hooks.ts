import { useDataProvider } from "@refinedev/core";
import { useCallback } from "react";
import { useSearchParams } from "react-router";

/** Fetches a log's columnar form, or a byte range of it, through the data provider. */
export function useColumnsFetcher(url: string) {
  const dataProvider = useDataProvider();
  return useCallback(
    async (range?: { start: number; end: number }): Promise<Blob> => {
      const { data } = await dataProvider().custom!({
        url,
        method: "get",
        headers: range ? { Range: `bytes=${range.start}-${range.end}` } : undefined,
        meta: { responseType: "blob" },
      });
      return data as unknown as Blob;
    },
    [dataProvider, url],
  );
}

/**
 * The pane layout kept in the URL (`?panes=a,b;c`), so a view can be bookmarked or sent;
 * `fallback` reads another parameter when there is no layout yet (a share link's `channels`).
 */
export function usePanesParam(
  fallback?: (params: URLSearchParams) => string | null,
): [string | null, (value: string) => void] {
  const [params, setParams] = useSearchParams();
  const setPanes = useCallback(
    (value: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set("panes", value);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [params.get("panes") ?? fallback?.(params) ?? null, setPanes];
}
