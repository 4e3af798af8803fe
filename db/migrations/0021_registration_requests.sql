-- A company registration under a CUIT another company holds creates no company (ADR 0029), yet
-- the account must see what any registration pending review shows: the request is kept here, one
-- per account, until the account registers a company of its own. Support finds here who asked
-- for a registered CUIT.
CREATE TABLE "registration_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"firebase_uid" text NOT NULL,
	"email" text NOT NULL,
	"business_name" text NOT NULL,
	"cuit" varchar(11) NOT NULL,
	"business_address" text,
	"phone_number" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registration_requests_firebase_uid_unique" UNIQUE("firebase_uid"),
	CONSTRAINT "registration_requests_cuit_digits" CHECK ("registration_requests"."cuit" ~ '^[0-9]{11}$')
);
--> statement-breakpoint
CREATE INDEX "registration_requests_cuit_idx" ON "registration_requests" USING btree ("cuit");
