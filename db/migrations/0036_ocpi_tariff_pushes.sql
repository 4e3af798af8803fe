-- The Tariffs each roaming partner holds (ocpi/tariffs-push.ts, ADR 0045 amendment of 2026-11-29):
-- a pass compares the company's current Tariffs (every version of every rate in roaming) with
-- these copies, PUTs what differs and DELETEs what the partner holds and is gone. A failed push
-- leaves the copy as it was, so the next pass sends it again.
CREATE TABLE "ocpi_tariff_pushes" (
	"partner_id" uuid NOT NULL,
	"tariff_id" varchar(36) NOT NULL,
	"business_id" uuid NOT NULL,
	"tariff" jsonb NOT NULL,
	"pushed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ocpi_tariff_pushes_pk" PRIMARY KEY("partner_id","tariff_id")
);
--> statement-breakpoint
ALTER TABLE "ocpi_tariff_pushes" ADD CONSTRAINT "ocpi_tariff_pushes_partner_id_ocpi_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."ocpi_partners"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ocpi_tariff_pushes" ADD CONSTRAINT "ocpi_tariff_pushes_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;
