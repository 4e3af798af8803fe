CREATE TABLE "session_daily_totals" (
	"business_id" uuid NOT NULL,
	"day" date NOT NULL,
	"status" "session_status" NOT NULL,
	"payment_status" "session_payment_status" NOT NULL,
	"sessions" integer DEFAULT 0 NOT NULL,
	"energy_wh" bigint DEFAULT 0 NOT NULL,
	"total_cents" bigint DEFAULT 0 NOT NULL,
	"idle_cents" bigint DEFAULT 0 NOT NULL,
	"occupied_seconds" numeric DEFAULT '0' NOT NULL,
	"max_span_seconds" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "session_daily_totals_pk" PRIMARY KEY("business_id","day","status","payment_status")
);
--> statement-breakpoint
CREATE TABLE "session_hourly_totals" (
	"business_id" uuid NOT NULL,
	"day" date NOT NULL,
	"hour" smallint NOT NULL,
	"status" "session_status" NOT NULL,
	"sessions" integer DEFAULT 0 NOT NULL,
	"energy_wh" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "session_hourly_totals_pk" PRIMARY KEY("business_id","day","hour","status")
);
--> statement-breakpoint
CREATE TABLE "session_station_daily_totals" (
	"business_id" uuid NOT NULL,
	"station_id" uuid NOT NULL,
	"day" date NOT NULL,
	"status" "session_status" NOT NULL,
	"sessions" integer DEFAULT 0 NOT NULL,
	"energy_wh" bigint DEFAULT 0 NOT NULL,
	"total_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "session_station_daily_totals_pk" PRIMARY KEY("business_id","station_id","day","status")
);
--> statement-breakpoint
ALTER TABLE "session_daily_totals" ADD CONSTRAINT "session_daily_totals_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_hourly_totals" ADD CONSTRAINT "session_hourly_totals_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_station_daily_totals" ADD CONSTRAINT "session_station_daily_totals_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_daily_totals_span_idx" ON "session_daily_totals" USING btree ("business_id","max_span_seconds");--> statement-breakpoint
CREATE INDEX "sessions_unrolled_idx" ON "charging_sessions" USING btree ("business_id","started_at") WHERE "charging_sessions"."status" in ('ACTIVE', 'IDLE') or coalesce("charging_sessions"."unplugged_at", "charging_sessions"."stopped_at") is null;