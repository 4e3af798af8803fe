-- «Mostrar precio en el cargador»: AUTO sends the price to chargers that speak OCPP 2.0.1 and
-- not to 1.6 ones; ON and OFF decide for the charger. price_display_refused: the charger said it
-- cannot show it (SetDisplayMessage refused, the California Pricing DataTransfer unknown), so it
-- is not asked again until the operator saves the setting.
ALTER TABLE "chargers" ADD COLUMN "price_display" text DEFAULT 'AUTO' NOT NULL;
--> statement-breakpoint
ALTER TABLE "chargers" ADD COLUMN "price_display_refused" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "chargers" ADD CONSTRAINT "chargers_price_display_known" CHECK ("chargers"."price_display" in ('AUTO', 'ON', 'OFF'));
