-- A session whose meter went backwards (or restarted) is billed by its readings, never by the
-- lower stop reading alone (ADR 0030); what happened is kept on the session for the operator:
-- the kind of fault, the highest and the stop register, and the energy billed. Null on every
-- session whose register only moved forward, including all sessions before this column.
ALTER TABLE "charging_sessions" ADD COLUMN "meter_fault" jsonb;
