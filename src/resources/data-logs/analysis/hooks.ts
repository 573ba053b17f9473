import { useDataProvider } from "@refinedev/core";
import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";

type DataProvider = ReturnType<ReturnType<typeof useDataProvider>>;

/** A fetcher of the columnar form at `url`, or of a byte range of it, through the data provider. */
const columnsAt =
  (dataProvider: () => DataProvider, url: string) =>
  async (range?: { start: number; end: number }): Promise<Blob> => {
    const { data } = await dataProvider().custom!({
      url,
      method: "get",
      headers: range ? { Range: `bytes=${range.start}-${range.end}` } : undefined,
      meta: { responseType: "blob" },
    });
    return data as unknown as Blob;
  };

/** Fetches a log's columnar form, or a byte range of it, through the data provider. */
export function useColumnsFetcher(url: string) {
  const dataProvider = useDataProvider();
  return useCallback(
    (range?: { start: number; end: number }) => columnsAt(dataProvider, url)(range),
    [dataProvider, url],
  );
}

/** Fetchers of other logs' columnar forms, by the URL of each (`urlOf(id)`). */
export function useColumnsFetchers(urlOf: (id: string) => string) {
  const dataProvider = useDataProvider();
  return useCallback((id: string) => columnsAt(dataProvider, urlOf(id)), [dataProvider, urlOf]);
}

/**
 * The logs compared with this one and how they are aligned, kept in the URL beside the panes
 * (`?compare=id,id&align=pull`), so a comparison can be bookmarked or sent like a view.
 */
export function useCompareParam(): [
  { ids: string[]; align: "time" | "pull" },
  (next: { ids: string[]; align: "time" | "pull" }) => void,
] {
  const [params, setParams] = useSearchParams();
  const compare = params.get("compare") ?? "";
  const align = params.get("align") === "pull" ? "pull" : "time";
  const state = useMemo(() => ({ ids: compare.split(",").filter(Boolean), align }) as const, [compare, align]);
  const setState = useCallback(
    (next: { ids: string[]; align: "time" | "pull" }) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next.ids.length) updated.set("compare", next.ids.join(","));
          else updated.delete("compare");
          if (next.align === "pull") updated.set("align", "pull");
          else updated.delete("align");
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [state as { ids: string[]; align: "time" | "pull" }, setState];
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
