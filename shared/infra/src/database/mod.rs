//! The SQL database: one pool over SQLite or PostgreSQL, and per-module migrations.
//!
//! sqlx's `Any` driver lets the same queries run on both: SQLite is the zero-setup default, and
//! PostgreSQL is chosen by URL. Queries therefore stick to the common subset (TEXT, BIGINT,
//! `$1` placeholders, timestamps as Unix milliseconds).
//!
//! Migrations are plain SQL files a module embeds. They are recorded per module in
//! `schema_migrations`, so modules evolve their schemas independently and a module folder can be
//! copied to another service with its migrations.

use std::path::Path;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Executor};

use crate::settings::DatabaseSettings;

/// Which SQL engine the pool talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// One schema change of one module, applied once in order of `version`.
#[derive(Debug, Clone, Copy)]
pub struct Migration {
    pub version: i64,
    pub name: &'static str,
    pub sql: &'static str,
}

/// A failure to reach or prepare the database.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    #[error("cannot open the database: {0}")]
    Connect(#[source] sqlx::Error),
    #[error("cannot create the database directory {path}: {source}")]
    Directory {
        path: String,
        source: std::io::Error,
    },
    #[error("migration {module}/{version} ({name}) failed: {source}")]
    Migration {
        module: String,
        version: i64,
        name: &'static str,
        source: sqlx::Error,
    },
    #[error(transparent)]
    Query(#[from] sqlx::Error),
}

/// The service's database pool.
#[derive(Debug, Clone)]
pub struct Database {
    pool: AnyPool,
    dialect: Dialect,
}

impl Database {
    /// Opens the pool; for SQLite, creates the file (and its directory) on first start.
    pub async fn connect(settings: &DatabaseSettings) -> Result<Self, DatabaseError> {
        install_default_drivers();
        let url = settings.url.expose();
        let dialect = if url.starts_with("sqlite:") {
            Dialect::Sqlite
        } else {
            Dialect::Postgres
        };
        let url = match dialect {
            Dialect::Sqlite => prepare_sqlite_url(url)?,
            Dialect::Postgres => url.to_owned(),
        };
        // Every connection to `:memory:` is a database of its own: share one connection.
        let max_connections = if url.contains(":memory:") {
            1
        } else {
            settings.max_connections
        };
        let pool = AnyPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(std::time::Duration::from_secs(5))
            .connect(&url)
            .await
            .map_err(DatabaseError::Connect)?;
        if dialect == Dialect::Sqlite {
            // WAL lets readers proceed while a writer commits; it persists in the file. Switching
            // needs the file to itself and SQLite does not wait for that (no busy handler), so an
            // instance starting beside another retries for a while.
            let mut attempts = 0;
            while let Err(err) = pool.execute("PRAGMA journal_mode = WAL").await {
                attempts += 1;
                if attempts == 100 || !is_sqlite_busy(&err) {
                    return Err(DatabaseError::Connect(err));
                }
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
        }
        Ok(Self { pool, dialect })
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Answers whether the database takes a trivial query.
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        sqlx::query("SELECT 1")
            .execute(&self.pool)
            .await
            .map(|_| ())
    }

    /// Applies the module's migrations that have not run yet.
    ///
    /// Several instances may start at once against one database: the whole run holds a lock
    /// (a session advisory lock on PostgreSQL, an exclusive transaction on SQLite), so a second
    /// instance waits for the first, then finds the work done and skips it. On PostgreSQL each
    /// migration commits on its own; on SQLite the run is one exclusive transaction.
    pub async fn migrate(
        &self,
        module: &str,
        migrations: &[Migration],
    ) -> Result<(), DatabaseError> {
        let mut connection = self.pool.acquire().await?;
        match self.dialect {
            Dialect::Postgres => {
                sqlx::query("SELECT pg_advisory_lock($1)")
                    .bind(MIGRATION_LOCK)
                    .execute(&mut *connection)
                    .await?;
                let applied = apply(&mut connection, module, migrations, true).await;
                // Released on every path; should that fail, the connection is closed instead, which
                // ends the session and its lock (a pooled connection would keep it).
                let unlocked = sqlx::query("SELECT pg_advisory_unlock($1)")
                    .bind(MIGRATION_LOCK)
                    .execute(&mut *connection)
                    .await;
                if unlocked.is_err() {
                    let _ = connection.close().await;
                }
                applied
            }
            Dialect::Sqlite => {
                // A second process waits for the lock rather than failing at once.
                connection.execute("PRAGMA busy_timeout = 60000").await?;
                connection.execute("BEGIN EXCLUSIVE").await?;
                match apply(&mut connection, module, migrations, false).await {
                    Ok(()) => {
                        connection.execute("COMMIT").await?;
                        Ok(())
                    }
                    Err(err) => {
                        let _ = connection.execute("ROLLBACK").await;
                        Err(err)
                    }
                }
            }
        }
    }
}

/// The key of the PostgreSQL advisory lock migrations run under ("migrate" in ASCII).
const MIGRATION_LOCK: i64 = 0x006d_6967_7261_7465;

/// Applies what has not run yet, under the caller's lock, on `connection`; with
/// `transaction_each`, each migration in a transaction of its own.
async fn apply(
    connection: &mut sqlx::pool::PoolConnection<sqlx::Any>,
    module: &str,
    migrations: &[Migration],
    transaction_each: bool,
) -> Result<(), DatabaseError> {
    connection
        .execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
                module TEXT NOT NULL,
                version BIGINT NOT NULL,
                name TEXT NOT NULL,
                applied_at_ms BIGINT NOT NULL,
                PRIMARY KEY (module, version)
            )",
        )
        .await?;
    let mut ordered = migrations.to_vec();
    ordered.sort_by_key(|m| m.version);
    for migration in ordered {
        let applied: Option<(i64,)> = sqlx::query_as(
            "SELECT version FROM schema_migrations WHERE module = $1 AND version = $2",
        )
        .bind(module)
        .bind(migration.version)
        .fetch_optional(&mut **connection)
        .await?;
        if applied.is_some() {
            continue;
        }
        let fail = |source| DatabaseError::Migration {
            module: module.to_owned(),
            version: migration.version,
            name: migration.name,
            source,
        };
        if transaction_each {
            connection.execute("BEGIN").await.map_err(fail)?;
        }
        let applied = async {
            sqlx::raw_sql(migration.sql)
                .execute(&mut **connection)
                .await?;
            sqlx::query(
                "INSERT INTO schema_migrations (module, version, name, applied_at_ms) VALUES ($1, $2, $3, $4)",
            )
            .bind(module)
            .bind(migration.version)
            .bind(migration.name)
            .bind(now_ms())
            .execute(&mut **connection)
            .await
        }
        .await;
        if let Err(err) = applied {
            if transaction_each {
                let _ = connection.execute("ROLLBACK").await;
            }
            return Err(fail(err));
        }
        if transaction_each {
            connection.execute("COMMIT").await.map_err(fail)?;
        }
        tracing::info!(
            module,
            version = migration.version,
            name = migration.name,
            "applied migration"
        );
    }
    Ok(())
}

