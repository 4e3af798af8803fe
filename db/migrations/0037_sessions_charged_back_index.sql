-- The home page's station ranking subtracts each station's charged-back sessions of the period
-- from the station rollup (which is not keyed by payment status). Without an index of its own
-- that correction read every session of the company in the period (79,452 rows for a month of
-- the 1 M-session bench operator, ~70 ms of CPU over PostgreSQL's parallel workers) to find the
-- few charged back.
CREATE INDEX IF NOT EXISTS "sessions_business_charged_back_idx" ON "charging_sessions" USING btree ("business_id","started_at") WHERE "charging_sessions"."payment_status" = 'CHARGED_BACK';
