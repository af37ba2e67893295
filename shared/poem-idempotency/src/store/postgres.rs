//! The PostgreSQL record store: the [`RecordStore`] semantics shared by every instance of the
//! service through the database it already has, for a service with PostgreSQL and no Redis.
//!
//! A record is a row of its own table (`idempotency_records` unless told otherwise):
//!
//! | column                              | in progress | completed  |
//! |-------------------------------------|-------------|------------|
//! | `scope_key` (primary key), `fingerprint` | yes    | yes        |
//! | `token`                             | the claimant's | null    |
//! | `status`, `body`                    | null        | yes        |
//! | `content_type`, `location`, `etag`  | null        | if present |
//! | `expires_at`                        | lease end   | retention end |
//!
//! Every operation is one statement, so one round trip and atomic on its own:
//!
//! - **claim** is an `INSERT ... ON CONFLICT (scope_key) DO UPDATE` that replaces the row only
//!   if it has expired and otherwise writes it back unchanged. Either way the conflicting row is
//!   locked and returned as it now is, so two claimants of one key are ordered by the row lock:
//!   the second sees the first's claim (committed, since each statement commits on its own)
//!   and never both acquire. Whether we acquired is whether the returned token is ours.
//! - **complete**, **release** and **renew** act only `WHERE token = ours AND expires_at > now`:
//!   the fencing token, as in the other stores.
//!
//! Time is the database's (`statement_timestamp()`, one instant for the whole statement, so a
//! claim cannot see a row live in one column and expired in the next), never an instance's:
//! instances whose clocks disagree still agree on when a lease ends. Expired rows are reclaimed by the next claim of
//! their key, and the rest by [`PostgresStore::sweep`] (run it periodically:
//! [`PostgresStore::sweep_periodically`]).
//!
//! The cost against Redis is in the template's docs/benchmarks.md: a claim writes a row
//! version (and WAL) where Redis runs a script in memory.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use sqlx::{AssertSqlSafe, PgPool, Row as _, SqlSafeStr as _, SqlStr};

use super::{Claim, LeaseToken, RecordStore, StoreError, StoredResponse};
use crate::key::{Fingerprint, ScopeKey};

/// The store's table, unless the service names another.
pub const DEFAULT_TABLE: &str = "idempotency_records";

/// The record store in a PostgreSQL table. Cheap to clone: clones share the pool.
#[derive(Clone)]
pub struct PostgresStore {
    pool: PgPool,
    table: Arc<str>,
    statements: Arc<Statements>,
}

/// The statements, made once for the table (and prepared once per connection by sqlx).
struct Statements {
    claim: SqlStr,
    complete: SqlStr,
    release: SqlStr,
    renew: SqlStr,
    sweep: SqlStr,
}

