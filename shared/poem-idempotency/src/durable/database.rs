//! The databases the outcomes table lives in, each through its own sqlx driver: PostgreSQL
//! (`PgPool`), SQLite (`SqlitePool`), and either of them through `Any` (`AnyPool`, which
//! picks the statements by the backend it connected to). MySQL is not one: its upsert
//! (`ON DUPLICATE KEY UPDATE`) cannot say "only if the row expired" and report it.
//!
//! Every statement reads the time from the database (`now`, below), never from the instance
//! that runs it: instances whose clocks disagree still agree on when an outcome expires, so an
//! instance whose clock runs ahead cannot take over or sweep an outcome early (and a retry then
//! execute again). Statements are `'static` text, so each connection prepares each once.

use std::time::Duration;

use bytes::Bytes;
use futures_util::future::BoxFuture;

use super::{CommittedOutcome, WriteTransaction};
use crate::store::StoredResponse;

/// A database whose pool holds durable outcomes: `sqlx::Postgres` (feature `postgres`),
/// `sqlx::Sqlite` (feature `sqlite`) and `sqlx::Any` (PostgreSQL or SQLite behind it). A
/// service passes its own pool ([`crate::DurableOutcomes::new`],
/// [`crate::OutcomeRecorder::begin`]) and never names this trait.
pub trait OutcomeDatabase: driver::Database {}

/// A connection (or a transaction) the answer can be written on:
/// [`crate::PreparedOutcome::record`] takes the handler's own, so the answer commits with the
/// effect. Implemented for the connections and transactions of every [`OutcomeDatabase`].
pub trait OutcomeConnection: driver::Connection {}

/// The answer as it is written: one row of `idempotency_outcomes` (public only to the sealed
/// traits, in a module no user can name).
pub struct OutcomeRow<'a> {
    pub scope: &'a str,
    pub fingerprint: &'a str,
    pub response: &'a StoredResponse,
    pub retention: Duration,
}

impl OutcomeRow<'_> {
    fn retention_ms(&self) -> i64 {
        i64::try_from(self.retention.as_millis()).unwrap_or(i64::MAX)
    }
}

/// The statements of one SQL dialect; `now` is the database's clock in Unix milliseconds.
struct Statements {
    /// Inserts the answer, or takes over an expired row of the key; writes no row when a live
    /// one is there (another execution committed the key's outcome).
    record: &'static str,
    /// The unexpired outcome of a key, with how long it has left.
    find: &'static str,
    /// Deletes the expired outcomes.
    sweep: &'static str,
}

/// [`Statements`] with the dialect's `now`. `body_hex`, the body's column before bodies were
/// bytes, is left empty by new rows and read only where `body` is null.
macro_rules! statements {
    ($now:literal) => {
        Statements {
            record: concat!(
                "INSERT INTO idempotency_outcomes
                 (scope_key, fingerprint, status, content_type, location, etag, body, body_hex,
                  created_at_ms, expires_at_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, '', ",
                $now,
                ", ",
                $now,
                " + $8)
                 ON CONFLICT (scope_key) DO UPDATE SET
                 fingerprint = excluded.fingerprint, status = excluded.status,
                 content_type = excluded.content_type, location = excluded.location,
                 etag = excluded.etag, body = excluded.body, body_hex = excluded.body_hex,
                 created_at_ms = excluded.created_at_ms, expires_at_ms = excluded.expires_at_ms
                 WHERE idempotency_outcomes.expires_at_ms <= ",
                $now
            ),
            find: concat!(
                "SELECT fingerprint, status, content_type, location, etag, body, body_hex,
                 expires_at_ms - ",
                $now,
                " AS expires_in_ms
                 FROM idempotency_outcomes
                 WHERE scope_key = $1 AND expires_at_ms > ",
                $now
            ),
            sweep: concat!(
                "DELETE FROM idempotency_outcomes WHERE expires_at_ms <= ",
                $now
            ),
        }
    };
}

/// `statement_timestamp()`: one instant for the whole statement, in whole milliseconds as a
/// clock reads them (floored, never ahead of the instant).
static POSTGRES: Statements =
    statements!("CAST(FLOOR(EXTRACT(EPOCH FROM statement_timestamp()) * 1000) AS BIGINT)");

/// `julianday('now')`, which SQLite holds still for the whole statement, in Unix milliseconds.
/// SQLite keeps the instant in whole milliseconds and hands it out as a fraction of a day:
/// rounded back, not truncated, or a millisecond is lost whenever the fraction falls short.
static SQLITE: Statements =
    statements!("CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER)");

/// The outcome a `find` row holds.
fn committed_outcome<R>(row: &R) -> Result<CommittedOutcome, sqlx::Error>
where
    R: sqlx::Row,
    for<'r> &'r str: sqlx::ColumnIndex<R>,
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<String>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<Vec<u8>>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i32: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    let status: i32 = row.try_get("status")?;
    let body = match row.try_get::<Option<Vec<u8>>, _>("body")? {
        Some(body) => body,
        None => hex::decode(row.try_get::<String, _>("body_hex")?)
            .map_err(|err| sqlx::Error::Decode(Box::new(err)))?,
    };
    let expires_in_ms: i64 = row.try_get("expires_in_ms")?;
    Ok(CommittedOutcome {
        fingerprint: row.try_get("fingerprint")?,
        response: StoredResponse {
            status: u16::try_from(status).unwrap_or(500),
            content_type: row.try_get("content_type")?,
            location: row.try_get("location")?,
            etag: row.try_get("etag")?,
            body: Bytes::from(body),
        },
        expires_in: Duration::from_millis(u64::try_from(expires_in_ms).unwrap_or(0)),
    })
}

