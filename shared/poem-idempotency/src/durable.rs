//! Outcomes committed with the operation's own effect: what makes an idempotent operation
//! exactly-once whatever dies (the default for every `#[idempotent]` operation whose effect is
//! in the database).
//!
//! The guard stores a response in its store (Redis, or this process) after the handler returns.
//! A process that dies between the handler's database commit and that store, a Redis master
//! that fails over before replicating it, or a store that is down leaves a retry nothing to
//! replay. So the handler writes its outcome (the response it is about to give) into the
//! `idempotency_outcomes` table **in the same database transaction as its effect**, through the
//! [`OutcomeRecorder`] the guard hands it: either both are committed or neither is.
//!
//! Nothing is read before the handler runs: the table's primary key on the scope key is the
//! check. [`DurableTransaction::commit`] writes the answer as the transaction's last statement
//! (`INSERT ... ON CONFLICT (scope_key) DO UPDATE ... WHERE expired`). A second execution of the
//! same key (a retry after a crash, a duplicate while the store was down) meets the committed
//! row there (in PostgreSQL it waits on an uncommitted one, then meets it), rolls its effect
//! back, and the guard answers what the first execution committed (replayed, or 422 for another
//! payload). A second execution that fails before it gets there because of the first one's
//! effect (a spent link, a taken name) is answered the same way: the guard looks for a committed
//! outcome when a keyed durable request fails. The store keeps its roles: the lock on in-flight
//! requests and the fast replay copy.
//!
//! The handler cannot forget the record: a durable operation must return [`Recorded<R>`], which
//! only [`DurableTransaction::commit`] or [`PreparedOutcome::record`] makes, inside a transaction
//! (`#[intents]` refuses to compile the operation otherwise). Records expire with
//! `idempotency.retention`; [`DurableOutcomes::sweep`] deletes them (the host runs it
//! periodically; the table is indexed for it).

// Without `durable`, what the guard shares with a transaction is built and never filled.
#![cfg_attr(not(feature = "durable"), allow(dead_code))]

use std::marker::PhantomData;
use std::sync::Arc;
#[cfg(feature = "durable")]
use std::sync::atomic::AtomicU64;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[cfg(feature = "durable")]
use bytes::Bytes;
use poem::{FromRequest, IntoResponse, Request, RequestBody, Response};
use poem_openapi::ApiResponse;
use poem_openapi::registry::{MetaResponses, Registry};
#[cfg(feature = "durable")]
use sqlx::Row as _;

use crate::key::{Fingerprint, ScopeKey};
use crate::store::StoredResponse;

/// The table's schema, one statement per line of SQL that SQLite and PostgreSQL both accept.
/// The host applies it as the `idempotency` migration namespace's version 1.
#[cfg(feature = "durable")]
pub const MIGRATION: &str = "\
CREATE TABLE idempotency_outcomes (
    scope_key TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    content_type TEXT,
    location TEXT,
    etag TEXT,
    body_hex TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    expires_at_ms BIGINT NOT NULL
);
CREATE INDEX idempotency_outcomes_expiry ON idempotency_outcomes (expires_at_ms);
";

