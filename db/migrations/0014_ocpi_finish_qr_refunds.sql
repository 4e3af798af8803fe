CREATE TABLE "ocpi_location_pushes" (
	"partner_id" uuid NOT NULL,
	"station_id" uuid NOT NULL,
	"business_id" uuid NOT NULL,
	"location" jsonb,
	"pushed_at" timestamp with time zone,
	"synced_at" timestamp with time zone,
	"pending" boolean DEFAULT false NOT NULL,
	CONSTRAINT "ocpi_location_pushes_partner_id_station_id_pk" PRIMARY KEY("partner_id","station_id")
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_step_known";--> statement-breakpoint
ALTER TABLE "ocpi_partners" ADD COLUMN "push_claim" uuid;--> statement-breakpoint
ALTER TABLE "ocpi_partners" ADD COLUMN "push_claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ocpi_sessions" ADD COLUMN "auth_method" text DEFAULT 'COMMAND' NOT NULL;--> statement-breakpoint
ALTER TABLE "ocpi_location_pushes" ADD CONSTRAINT "ocpi_location_pushes_partner_id_ocpi_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."ocpi_partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocpi_location_pushes" ADD CONSTRAINT "ocpi_location_pushes_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_refund_pending_idx" ON "payments" USING btree ("business_id","created_at") WHERE "payments"."step" = 'REFUND_PENDING';--> statement-breakpoint
ALTER TABLE "ocpi_sessions" ADD CONSTRAINT "ocpi_sessions_auth_method_known" CHECK ("ocpi_sessions"."auth_method" in ('COMMAND', 'WHITELIST', 'AUTH_REQUEST'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_step_known" CHECK ("payments"."step" is null or "payments"."step" in ('PAYING', 'STARTING', 'CHARGING', 'SETTLING', 'FINISHED', 'START_FAILED', 'REFUNDED', 'FAILED', 'REFUND_PENDING'));--> statement-breakpoint
-- A station's last change includes its chargers leaving it (deleted, or moved to another station):
-- a deleted charger leaves no row whose updated_at could say so. OCPI Locations (last_updated,
-- and the pushes of ocpi/locations-push.ts, ADR 0021) read it. Only station_id changes and
-- deletions fire it: the OCPP hot path never writes station_id.
CREATE OR REPLACE FUNCTION chargers_touch_station() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE stations SET updated_at = now() WHERE id = OLD.station_id;
  IF TG_OP = 'UPDATE' THEN
    UPDATE stations SET updated_at = now() WHERE id = NEW.station_id;
  END IF;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER chargers_touch_station_delete AFTER DELETE ON chargers
  FOR EACH ROW WHEN (OLD.station_id IS NOT NULL) EXECUTE FUNCTION chargers_touch_station();--> statement-breakpoint
CREATE TRIGGER chargers_touch_station_move AFTER UPDATE OF station_id ON chargers
  FOR EACH ROW WHEN (OLD.station_id IS DISTINCT FROM NEW.station_id) EXECUTE FUNCTION chargers_touch_station();