/// The sealed part: what each database does, which only this crate implements or calls.
pub mod driver {
    use super::*;

    pub trait Database: sqlx::Database {
        /// Begins a transaction that will write (see [`crate::durable::begin_write`]).
        fn begin_write(
            pool: &sqlx::Pool<Self>,
        ) -> BoxFuture<'_, Result<WriteTransaction<Self>, sqlx::Error>>
        where
            Self: super::OutcomeDatabase;

        /// The unexpired outcome of `scope` (hex).
        fn find<'a>(
            pool: &'a sqlx::Pool<Self>,
            scope: &'a str,
        ) -> BoxFuture<'a, Result<Option<CommittedOutcome>, sqlx::Error>>;

        /// Deletes the expired outcomes; how many.
        fn sweep(pool: &sqlx::Pool<Self>) -> BoxFuture<'_, Result<u64, sqlx::Error>>;
    }

    pub trait Connection: Send {
        /// Writes `row`; whether it was written (false: a live outcome of the key is there).
        fn record<'a>(
            &'a mut self,
            row: &'a OutcomeRow<'a>,
        ) -> BoxFuture<'a, Result<bool, sqlx::Error>>;
    }
}

/// Binds the row to its dialect's record statement and runs it on `$connection`.
macro_rules! record_row {
    ($statements:expr, $row:expr, $connection:expr) => {{
        let row = $row;
        let response = row.response;
        let written = sqlx::query($statements.record)
            .bind(row.scope)
            .bind(row.fingerprint)
            .bind(i32::from(response.status))
            .bind(response.content_type.as_deref())
            .bind(response.location.as_deref())
            .bind(response.etag.as_deref())
            .bind(&response.body[..])
            .bind(row.retention_ms())
            .execute($connection)
            .await?;
        Ok(written.rows_affected() > 0)
    }};
}

/// The find and sweep statements of `$statements` on `$pool`.
macro_rules! find_outcome {
    ($statements:expr, $pool:expr, $scope:expr) => {{
        let row = sqlx::query($statements.find)
            .bind($scope)
            .fetch_optional($pool)
            .await?;
        row.as_ref().map(committed_outcome).transpose()
    }};
}

macro_rules! sweep_outcomes {
    ($statements:expr, $pool:expr) => {{
        let deleted = sqlx::query($statements.sweep).execute($pool).await?;
        Ok(deleted.rows_affected())
    }};
}

/// The connections and transactions of `$database` write outcomes through its connection.
macro_rules! outcome_connections {
    ($database:ty, $connection:ty) => {
        impl OutcomeConnection for $connection {}
        impl OutcomeConnection for sqlx::Transaction<'_, $database> {}
        impl driver::Connection for sqlx::Transaction<'_, $database> {
            fn record<'a>(
                &'a mut self,
                row: &'a OutcomeRow<'a>,
            ) -> BoxFuture<'a, Result<bool, sqlx::Error>> {
                driver::Connection::record(&mut **self, row)
            }
        }
    };
}

#[cfg(feature = "postgres")]
mod postgres {
    use super::*;

    impl OutcomeDatabase for sqlx::Postgres {}
    outcome_connections!(sqlx::Postgres, sqlx::PgConnection);

    impl driver::Database for sqlx::Postgres {
        fn begin_write(
            pool: &sqlx::PgPool,
        ) -> BoxFuture<'_, Result<WriteTransaction<Self>, sqlx::Error>> {
            // PostgreSQL waits on the rows it writes by itself: a plain `BEGIN`.
            Box::pin(async move { Ok(WriteTransaction::new(pool.begin().await?, None)) })
        }

        fn find<'a>(
            pool: &'a sqlx::PgPool,
            scope: &'a str,
        ) -> BoxFuture<'a, Result<Option<CommittedOutcome>, sqlx::Error>> {
            Box::pin(async move { find_outcome!(POSTGRES, pool, scope) })
        }

        fn sweep(pool: &sqlx::PgPool) -> BoxFuture<'_, Result<u64, sqlx::Error>> {
            Box::pin(async move { sweep_outcomes!(POSTGRES, pool) })
        }
    }

    impl driver::Connection for sqlx::PgConnection {
        fn record<'a>(
            &'a mut self,
            row: &'a OutcomeRow<'a>,
        ) -> BoxFuture<'a, Result<bool, sqlx::Error>> {
            Box::pin(async move { record_row!(POSTGRES, row, &mut *self) })
        }
    }
}

