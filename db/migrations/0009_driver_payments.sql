ALTER TABLE "payments" ADD COLUMN "origin" text DEFAULT 'SESSION' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "step" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "station_id" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "charger_id" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "connector_number" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "id_tag" varchar(20);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "request_key" varchar(64);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "access_token_hash" varchar(64);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "driver_email" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "checkout_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "charged_cents" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "start_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "stop_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "receipt_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "stations" ADD COLUMN "qr_payment_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "stations" ADD COLUMN "qr_min_cents" integer DEFAULT 100000 NOT NULL;--> statement-breakpoint
ALTER TABLE "stations" ADD COLUMN "qr_max_cents" integer DEFAULT 5000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_station_id_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."stations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_charger_id_chargers_id_fk" FOREIGN KEY ("charger_id") REFERENCES "public"."chargers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_qr_open_idx" ON "payments" USING btree ("step","updated_at") WHERE "payments"."step" in ('PAYING', 'STARTING', 'CHARGING', 'SETTLING', 'START_FAILED');--> statement-breakpoint
CREATE INDEX "payments_charger_step_idx" ON "payments" USING btree ("charger_id","step");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_id_tag_unique" UNIQUE("id_tag");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_request_key_unique" UNIQUE("request_key");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_origin_known" CHECK ("payments"."origin" in ('SESSION', 'QR'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_step_known" CHECK ("payments"."step" is null or "payments"."step" in ('PAYING', 'STARTING', 'CHARGING', 'SETTLING', 'FINISHED', 'START_FAILED', 'REFUNDED', 'FAILED'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refund_range" CHECK ("payments"."refunded_cents" >= 0 and "payments"."refunded_cents" <= "payments"."amount_cents");--> statement-breakpoint
ALTER TABLE "stations" ADD CONSTRAINT "stations_qr_amounts" CHECK ("stations"."qr_min_cents" > 0 and "stations"."qr_max_cents" >= "stations"."qr_min_cents");