CREATE TABLE notifications (
    id TEXT PRIMARY KEY,
    recipient_id TEXT NOT NULL,
    sender_id TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    in_app BIGINT NOT NULL,
    by_email BIGINT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    read_at_ms BIGINT
);
CREATE INDEX notifications_recipient_created ON notifications (recipient_id, created_at_ms);

-- The outbox: one row per mail to send, written in the notification's own transaction.
-- state: pending (due at due_at_ms; claimed while claimed_until_ms is ahead), sent, skipped, dead.
CREATE TABLE notification_deliveries (
    id TEXT PRIMARY KEY,
    notification_id TEXT NOT NULL,
    recipient_id TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts BIGINT NOT NULL,
    due_at_ms BIGINT NOT NULL,
    claimed_by TEXT,
    claimed_until_ms BIGINT,
    last_error TEXT,
    created_at_ms BIGINT NOT NULL,
    finished_at_ms BIGINT
);
CREATE INDEX notification_deliveries_due ON notification_deliveries (state, due_at_ms);
