-- Client addresses (an IPv4 address or an IPv6 /64, as the SHA-256 of its text) from which an
-- account signed in successfully, and when last. Failed logins and mail requests from other
-- addresses cannot use up the account's limit for these (api/throttle.rs): a stranger cannot
-- lock the owner out of where they sign in from. Rows older than rate_limit.known_address_ttl
-- no longer count, and are deleted when the account next signs in.
CREATE TABLE identity_known_addresses (
    user_id TEXT NOT NULL REFERENCES identity_users (id),
    address_hash TEXT NOT NULL,
    last_seen_at_ms BIGINT NOT NULL,
    PRIMARY KEY (user_id, address_hash)
);
