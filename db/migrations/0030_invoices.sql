-- Electronic invoices (ARCA WSFEv1, ADR 0048). One voucher per settled QR payment (its credit
-- notes point at it), the driver's optional CUIT and company name for a Factura A, and one lease
-- row per company, point of sale and voucher type that keeps numbers sequential across nodes.
ALTER TABLE "payments" ADD COLUMN "buyer_cuit" varchar(11);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "buyer_name" text;
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"type" smallint,
	"point_of_sale" integer,
	"number" integer,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"cae" varchar(14),
	"cae_due_date" date,
	"total_cents" integer NOT NULL,
	"net_cents" integer NOT NULL,
	"vat_cents" integer NOT NULL,
	"exempt_cents" integer DEFAULT 0 NOT NULL,
	"vat_rate_bp" integer NOT NULL,
	"receiver_doc_type" smallint DEFAULT 99 NOT NULL,
	"receiver_doc_number" varchar(11) DEFAULT '0' NOT NULL,
	"receiver_name" text,
	"receiver_vat_condition" smallint DEFAULT 5 NOT NULL,
	"payment_id" uuid,
	"session_ids" uuid[],
	"credit_note_of" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"issue_date" date NOT NULL,
	"service_from" date NOT NULL,
	"service_to" date NOT NULL,
	"authorized_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_number_key" UNIQUE("business_id","point_of_sale","type","number"),
	CONSTRAINT "invoices_status_known" CHECK ("invoices"."status" in ('PENDING', 'AUTHORIZED', 'REJECTED')),
	CONSTRAINT "invoices_amounts_add_up" CHECK ("invoices"."total_cents" = "invoices"."net_cents" + "invoices"."vat_cents" + "invoices"."exempt_cents" and "invoices"."total_cents" > 0 and "invoices"."net_cents" >= 0 and "invoices"."vat_cents" >= 0 and "invoices"."exempt_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "invoice_series" (
	"business_id" uuid NOT NULL,
	"point_of_sale" integer NOT NULL,
	"type" smallint NOT NULL,
	"holder" uuid,
	"lease_until" timestamp with time zone,
	"pending_invoice_id" uuid,
	"pending_number" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_series_business_id_point_of_sale_type_pk" PRIMARY KEY("business_id","point_of_sale","type")
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_credit_note_of_invoices_id_fk" FOREIGN KEY ("credit_note_of") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_series" ADD CONSTRAINT "invoice_series_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_payment_key" ON "invoices" USING btree ("payment_id") WHERE "invoices"."credit_note_of" is null;
--> statement-breakpoint
CREATE INDEX "invoices_business_created_idx" ON "invoices" USING btree ("business_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);
--> statement-breakpoint
CREATE INDEX "invoices_due_idx" ON "invoices" USING btree ("next_attempt_at") WHERE "invoices"."status" = 'PENDING';
--> statement-breakpoint
CREATE INDEX "invoices_credit_note_of_idx" ON "invoices" USING btree ("credit_note_of");