#[cfg(feature = "sqlite")]
mod sqlite {
    use super::*;

    impl OutcomeDatabase for sqlx::Sqlite {}
    outcome_connections!(sqlx::Sqlite, sqlx::SqliteConnection);

    impl driver::Database for sqlx::Sqlite {
        fn begin_write(
            pool: &sqlx::SqlitePool,
        ) -> BoxFuture<'_, Result<WriteTransaction<Self>, sqlx::Error>> {
            Box::pin(async move {
                let database = pool
                    .connect_options()
                    .get_filename()
                    .to_string_lossy()
                    .into_owned();
                let turn = super::super::writers_turn(&database).await?;
                let transaction = pool.begin_with(super::super::SQLITE_BEGIN_WRITE).await?;
                Ok(WriteTransaction::new(transaction, Some(turn)))
            })
        }

        fn find<'a>(
            pool: &'a sqlx::SqlitePool,
            scope: &'a str,
        ) -> BoxFuture<'a, Result<Option<CommittedOutcome>, sqlx::Error>> {
            Box::pin(async move { find_outcome!(SQLITE, pool, scope) })
        }

        fn sweep(pool: &sqlx::SqlitePool) -> BoxFuture<'_, Result<u64, sqlx::Error>> {
            Box::pin(async move { sweep_outcomes!(SQLITE, pool) })
        }
    }

    impl driver::Connection for sqlx::SqliteConnection {
        fn record<'a>(
            &'a mut self,
            row: &'a OutcomeRow<'a>,
        ) -> BoxFuture<'a, Result<bool, sqlx::Error>> {
            Box::pin(async move { record_row!(SQLITE, row, &mut *self) })
        }
    }
}

mod any {
    use super::*;

    impl OutcomeDatabase for sqlx::Any {}
    outcome_connections!(sqlx::Any, sqlx::AnyConnection);

    /// The statements of the backend `Any` connected to.
    fn statements_for(backend: &str) -> Result<&'static Statements, sqlx::Error> {
        match backend {
            "PostgreSQL" | "postgres" | "postgresql" => Ok(&POSTGRES),
            "SQLite" | "sqlite" => Ok(&SQLITE),
            other => Err(sqlx::Error::Configuration(
                format!("durable idempotency outcomes need PostgreSQL or SQLite, not {other}")
                    .into(),
            )),
        }
    }

    /// The statements of the database `pool` connects to, by its URL's scheme.
    fn statements_of(pool: &sqlx::AnyPool) -> Result<&'static Statements, sqlx::Error> {
        statements_for(pool.connect_options().database_url.scheme())
    }

    impl driver::Database for sqlx::Any {
        fn begin_write(
            pool: &sqlx::AnyPool,
        ) -> BoxFuture<'_, Result<WriteTransaction<Self>, sqlx::Error>> {
            Box::pin(async move {
                let options = pool.connect_options();
                let url = options.database_url.as_str();
                if !url.starts_with("sqlite:") {
                    return Ok(WriteTransaction::new(pool.begin().await?, None));
                }
                let turn = super::super::writers_turn(url).await?;
                let transaction = pool.begin_with(super::super::SQLITE_BEGIN_WRITE).await?;
                Ok(WriteTransaction::new(transaction, Some(turn)))
            })
        }

        fn find<'a>(
            pool: &'a sqlx::AnyPool,
            scope: &'a str,
        ) -> BoxFuture<'a, Result<Option<CommittedOutcome>, sqlx::Error>> {
            Box::pin(async move { find_outcome!(statements_of(pool)?, pool, scope) })
        }

        fn sweep(pool: &sqlx::AnyPool) -> BoxFuture<'_, Result<u64, sqlx::Error>> {
            Box::pin(async move { sweep_outcomes!(statements_of(pool)?, pool) })
        }
    }

    impl driver::Connection for sqlx::AnyConnection {
        fn record<'a>(
            &'a mut self,
            row: &'a OutcomeRow<'a>,
        ) -> BoxFuture<'a, Result<bool, sqlx::Error>> {
            Box::pin(async move {
                let statements = statements_for(self.backend_name())?;
                record_row!(statements, row, &mut *self)
            })
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn any_picks_the_statements_of_the_backend_it_connected_to() {
            assert!(std::ptr::eq(
                statements_for("PostgreSQL").unwrap(),
                &POSTGRES
            ));
            assert!(std::ptr::eq(statements_for("postgres").unwrap(), &POSTGRES));
            assert!(std::ptr::eq(statements_for("SQLite").unwrap(), &SQLITE));
            assert!(std::ptr::eq(statements_for("sqlite").unwrap(), &SQLITE));
            let refused = statements_for("MySQL").err().expect("MySQL is refused");
            assert!(
                refused.to_string().contains("PostgreSQL or SQLite"),
                "{refused}"
            );
        }
    }
}
