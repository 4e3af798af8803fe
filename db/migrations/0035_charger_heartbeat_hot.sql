-- A charger's sign of life (last_heartbeat_at) is written for every connected charger every 30–60 s,
-- in batches. PostgreSQL updates a row in place (a HOT update: no new index entries) only when
-- no indexed column changes and the page has room; the partial index of the silent-charger sweep
-- was on last_heartbeat_at, so each of those writes inserted a new entry into every index of the
-- table (1 HOT update of 12,983 in a bench of 4,000 chargers, ~22 buffers per row). The sweep keeps
-- a partial index of the online chargers, on a column signs of life never change: it compares
-- each one's last sign of life with its own interval, which no index range can answer anyway.
-- Room on each page for the updated versions of its rows: new pages are filled to 80 %.
DROP INDEX IF EXISTS "chargers_online_heartbeat_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chargers_online_idx" ON "chargers" USING btree ("id") WHERE "chargers"."online";--> statement-breakpoint
ALTER TABLE "chargers" SET (fillfactor = 80);
