-- Roaming state every node shares (ADR 0044).
-- ocpi_authorizations: a roaming partner's answer about a tag at a charger (ocpi/charger-authorization.ts),
-- reused until expires_at by whichever node the charger's next request lands on, so the start that
-- follows an Authorize is not asked of the eMSP again and two nodes never hold two answers.
-- The tag is kept lower-cased (OCPI token uids are case-insensitive); grant null: nobody claims it.
CREATE TABLE "ocpi_authorizations" (
	"charger_id" uuid NOT NULL,
	"id_tag" text NOT NULL,
	"business_id" uuid NOT NULL,
	"grant" jsonb,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ocpi_authorizations_pk" PRIMARY KEY("charger_id","id_tag")
);
--> statement-breakpoint
ALTER TABLE "ocpi_authorizations" ADD CONSTRAINT "ocpi_authorizations_charger_id_chargers_id_fk" FOREIGN KEY ("charger_id") REFERENCES "public"."chargers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ocpi_authorizations" ADD CONSTRAINT "ocpi_authorizations_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "ocpi_authorizations_expires_idx" ON "ocpi_authorizations" USING btree ("expires_at");
--> statement-breakpoint
-- ocpi_removed_evses: a charger that left a station (deleted, or moved to another station or to
-- none) is, for 30 days, an EVSE with status REMOVED in the Location partners pull
-- (mod_locations.asciidoc §EVSE: REMOVED, not forgotten), with the connectors it had then.
-- Recorded by a trigger on chargers, so every way a charger leaves a station is seen; a charger
-- put back in its station is no longer removed. Nothing is recorded while the station or the
-- company itself is being deleted (their Location goes away whole).
CREATE TABLE "ocpi_removed_evses" (
	"station_id" uuid NOT NULL,
	"charger_id" uuid NOT NULL,
	"business_id" uuid NOT NULL,
	"connectors" jsonb NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ocpi_removed_evses_pk" PRIMARY KEY("station_id","charger_id")
);
--> statement-breakpoint
ALTER TABLE "ocpi_removed_evses" ADD CONSTRAINT "ocpi_removed_evses_station_id_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."stations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ocpi_removed_evses" ADD CONSTRAINT "ocpi_removed_evses_business_id_business_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."business_users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ocpi_remember_removed_evse() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.station_id IS NOT DISTINCT FROM OLD.station_id THEN
    RETURN NEW;
  END IF;
  IF OLD.station_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM stations s JOIN business_users b ON b.id = s.business_id WHERE s.id = OLD.station_id
  ) THEN
    INSERT INTO ocpi_removed_evses (station_id, charger_id, business_id, connectors, removed_at)
    SELECT OLD.station_id, OLD.id, OLD.business_id,
      jsonb_agg(jsonb_build_object('connectorId', k.connector_id, 'standard', t.code, 'format', k.format,
        'powerType', k.power_type, 'maxPowerKw', k.max_power_kw, 'rateId', k.rate_id) ORDER BY k.connector_id),
      now()
    FROM connectors k JOIN connector_types t ON t.id = k.connector_type_id
    WHERE k.charger_id = OLD.id
    HAVING count(*) > 0
    ON CONFLICT ON CONSTRAINT ocpi_removed_evses_pk DO UPDATE SET connectors = excluded.connectors, removed_at = excluded.removed_at;
  END IF;
  DELETE FROM ocpi_removed_evses WHERE business_id = OLD.business_id AND removed_at < now() - interval '30 days';
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  IF NEW.station_id IS NOT NULL THEN
    DELETE FROM ocpi_removed_evses WHERE station_id = NEW.station_id AND charger_id = NEW.id;
  END IF;
  RETURN NEW;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER "chargers_ocpi_removed_evse" BEFORE DELETE OR UPDATE OF "station_id" ON "chargers"
FOR EACH ROW EXECUTE FUNCTION ocpi_remember_removed_evse();
