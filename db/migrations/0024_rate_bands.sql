-- Time-of-use bands on a rate (ADR 0042). A rate's bands (pico, valle, resto by day type and
-- hours; empty: one price all day) and its own holidays, priced as Sundays besides the national
-- ones; validated by the API (domain/tariff-bands). A closed session keeps what each band took
-- and cost, so its detail and the driver's receipt show it as it was priced.
ALTER TABLE "rates" ADD COLUMN "bands" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "rates" ADD COLUMN "local_holidays" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "rates" ADD CONSTRAINT "rates_bands_array" CHECK (jsonb_typeof("rates"."bands") = 'array' and jsonb_typeof("rates"."local_holidays") = 'array');
--> statement-breakpoint
ALTER TABLE "charging_sessions" ADD COLUMN "price_bands" jsonb;
