DROP INDEX "chargers_business_name_idx";--> statement-breakpoint
DROP INDEX "rates_business_name_idx";--> statement-breakpoint
DROP INDEX "stations_business_name_idx";--> statement-breakpoint
CREATE INDEX "chargers_business_name_idx" ON "chargers" USING btree ("business_id",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "rates_business_name_idx" ON "rates" USING btree ("business_id",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "stations_business_name_idx" ON "stations" USING btree ("business_id",lower("name"),"id");