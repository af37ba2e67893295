//! SQL for legal documents and acceptances.
//!
//! Versions are numbered per kind in the publishing transaction, on the kind's row of
//! `legal_documents`, so concurrent publishes queue there and never share a number. Acceptances
//! are evidence: this file only ever inserts and reads them (no statement here or anywhere
//! changes or deletes one), and their unique constraint keeps one record per (user, kind,
//! version) however many requests race.
//!
//! Every statement is static text (ADR 0015): the columns a version and an acceptance are read
//! from are named once, in [`version_columns!`] and [`acceptance_columns!`], and joined to each
//! statement by `concat!`; rows become [`DocumentVersion`]s, [`Acceptance`]s and
//! [`CurrentVersion`]s by their `sqlx::FromRow`.

use infra::Database;
use infra::database::begin_write;
use infra::database::{Dialect, now_ms};
use kernel::AppResult;
use poem::IntoResponse;
use poem_idempotency::{OutcomeRecorder, Recorded};
use sqlx::{AnyConnection, AnyPool};

use crate::model::{Acceptance, DocumentVersion, Kind, Publication};

/// The columns of a [`DocumentVersion`], for `SELECT` and `RETURNING`: a macro, so that each
/// statement stays one piece of static text.
macro_rules! version_columns {
    () => {
        "kind, version, body, published_at_ms, effective_at_ms"
    };
}

/// The columns of an [`Acceptance`], for `SELECT` and `RETURNING`.
macro_rules! acceptance_columns {
    () => {
        "id, user_id, kind, version, accepted_at_ms, client_address, user_agent, request_id"
    };
}

/// A current version, without its body: what the acceptance gate and `/acceptances/me` need.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct CurrentVersion {
    pub kind: String,
    pub version: i64,
    pub effective_at_ms: i64,
}

/// An acceptance about to be recorded.
#[derive(Debug, Clone)]
pub struct NewAcceptance<'a> {
    pub user_id: &'a str,
    pub kind: &'a Kind,
    pub version: i64,
    pub accepted_at_ms: i64,
    pub client_address: &'a str,
    pub user_agent: Option<&'a str>,
    pub request_id: Option<&'a str>,
}

#[derive(Debug, Clone)]
pub struct LegalRepository {
    database: Database,
}

impl LegalRepository {
    pub fn new(database: Database) -> Self {
        Self { database }
    }

    /// Where a durable operation's transaction begins (`poem_idempotency::OutcomeRecorder::begin`).
    pub fn pool(&self) -> &AnyPool {
        self.database.pool()
    }

    /// Publishes a new version of `publication.kind`, numbered after the latest one, and
    /// records the answer `respond` makes of it (see `poem_idempotency::durable`), in one
    /// transaction. The first statement takes the kind's row, so concurrent publishes of one
    /// kind run one after the other.
    #[tracing::instrument(name = "legal.repository.publish", skip_all, fields(kind = %publication.kind))]
    pub async fn publish<R: IntoResponse>(
        &self,
        publication: &Publication,
        outcome: &OutcomeRecorder,
        respond: impl FnOnce(DocumentVersion) -> R,
    ) -> AppResult<Recorded<R>> {
        let kind = publication.kind.as_str();
        let mut tx = begin_write(self.database.pool()).await?;
        sqlx::query(
            "INSERT INTO legal_documents (kind, latest_version) VALUES ($1, 0)
             ON CONFLICT (kind) DO NOTHING",
        )
        .bind(kind)
        .execute(&mut *tx)
        .await?;
        let version: i64 = sqlx::query_scalar(
            "UPDATE legal_documents SET latest_version = latest_version + 1 WHERE kind = $1
             RETURNING latest_version",
        )
        .bind(kind)
        .fetch_one(&mut *tx)
        .await?;
        // Timed once the kind is held: an acceptance that took its time before waits for
        // this publication, so none recorded earlier can postdate the new version.
        let now = now_ms();
        let published = sqlx::query_as(concat!(
            "INSERT INTO legal_versions
             (kind, version, body, published_at_ms, effective_at_ms, published_by)
             VALUES ($1, $2, $3, $4, $5, $6)
             RETURNING ",
            version_columns!()
        ))
        .bind(kind)
        .bind(version)
        .bind(&publication.body)
        .bind(now.max(publication.published_at_ms))
        .bind(now.max(publication.effective_at_ms))
        .bind(&publication.published_by)
        .fetch_one(&mut *tx)
        .await?;
        let answer = outcome.prepare(respond(published)).await?;
        let recorded = answer.record(&mut tx).await?;
        tx.commit().await?;
        Ok(recorded)
    }

