-- Password rotation over OCPP (ADR 0031): a charger that accepted a new password may keep using
-- the one before it. That one stays accepted, here, until the charger connects with the new one.
ALTER TABLE "chargers" ADD COLUMN "ocpp_previous_password_hash" text;
