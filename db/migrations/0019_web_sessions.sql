-- The dashboard's sign-ins, one row each (ADR 0027). The session cookie names its row by a random
-- id; the row holds only that id's SHA-256, so this table alone cannot make a cookie. Signing out
-- deletes the row, "Cerrar sesión en todos los dispositivos" every row of the account, and a
-- cookie whose row is gone is signed out on its next request even if it was copied.
CREATE TABLE "web_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "web_sessions_uid_idx" ON "web_sessions" USING btree ("uid");
--> statement-breakpoint
CREATE INDEX "web_sessions_expires_idx" ON "web_sessions" USING btree ("expires_at");