/// Why a durable operation's transaction failed. Handlers return it with `?` (into
/// `poem::Error`, or the service's own error type); the guard answers a
/// [`DurableError::Superseded`] with the other execution's committed answer, so no client
/// sees that one.
#[derive(Debug, thiserror::Error)]
pub enum DurableError {
    /// The database failed: the transaction rolls back.
    #[cfg(feature = "durable")]
    #[error("the database failed: {0}")]
    Database(#[from] sqlx::Error),
    /// Another execution of the key committed its answer first: this one rolls back.
    #[error("An earlier request with this Idempotency-Key already committed its answer.")]
    Superseded,
    /// The answer's body could not be read to be recorded.
    #[error("the answer's body could not be read: {0}")]
    Body(String),
}

impl poem::error::ResponseError for DurableError {
    fn status(&self) -> poem::http::StatusCode {
        match self {
            Self::Superseded => poem::http::StatusCode::CONFLICT,
            _ => poem::http::StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// An outcome found in the database: the request it answered (its fingerprint, hex) and the
/// answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommittedOutcome {
    /// The fingerprint of the request it answered, hex.
    pub fingerprint: String,
    /// The answer.
    pub response: StoredResponse,
}

#[cfg(feature = "durable")]
/// The `idempotency_outcomes` table.
#[derive(Debug, Clone)]
pub struct DurableOutcomes {
    pool: sqlx::AnyPool,
    reads: Arc<AtomicU64>,
}

#[cfg(feature = "durable")]
impl DurableOutcomes {
    /// The table in `pool`'s database, with [`MIGRATION`] applied.
    pub fn new(pool: sqlx::AnyPool) -> Self {
        Self {
            pool,
            reads: Arc::default(),
        }
    }

    /// How many lookups [`Self::find`] has finished (found or not): only when an execution met
    /// another's committed outcome or its key in flight (nothing is read on a first execution's
    /// path).
    pub fn reads(&self) -> u64 {
        self.reads.load(Ordering::Acquire)
    }

    /// The unexpired outcome committed under `scope`, if any.
    pub async fn find(&self, scope: &ScopeKey) -> Result<Option<CommittedOutcome>, sqlx::Error> {
        self.find_hex(&scope.to_hex()).await
    }

    /// [`Self::find`] by the scope key's hex form.
    #[tracing::instrument(name = "idempotency.find_outcome", skip_all)]
    pub(crate) async fn find_hex(
        &self,
        scope: &str,
    ) -> Result<Option<CommittedOutcome>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT fingerprint, status, content_type, location, etag, body_hex
             FROM idempotency_outcomes
             WHERE scope_key = $1 AND expires_at_ms > $2",
        )
        .bind(scope)
        .bind(unix_ms())
        .fetch_optional(&self.pool)
        .await;
        // Counted once answered, so a test that sees the count knows the lookup is over.
        self.reads.fetch_add(1, Ordering::Release);
        let Some(row) = row? else {
            return Ok(None);
        };
        let status: i32 = row.try_get("status")?;
        let body_hex: String = row.try_get("body_hex")?;
        let body = hex::decode(body_hex).map_err(|err| sqlx::Error::Decode(Box::new(err)))?;
        Ok(Some(CommittedOutcome {
            fingerprint: row.try_get("fingerprint")?,
            response: StoredResponse {
                status: u16::try_from(status).unwrap_or(500),
                content_type: row.try_get("content_type")?,
                location: row.try_get("location")?,
                etag: row.try_get("etag")?,
                body: Bytes::from(body),
            },
        }))
    }

    /// Deletes expired outcomes; how many.
    pub async fn sweep(&self) -> Result<u64, sqlx::Error> {
        let deleted = sqlx::query("DELETE FROM idempotency_outcomes WHERE expires_at_ms <= $1")
            .bind(unix_ms())
            .execute(&self.pool)
            .await?;
        Ok(deleted.rows_affected())
    }

    /// Sweeps every `every` until the task is aborted (the host aborts it at shutdown).
    pub fn sweep_periodically(self, every: Duration) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            loop {
                ticks.tick().await;
                if let Err(err) = self.sweep().await {
                    tracing::warn!(error = %err, "expired idempotency outcomes could not be swept");
                }
            }
        })
    }
}

#[cfg(not(feature = "durable"))]
pub(crate) use crate::without_durable::DurableOutcomes;

/// What the guard puts in the request of a keyed execution of a durable operation: where its
/// outcome goes, and what became of it (read by the guard once the handler returned).
#[derive(Debug, Clone)]
pub(crate) struct PendingOutcome {
    /// [`ScopeKey::to_hex`].
    pub scope: String,
    /// [`Fingerprint::to_hex`].
    pub fingerprint: String,
    pub retention: Duration,
    /// Bodies larger than this are not kept (`idempotency.max_response_bytes`).
    pub max_body: usize,
    pub state: Arc<PendingState>,
}

/// What the handler did with its [`PendingOutcome`].
#[derive(Debug, Default)]
pub(crate) struct PendingState {
    /// The handler went through [`PreparedOutcome::record`] (in a transaction that may yet
    /// roll back).
    recorded: AtomicBool,
    /// Another execution of the key had committed its outcome: this one rolled back, and the
    /// guard answers with what that one committed.
    superseded: AtomicBool,
}

impl PendingState {
    pub fn superseded(&self) -> bool {
        self.superseded.load(Ordering::Acquire)
    }

    pub fn recorded(&self) -> bool {
        self.recorded.load(Ordering::Acquire)
    }
}

impl PendingOutcome {
    pub fn new(
        scope: &ScopeKey,
        fingerprint: &Fingerprint,
        retention: Duration,
        max_body: usize,
    ) -> Self {
        Self {
            scope: scope.to_hex(),
            fingerprint: fingerprint.to_hex(),
            retention,
            max_body,
            state: Arc::default(),
        }
    }

