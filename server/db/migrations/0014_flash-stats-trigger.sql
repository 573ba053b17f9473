-- Keeps the flashing analytics' rollups exact from flash_logs (server/db/schema/flash-logs.ts):
-- every ended session counts once under its day and dimensions in flash_stats_daily (one column
-- per result; a successful one also in the duration histogram, whose upper bucket edges are
-- DURATION_BUCKET_EDGES_MS in domain/flashing/duration-histogram.ts), and a failing one also in
-- flash_failures_daily under its failed step and negative response. A running session does not
-- count; when it ends (an UPDATE of result) it moves in; a recovered failure moves from "failed"
-- to "recovered"; a deleted vehicle's sessions move out.
CREATE FUNCTION flash_stats_apply(r flash_logs, delta integer) RETURNS void AS $$
DECLARE
  b integer;
  d date := (r.flashed_at AT TIME ZONE 'UTC')::date;
  fw text := coalesce(r.firmware_id, '');
  fam text := coalesce(r.ecu_family, '');
  ad text := coalesce(r.adapter_kind, '');
  app text := coalesce(r.app_version, '');
BEGIN
  IF r.result = 'running' THEN
    RETURN;
  END IF;
  INSERT INTO flash_stats_daily (day, firmware_id, ecu_family, adapter_kind, app_version, kind, duration_histogram)
  VALUES (d, fw, fam, ad, app, r.kind, array_fill(0, ARRAY[24]))
  ON CONFLICT DO NOTHING;
  b := CASE WHEN r.result = 'success' AND r.duration_ms IS NOT NULL
            THEN width_bucket(r.duration_ms, ARRAY[10000,12500,15625,19531,24414,30518,38147,47684,59605,74506,93132,116415,145519,181899,227374,284217,355271,444089,555112,693889,867362,1084202,1355253]::integer[]) + 1 END;
  UPDATE flash_stats_daily SET
    success = success + CASE WHEN r.result = 'success' THEN delta ELSE 0 END,
    failed = failed + CASE WHEN r.result = 'failed' THEN delta ELSE 0 END,
    recovered = recovered + CASE WHEN r.result = 'recovered' THEN delta ELSE 0 END,
    abandoned = abandoned + CASE WHEN r.result = 'abandoned' THEN delta ELSE 0 END,
    aborted = aborted + CASE WHEN r.result = 'aborted' THEN delta ELSE 0 END,
    duration_histogram[coalesce(b, 1)] = duration_histogram[coalesce(b, 1)] + CASE WHEN b IS NULL THEN 0 ELSE delta END
  WHERE day = d AND firmware_id = fw AND ecu_family = fam AND adapter_kind = ad AND app_version = app AND kind = r.kind;
  IF r.result IN ('failed', 'recovered', 'abandoned') THEN
    INSERT INTO flash_failures_daily (day, firmware_id, ecu_family, adapter_kind, app_version, kind, result, failed_step, failed_nrc)
    VALUES (d, fw, fam, ad, app, r.kind, r.result, coalesce(r.failed_step, ''), coalesce(r.failed_nrc, -1))
    ON CONFLICT DO NOTHING;
    UPDATE flash_failures_daily SET sessions = sessions + delta
    WHERE day = d AND firmware_id = fw AND ecu_family = fam AND adapter_kind = ad AND app_version = app AND kind = r.kind
      AND result = r.result AND failed_step = coalesce(r.failed_step, '') AND failed_nrc = coalesce(r.failed_nrc, -1);
  END IF;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE FUNCTION flash_stats_trigger() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' OR TG_OP = 'DELETE' THEN
    PERFORM flash_stats_apply(OLD, -1);
  END IF;
  IF TG_OP = 'UPDATE' OR TG_OP = 'INSERT' THEN
    PERFORM flash_stats_apply(NEW, 1);
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER flash_logs_stats
AFTER INSERT OR DELETE OR UPDATE OF result, duration_ms, flashed_at, firmware_id, ecu_family, adapter_kind, app_version, kind, failed_step, failed_nrc
ON flash_logs FOR EACH ROW EXECUTE FUNCTION flash_stats_trigger();
--> statement-breakpoint
SELECT flash_stats_apply(f, 1) FROM flash_logs f;
