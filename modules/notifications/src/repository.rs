//! SQL for notifications and their outbox. Every recipient query filters by recipient: one
//! account never sees another's notifications.
//!
//! Every statement is static text (ADR 0015): the columns a notification is read from are named
//! once, in [`notification_columns!`], and joined to each statement by `concat!`; rows become
//! [`Notification`]s and [`ClaimedDelivery`]s by their `sqlx::FromRow`. The outbox's claim is
//! static text too, one statement per dialect (only PostgreSQL's locks the rows it takes).

use infra::Database;
use infra::database::{Dialect, now_ms};
use kernel::{AppResult, PageRequest};
use sqlx::{AnyConnection, AnyPool};

use crate::model::{Channel, MailDelivery, Notification};

/// The columns of a [`Notification`], for `SELECT`: a macro, so that each statement stays one
/// piece of static text.
macro_rules! notification_columns {
    () => {
        "id, sender_id, title, body, in_app, by_email, created_at_ms, read_at_ms"
    };
}

/// The columns of a [`MailDelivery`], for `SELECT` and `RETURNING`.
macro_rules! delivery_columns {
    () => {
        "id, notification_id, recipient_id, state, attempts, last_error, created_at_ms, finished_at_ms"
    };
}

/// What reviving a dead letter found.
#[derive(Debug)]
pub enum Revival {
    /// Back in the queue, due now, with its attempts counted afresh.
    Revived(MailDelivery),
    /// There is a delivery with this id, but it is not dead (sent, skipped, or already back in
    /// the queue).
    NotDead(MailDelivery),
    NotFound,
}

/// A mail the outbox owes, as a worker claimed it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ClaimedDelivery {
    pub id: String,
    /// The notification it mails.
    pub notification_id: String,
    pub recipient_id: String,
    /// Including the attempt this claim starts.
    #[sqlx(try_from = "StoredAttempts")]
    pub attempts: u32,
    /// `None` when the recipient deleted the notification before it was mailed.
    #[sqlx(skip)]
    pub content: Option<(String, String)>,
}

/// How many attempts a delivery had, as stored (`BIGINT`); read as a `u32`, at most `u32::MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::Type)]
#[sqlx(transparent)]
pub struct StoredAttempts(pub i64);

impl From<StoredAttempts> for u32 {
    fn from(stored: StoredAttempts) -> Self {
        u32::try_from(stored.0).unwrap_or(u32::MAX)
    }
}

/// How a delivery ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryEnd {
    Sent,
    /// Not sent, on purpose (no such account, no confirmed address, deleted).
    Skipped,
    /// Failed `max_attempts` times: kept for an operator, never tried again.
    Dead,
}

impl DeliveryEnd {
    fn as_str(self) -> &'static str {
        match self {
            Self::Sent => "sent",
            Self::Skipped => "skipped",
            Self::Dead => "dead",
        }
    }
}

#[derive(Debug, Clone)]
pub struct NotificationRepository {
    database: Database,
}

impl NotificationRepository {
    pub fn new(database: Database) -> Self {
        Self { database }
    }

    /// Where a durable operation's transaction begins (`poem_idempotency::OutcomeRecorder::begin`).
    pub fn pool(&self) -> &AnyPool {
        self.database.pool()
    }

