-- A company's fiscal settings for ARCA electronic invoices (ADR 0047): its tax condition, the
-- point of sale enabled for web services, the environment, and its ARCA certificate and private
-- key sealed with ENCRYPTION_KEY (never returned). What the screen shows of the certificate (the
-- CUIT it was issued to, its expiry, its fingerprint) is kept in the clear beside it. The last
-- "Probar conexión" and the day the expiry warning was sent are kept so they are said once.
CREATE TABLE "fiscal_settings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"tax_condition" text NOT NULL,
	"point_of_sale" integer NOT NULL,
	"environment" text DEFAULT 'HOMOLOGACION' NOT NULL,
	"certificate_encrypted" text,
	"key_encrypted" text,
	"certificate_cuit" varchar(11),
	"certificate_expires_at" timestamp with time zone,
	"certificate_fingerprint" text,
	"expiry_warned_at" timestamp with time zone,
	"last_test_at" timestamp with time zone,
	"last_test_ok" boolean,
	"last_test_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fiscal_settings_business_key" UNIQUE("business_id"),
	CONSTRAINT "fiscal_settings_tax_condition" CHECK ("fiscal_settings"."tax_condition" in ('RESPONSABLE_INSCRIPTO', 'MONOTRIBUTO', 'EXENTO')),
	CONSTRAINT "fiscal_settings_environment" CHECK ("fiscal_settings"."environment" in ('HOMOLOGACION', 'PRODUCCION')),
	CONSTRAINT "fiscal_settings_point_of_sale" CHECK ("fiscal_settings"."point_of_sale" between 1 and 99999),
	CONSTRAINT "fiscal_settings_certificate_pair" CHECK (("fiscal_settings"."certificate_encrypted" is null) = ("fiscal_settings"."key_encrypted" is null))
);
--> statement-breakpoint
ALTER TABLE "fiscal_settings" ADD CONSTRAINT "fiscal_settings_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;
