-- Scheduled rate changes (ADR 0043): the fields of a rate that change and the instant they take
-- effect. A session takes the prices in force when it starts (resolved from the rate and its due
-- changes), and the sweep writes a due change into the rate and marks it applied. One change per
-- rate and instant: two at the same instant would leave which one wins to chance.
CREATE TABLE "rate_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"rate_id" uuid NOT NULL,
	"effective_from" timestamp with time zone NOT NULL,
	"changes" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"applied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rate_schedules_rate_instant" UNIQUE("rate_id","effective_from")
);
--> statement-breakpoint
ALTER TABLE "rate_schedules" ADD CONSTRAINT "rate_schedules_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "rate_schedules" ADD CONSTRAINT "rate_schedules_rate_id_rates_id_fk" FOREIGN KEY ("rate_id") REFERENCES "public"."rates"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "rate_schedules_pending_idx" ON "rate_schedules" USING btree ("effective_from") WHERE "rate_schedules"."applied_at" is null;
--> statement-breakpoint
CREATE INDEX "rate_schedules_business_idx" ON "rate_schedules" USING btree ("business_id","rate_id");
