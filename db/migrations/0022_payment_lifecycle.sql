-- What a provider says after approval reaches the payment: partial and outside refunds, disputes
-- and chargebacks (domain/payment-lifecycle.ts). ADD VALUE only adds the labels: nothing in this
-- migration uses them (a new enum value cannot be used in the transaction that adds it, and the
-- migrator runs every pending migration in one transaction).
ALTER TYPE "public"."payment_status" ADD VALUE IF NOT EXISTS 'PARTIALLY_REFUNDED';--> statement-breakpoint
ALTER TYPE "public"."payment_status" ADD VALUE IF NOT EXISTS 'IN_DISPUTE';--> statement-breakpoint
ALTER TYPE "public"."payment_status" ADD VALUE IF NOT EXISTS 'CHARGED_BACK';--> statement-breakpoint
-- A second approved payment on the same checkout (paid twice): its own row, linked to the first.
ALTER TABLE "payments" ADD COLUMN IF NOT EXISTS "parent_payment_id" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_parent_payment_id_payments_id_fk" FOREIGN KEY ("parent_payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The provider's refund a payment waits on (in process at Mercado Pago): read back by the sweep.
ALTER TABLE "payments" ADD COLUMN IF NOT EXISTS "provider_refund_id" text;