impl Statements {
    fn for_table(table: &str) -> Self {
        let sql = |text: String| AssertSqlSafe(Arc::<str>::from(text)).into_sql_str();
        Self {
            // `$4` ms of lease. The row is rewritten as it was when it is live: that takes the
            // row lock and makes `RETURNING` give the row as it is now.
            claim: sql(format!(
                "INSERT INTO {table} AS r (scope_key, fingerprint, token, expires_at)
                 VALUES ($1, $2, $3, statement_timestamp() + $4 * interval '1 millisecond')
                 ON CONFLICT (scope_key) DO UPDATE SET
                   fingerprint = CASE WHEN r.expires_at <= statement_timestamp()
                     THEN excluded.fingerprint ELSE r.fingerprint END,
                   token = CASE WHEN r.expires_at <= statement_timestamp()
                     THEN excluded.token ELSE r.token END,
                   status = CASE WHEN r.expires_at <= statement_timestamp()
                     THEN NULL ELSE r.status END,
                   content_type = CASE WHEN r.expires_at <= statement_timestamp()
                     THEN NULL ELSE r.content_type END,
                   location = CASE WHEN r.expires_at <= statement_timestamp()
                     THEN NULL ELSE r.location END,
                   etag = CASE WHEN r.expires_at <= statement_timestamp()
                     THEN NULL ELSE r.etag END,
                   body = CASE WHEN r.expires_at <= statement_timestamp()
                     THEN NULL ELSE r.body END,
                   expires_at = CASE WHEN r.expires_at <= statement_timestamp()
                     THEN excluded.expires_at ELSE r.expires_at END
                 RETURNING coalesce(token = $3, false) AS acquired, fingerprint = $2 AS same_request, status,
                   content_type, location, etag,
                   CASE WHEN fingerprint = $2 THEN body END AS body"
            )),
            complete: sql(format!(
                "UPDATE {table} SET token = NULL, status = $3, content_type = $4, location = $5,
                   etag = $6, body = $7,
                   expires_at = statement_timestamp() + $8 * interval '1 millisecond'
                 WHERE scope_key = $1 AND token = $2 AND expires_at > statement_timestamp()"
            )),
            release: sql(format!(
                "DELETE FROM {table}
                 WHERE scope_key = $1 AND token = $2 AND expires_at > statement_timestamp()"
            )),
            renew: sql(format!(
                "UPDATE {table} SET expires_at = statement_timestamp() + $3 * interval '1 millisecond'
                 WHERE scope_key = $1 AND token = $2 AND expires_at > statement_timestamp()"
            )),
            sweep: sql(format!(
                "DELETE FROM {table} WHERE expires_at <= statement_timestamp()"
            )),
        }
    }
}

/// Why a [`PostgresStore`] could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PostgresStoreError {
    /// The table's name is not a plain lower-case SQL identifier.
    #[error(
        "the idempotency table's name {0:?} must be a lower-case SQL identifier ([a-z_][a-z0-9_]*, at most 48 characters)"
    )]
    TableName(String),
    /// The table could not be created.
    #[error("the idempotency table could not be created: {0}")]
    Database(#[from] sqlx::Error),
}

impl PostgresStore {
    /// A store keeping its records in `table` of `pool`'s database, creating the table and its
    /// expiry index if they do not exist.
    pub async fn new(pool: PgPool, table: &str) -> Result<PostgresStore, PostgresStoreError> {
        if !is_identifier(table) {
            return Err(PostgresStoreError::TableName(table.to_owned()));
        }
        create_table(&pool, table).await?;
        Ok(PostgresStore {
            pool,
            table: table.into(),
            statements: Arc::new(Statements::for_table(table)),
        })
    }

    /// Deletes the expired records; how many.
    pub async fn sweep(&self) -> Result<u64, sqlx::Error> {
        let swept = sqlx::query(self.statements.sweep.clone())
            .execute(&self.pool)
            .await?;
        Ok(swept.rows_affected())
    }

    /// Sweeps every `every` until the task is aborted (a host aborts it at shutdown).
    pub fn sweep_periodically(self, every: Duration) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            loop {
                ticks.tick().await;
                if let Err(err) = self.sweep().await {
                    tracing::warn!(error = %err, "expired idempotency records could not be swept");
                }
            }
        })
    }
}

/// Creates the table unless it exists. Two instances starting at once may both try: the
/// loser's `CREATE` waits for the winner's and then fails on the catalog's unique index
/// (`23505`), once the table is there: that failure is the table made.
async fn create_table(pool: &PgPool, table: &str) -> Result<(), sqlx::Error> {
    let create = format!(
        "CREATE TABLE IF NOT EXISTS {table} (
            scope_key BYTEA PRIMARY KEY,
            fingerprint BYTEA NOT NULL,
            token BYTEA,
            status SMALLINT,
            content_type TEXT,
            location TEXT,
            etag TEXT,
            body BYTEA,
            expires_at TIMESTAMPTZ NOT NULL
        )"
    );
    let index = format!("CREATE INDEX IF NOT EXISTS {table}_expiry ON {table} (expires_at)");
    for statement in [create, index] {
        match sqlx::query(AssertSqlSafe(statement)).execute(pool).await {
            Err(sqlx::Error::Database(err)) if err.code().as_deref() == Some("23505") => {}
            created => {
                created?;
            }
        }
    }
    Ok(())
}

