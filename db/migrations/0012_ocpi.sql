CREATE TABLE "ocpi_partners" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"incoming_token_hash" text,
	"incoming_token_kind" text DEFAULT 'A' NOT NULL,
	"outgoing_token_encrypted" text,
	"versions_url" text,
	"version" text,
	"endpoints" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"country_code" varchar(2),
	"party_id" varchar(3),
	"name" text,
	"last_sync_at" timestamp with time zone,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ocpi_partners_incoming_token_hash_unique" UNIQUE("incoming_token_hash"),
	CONSTRAINT "ocpi_partners_status_known" CHECK ("ocpi_partners"."status" in ('PENDING', 'REGISTERED', 'UNREGISTERED')),
	CONSTRAINT "ocpi_partners_token_kind" CHECK ("ocpi_partners"."incoming_token_kind" in ('A', 'C'))
);
--> statement-breakpoint
CREATE TABLE "ocpi_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"partner_id" uuid NOT NULL,
	"charger_id" uuid NOT NULL,
	"connector_number" integer NOT NULL,
	"token_uid" varchar(36) NOT NULL,
	"token" jsonb NOT NULL,
	"authorization_reference" varchar(36),
	"session_id" uuid,
	"session_pushed_at" timestamp with time zone,
	"cdr_pushed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ocpi_sessions_session_id_unique" UNIQUE("session_id")
);
--> statement-breakpoint
CREATE TABLE "ocpi_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"partner_id" uuid NOT NULL,
	"uid" varchar(36) NOT NULL,
	"type" text NOT NULL,
	"valid" boolean NOT NULL,
	"whitelist" text NOT NULL,
	"token" jsonb NOT NULL,
	"last_updated" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ocpi_tokens_partner_uid_type_key" UNIQUE("partner_id","uid","type")
);
--> statement-breakpoint
ALTER TABLE "business_users" ADD COLUMN "ocpi_party_id" varchar(3);--> statement-breakpoint
ALTER TABLE "stations" ADD COLUMN "roaming_published" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ocpi_partners" ADD CONSTRAINT "ocpi_partners_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocpi_sessions" ADD CONSTRAINT "ocpi_sessions_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocpi_sessions" ADD CONSTRAINT "ocpi_sessions_partner_id_ocpi_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."ocpi_partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocpi_sessions" ADD CONSTRAINT "ocpi_sessions_charger_id_chargers_id_fk" FOREIGN KEY ("charger_id") REFERENCES "public"."chargers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocpi_sessions" ADD CONSTRAINT "ocpi_sessions_session_id_charging_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."charging_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocpi_tokens" ADD CONSTRAINT "ocpi_tokens_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocpi_tokens" ADD CONSTRAINT "ocpi_tokens_partner_id_ocpi_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."ocpi_partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ocpi_partners_business_idx" ON "ocpi_partners" USING btree ("business_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ocpi_sessions_charger_idx" ON "ocpi_sessions" USING btree ("charger_id","connector_number","created_at");--> statement-breakpoint
CREATE INDEX "ocpi_sessions_partner_idx" ON "ocpi_sessions" USING btree ("partner_id");--> statement-breakpoint
CREATE INDEX "ocpi_tokens_business_uid_idx" ON "ocpi_tokens" USING btree ("business_id","uid");--> statement-breakpoint
ALTER TABLE "business_users" ADD CONSTRAINT "business_users_ocpi_party_id_chars" CHECK ("business_users"."ocpi_party_id" ~ '^[A-Z0-9]{3}$');