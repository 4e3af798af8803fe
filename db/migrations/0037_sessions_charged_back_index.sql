-- The home page's station ranking subtracts each station's charged-back sessions of the period
-- from the station rollup (which is not keyed by payment status). Without an index of its own
-- that correction read every session of the company in the period (79,452 rows for a month of
-- the 1 M-session bench operator, ~70 ms of CPU over PostgreSQL's parallel workers) to find the
-- few charged back. The predicate names the statuses the type was created with, not CHARGED_BACK:
-- on a fresh database this runs in the transaction that added CHARGED_BACK, where a new enum
-- value cannot be used yet.
CREATE INDEX IF NOT EXISTS "sessions_business_charged_back_idx" ON "charging_sessions" USING btree ("business_id","started_at") WHERE "charging_sessions"."payment_status" not in ('PENDING', 'PAID', 'FAILED', 'NOT_REQUIRED');
