-- Keeps session_daily_totals, session_station_daily_totals and session_hourly_totals (0001)
-- equal to aggregates of the rolled-up charging sessions, whoever writes them (OCPP store, API,
-- seeds): statement-level triggers with transition tables for INSERT and DELETE (one grouped
-- upsert per statement, bulk seeds included) and a row-level trigger for UPDATE that fires only
-- when the old or the new row is rolled up (meter updates of open sessions cost nothing). Each
-- applies the difference: -1 × old row, +1 × new row. session_rollup_rebuild() recomputes from
-- scratch (`npm run db:rollup`); this migration uses it to fill the tables from existing rows.
-- Rolled up = closed (not ACTIVE/IDLE) with an end time, coalesce(unplugged_at, stopped_at).
-- Days and hours are America/Argentina/Buenos_Aires local time of started_at, as in
-- api/routes/dashboard.ts.
CREATE OR REPLACE FUNCTION session_rollup_statements(src text) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $fn$
  select array[
    format($q$
      insert into session_daily_totals as t
        (business_id, day, status, payment_status, sessions, energy_wh, total_cents, idle_cents, occupied_seconds, max_span_seconds)
      select d.business_id, (d.started_at at time zone 'America/Argentina/Buenos_Aires')::date, d.status, d.payment_status,
        sum(d.sign), sum(d.sign * d.energy_wh), sum(d.sign * d.total_cents), sum(d.sign * d.idle_cents),
        sum(d.sign * extract(epoch from coalesce(d.unplugged_at, d.stopped_at) - d.started_at)),
        greatest(0, coalesce(max(extract(epoch from coalesce(d.unplugged_at, d.stopped_at) - d.started_at)) filter (where d.sign > 0), 0))
      from (%s) d
      where d.status not in ('ACTIVE', 'IDLE') and coalesce(d.unplugged_at, d.stopped_at) is not null
        and exists (select 1 from business_users b where b.id = d.business_id)
      group by 1, 2, 3, 4
      having sum(d.sign) <> 0 or sum(d.sign * d.energy_wh) <> 0 or sum(d.sign * d.total_cents) <> 0 or sum(d.sign * d.idle_cents) <> 0
        or sum(d.sign * extract(epoch from coalesce(d.unplugged_at, d.stopped_at) - d.started_at)) <> 0
      on conflict on constraint session_daily_totals_pk do update set
        sessions = t.sessions + excluded.sessions,
        energy_wh = t.energy_wh + excluded.energy_wh,
        total_cents = t.total_cents + excluded.total_cents,
        idle_cents = t.idle_cents + excluded.idle_cents,
        occupied_seconds = t.occupied_seconds + excluded.occupied_seconds,
        max_span_seconds = greatest(t.max_span_seconds, excluded.max_span_seconds)
    $q$, src),
    format($q$
      insert into session_station_daily_totals as t (business_id, station_id, day, status, sessions, energy_wh, total_cents)
      select d.business_id, d.station_id, (d.started_at at time zone 'America/Argentina/Buenos_Aires')::date, d.status,
        sum(d.sign), sum(d.sign * d.energy_wh), sum(d.sign * d.total_cents)
      from (%s) d
      where d.status not in ('ACTIVE', 'IDLE') and coalesce(d.unplugged_at, d.stopped_at) is not null and d.station_id is not null
        and exists (select 1 from business_users b where b.id = d.business_id)
      group by 1, 2, 3, 4
      having sum(d.sign) <> 0 or sum(d.sign * d.energy_wh) <> 0 or sum(d.sign * d.total_cents) <> 0
      on conflict on constraint session_station_daily_totals_pk do update set
        sessions = t.sessions + excluded.sessions,
        energy_wh = t.energy_wh + excluded.energy_wh,
        total_cents = t.total_cents + excluded.total_cents
    $q$, src),
    format($q$
      insert into session_hourly_totals as t (business_id, day, hour, status, sessions, energy_wh)
      select d.business_id, (d.started_at at time zone 'America/Argentina/Buenos_Aires')::date,
        extract(hour from d.started_at at time zone 'America/Argentina/Buenos_Aires')::smallint, d.status,
        sum(d.sign), sum(d.sign * d.energy_wh)
      from (%s) d
      where d.status not in ('ACTIVE', 'IDLE') and coalesce(d.unplugged_at, d.stopped_at) is not null
        and exists (select 1 from business_users b where b.id = d.business_id)
      group by 1, 2, 3, 4
      having sum(d.sign) <> 0 or sum(d.sign * d.energy_wh) <> 0
      on conflict on constraint session_hourly_totals_pk do update set
        sessions = t.sessions + excluded.sessions,
        energy_wh = t.energy_wh + excluded.energy_wh
    $q$, src)
  ]
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION session_rollup_trigger() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  stmt text;
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    -- UPDATE, one row: take the old row out, put the new one in.
    FOREACH stmt IN ARRAY session_rollup_statements('select -1 as sign, ($1).* union all select 1 as sign, ($2).*') LOOP
      EXECUTE stmt USING OLD, NEW;
    END LOOP;
  ELSE
    -- INSERT / DELETE, whole statement: its transition table (visible to this function's SQL).
    FOREACH stmt IN ARRAY session_rollup_statements(CASE TG_OP WHEN 'INSERT' THEN 'select 1 as sign, * from rollup_new' ELSE 'select -1 as sign, * from rollup_old' END) LOOP
      EXECUTE stmt;
    END LOOP;
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER charging_sessions_rollup_insert AFTER INSERT ON charging_sessions
  REFERENCING NEW TABLE AS rollup_new FOR EACH STATEMENT EXECUTE FUNCTION session_rollup_trigger();
--> statement-breakpoint
CREATE TRIGGER charging_sessions_rollup_delete AFTER DELETE ON charging_sessions
  REFERENCING OLD TABLE AS rollup_old FOR EACH STATEMENT EXECUTE FUNCTION session_rollup_trigger();
--> statement-breakpoint
CREATE TRIGGER charging_sessions_rollup_update AFTER UPDATE ON charging_sessions FOR EACH ROW
  WHEN ((OLD.status NOT IN ('ACTIVE', 'IDLE') AND coalesce(OLD.unplugged_at, OLD.stopped_at) IS NOT NULL)
     OR (NEW.status NOT IN ('ACTIVE', 'IDLE') AND coalesce(NEW.unplugged_at, NEW.stopped_at) IS NOT NULL))
  EXECUTE FUNCTION session_rollup_trigger();
--> statement-breakpoint
-- Recomputes the rollup of one business (or of all when null) from charging_sessions.
CREATE OR REPLACE FUNCTION session_rollup_rebuild(p_business uuid) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  stmt text;
BEGIN
  DELETE FROM session_daily_totals WHERE p_business IS NULL OR business_id = p_business;
  DELETE FROM session_station_daily_totals WHERE p_business IS NULL OR business_id = p_business;
  DELETE FROM session_hourly_totals WHERE p_business IS NULL OR business_id = p_business;
  FOREACH stmt IN ARRAY session_rollup_statements('select 1 as sign, s.* from charging_sessions s where $1::uuid is null or s.business_id = $1::uuid') LOOP
    EXECUTE stmt USING p_business;
  END LOOP;
END
$fn$;
--> statement-breakpoint
SELECT session_rollup_rebuild(NULL);
