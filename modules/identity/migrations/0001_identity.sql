CREATE TABLE identity_users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    display_name TEXT,
    password_hash TEXT NOT NULL,
    roles TEXT NOT NULL,
    email_confirmed_at_ms BIGINT,
    locked_at_ms BIGINT,
    created_at_ms BIGINT NOT NULL
);

CREATE TABLE identity_sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES identity_users (id),
    created_at_ms BIGINT NOT NULL,
    last_used_at_ms BIGINT NOT NULL,
    expires_at_ms BIGINT NOT NULL,
    revoked_at_ms BIGINT,
    user_agent TEXT
);
CREATE INDEX identity_sessions_user ON identity_sessions (user_id);

-- Every refresh token ever issued, stored as a hash. A superseded token presented again is a
-- replayed (stolen) token: its whole session is revoked.
CREATE TABLE identity_refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES identity_sessions (id),
    issued_at_ms BIGINT NOT NULL,
    superseded_at_ms BIGINT
);
CREATE INDEX identity_refresh_tokens_session ON identity_refresh_tokens (session_id);

-- Password-reset and email-confirmation tokens, stored as hashes, single use.
CREATE TABLE identity_one_time_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES identity_users (id),
    purpose TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    expires_at_ms BIGINT NOT NULL,
    used_at_ms BIGINT
);
CREATE INDEX identity_one_time_tokens_user ON identity_one_time_tokens (user_id, purpose);
