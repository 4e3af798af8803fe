-- Monthly invoices for customers who charge with tags (ADR 0050). An access group may carry the
-- billing data of whoever pays for its tags (CUIT, razón social, condition before VAT) and be
-- invoiced once a month for its tags' sessions. The invoice knows its group and month (one per
-- group and month, whichever node closes it) and the sessions it covers (each session once).
ALTER TABLE "access_groups" ADD COLUMN "billing_cuit" varchar(11);
--> statement-breakpoint
ALTER TABLE "access_groups" ADD COLUMN "billing_name" text;
--> statement-breakpoint
ALTER TABLE "access_groups" ADD COLUMN "billing_tax_condition" text;
--> statement-breakpoint
ALTER TABLE "access_groups" ADD COLUMN "billing_monthly" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "access_groups" ADD COLUMN "billing_since" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "access_groups" ADD CONSTRAINT "access_groups_billing_complete" CHECK (not "access_groups"."billing_monthly" or ("access_groups"."billing_cuit" is not null and "access_groups"."billing_name" is not null and "access_groups"."billing_tax_condition" is not null and "access_groups"."billing_since" is not null));
--> statement-breakpoint
ALTER TABLE "access_groups" ADD CONSTRAINT "access_groups_billing_tax_condition_known" CHECK ("access_groups"."billing_tax_condition" is null or "access_groups"."billing_tax_condition" in ('RESPONSABLE_INSCRIPTO', 'MONOTRIBUTO', 'EXENTO', 'CONSUMIDOR_FINAL'));
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "access_group_id" uuid;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "billing_month" date;
--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "vat_rate_bp" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" DROP COLUMN "session_ids";
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_access_group_id_access_groups_id_fk" FOREIGN KEY ("access_group_id") REFERENCES "public"."access_groups"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_group_month_key" ON "invoices" USING btree ("access_group_id","billing_month") WHERE "invoices"."credit_note_of" is null and "invoices"."billing_month" is not null;
--> statement-breakpoint
CREATE TABLE "invoice_sessions" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"invoice_id" uuid NOT NULL,
	"total_cents" integer NOT NULL,
	"vat_rate_bp" integer NOT NULL,
	CONSTRAINT "invoice_sessions_total_positive" CHECK ("invoice_sessions"."total_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "invoice_sessions" ADD CONSTRAINT "invoice_sessions_session_id_charging_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."charging_sessions"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_sessions" ADD CONSTRAINT "invoice_sessions_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "invoice_sessions_invoice_idx" ON "invoice_sessions" USING btree ("invoice_id");
