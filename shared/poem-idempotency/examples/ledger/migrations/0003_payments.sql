-- The ledger's own table.
CREATE TABLE payments (
    id BIGSERIAL PRIMARY KEY,
    account TEXT NOT NULL,
    amount_cents BIGINT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX payments_by_account ON payments (account);