    /// Another execution committed an outcome under this key first.
    fn superseded(&self) -> DurableError {
        self.state.superseded.store(true, Ordering::Release);
        DurableError::Superseded
    }
}

/// Inserts the answer, or takes over an expired row of the key; no row is written when a live
/// one is there (the key's outcome was committed by another execution).
#[cfg(feature = "durable")]
const RECORD: &str = "\
INSERT INTO idempotency_outcomes
(scope_key, fingerprint, status, content_type, location, etag, body_hex, created_at_ms, expires_at_ms)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (scope_key) DO UPDATE SET
fingerprint = excluded.fingerprint, status = excluded.status,
content_type = excluded.content_type, location = excluded.location, etag = excluded.etag,
body_hex = excluded.body_hex, created_at_ms = excluded.created_at_ms,
expires_at_ms = excluded.expires_at_ms
WHERE idempotency_outcomes.expires_at_ms <= $8";

/// Hands a durable operation the means to commit its answer with its effect. Take it as an
/// argument of the operation; without a key (or without the guard) it records nothing, so the
/// same code serves keyed and unkeyed requests.
#[derive(Debug, Clone, Default)]
pub struct OutcomeRecorder {
    pending: Option<PendingOutcome>,
}

impl<'a> FromRequest<'a> for OutcomeRecorder {
    async fn from_request(req: &'a Request, _body: &mut RequestBody) -> poem::Result<Self> {
        Ok(Self {
            pending: req.extensions().get::<PendingOutcome>().cloned(),
        })
    }
}

impl OutcomeRecorder {
    /// Begins the effect's transaction on `pool`; the effect runs on it (it derefs to the
    /// connection), and [`DurableTransaction::commit`] commits the answer with it. Dropped before
    /// that (an error returned with `?`), everything rolls back.
    ///
    /// ```ignore
    /// let mut tx = outcome.begin(self.repository.pool()).await?;
    /// let thing = self.repository.insert(&mut tx, owner, &fields).await?;
    /// tx.commit(CreateThingResponse::Created(Json(thing))).await
    /// ```
    #[cfg(feature = "durable")]
    pub async fn begin(&self, pool: &sqlx::AnyPool) -> Result<DurableTransaction, DurableError> {
        let transaction = begin_write(pool).await?;
        Ok(DurableTransaction {
            transaction,
            recorder: self.clone(),
        })
    }

    /// Renders the answer the operation will give, ready to be recorded in its transaction. It
    /// only buffers the body.
    pub async fn prepare<R: IntoResponse>(
        &self,
        answer: R,
    ) -> Result<PreparedOutcome<R>, DurableError> {
        let (parts, body) = answer.into_response().into_parts();
        let body = crate::buffer::whole(body)
            .await
            .map_err(|err| DurableError::Body(err.to_string()))?;
        let stored = StoredResponse::of(&parts, body.clone());
        Ok(PreparedOutcome {
            pending: self.pending.clone(),
            stored,
            response: Response::from_parts(parts, body.into()),
            answer: PhantomData,
        })
    }
}

/// Begins a transaction that will write: every durable operation's, and every other write
/// transaction of a service that takes it (the template's repositories do). One place decides
/// how a writer waits its turn (ADR 0018):
///
/// - **SQLite** starts it as the writer (`BEGIN IMMEDIATE`), which waits for the database's
///   one writer up to the connection's busy timeout. A plain (deferred) transaction starts as a
///   reader and upgrades when it first writes; if another writer committed since it read, the
///   upgrade fails at once with `SQLITE_BUSY` and the busy timeout never applies, so two
///   writers that meet (a conditional update reads the version, then writes) made a 500.
///   This process's writers to one SQLite database also take turns before their `BEGIN`, in
///   order, each woken as soon as the one before it is done: SQLite's busy handler waits by
///   sleeping (1, 2, 5, 10 ms...), which at two writers halved the writes per second
///   (docs/benchmarks.md). Writers in other processes on the same file still meet in the busy
///   handler. A turn not had within [`TURN_WAIT`] is `sqlx::Error::PoolTimedOut`.
/// - **PostgreSQL** waits on the rows it writes by itself: a plain `BEGIN`. What it cannot
///   wait out (a deadlock, `40P01`; a serialization failure, `40001`) is answered `503` with
///   `Retry-After` by the service's error mapping, as SQLite's busy timeout running out is.
#[cfg(feature = "durable")]
pub async fn begin_write(pool: &sqlx::AnyPool) -> Result<WriteTransaction, sqlx::Error> {
    let options = pool.connect_options();
    let url = options.database_url.as_str();
    let Some(statement) = write_transaction_statement(url) else {
        return Ok(WriteTransaction {
            transaction: pool.begin().await?,
            _turn: None,
        });
    };
    let turn = tokio::time::timeout(TURN_WAIT, writers_of(url).acquire_owned())
        .await
        .map_err(|_| sqlx::Error::PoolTimedOut)?
        .expect("the writers' semaphore is never closed");
    Ok(WriteTransaction {
        transaction: pool.begin_with(statement).await?,
        _turn: Some(turn),
    })
}

