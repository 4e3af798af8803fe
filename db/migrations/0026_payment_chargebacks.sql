-- Drivers a company blocked from paying at its QR pages (after a chargeback or a dispute): the
-- e-mail they gave, lower-cased, once per company. The QR checkout refuses it; deleting the row
-- unblocks it. The payment that led to the block is kept for the operator's reference.
CREATE TABLE "blocked_drivers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"email" text NOT NULL,
	"payment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blocked_drivers_business_email_key" UNIQUE("business_id","email")
);
--> statement-breakpoint
ALTER TABLE "blocked_drivers" ADD CONSTRAINT "blocked_drivers_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "blocked_drivers" ADD CONSTRAINT "blocked_drivers_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
-- A session whose QR prepayment the payer's bank charged back: Contracargo, not revenue. Added
-- here, not used by any migration (a new enum value cannot be used in the transaction adding it).
ALTER TYPE "public"."session_payment_status" ADD VALUE IF NOT EXISTS 'CHARGED_BACK';
