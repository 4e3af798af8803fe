CREATE TABLE "access_group_stations" (
	"group_id" uuid NOT NULL,
	"station_id" uuid NOT NULL,
	CONSTRAINT "access_group_stations_group_id_station_id_pk" PRIMARY KEY("group_id","station_id")
);
--> statement-breakpoint
CREATE TABLE "access_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"name" text NOT NULL,
	"all_stations" boolean DEFAULT true NOT NULL,
	"rate_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rfid_tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"id_tag" varchar(20) NOT NULL,
	"holder_name" text NOT NULL,
	"email" text,
	"expires_on" date,
	"blocked" boolean DEFAULT false NOT NULL,
	"group_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stations" ADD COLUMN "authorization_policy" text DEFAULT 'OPEN' NOT NULL;--> statement-breakpoint
ALTER TABLE "access_group_stations" ADD CONSTRAINT "access_group_stations_group_id_access_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."access_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_group_stations" ADD CONSTRAINT "access_group_stations_station_id_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."stations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_groups" ADD CONSTRAINT "access_groups_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_groups" ADD CONSTRAINT "access_groups_rate_id_rates_id_fk" FOREIGN KEY ("rate_id") REFERENCES "public"."rates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rfid_tags" ADD CONSTRAINT "rfid_tags_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rfid_tags" ADD CONSTRAINT "rfid_tags_group_id_access_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."access_groups"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_group_stations_station_idx" ON "access_group_stations" USING btree ("station_id");--> statement-breakpoint
CREATE UNIQUE INDEX "access_groups_business_name_key" ON "access_groups" USING btree ("business_id",lower("name"));--> statement-breakpoint
CREATE INDEX "access_groups_rate_idx" ON "access_groups" USING btree ("rate_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rfid_tags_business_id_tag_key" ON "rfid_tags" USING btree ("business_id",lower("id_tag"));--> statement-breakpoint
CREATE INDEX "rfid_tags_business_holder_idx" ON "rfid_tags" USING btree ("business_id",lower("holder_name"),"id");--> statement-breakpoint
CREATE INDEX "rfid_tags_group_idx" ON "rfid_tags" USING btree ("group_id");--> statement-breakpoint
ALTER TABLE "stations" ADD CONSTRAINT "stations_authorization_policy_known" CHECK ("stations"."authorization_policy" in ('OPEN', 'KNOWN_TAGS'));