    /// Stores a notification and, when it goes by mail, its delivery job, in `tx`: there is
    /// never a mail without its notification nor a notification whose mail is lost.
    #[tracing::instrument(name = "notifications.repository.insert", skip_all, fields(recipient = recipient_id))]
    pub async fn insert(
        &self,
        tx: &mut AnyConnection,
        notification: &Notification,
        recipient_id: &str,
    ) -> AppResult<()> {
        let has = |channel| notification.channels.contains(&channel);
        let created_ms = notification.created_at.unix_ms();
        sqlx::query(
            "INSERT INTO notifications (id, recipient_id, sender_id, title, body, in_app, by_email, created_at_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&notification.id)
        .bind(recipient_id)
        .bind(&notification.sender_id)
        .bind(&notification.title)
        .bind(&notification.body)
        .bind(i64::from(has(Channel::InApp)))
        .bind(i64::from(has(Channel::Email)))
        .bind(created_ms)
        .execute(&mut *tx)
        .await?;
        if has(Channel::Email) {
            sqlx::query(
                "INSERT INTO notification_deliveries (id, notification_id, recipient_id, state, attempts, due_at_ms, created_at_ms)
                 VALUES ($1, $2, $3, 'pending', 0, $4, $4)",
            )
            .bind(uuid::Uuid::now_v7().to_string())
            .bind(&notification.id)
            .bind(recipient_id)
            .bind(created_ms)
            .execute(&mut *tx)
            .await?;
        }
        Ok(())
    }

    /// One page of the recipient's in-app notifications, newest first; only the unread ones
    /// when `unread_only`. With the count of all that match.
    #[tracing::instrument(name = "notifications.repository.list", skip_all, fields(recipient = recipient))]
    pub async fn list(
        &self,
        recipient: &str,
        unread_only: bool,
        page: PageRequest,
    ) -> AppResult<(Vec<Notification>, u64)> {
        let items = sqlx::query_as(concat!(
            "SELECT ",
            notification_columns!(),
            " FROM notifications
             WHERE recipient_id = $1 AND in_app = 1 AND ($2 = 0 OR read_at_ms IS NULL)
             ORDER BY created_at_ms DESC, id DESC LIMIT $3 OFFSET $4"
        ))
        .bind(recipient)
        .bind(i64::from(unread_only))
        .bind(page.limit())
        .bind(page.offset())
        .fetch_all(self.database.pool())
        .await?;
        let total = self.count(recipient, unread_only).await?;
        Ok((items, total))
    }

    /// How many in-app notifications the recipient has (only unread ones when `unread_only`).
    #[tracing::instrument(name = "notifications.repository.count", skip_all, fields(recipient = recipient))]
    pub async fn count(&self, recipient: &str, unread_only: bool) -> AppResult<u64> {
        let count: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) AS n FROM notifications
             WHERE recipient_id = $1 AND in_app = 1 AND ($2 = 0 OR read_at_ms IS NULL)",
        )
        .bind(recipient)
        .bind(i64::from(unread_only))
        .fetch_one(self.database.pool())
        .await?;
        Ok(count.max(0) as u64)
    }

    #[tracing::instrument(name = "notifications.repository.find", skip_all, fields(recipient = recipient, notification.id = id))]
    pub async fn find(&self, recipient: &str, id: &str) -> AppResult<Option<Notification>> {
        let found = sqlx::query_as(concat!(
            "SELECT ",
            notification_columns!(),
            " FROM notifications WHERE recipient_id = $1 AND id = $2 AND in_app = 1"
        ))
        .bind(recipient)
        .bind(id)
        .fetch_optional(self.database.pool())
        .await?;
        Ok(found)
    }

    /// Marks one notification read (a read one keeps its first read time); whether the
    /// recipient has it.
    #[tracing::instrument(name = "notifications.repository.mark_read", skip_all, fields(recipient = recipient, notification.id = id))]
    pub async fn mark_read(&self, recipient: &str, id: &str) -> AppResult<bool> {
        let done = sqlx::query(
            "UPDATE notifications SET read_at_ms = COALESCE(read_at_ms, $1)
             WHERE recipient_id = $2 AND id = $3 AND in_app = 1",
        )
        .bind(now_ms())
        .bind(recipient)
        .bind(id)
        .execute(self.database.pool())
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Marks every unread notification of the recipient read; how many.
    #[tracing::instrument(name = "notifications.repository.mark_all_read", skip_all, fields(recipient = recipient))]
    pub async fn mark_all_read(&self, recipient: &str) -> AppResult<u64> {
        let done = sqlx::query(
            "UPDATE notifications SET read_at_ms = $1
             WHERE recipient_id = $2 AND in_app = 1 AND read_at_ms IS NULL",
        )
        .bind(now_ms())
        .bind(recipient)
        .execute(self.database.pool())
        .await?;
        Ok(done.rows_affected())
    }

    /// Deletes one of the recipient's notifications in `tx`; whether there was one. A mail not
    /// sent yet is then skipped.
    #[tracing::instrument(name = "notifications.repository.delete", skip_all, fields(recipient = recipient, notification.id = id))]
    pub async fn delete(
        &self,
        tx: &mut AnyConnection,
        recipient: &str,
        id: &str,
    ) -> AppResult<bool> {
        let done = sqlx::query(
            "DELETE FROM notifications WHERE recipient_id = $1 AND id = $2 AND in_app = 1",
        )
        .bind(recipient)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Claims up to `batch` due mails for `worker` until `lease_until_ms`, counting the attempt.
    ///
    /// One statement. On PostgreSQL the candidates are locked with `FOR UPDATE SKIP LOCKED`, so
    /// concurrent workers take different rows instead of queueing; the outer conditions are
    /// re-checked on the row as it is when locked, so a row another worker took meanwhile is
    /// left alone. SQLite runs one writer at a time, so the same statement is a single-claimer
    /// lease there.
    #[tracing::instrument(level = "debug", name = "notifications.repository.claim_due", skip_all, fields(worker = worker, batch = batch))]
    pub async fn claim_due(
        &self,
        worker: &str,
        lease_until_ms: i64,
        batch: u32,
    ) -> AppResult<Vec<ClaimedDelivery>> {
        // The claim, with `$lock` after the candidates' `LIMIT`: a macro, so that each dialect's
        // statement stays one piece of static text.
        macro_rules! claim_due_statement {
            ($lock:literal) => {
                concat!(
                    "UPDATE notification_deliveries
                     SET claimed_by = $1, claimed_until_ms = $2, attempts = attempts + 1
                     WHERE id IN (
                         SELECT id FROM notification_deliveries
                         WHERE state = 'pending' AND due_at_ms <= $3
                           AND (claimed_until_ms IS NULL OR claimed_until_ms < $3)
                         ORDER BY due_at_ms LIMIT $4 ",
                    $lock,
                    ")
                       AND state = 'pending' AND (claimed_until_ms IS NULL OR claimed_until_ms < $3)
                     RETURNING id, notification_id, recipient_id, attempts"
                )
            };
        }
        let statement = match self.database.dialect() {
            Dialect::Postgres => claim_due_statement!("FOR UPDATE SKIP LOCKED"),
            Dialect::Sqlite => claim_due_statement!(""),
        };
        let now = now_ms();
        let mut claimed: Vec<ClaimedDelivery> = sqlx::query_as(statement)
            .bind(worker)
            .bind(lease_until_ms)
            .bind(now)
            .bind(i64::from(batch))
            .fetch_all(self.database.pool())
            .await?;
        for delivery in &mut claimed {
            delivery.content =
                sqlx::query_as("SELECT title, body FROM notifications WHERE id = $1")
                    .bind(&delivery.notification_id)
                    .fetch_optional(self.database.pool())
                    .await?;
        }
        Ok(claimed)
    }

    /// Ends a delivery `worker` holds. A worker whose lease ran out (another one took the mail
    /// over) changes nothing.
    #[tracing::instrument(name = "notifications.repository.finish", skip_all, fields(mail.id = id, worker = worker))]
    pub async fn finish(
        &self,
        id: &str,
        worker: &str,
        end: DeliveryEnd,
        error: Option<&str>,
    ) -> AppResult<()> {
        sqlx::query(
            "UPDATE notification_deliveries
             SET state = $1, finished_at_ms = $2, last_error = $3, claimed_by = NULL, claimed_until_ms = NULL
             WHERE id = $4 AND claimed_by = $5 AND state = 'pending'",
        )
        .bind(end.as_str())
        .bind(now_ms())
        .bind(error)
        .bind(id)
        .bind(worker)
        .execute(self.database.pool())
        .await?;
        Ok(())
    }

    /// One page of the dead letters, the latest to fail first, and how many there are.
    #[tracing::instrument(name = "notifications.repository.dead_letters", skip_all)]
    pub async fn dead_letters(&self, page: PageRequest) -> AppResult<(Vec<MailDelivery>, u64)> {
        let items = sqlx::query_as(concat!(
            "SELECT ",
            delivery_columns!(),
            " FROM notification_deliveries WHERE state = 'dead'
              ORDER BY finished_at_ms DESC, id DESC LIMIT $1 OFFSET $2"
        ))
        .bind(page.limit())
        .bind(page.offset())
        .fetch_all(self.database.pool())
        .await?;
        Ok((items, self.count_dead_letters().await?))
    }

    /// How many mails are dead-lettered.
    #[tracing::instrument(
        level = "debug",
        name = "notifications.repository.count_dead_letters",
        skip_all
    )]
    pub async fn count_dead_letters(&self) -> AppResult<u64> {
        let (count,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM notification_deliveries WHERE state = 'dead'")
                .fetch_one(self.database.pool())
                .await?;
        Ok(u64::try_from(count).unwrap_or_default())
    }

    /// Puts dead letter `id` back in the queue, due at `now_ms`, in `tx`: one conditional
    /// statement, so of two concurrent revivals one wins and the other finds it not dead.
    #[tracing::instrument(name = "notifications.repository.revive", skip_all, fields(mail.id = id))]
    pub async fn revive(
        &self,
        tx: &mut AnyConnection,
        id: &str,
        now_ms: i64,
    ) -> AppResult<Revival> {
        let revived: Option<MailDelivery> = sqlx::query_as(concat!(
            "UPDATE notification_deliveries
             SET state = 'pending', attempts = 0, due_at_ms = $1, finished_at_ms = NULL,
                 claimed_by = NULL, claimed_until_ms = NULL
             WHERE id = $2 AND state = 'dead'
             RETURNING ",
            delivery_columns!()
        ))
        .bind(now_ms)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(revived) = revived {
            return Ok(Revival::Revived(revived));
        }
        let found: Option<MailDelivery> = sqlx::query_as(concat!(
            "SELECT ",
            delivery_columns!(),
            " FROM notification_deliveries WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        Ok(found.map_or(Revival::NotFound, Revival::NotDead))
    }

    /// Puts a delivery `worker` holds back in the queue, due at `due_at_ms`.
    #[tracing::instrument(name = "notifications.repository.retry_at", skip_all, fields(mail.id = id, worker = worker))]
    pub async fn retry_at(
        &self,
        id: &str,
        worker: &str,
        due_at_ms: i64,
        error: &str,
    ) -> AppResult<()> {
        sqlx::query(
            "UPDATE notification_deliveries
             SET due_at_ms = $1, last_error = $2, claimed_by = NULL, claimed_until_ms = NULL
             WHERE id = $3 AND claimed_by = $4 AND state = 'pending'",
        )
        .bind(due_at_ms)
        .bind(error)
        .bind(id)
        .bind(worker)
        .execute(self.database.pool())
        .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::StoredAttempts;

    #[test]
    fn a_stored_attempt_count_beyond_u32_reads_as_its_maximum() {
        assert_eq!(u32::from(StoredAttempts(3)), 3);
        assert_eq!(u32::from(StoredAttempts(i64::MAX)), u32::MAX);
        assert_eq!(u32::from(StoredAttempts(-1)), u32::MAX);
    }
}
