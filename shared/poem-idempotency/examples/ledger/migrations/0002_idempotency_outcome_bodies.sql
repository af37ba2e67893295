-- poem_idempotency::durable::MIGRATIONS[1], as the crate gives it.
ALTER TABLE idempotency_outcomes ADD COLUMN body BYTEA;
