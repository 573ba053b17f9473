-- Keeps flash_stats_daily (the flashing analytics' rollup) exact from flash_logs: every ended
-- session counts once under its day and dimensions, with its duration in the histogram whose
-- upper bucket edges are DURATION_BUCKET_EDGES_MS (domain/flashing/duration-histogram.ts). A running
-- session does not count; when it ends (an UPDATE of result) it moves in; a recovered failure
-- moves from "failed" to "recovered"; a deleted vehicle's sessions move out.
CREATE FUNCTION flash_stats_apply(r flash_logs, delta integer) RETURNS void AS $$
DECLARE
  b integer;
  d date := (r.flashed_at AT TIME ZONE 'UTC')::date;
BEGIN
  IF r.result = 'running' THEN
    RETURN;
  END IF;
  INSERT INTO flash_stats_daily (day, firmware_id, ecu_family, adapter_kind, app_version, kind, result, failed_step, failed_nrc, sessions, duration_histogram)
  VALUES (d, coalesce(r.firmware_id, ''), coalesce(r.ecu_family, ''), coalesce(r.adapter_kind, ''), coalesce(r.app_version, ''), r.kind, r.result,
          coalesce(r.failed_step, ''), coalesce(r.failed_nrc, -1), 0, array_fill(0, ARRAY[24]))
  ON CONFLICT DO NOTHING;
  IF r.duration_ms IS NULL THEN
    UPDATE flash_stats_daily SET sessions = sessions + delta
    WHERE day = d AND firmware_id = coalesce(r.firmware_id, '') AND ecu_family = coalesce(r.ecu_family, '') AND adapter_kind = coalesce(r.adapter_kind, '')
      AND app_version = coalesce(r.app_version, '') AND kind = r.kind AND result = r.result AND failed_step = coalesce(r.failed_step, '') AND failed_nrc = coalesce(r.failed_nrc, -1);
  ELSE
    b := width_bucket(r.duration_ms, ARRAY[10000,12500,15625,19531,24414,30518,38147,47684,59605,74506,93132,116415,145519,181899,227374,284217,355271,444089,555112,693889,867362,1084202,1355253]::integer[]) + 1;
    UPDATE flash_stats_daily SET sessions = sessions + delta, duration_histogram[b] = duration_histogram[b] + delta
    WHERE day = d AND firmware_id = coalesce(r.firmware_id, '') AND ecu_family = coalesce(r.ecu_family, '') AND adapter_kind = coalesce(r.adapter_kind, '')
      AND app_version = coalesce(r.app_version, '') AND kind = r.kind AND result = r.result AND failed_step = coalesce(r.failed_step, '') AND failed_nrc = coalesce(r.failed_nrc, -1);
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
