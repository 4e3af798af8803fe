-- The session rollup (0002) applied at commit, and skipped when there is nothing to roll up
-- (ADR 0024). A closed session adds to its business's rows of the day (one per day, status and
-- payment status; per station; per hour): every charger of a company that closes a session
-- writes the same few rows. Applied inside the UPDATE, their locks were held from that statement
-- until the end of the transaction: the finishing session's remaining statements (payment,
-- notification) and its commit, and every other session closing for the same company waited
-- behind them. As a deferred constraint trigger the same -old +new difference is applied when
-- the transaction commits, holding those rows only for the commit. Within the transaction the
-- rollup does not show the change yet; nothing reads it there.
DROP TRIGGER charging_sessions_rollup_update ON charging_sessions;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER charging_sessions_rollup_update AFTER UPDATE ON charging_sessions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.status NOT IN ('ACTIVE', 'IDLE') AND coalesce(OLD.unplugged_at, OLD.stopped_at) IS NOT NULL)
     OR (NEW.status NOT IN ('ACTIVE', 'IDLE') AND coalesce(NEW.unplugged_at, NEW.stopped_at) IS NOT NULL))
  EXECUTE FUNCTION session_rollup_trigger();
--> statement-breakpoint
-- Inserts and deletes stay per statement (a bulk seed is one grouped upsert). Every session a
-- charger starts is inserted open, so the three grouped upserts found nothing to add but were
-- still planned on each start: a static check of the transition table skips them.
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
  ELSIF TG_OP = 'INSERT' THEN
    IF EXISTS (SELECT 1 FROM rollup_new d WHERE d.status NOT IN ('ACTIVE', 'IDLE') AND coalesce(d.unplugged_at, d.stopped_at) IS NOT NULL) THEN
      FOREACH stmt IN ARRAY session_rollup_statements('select 1 as sign, * from rollup_new') LOOP
        EXECUTE stmt;
      END LOOP;
    END IF;
  ELSIF EXISTS (SELECT 1 FROM rollup_old d WHERE d.status NOT IN ('ACTIVE', 'IDLE') AND coalesce(d.unplugged_at, d.stopped_at) IS NOT NULL) THEN
    -- DELETE, whole statement.
    FOREACH stmt IN ARRAY session_rollup_statements('select -1 as sign, * from rollup_old') LOOP
      EXECUTE stmt;
    END LOOP;
  END IF;
  RETURN NULL;
END
$fn$;
