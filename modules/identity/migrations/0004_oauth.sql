-- Sign-in with an OpenID Connect provider (ADR 0009).
--
-- An authorization in progress, under the SHA-256 of its `state`: the PKCE verifier and nonce
-- stay on the server, in the database so that the exchange may reach any instance. Each row is
-- deleted by the exchange that uses it (single use); expired rows are deleted when new ones are
-- written, so the table holds only the last few minutes' attempts.
CREATE TABLE identity_oauth_states (
    state_hash TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    redirect_uri TEXT NOT NULL,
    nonce TEXT NOT NULL,
    pkce_verifier TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    expires_at_ms BIGINT NOT NULL
);
CREATE INDEX identity_oauth_states_expiry ON identity_oauth_states (expires_at_ms);

-- A provider's account (issuer-scoped subject) linked to one local account. The unique pair is
-- the arbiter when two first sign-ins of one identity race.
CREATE TABLE identity_linked_identities (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES identity_users (id),
    provider TEXT NOT NULL,
    subject TEXT NOT NULL,
    email TEXT,
    linked_at_ms BIGINT NOT NULL,
    last_used_at_ms BIGINT NOT NULL,
    CONSTRAINT identity_linked_identities_provider_subject_key UNIQUE (provider, subject)
);
CREATE INDEX identity_linked_identities_user ON identity_linked_identities (user_id);