/// A name that needs no quoting and leaves room for the index's suffix in PostgreSQL's 63.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some('a'..='z' | '_'))
        && chars.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'))
        && name.len() <= 48
}

impl RecordStore for PostgresStore {
    fn name(&self) -> &'static str {
        "postgres"
    }

    async fn claim(
        &self,
        key: &ScopeKey,
        fingerprint: &Fingerprint,
        lease: Duration,
    ) -> Result<Claim, StoreError> {
        let token = LeaseToken::generate();
        let row = sqlx::query(self.statements.claim.clone())
            .bind(key.as_bytes().as_slice())
            .bind(fingerprint.as_bytes().as_slice())
            .bind(token.as_bytes().as_slice())
            .bind(millis(lease))
            .fetch_one(&self.pool)
            .await
            .map_err(unavailable)?;
        let read = || -> Result<Claim, sqlx::Error> {
            if row.try_get::<bool, _>("acquired")? {
                return Ok(Claim::Acquired(token.clone()));
            }
            if !row.try_get::<bool, _>("same_request")? {
                return Ok(Claim::Mismatch);
            }
            let Some(status) = row.try_get::<Option<i16>, _>("status")? else {
                return Ok(Claim::InFlight);
            };
            Ok(Claim::Completed(StoredResponse {
                status: u16::try_from(status).unwrap_or(500),
                content_type: row.try_get("content_type")?,
                location: row.try_get("location")?,
                etag: row.try_get("etag")?,
                body: Bytes::from(
                    row.try_get::<Option<Vec<u8>>, _>("body")?
                        .unwrap_or_default(),
                ),
            }))
        };
        read().map_err(unavailable)
    }

    async fn complete(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        response: &StoredResponse,
        retention: Duration,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(self.statements.complete.clone())
            .bind(key.as_bytes().as_slice())
            .bind(token.as_bytes().as_slice())
            .bind(i16::try_from(response.status).unwrap_or(i16::MAX))
            .bind(response.content_type.as_deref())
            .bind(response.location.as_deref())
            .bind(response.etag.as_deref())
            .bind(response.body.as_ref())
            .bind(millis(retention))
            .execute(&self.pool)
            .await
            .map_err(unavailable)?;
        Ok(done.rows_affected() == 1)
    }

    async fn release(&self, key: &ScopeKey, token: &LeaseToken) -> Result<bool, StoreError> {
        let done = sqlx::query(self.statements.release.clone())
            .bind(key.as_bytes().as_slice())
            .bind(token.as_bytes().as_slice())
            .execute(&self.pool)
            .await
            .map_err(unavailable)?;
        Ok(done.rows_affected() == 1)
    }

    async fn renew(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(self.statements.renew.clone())
            .bind(key.as_bytes().as_slice())
            .bind(token.as_bytes().as_slice())
            .bind(millis(lease))
            .execute(&self.pool)
            .await
            .map_err(unavailable)?;
        Ok(done.rows_affected() == 1)
    }
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore")
            .field("table", &self.table)
            .finish_non_exhaustive()
    }
}

/// A duration in whole milliseconds, never zero (a zero lease would be expired on arrival).
fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis())
        .unwrap_or(i64::MAX)
        .max(1)
}

