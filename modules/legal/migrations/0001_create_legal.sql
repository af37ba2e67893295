-- One row per kind of document: the number of its latest version. Publishing updates it first,
-- in the publishing transaction, so concurrent publishes of one kind queue on this row and each
-- gets the next number.
CREATE TABLE legal_documents (
    kind TEXT PRIMARY KEY,
    latest_version BIGINT NOT NULL
);
-- Every version ever published. Immutable: nothing updates or deletes a version.
CREATE TABLE legal_versions (
    kind TEXT NOT NULL,
    version BIGINT NOT NULL,
    body TEXT NOT NULL,
    published_at_ms BIGINT NOT NULL,
    effective_at_ms BIGINT NOT NULL,
    published_by TEXT NOT NULL,
    PRIMARY KEY (kind, version)
);
CREATE INDEX legal_versions_effective ON legal_versions (kind, effective_at_ms);
-- Acceptances are evidence: rows are only ever inserted, never updated or deleted. One per
-- (user, kind, version): accepting again finds the first record.
CREATE TABLE legal_acceptances (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    version BIGINT NOT NULL,
    accepted_at_ms BIGINT NOT NULL,
    client_address TEXT NOT NULL,
    user_agent TEXT,
    request_id TEXT,
    CONSTRAINT legal_acceptances_once UNIQUE (user_id, kind, version),
    FOREIGN KEY (kind, version) REFERENCES legal_versions (kind, version)
);