    /// One version of one kind.
    #[tracing::instrument(name = "legal.repository.version", skip_all, fields(kind = %kind, version = version))]
    pub async fn version(&self, kind: &Kind, version: i64) -> AppResult<Option<DocumentVersion>> {
        let found = sqlx::query_as(concat!(
            "SELECT ",
            version_columns!(),
            " FROM legal_versions WHERE kind = $1 AND version = $2"
        ))
        .bind(kind.as_str())
        .bind(version)
        .fetch_optional(self.database.pool())
        .await?;
        Ok(found)
    }

    /// How many kinds have a current version at `now_ms`.
    #[tracing::instrument(name = "legal.repository.count_current", skip_all)]
    pub async fn count_current(&self, now_ms: i64) -> AppResult<u64> {
        let count: i64 = sqlx::query_scalar(
            "SELECT COUNT(DISTINCT kind) AS n FROM legal_versions WHERE effective_at_ms <= $1",
        )
        .bind(now_ms)
        .fetch_one(self.database.pool())
        .await?;
        Ok(count.max(0) as u64)
    }

    /// The current version of each kind at `now_ms` (the highest-numbered one in effect), by
    /// kind, `limit` of them after skipping `offset`.
    #[tracing::instrument(name = "legal.repository.current_versions", skip_all)]
    pub async fn current_versions(
        &self,
        now_ms: i64,
        limit: i64,
        offset: i64,
    ) -> AppResult<Vec<DocumentVersion>> {
        let versions = sqlx::query_as(concat!(
            "SELECT ",
            version_columns!(),
            " FROM legal_versions v
             WHERE v.version = (SELECT MAX(w.version) FROM legal_versions w
                                WHERE w.kind = v.kind AND w.effective_at_ms <= $1)
             ORDER BY v.kind LIMIT $2 OFFSET $3"
        ))
        .bind(now_ms)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.database.pool())
        .await?;
        Ok(versions)
    }

    /// The current version of every kind at `now_ms`, without bodies, by kind.
    #[tracing::instrument(name = "legal.repository.current_summaries", skip_all)]
    pub async fn current_summaries(&self, now_ms: i64) -> AppResult<Vec<CurrentVersion>> {
        let summaries = sqlx::query_as(
            "SELECT v.kind, v.version, v.effective_at_ms FROM legal_versions v
             WHERE v.version = (SELECT MAX(w.version) FROM legal_versions w
                                WHERE w.kind = v.kind AND w.effective_at_ms <= $1)
             ORDER BY v.kind",
        )
        .bind(now_ms)
        .fetch_all(self.database.pool())
        .await?;
        Ok(summaries)
    }

    /// The number of the current version of `kind` at `now_ms`, if it has one.
    #[tracing::instrument(name = "legal.repository.current_version_of", skip_all, fields(kind = %kind))]
    pub async fn current_version_of(&self, kind: &Kind, now_ms: i64) -> AppResult<Option<i64>> {
        let version: Option<i64> = sqlx::query_scalar(
            "SELECT MAX(version) AS version FROM legal_versions
             WHERE kind = $1 AND effective_at_ms <= $2",
        )
        .bind(kind.as_str())
        .bind(now_ms)
        .fetch_one(self.database.pool())
        .await?;
        Ok(version)
    }

    /// The earliest time after `now_ms` at which a version of any kind takes effect: until
    /// then, the current versions stay what they are (unless a version is published).
    #[tracing::instrument(name = "legal.repository.next_effective_after", skip_all)]
    pub async fn next_effective_after(&self, now_ms: i64) -> AppResult<Option<i64>> {
        let next: Option<i64> = sqlx::query_scalar(
            "SELECT MIN(effective_at_ms) AS next FROM legal_versions WHERE effective_at_ms > $1",
        )
        .bind(now_ms)
        .fetch_one(self.database.pool())
        .await?;
        Ok(next)
    }

    /// Holds `kind` against a publication until `tx` ends, so that the current version read
    /// by [`Self::insert_acceptance`] stays current until it commits. On PostgreSQL, a shared
    /// lock on the kind's row (acceptances do not wait for one another; a publication's update
    /// waits for them, and they for it). SQLite has one writer at a time: the insert's own
    /// write lock does the same, and nothing may be read before it (a read would pin a
    /// snapshot the write could not upgrade).
    #[tracing::instrument(name = "legal.repository.hold_kind", skip_all, fields(kind = %kind))]
    pub async fn hold_kind(&self, tx: &mut AnyConnection, kind: &Kind) -> AppResult<()> {
        if self.database.dialect() == Dialect::Postgres {
            sqlx::query("SELECT latest_version FROM legal_documents WHERE kind = $1 FOR SHARE")
                .bind(kind.as_str())
                .fetch_optional(&mut *tx)
                .await?;
        }
        Ok(())
    }

    /// Records an acceptance of the current version, in one statement: the new record, or
    /// `None` when the version is not the current one of its kind at `accepted_at_ms` or the
    /// user already accepted it (the unique constraint decides, so of concurrent first
    /// acceptances exactly one inserts). Run after [`Self::hold_kind`] in the same transaction.
    #[tracing::instrument(name = "legal.repository.insert_acceptance", skip_all)]
    pub async fn insert_acceptance(
        &self,
        tx: &mut AnyConnection,
        acceptance: &NewAcceptance<'_>,
    ) -> AppResult<Option<Acceptance>> {
        let inserted = sqlx::query_as(concat!(
            "INSERT INTO legal_acceptances
             (id, user_id, kind, version, accepted_at_ms, client_address, user_agent, request_id)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8
             WHERE $4 = (SELECT MAX(version) FROM legal_versions
                         WHERE kind = $3 AND effective_at_ms <= $5)
             ON CONFLICT (user_id, kind, version) DO NOTHING
             RETURNING ",
            acceptance_columns!()
        ))
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(acceptance.user_id)
        .bind(acceptance.kind.as_str())
        .bind(acceptance.version)
        .bind(acceptance.accepted_at_ms)
        .bind(acceptance.client_address)
        .bind(acceptance.user_agent)
        .bind(acceptance.request_id)
        .fetch_optional(&mut *tx)
        .await?;
        Ok(inserted)
    }

    /// The user's acceptance of one version, if any, read through `executor` (the pool, or the
    /// transaction a request already holds).
    #[tracing::instrument(name = "legal.repository.acceptance", skip_all, fields(user.id = user_id, kind = %kind, version = version))]
    pub async fn acceptance<'e>(
        &self,
        executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
        user_id: &str,
        kind: &Kind,
        version: i64,
    ) -> AppResult<Option<Acceptance>> {
        let found = sqlx::query_as(concat!(
            "SELECT ",
            acceptance_columns!(),
            " FROM legal_acceptances
             WHERE user_id = $1 AND kind = $2 AND version = $3"
        ))
        .bind(user_id)
        .bind(kind.as_str())
        .bind(version)
        .fetch_optional(executor)
        .await?;
        Ok(found)
    }

    /// Every acceptance of the user, newest first.
    #[tracing::instrument(name = "legal.repository.acceptances_of", skip_all, fields(user.id = user_id))]
    pub async fn acceptances_of(&self, user_id: &str) -> AppResult<Vec<Acceptance>> {
        let acceptances = sqlx::query_as(concat!(
            "SELECT ",
            acceptance_columns!(),
            " FROM legal_acceptances WHERE user_id = $1
             ORDER BY accepted_at_ms DESC, id DESC"
        ))
        .bind(user_id)
        .fetch_all(self.database.pool())
        .await?;
        Ok(acceptances)
    }

    /// The (kind, version) pairs the user accepted.
    #[tracing::instrument(name = "legal.repository.accepted_versions", skip_all, fields(user.id = user_id))]
    pub async fn accepted_versions(&self, user_id: &str) -> AppResult<Vec<(String, i64)>> {
        let accepted =
            sqlx::query_as("SELECT kind, version FROM legal_acceptances WHERE user_id = $1")
                .bind(user_id)
                .fetch_all(self.database.pool())
                .await?;
        Ok(accepted)
    }
}

#[cfg(test)]
mod tests {
    /// Acceptance records are evidence: no statement in this module may change or delete one.
    #[test]
    fn nothing_updates_or_deletes_an_acceptance() {
        let sources = [
            include_str!("repository.rs"),
            include_str!("api.rs"),
            include_str!("enforcement.rs"),
            include_str!("lib.rs"),
            include_str!("../migrations/0001_create_legal.sql"),
        ];
        // Built here, so that this test does not find its own text.
        let forbidden =
            ["update", "delete from"].map(|verb| format!("{verb} {}", "legal_acceptances"));
        for source in sources {
            let text = source
                .to_ascii_lowercase()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            for statement in &forbidden {
                assert!(!text.contains(statement.as_str()), "found `{statement}`");
            }
        }
    }
}
