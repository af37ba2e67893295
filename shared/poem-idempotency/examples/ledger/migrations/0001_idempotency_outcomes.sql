-- poem_idempotency::durable::MIGRATIONS[0], as the crate gives it.
CREATE TABLE idempotency_outcomes (
    scope_key TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    content_type TEXT,
    location TEXT,
    etag TEXT,
    body_hex TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    expires_at_ms BIGINT NOT NULL
);
CREATE INDEX idempotency_outcomes_expiry ON idempotency_outcomes (expires_at_ms);
