/**
 * One mechanism for "an id that names nothing gives the 404 page", on every `:id` route:
 *
 * - every route's page is wrapped in <RecordNotFoundBoundary> (src/shell/routes.tsx);
 * - a page or drawer that loads the record its address names calls `useRecordMissing(query.error)`:
 *   when the API answered 404 the boundary shows 404 "Page Not Found" in place of the whole page
 *   (a drawer's list included), until the address names something else.
 *
 * A malformed id never gets this far: the route's `validate` answers the same page at once.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { useParams } from "react-router";
import { isRecordMissing, PAGE_NOT_FOUND } from "../lib/record-missing";
import { DeferredErrorPage } from "./deferred-error-page";

const ReportMissing = createContext<(() => void) | null>(null);

/** The 404 page of an address that names nothing. */
export function PageNotFound() {
  return <DeferredErrorPage error={PAGE_NOT_FOUND} />;
}

/** Around a route's page: shows <PageNotFound/> once a record its address names was reported missing. */
export function RecordNotFoundBoundary({ children }: { children: ReactNode }) {
  const params = useParams();
  const address = JSON.stringify(params);
  const current = useRef(address);
  current.current = address;
  // The address (its params) the missing record was named by: another address shows the page again.
  const [missingAt, setMissingAt] = useState<string | null>(null);
  const report = useCallback(() => setMissingAt(current.current), []);
  if (missingAt === address) return <PageNotFound />;
  return <ReportMissing.Provider value={report}>{children}</ReportMissing.Provider>;
}

/**
 * For the fetch of the record the page's address names: true when the API has no such record, and
 * then the page gives way to 404 "Page Not Found" (render nothing meanwhile). `named` false: the
 * record is not the one the address names (a component shown elsewhere too), so it reports nothing.
 */
export function useRecordMissing(error: unknown, named = true): boolean {
  const report = useContext(ReportMissing);
  const missing = named && isRecordMissing(error);
  useEffect(() => {
    if (missing) report?.();
  }, [missing, report]);
  return missing;
}
