-- Teams (issue 26): a company's members with roles, e-mail invitations and the audit log.
-- Every existing company's account becomes its OWNER, and a trigger keeps that true for every
-- company registered from now on, whoever inserts it (the API, the seeds, the benchmarks).
CREATE TYPE "public"."member_role" AS ENUM('OWNER', 'ADMIN', 'TECHNICIAN', 'BILLING', 'READER');--> statement-breakpoint
CREATE TABLE "audit_log" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL,
  "at" timestamp with time zone DEFAULT now() NOT NULL,
  "actor_uid" text NOT NULL,
  "actor_email" text NOT NULL,
  "actor_role" "member_role",
  "action" text NOT NULL,
  "resource_type" text NOT NULL,
  "resource_id" text,
  "resource_label" text,
  "changes" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "ip" text,
  "request_id" text
);
--> statement-breakpoint
CREATE TABLE "business_invitations" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL,
  "email" text NOT NULL,
  "role" "member_role" NOT NULL,
  "token_hash" char(64) NOT NULL,
  "invited_by_uid" text NOT NULL,
  "invited_by_email" text NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "sent_at" timestamp with time zone DEFAULT now() NOT NULL,
  "accepted_at" timestamp with time zone,
  "accepted_by_uid" text,
  "revoked_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "business_invitations_token_hash_unique" UNIQUE("token_hash"),
  CONSTRAINT "business_invitations_not_owner" CHECK ("business_invitations"."role" <> 'OWNER')
);
--> statement-breakpoint
CREATE TABLE "business_members" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL,
  "firebase_uid" text NOT NULL,
  "email" text NOT NULL,
  "role" "member_role" NOT NULL,
  "last_sign_in_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "business_members_business_uid_key" UNIQUE("business_id","firebase_uid")
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_invitations" ADD CONSTRAINT "business_invitations_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_members" ADD CONSTRAINT "business_members_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_business_at_idx" ON "audit_log" USING btree ("business_id","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_business_resource_idx" ON "audit_log" USING btree ("business_id","resource_type","at");--> statement-breakpoint
CREATE INDEX "business_invitations_business_idx" ON "business_invitations" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "business_invitations_open_key" ON "business_invitations" USING btree ("business_id","email") WHERE "business_invitations"."accepted_at" is null and "business_invitations"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "business_members_uid_idx" ON "business_members" USING btree ("firebase_uid");--> statement-breakpoint
CREATE UNIQUE INDEX "business_members_one_owner_key" ON "business_members" USING btree ("business_id") WHERE "business_members"."role" = 'OWNER';--> statement-breakpoint
ALTER TABLE "push_registrations" ADD COLUMN "firebase_uid" text;--> statement-breakpoint
CREATE OR REPLACE FUNCTION business_owner_member() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  -- A restore (db/backup.ts) brings the members as they were.
  IF current_setting('enchufa.restoring', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO business_members (business_id, firebase_uid, email, role, created_at, updated_at)
    VALUES (NEW.id, NEW.firebase_uid, lower(NEW.email), 'OWNER', NEW.created_at, NEW.created_at)
    ON CONFLICT (business_id, firebase_uid) DO NOTHING;
  ELSIF NEW.firebase_uid IS DISTINCT FROM OLD.firebase_uid THEN
    -- The registering account was replaced (the local demo's login recreated): its membership follows.
    UPDATE business_members SET firebase_uid = NEW.firebase_uid, email = lower(NEW.email), updated_at = now()
    WHERE business_id = NEW.id AND firebase_uid = OLD.firebase_uid;
  END IF;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER business_owner_member AFTER INSERT OR UPDATE OF firebase_uid ON business_users
  FOR EACH ROW EXECUTE FUNCTION business_owner_member();--> statement-breakpoint
INSERT INTO business_members (business_id, firebase_uid, email, role, created_at, updated_at)
SELECT id, firebase_uid, lower(email), 'OWNER', created_at, created_at FROM business_users
ON CONFLICT (business_id, firebase_uid) DO NOTHING;
