ALTER TABLE "ocpp_messages" DROP CONSTRAINT "ocpp_messages_charger_id_chargers_id_fk";
--> statement-breakpoint
ALTER TABLE "ocpp_messages" DROP CONSTRAINT "ocpp_messages_business_id_business_users_id_fk";
--> statement-breakpoint
CREATE INDEX "connectors_allocated_idx" ON "connectors" USING btree ("charger_id") WHERE "connectors"."allocated_kw" is not null;
--> statement-breakpoint
-- The cascade the foreign key gave, without its check on every row the message log writes: a
-- deleted charger (or every charger of a deleted company) takes its ring of messages with it.
CREATE OR REPLACE FUNCTION ocpp_messages_forget_chargers() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM ocpp_messages m USING gone_chargers g WHERE m.charger_id = g.id;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER ocpp_messages_forget_chargers AFTER DELETE ON chargers
  REFERENCING OLD TABLE AS gone_chargers FOR EACH STATEMENT EXECUTE FUNCTION ocpp_messages_forget_chargers();
