import { useDataProvider } from "@refinedev/core";
import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import type { ComparisonState } from "./use-compared-logs";

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

/** Numbers of a comma list in the URL; a malformed one is left out. */
const numbersOf = (text: string | null) =>
  (text ?? "")
    .split(",")
    .filter(Boolean)
    .map(Number)
    .filter((n) => Number.isFinite(n));

/**
 * The logs compared with this one and how they are aligned, kept in the URL beside the panes
 * (`?compare=id,id&align=pull&at=460.03&pulls=0,2`), so a reload or a bookmark opens the same.
 */
export function useCompareParam(): [ComparisonState, (next: ComparisonState) => void] {
  const [params, setParams] = useSearchParams();
  const [compare, align, at, pulls] = ["compare", "align", "at", "pulls"].map((name) => params.get(name));
  const state = useMemo((): ComparisonState => {
    const start = numbersOf(at)[0];
    return {
      ids: (compare ?? "").split(",").filter(Boolean),
      align: align === "pull" ? "pull" : "time",
      ...(start !== undefined && { at: start }),
      ...(pulls && { pulls: numbersOf(pulls) }),
    };
  }, [compare, align, at, pulls]);
  const setState = useCallback(
    (next: ComparisonState) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          const put = (name: string, value: string | undefined) =>
            value ? updated.set(name, value) : updated.delete(name);
          put("compare", next.ids.join(","));
          put("align", next.align === "pull" ? "pull" : undefined);
          put("at", next.align === "pull" && next.at !== undefined ? String(next.at) : undefined);
          put("pulls", next.align === "pull" && next.pulls?.length ? next.pulls.join(",") : undefined);
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [state, setState];
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