/// How long a writer waits for its turn among this process's writers to one SQLite database:
/// SQLite's default busy timeout.
#[cfg(feature = "durable")]
pub const TURN_WAIT: Duration = Duration::from_secs(5);

/// The turns of this process's writers to the SQLite database at `url`: one at a time.
#[cfg(feature = "durable")]
fn writers_of(url: &str) -> Arc<tokio::sync::Semaphore> {
    static WRITERS: std::sync::LazyLock<
        std::sync::Mutex<std::collections::HashMap<String, Arc<tokio::sync::Semaphore>>>,
    > = std::sync::LazyLock::new(Default::default);
    let mut writers = WRITERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // Looked up by `&str` first: every write transaction comes here, only the first of a
    // database allocates its name.
    if let Some(turns) = writers.get(url) {
        return Arc::clone(turns);
    }
    let turns = Arc::new(tokio::sync::Semaphore::new(1));
    writers.insert(url.to_owned(), Arc::clone(&turns));
    turns
}

/// A write transaction from [`begin_write`]: the statements run on it (it derefs to its
/// connection), [`Self::commit`] commits, and dropped uncommitted it rolls back. On SQLite it
/// holds this process's turn to write until then.
#[cfg(feature = "durable")]
pub struct WriteTransaction {
    transaction: sqlx::Transaction<'static, sqlx::Any>,
    _turn: Option<tokio::sync::OwnedSemaphorePermit>,
}

#[cfg(feature = "durable")]
impl WriteTransaction {
    /// Commits what was written, and gives up the turn to write.
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.transaction.commit().await
    }
}

#[cfg(feature = "durable")]
impl std::ops::Deref for WriteTransaction {
    type Target = sqlx::AnyConnection;

    fn deref(&self) -> &sqlx::AnyConnection {
        &self.transaction
    }
}

#[cfg(feature = "durable")]
impl std::ops::DerefMut for WriteTransaction {
    fn deref_mut(&mut self) -> &mut sqlx::AnyConnection {
        &mut self.transaction
    }
}

/// How a write transaction begins on the database at `url`: `None` for the driver's own
/// `BEGIN`.
#[cfg(feature = "durable")]
fn write_transaction_statement(url: &str) -> Option<&'static str> {
    url.starts_with("sqlite:").then_some("BEGIN IMMEDIATE")
}

#[cfg(feature = "durable")]
/// A durable operation's transaction: the effect runs on it, and [`Self::commit`] records the
/// answer in it before committing. Dropped uncommitted, it rolls back.
pub struct DurableTransaction {
    transaction: WriteTransaction,
    recorder: OutcomeRecorder,
}

#[cfg(feature = "durable")]
impl DurableTransaction {
    /// Records `answer` and commits it with the effect; the answer, marked as recorded.
    #[tracing::instrument(name = "idempotency.commit", skip_all)]
    pub async fn commit<R: IntoResponse>(mut self, answer: R) -> Result<Recorded<R>, DurableError> {
        let recorded = self
            .recorder
            .prepare(answer)
            .await?
            .record(&mut self.transaction)
            .await?;
        self.transaction.commit().await?;
        Ok(recorded)
    }
}

#[cfg(feature = "durable")]
impl std::ops::Deref for DurableTransaction {
    type Target = sqlx::AnyConnection;

    fn deref(&self) -> &sqlx::AnyConnection {
        &self.transaction
    }
}

#[cfg(feature = "durable")]
impl std::ops::DerefMut for DurableTransaction {
    fn deref_mut(&mut self) -> &mut sqlx::AnyConnection {
        &mut self.transaction
    }
}

/// An answer rendered and waiting to be recorded in the operation's transaction.
pub struct PreparedOutcome<R> {
    pending: Option<PendingOutcome>,
    stored: StoredResponse,
    response: Response,
    answer: PhantomData<fn() -> R>,
}

