-- Payment reconciliation (ADR 0040). The provider's fee of a payment, stored when reconciliation
-- reads the payment back (null: the provider has not reported one), so the Pagos list shows gross,
-- fee and net. And the differences already reported to a company: the daily run notifies a
-- difference once, not every day it is still there (a difference whose values change is new).
ALTER TABLE "payments" ADD COLUMN "fee_cents" integer;
--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_fee_nonneg" CHECK ("payments"."fee_cents" is null or "payments"."fee_cents" >= 0);
--> statement-breakpoint
CREATE TABLE "payment_reconciliation_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"difference_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_reconciliation_reports_key" UNIQUE("business_id","difference_key")
);
--> statement-breakpoint
ALTER TABLE "payment_reconciliation_reports" ADD CONSTRAINT "payment_reconciliation_reports_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;
