-- Who locked or unlocked which account, when, in which request. Each row is written in the
-- transaction of the change it records: there is no change without its record, nor the reverse.
CREATE TABLE identity_admin_audit (
    id TEXT PRIMARY KEY,
    actor_id TEXT NOT NULL,
    action TEXT NOT NULL,
    target_id TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    request_id TEXT
);
CREATE INDEX identity_admin_audit_at ON identity_admin_audit (at_ms, id);

-- One row that every lock and unlock updates first, so that they run one at a time: two
-- administrators locking each other at once cannot both succeed and leave no active one.
CREATE TABLE identity_admin_changes (
    id INTEGER PRIMARY KEY,
    changes BIGINT NOT NULL
);
INSERT INTO identity_admin_changes (id, changes) VALUES (1, 0);
