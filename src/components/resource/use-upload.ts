/**
 * One upload's progress, for a <Progress> bar, whatever sends the file: a multipart create through
 * the data provider or a FormData posted with useCustomMutation. Call `start()` as the upload
 * begins, pass `meta: { onUploadProgress }` with the request, and `finish()` once it is settled
 * (`finish(true)` leaves the bar full). `percent` is null while no upload is under way.
 */
import { useCallback, useState } from "react";

export function useUpload() {
  const [percent, setPercent] = useState<number | null>(null);
  const start = useCallback(() => setPercent(0), []);
  const onUploadProgress = useCallback((fraction: number) => setPercent(Math.round(fraction * 100)), []);
  const finish = useCallback((complete = false) => setPercent(complete ? 100 : null), []);
  return { percent, start, onUploadProgress, finish };
}