/// SQLite's `SQLITE_BUSY` (5): another connection holds the lock.
fn is_sqlite_busy(err: &sqlx::Error) -> bool {
    err.as_database_error()
        .and_then(|err| err.code())
        .is_some_and(|code| code == "5")
}

mod columns;

pub use columns::{OptionalFlag, OptionalUnixMs, UnixMs};
/// Every write transaction begins here: as the writer on SQLite, waiting its turn (ADR 0018).
/// The idempotency crate's durable transactions begin the same way, so one function decides.
pub use poem_idempotency::durable::{WriteTransaction, begin_write};

/// Milliseconds since the Unix epoch: how this schema stores time on both engines.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default()
}

fn prepare_sqlite_url(url: &str) -> Result<String, DatabaseError> {
    let rest = url.trim_start_matches("sqlite:").trim_start_matches("//");
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    if path == ":memory:" {
        return Ok(url.to_owned());
    }
    if let Some(dir) = Path::new(path)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).map_err(|source| DatabaseError::Directory {
            path: dir.display().to_string(),
            source,
        })?;
    }
    // `mode=rwc` creates the file when it does not exist yet.
    let query = if query.contains("mode=") {
        query.to_owned()
    } else if query.is_empty() {
        "mode=rwc".to_owned()
    } else {
        format!("{query}&mode=rwc")
    };
    Ok(format!("sqlite://{path}?{query}"))
}
