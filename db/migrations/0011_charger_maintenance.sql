CREATE TABLE "charger_diagnostics" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"charger_id" uuid NOT NULL,
	"request_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"status" text DEFAULT 'REQUESTED' NOT NULL,
	"charger_status" text,
	"file_name" text,
	"content_type" text,
	"size_bytes" integer,
	"content" "bytea",
	"requested_at" timestamp with time zone NOT NULL,
	"uploaded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "charger_diagnostics_status_known" CHECK ("charger_diagnostics"."status" in ('REQUESTED', 'REJECTED', 'UPLOADING', 'UPLOADED', 'FAILED'))
);
--> statement-breakpoint
CREATE TABLE "ocpp_messages" (
	"charger_id" uuid NOT NULL,
	"slot" smallint NOT NULL,
	"business_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"direction" text NOT NULL,
	"message_type" smallint NOT NULL,
	"message_id" text NOT NULL,
	"action" text,
	"payload" text NOT NULL,
	CONSTRAINT "ocpp_messages_pk" PRIMARY KEY("charger_id","slot"),
	CONSTRAINT "ocpp_messages_direction_known" CHECK ("ocpp_messages"."direction" in ('IN', 'OUT'))
);
--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "firmware_location" text;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "firmware_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "firmware_status" text;--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "firmware_status_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "charger_diagnostics" ADD CONSTRAINT "charger_diagnostics_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charger_diagnostics" ADD CONSTRAINT "charger_diagnostics_charger_id_chargers_id_fk" FOREIGN KEY ("charger_id") REFERENCES "public"."chargers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocpp_messages" ADD CONSTRAINT "ocpp_messages_charger_id_chargers_id_fk" FOREIGN KEY ("charger_id") REFERENCES "public"."chargers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocpp_messages" ADD CONSTRAINT "ocpp_messages_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "charger_diagnostics_charger_requested_idx" ON "charger_diagnostics" USING btree ("charger_id","requested_at" DESC NULLS LAST);--> statement-breakpoint
-- Slots are rewritten in place (HOT updates): leave room on each page for the new versions.
ALTER TABLE "ocpp_messages" SET (fillfactor = 50);