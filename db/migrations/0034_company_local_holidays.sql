-- Local holidays per company (ADR 0042, amended): the dates an operator's area stops (a
-- provincial holiday, the patron saint's day), priced as "domingos y feriados" by every rate of
-- the company besides the national calendar and each rate's own list. 'YYYY-MM-DD' strings,
-- validated by the API (contract/schemas/holidays.ts); a session's rate snapshot copies them at
-- its start, so changing the list never reprices a session already under way.
ALTER TABLE "business_users" ADD COLUMN "local_holidays" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "business_users" ADD CONSTRAINT "business_users_local_holidays_array" CHECK (jsonb_typeof("business_users"."local_holidays") = 'array');