#[cfg(feature = "durable")]
impl<R> PreparedOutcome<R> {
    /// Writes the outcome in `transaction`, which commits it with the operation's effect, and
    /// returns the answer marked as recorded. Without a pending claim (no key), writes nothing;
    /// nor for an answer that is not replayed (not a 2xx, or a body over
    /// `idempotency.max_response_bytes`), so a retry executes. An error, after which the handler
    /// must roll back, when another execution of the key committed its outcome first.
    #[tracing::instrument(name = "idempotency.record_outcome", skip_all)]
    pub async fn record(
        self,
        transaction: &mut sqlx::AnyConnection,
    ) -> Result<Recorded<R>, DurableError> {
        if let Some(pending) = &self.pending {
            let stored = &self.stored;
            let replayable =
                (200..300).contains(&stored.status) && stored.body.len() <= pending.max_body;
            if replayable {
                record(pending, stored, transaction).await?;
            }
            pending.state.recorded.store(true, Ordering::Release);
        }
        Ok(Recorded {
            response: self.response,
            answer: PhantomData,
        })
    }
}

#[cfg(feature = "durable")]
/// Writes the answer under the key, in the operation's transaction.
async fn record(
    pending: &PendingOutcome,
    stored: &StoredResponse,
    transaction: &mut sqlx::AnyConnection,
) -> Result<(), DurableError> {
    let now = unix_ms();
    let inserted = sqlx::query(RECORD)
        .bind(pending.scope.as_str())
        .bind(pending.fingerprint.as_str())
        .bind(i32::from(stored.status))
        .bind(stored.content_type.as_deref())
        .bind(stored.location.as_deref())
        .bind(stored.etag.as_deref())
        .bind(hex::encode(&stored.body))
        .bind(now)
        .bind(expiry(now, pending.retention))
        .execute(&mut *transaction)
        .await?;
    if inserted.rows_affected() == 0 {
        return Err(pending.superseded());
    }
    Ok(())
}

#[cfg(feature = "durable")]
fn expiry(now: i64, retention: Duration) -> i64 {
    now.saturating_add(i64::try_from(retention.as_millis()).unwrap_or(i64::MAX))
}

/// An operation's answer whose outcome was recorded in the operation's own transaction. The
/// OpenAPI document describes it as `R`.
pub struct Recorded<R> {
    response: Response,
    answer: PhantomData<fn() -> R>,
}

impl<R: ApiResponse> ApiResponse for Recorded<R> {
    const BAD_REQUEST_HANDLER: bool = false;

    fn meta() -> MetaResponses {
        R::meta()
    }

    fn register(registry: &mut Registry) {
        R::register(registry);
    }
}

impl<R> IntoResponse for Recorded<R> {
    fn into_response(self) -> Response {
        self.response
    }
}

#[cfg(feature = "durable")]
/// The wall clock in Unix milliseconds, as the table stores times: the clock every instance
/// sharing the database agrees on.
fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
        })
}

#[cfg(test)]
#[cfg(feature = "durable")]
pub(crate) mod tests {
    use poem::http::StatusCode;
    use poem_openapi::payload::Json;

    use super::*;
    use crate::key::ClientKey;

    /// A SQLite database in a file of its own (an in-memory one is per connection), with the
    /// outcomes table and a table of effects; deleted when dropped.
    pub(crate) struct TestDatabase {
        pub pool: sqlx::AnyPool,
        path: std::path::PathBuf,
    }

    impl TestDatabase {
        pub async fn create() -> Self {
            sqlx::any::install_default_drivers();
            let path = std::env::temp_dir().join(format!(
                "poem-idempotency-{}.db",
                hex::encode(rand::random::<[u8; 8]>())
            ));
            let pool = sqlx::any::AnyPoolOptions::new()
                .max_connections(3)
                .connect(&format!("sqlite://{}?mode=rwc", path.display()))
                .await
                .expect("a SQLite database");
            let statements = MIGRATION
                .split(';')
                .chain(["CREATE TABLE effects (label TEXT)"]);
            for statement in statements.filter(|s| !s.trim().is_empty()) {
                sqlx::query(sqlx::AssertSqlSafe(statement.to_owned()))
                    .execute(&pool)
                    .await
                    .expect("the schema");
            }
            Self { pool, path }
        }

        pub fn outcomes(&self) -> DurableOutcomes {
            DurableOutcomes::new(self.pool.clone())
        }