fn unavailable(error: sqlx::Error) -> StoreError {
    StoreError::Unavailable(error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    /// PostgreSQL for these tests: `TEST_DATABASE_URL` if it names one, else the local server.
    /// Without one the tests fail (they are the store's definition, and CI has PostgreSQL).
    fn database_url() -> String {
        std::env::var("TEST_DATABASE_URL")
            .ok()
            .filter(|url| url.starts_with("postgres"))
            .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".to_owned())
    }

    async fn pool() -> PgPool {
        PgPool::connect(&database_url())
            .await
            .unwrap_or_else(|err| {
                panic!(
                    "the PostgreSQL store's tests need PostgreSQL at {} \
                 (set TEST_DATABASE_URL): {err}",
                    database_url()
                )
            })
    }

    /// A store over a table of its own, so tests run in parallel.
    pub(crate) async fn store() -> Store {
        let table = format!(
            "idempotency_records_{}",
            hex::encode(rand::random::<[u8; 8]>())
        );
        Store::new(PostgresStore::new(pool().await, &table).await.unwrap())
    }

    crate::store_conformance_suite!(
        #[tokio::test]
        store().await
    );

    #[tokio::test]
    async fn a_table_name_that_would_need_quoting_is_refused() {
        for name in [
            "",
            "Records",
            "records; DROP TABLE x",
            "1records",
            &"r".repeat(49),
        ] {
            let refused = PostgresStore::new(pool().await, name).await;
            assert!(
                matches!(refused, Err(PostgresStoreError::TableName(_))),
                "{name:?}"
            );
        }
    }

    #[tokio::test]
    async fn a_table_the_database_refuses_to_create_is_an_error() {
        // A table's row type takes its name: a type of that name already there refuses it.
        let name = format!(
            "idempotency_taken_{}",
            hex::encode(rand::random::<[u8; 8]>())
        );
        let pool = pool().await;
        sqlx::query(AssertSqlSafe(format!("CREATE TYPE {name} AS (a INTEGER)")))
            .execute(&pool)
            .await
            .unwrap();

        let refused = PostgresStore::new(pool, &name).await;

        assert!(
            matches!(refused, Err(PostgresStoreError::Database(_))),
            "{refused:?}"
        );
    }

    #[tokio::test]
    async fn a_sweep_deletes_the_expired_records_only() {
        let table = format!(
            "idempotency_sweep_{}",
            hex::encode(rand::random::<[u8; 8]>())
        );
        let postgres = PostgresStore::new(pool().await, &table).await.unwrap();
        let store = Store::new(postgres.clone());
        let fingerprint = Fingerprint::of(b"{}", None, "");
        let scope = |key: &str| {
            let key = crate::key::ClientKey::parse(key).unwrap().unwrap();
            ScopeKey::derive("caller", "POST", "/orders", &key)
        };
        for short in ["short-1", "short-2"] {
            store
                .claim(&scope(short), &fingerprint, Duration::from_millis(1))
                .await
                .unwrap();
        }
        store
            .claim(&scope("long"), &fingerprint, Duration::from_secs(60))
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;

        assert_eq!(postgres.sweep().await.unwrap(), 2);
        assert_eq!(postgres.sweep().await.unwrap(), 0);
        assert_eq!(
            store
                .claim(&scope("long"), &fingerprint, Duration::from_secs(60))
                .await
                .unwrap(),
            Claim::InFlight
        );
    }

    #[tokio::test]
    async fn two_instances_creating_the_table_at_once_both_succeed() {
        let table = format!(
            "idempotency_race_{}",
            hex::encode(rand::random::<[u8; 8]>())
        );
        let (first, second) = tokio::join!(
            PostgresStore::new(pool().await, &table),
            PostgresStore::new(pool().await, &table)
        );
        first.unwrap();
        second.unwrap();
    }

    #[tokio::test]
    async fn a_postgres_store_says_so_and_debugs_as_its_table() {
        let postgres = PostgresStore::new(pool().await, DEFAULT_TABLE)
            .await
            .unwrap();
        assert_eq!(
            format!("{postgres:?}"),
            r#"PostgresStore { table: "idempotency_records", .. }"#
        );
        assert_eq!(Store::new(postgres).backend_name(), "postgres");
    }
}
