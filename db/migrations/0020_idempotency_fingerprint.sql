-- An Idempotency-Key reused with another body is refused (422) instead of answered with the first
-- request's result: the key keeps the SHA-256 of the body it was first used with. Keys written
-- before this column have none and keep replaying as before (they expire within a day).
ALTER TABLE "idempotency_keys" ADD COLUMN "fingerprint" varchar(64);