        pub async fn effects(&self) -> i64 {
            sqlx::query("SELECT COUNT(*) AS n FROM effects")
                .fetch_one(&self.pool)
                .await
                .and_then(|row| row.try_get("n"))
                .expect("counting effects")
        }
    }

    impl Drop for TestDatabase {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.path);
        }
    }

    #[test]
    fn a_write_transaction_begins_as_the_writer_on_sqlite_and_plainly_elsewhere() {
        for url in ["sqlite:///tmp/app.db?mode=rwc", "sqlite::memory:"] {
            assert_eq!(write_transaction_statement(url), Some("BEGIN IMMEDIATE"));
        }
        for url in ["postgres://app@db/app", "mysql://app@db/app"] {
            assert_eq!(write_transaction_statement(url), None);
        }
    }

    /// A SQLite database in WAL mode (as services run it), and another process's pool on the
    /// same file: its writers take no turns with this process's, so they meet in SQLite itself.
    async fn wal_database_and_another_process() -> (TestDatabase, sqlx::AnyPool) {
        let database = TestDatabase::create().await;
        sqlx::query("PRAGMA journal_mode = WAL")
            .execute(&database.pool)
            .await
            .unwrap();
        let elsewhere = sqlx::any::AnyPoolOptions::new()
            .max_connections(1)
            .connect(&format!("sqlite://{}?mode=rw", database.path.display()))
            .await
            .expect("a second pool on the file");
        (database, elsewhere)
    }

    /// Two writers that each read, then write, the second (on `second_pool`) starting while
    /// the first holds its transaction; what the second read, once both committed. Begun
    /// plainly, the second would read first, and its write would fail with `SQLITE_BUSY` once
    /// the first committed.
    async fn first_then_second_writer(
        first_pool: &sqlx::AnyPool,
        second_pool: sqlx::AnyPool,
    ) -> i64 {
        let mut first = begin_write(first_pool).await.unwrap();
        let _: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM effects")
            .fetch_one(&mut *first)
            .await
            .unwrap();
        let second = tokio::spawn(async move {
            let mut second = begin_write(&second_pool).await?;
            let seen: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM effects")
                .fetch_one(&mut *second)
                .await?;
            sqlx::query("INSERT INTO effects (label) VALUES ('second')")
                .execute(&mut *second)
                .await?;
            second.commit().await.map(|()| seen)
        });
        // Long enough for the second to reach its first statement, had it not waited.
        tokio::time::sleep(Duration::from_millis(100)).await;
        sqlx::query("INSERT INTO effects (label) VALUES ('first')")
            .execute(&mut *first)
            .await
            .unwrap();
        first.commit().await.unwrap();
        second.await.unwrap().expect("the second writer commits")
    }

    #[tokio::test]
    async fn a_second_writer_of_this_process_waits_its_turn_and_both_commit() {
        let (database, _) = wal_database_and_another_process().await;

        let seen_by_second = first_then_second_writer(&database.pool, database.pool.clone()).await;

        assert_eq!(
            seen_by_second, 1,
            "the second read after the first committed"
        );
        assert_eq!(database.effects().await, 2);
    }

    #[tokio::test]
    async fn a_writer_of_another_process_waits_in_sqlite_and_both_commit() {
        let (database, elsewhere) = wal_database_and_another_process().await;

        let seen_by_second = first_then_second_writer(&database.pool, elsewhere).await;

        assert_eq!(
            seen_by_second, 1,
            "the second read after the first committed"
        );
        assert_eq!(database.effects().await, 2);
    }

    fn scope(key: &str) -> ScopeKey {
        let key = ClientKey::parse(key).unwrap().unwrap();
        ScopeKey::derive("user:1", "POST", "/things", &key)
    }

    fn pending(key: &str, body: &str, retention: Duration, max_body: usize) -> PendingOutcome {
        let fingerprint = Fingerprint::of(body.as_bytes(), Some("application/json"), "");
        PendingOutcome::new(&scope(key), &fingerprint, retention, max_body)
    }

    const DAY: Duration = Duration::from_secs(86_400);

    fn recorder(pending: &PendingOutcome) -> OutcomeRecorder {
        OutcomeRecorder {
            pending: Some(pending.clone()),
        }
    }

    /// Inserts one effect and commits `answer` with it.
    async fn effect_then_commit<R: IntoResponse>(
        database: &TestDatabase,
        recorder: &OutcomeRecorder,
        answer: R,
    ) -> Result<Recorded<R>, DurableError> {
        let mut tx = recorder.begin(&database.pool).await?;
        sqlx::query("INSERT INTO effects (label) VALUES ('x')")
            .execute(&mut *tx)
            .await?;
        tx.commit(answer).await
    }

    fn created() -> poem::Response {
        poem::Response::builder()
            .status(StatusCode::CREATED)
            .content_type("application/json")
            .header("location", "/things/1")
            .header("etag", "\"v1\"")
            .body(r#"{"id":1}"#)
    }

    #[tokio::test]
    async fn an_answer_committed_with_its_effect_is_found_under_its_key() {
        let database = TestDatabase::create().await;
        let outcomes = database.outcomes();
        let pending = pending("k", "{}", DAY, 1024);

        let recorded = effect_then_commit(&database, &recorder(&pending), created()).await;

        let response = recorded.expect("recorded").into_response();
        assert_eq!(response.status(), StatusCode::CREATED);
        assert!(pending.state.recorded());
        assert!(!pending.state.superseded());
        let found = outcomes
            .find(&scope("k"))
            .await
            .unwrap()
            .expect("an outcome");
        assert_eq!(found.fingerprint, pending.fingerprint);
        assert_eq!(
            found.response,
            StoredResponse {
                status: 201,
                content_type: Some("application/json".to_owned()),
                location: Some("/things/1".to_owned()),
                etag: Some("\"v1\"".to_owned()),
                body: Bytes::from_static(br#"{"id":1}"#),
            }
        );
        assert_eq!(outcomes.reads(), 1, "each look is counted");
        assert_eq!(outcomes.find(&scope("other")).await.unwrap(), None);
        assert_eq!(outcomes.reads(), 2);
    }

    #[tokio::test]
    async fn a_second_execution_of_a_committed_key_is_superseded_and_its_effect_rolled_back() {
        let database = TestDatabase::create().await;
        let first = pending("k", "{}", DAY, 1024);
        effect_then_commit(&database, &recorder(&first), created())
            .await
            .expect("the first commits");
        let second = pending("k", "{}", DAY, 1024);

        let superseded = effect_then_commit(&database, &recorder(&second), created()).await;

        let error = superseded.err().expect("superseded");
        assert!(matches!(error, DurableError::Superseded), "{error}");
        assert_eq!(
            poem::error::ResponseError::status(&error),
            StatusCode::CONFLICT
        );
        assert!(second.state.superseded());
        assert_eq!(database.effects().await, 1, "the second effect rolled back");
    }

    #[tokio::test]
    async fn an_expired_outcome_is_not_found_and_its_key_is_taken_over() {
        let database = TestDatabase::create().await;
        let outcomes = database.outcomes();
        let expired = pending("k", "{}", Duration::ZERO, 1024);
        effect_then_commit(&database, &recorder(&expired), created())
            .await
            .expect("commits");
        assert_eq!(outcomes.find(&scope("k")).await.unwrap(), None);
        let later = pending("k", r#"{"later":true}"#, DAY, 1024);

        effect_then_commit(&database, &recorder(&later), created())
            .await
            .expect("takes the expired key over");

        let found = outcomes
            .find(&scope("k"))
            .await
            .unwrap()
            .expect("the new one");
        assert_eq!(found.fingerprint, later.fingerprint);
        assert_eq!(database.effects().await, 2);
    }

    #[tokio::test]
    async fn a_kept_outcome_expires_after_the_retention() {
        let database = TestDatabase::create().await;
        let pending = pending("k", "{}", Duration::from_secs(3600), 1024);
        // The wall clock read here, not through the code under test.
        let wall_clock_ms = || {
            i64::try_from(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap()
                    .as_millis(),
            )
            .unwrap()
        };
        let before = wall_clock_ms();

        effect_then_commit(&database, &recorder(&pending), created())
            .await
            .expect("commits");

        let row = sqlx::query("SELECT created_at_ms, expires_at_ms FROM idempotency_outcomes")
            .fetch_one(&database.pool)
            .await
            .unwrap();
        let created: i64 = row.try_get("created_at_ms").unwrap();
        let expires: i64 = row.try_get("expires_at_ms").unwrap();
        assert!(
            created >= before && created <= unix_ms(),
            "{created} is now"
        );
        assert_eq!(expires - created, 3_600_000);
    }

    #[tokio::test]
    async fn an_answer_that_is_not_replayed_is_not_kept_but_counts_as_recorded() {
        let database = TestDatabase::create().await;
        let outcomes = database.outcomes();
        let failure = pending("failure", "{}", DAY, 1024);
        let too_large = pending("too-large", "{}", DAY, 7);
        let just_fits = pending("fits", "{}", DAY, 8);

        effect_then_commit(&database, &recorder(&failure), StatusCode::NOT_FOUND)
            .await
            .expect("commits");
        effect_then_commit(&database, &recorder(&too_large), created())
            .await
            .expect("commits");
        effect_then_commit(&database, &recorder(&just_fits), created())
            .await
            .expect("commits");

        assert!(failure.state.recorded() && too_large.state.recorded());
        assert_eq!(outcomes.find(&scope("failure")).await.unwrap(), None);
        assert_eq!(outcomes.find(&scope("too-large")).await.unwrap(), None);
        assert!(
            outcomes.find(&scope("fits")).await.unwrap().is_some(),
            "8 bytes fit in 8"
        );
        assert_eq!(database.effects().await, 3);
    }

    #[tokio::test]
    async fn without_a_key_the_effect_commits_and_nothing_is_kept() {
        let database = TestDatabase::create().await;

        let recorded = effect_then_commit(&database, &OutcomeRecorder::default(), created())
            .await
            .expect("commits");

        assert_eq!(recorded.into_response().status(), StatusCode::CREATED);
        assert_eq!(database.effects().await, 1);
        let rows: i64 = sqlx::query("SELECT COUNT(*) AS n FROM idempotency_outcomes")
            .fetch_one(&database.pool)
            .await
            .and_then(|row| row.try_get("n"))
            .unwrap();
        assert_eq!(rows, 0);
    }

    #[tokio::test]
    async fn a_sweep_deletes_the_expired_outcomes_only() {
        let database = TestDatabase::create().await;
        let outcomes = database.outcomes();
        for (key, retention) in [
            ("old-1", Duration::ZERO),
            ("old-2", Duration::ZERO),
            ("live", DAY),
        ] {
            effect_then_commit(
                &database,
                &recorder(&pending(key, "{}", retention, 1024)),
                created(),
            )
            .await
            .expect("commits");
        }

        assert_eq!(outcomes.sweep().await.unwrap(), 2);
        assert_eq!(outcomes.sweep().await.unwrap(), 0);
        assert!(outcomes.find(&scope("live")).await.unwrap().is_some());
    }

    #[tokio::test]
    async fn the_recorder_takes_the_pending_outcome_the_guard_put_in_the_request() {
        let pending = pending("k", "{}", DAY, 1024);
        let mut request = poem::Request::builder().finish();
        let (bare, mut body) = poem::Request::builder().finish().split();

        let without = OutcomeRecorder::from_request(&bare, &mut body)
            .await
            .unwrap();
        request.extensions_mut().insert(pending.clone());
        let (with_key, mut body) = request.split();
        let with = OutcomeRecorder::from_request(&with_key, &mut body)
            .await
            .unwrap();

        assert!(without.pending.is_none());
        assert_eq!(with.pending.map(|p| p.scope), Some(pending.scope));
    }

    /// What the answer carries: a schema the document must list.
    #[derive(poem_openapi::Object)]
    struct Made {
        id: i32,
    }

    #[derive(poem_openapi::ApiResponse)]
    enum Answer {
        /// Made.
        #[oai(status = 201)]
        Created(Json<Made>),
        /// Not there.
        #[oai(status = 404)]
        NotFound,
    }

    #[test]
    fn a_recorded_answer_is_documented_as_the_answer_it_wraps() {
        let statuses = |meta: MetaResponses| -> Vec<Option<u16>> {
            meta.responses
                .iter()
                .map(|response| response.status)
                .collect()
        };
        let mut registry = Registry::new();

        <Recorded<Answer> as ApiResponse>::register(&mut registry);

        assert!(
            registry.schemas.contains_key("Made"),
            "the answer's schema is registered"
        );

        assert_eq!(
            statuses(Recorded::<Answer>::meta()),
            statuses(Answer::meta())
        );
        assert_eq!(statuses(Answer::meta()), [Some(201), Some(404)]);
        const { assert!(!Recorded::<Answer>::BAD_REQUEST_HANDLER) };
        let _ = (Answer::Created(Json(Made { id: 1 })), Answer::NotFound);
    }

    #[test]
    fn a_failed_database_or_body_is_a_500() {
        for error in [
            DurableError::Database(sqlx::Error::PoolTimedOut),
            DurableError::Body("gone".to_owned()),
        ] {
            assert_eq!(
                poem::error::ResponseError::status(&error),
                StatusCode::INTERNAL_SERVER_ERROR
            );
        }
    }
}
