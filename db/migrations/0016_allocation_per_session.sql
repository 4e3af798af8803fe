-- Load balancing (ADR 0018): the session an allocation was sent for. A TxProfile ends with its
-- transaction, so when a session ends and another starts on the connector before the station is
-- rebalanced, the new session has no limit even though the connector still showed the old one as
-- accepted. Allocations written before this column are treated as belonging to no session: the
-- next rebalance sends them again.
ALTER TABLE "connectors" ADD COLUMN "allocated_transaction_id" bigint;
