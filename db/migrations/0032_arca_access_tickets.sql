-- WSAA access tickets kept across restarts and shared by every node (ADR 0047): WSAA gives one
-- ticket per certificate and service and refuses another while it is valid, so a process that
-- lost it in memory could not invoice for up to 12 hours. The token and sign are sealed with
-- ENCRYPTION_KEY. The row is also where processes agree who logs in (login_until, a claim) and,
-- after WSAA refused, until when nobody asks again (wait_until).
CREATE TABLE "arca_access_tickets" (
	"key" text PRIMARY KEY NOT NULL,
	"ticket_sealed" text,
	"expires_at" timestamp with time zone,
	"login_started_at" timestamp with time zone,
	"login_until" timestamp with time zone,
	"wait_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "arca_access_tickets_sealed_with_expiry" CHECK (("arca_access_tickets"."ticket_sealed" is null) = ("arca_access_tickets"."expires_at" is null))
);
