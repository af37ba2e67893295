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

use poem::{FromRequest, IntoResponse, Request, RequestBody, Response};
use poem_openapi::ApiResponse;
use poem_openapi::registry::{MetaResponses, Registry};

use crate::key::{Fingerprint, ScopeKey};
use crate::store::StoredResponse;

#[cfg(feature = "durable")]
mod database;
#[cfg(feature = "simulation")]
pub mod simulated;
#[cfg(feature = "durable")]
pub use database::{OutcomeConnection, OutcomeDatabase};

/// The table's schema, in order: a service applies each once (the host applies them as the
/// `idempotency` migration namespace's versions 1 and 2; with sqlx's migrator, as two files).
/// The SQL is the same for PostgreSQL and SQLite; statements end with `;`.
#[cfg(feature = "durable")]
pub const MIGRATIONS: [&str; 2] = [
    "\
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
",
    // Bodies as bytes (`body_hex` stays for the rows written before). `BYTEA` is PostgreSQL's
    // bytes; SQLite keeps a blob as a blob in a column of any declared type.
    "\
ALTER TABLE idempotency_outcomes ADD COLUMN body BYTEA;
",
];

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
    /// How long it is kept from now, by the database's clock: a copy put back in the store
    /// is kept as long, not a fresh retention.
    pub expires_in: Duration,
}

#[cfg(feature = "durable")]
/// The `idempotency_outcomes` table, in the database of any pool the service has: `PgPool`,
/// `SqlitePool` or `AnyPool`. Cheap to clone.
#[derive(Clone)]
pub struct DurableOutcomes {
    table: Arc<dyn OutcomeTable>,
    reads: Arc<AtomicU64>,
}

#[cfg(feature = "durable")]
impl std::fmt::Debug for DurableOutcomes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DurableOutcomes")
            .field("reads", &self.reads())
            .finish_non_exhaustive()
    }
}

/// The table behind a pool of any [`OutcomeDatabase`]: what the guard, which is not generic,
/// reads it through.
#[cfg(feature = "durable")]
trait OutcomeTable: Send + Sync {
    fn find<'a>(
        &'a self,
        scope: &'a str,
    ) -> futures_util::future::BoxFuture<'a, Result<Option<CommittedOutcome>, sqlx::Error>>;
    fn sweep(&self) -> futures_util::future::BoxFuture<'_, Result<u64, sqlx::Error>>;
}

#[cfg(feature = "durable")]
impl<DB: OutcomeDatabase> OutcomeTable for sqlx::Pool<DB> {
    fn find<'a>(
        &'a self,
        scope: &'a str,
    ) -> futures_util::future::BoxFuture<'a, Result<Option<CommittedOutcome>, sqlx::Error>> {
        <DB as database::driver::Database>::find(self, scope)
    }

    fn sweep(&self) -> futures_util::future::BoxFuture<'_, Result<u64, sqlx::Error>> {
        <DB as database::driver::Database>::sweep(self)
    }
}

#[cfg(feature = "durable")]
impl DurableOutcomes {
    /// The table in `pool`'s database, with [`MIGRATIONS`] applied.
    pub fn new<DB: OutcomeDatabase>(pool: sqlx::Pool<DB>) -> Self {
        Self {
            table: Arc::new(pool),
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
        let found = self.table.find(scope).await;
        // Counted once answered, so a test that sees the count knows the lookup is over.
        self.reads.fetch_add(1, Ordering::Release);
        found
    }

    /// Deletes expired outcomes; how many.
    pub async fn sweep(&self) -> Result<u64, sqlx::Error> {
        self.table.sweep().await
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
    pub async fn begin<DB: OutcomeDatabase>(
        &self,
        pool: &sqlx::Pool<DB>,
    ) -> Result<DurableTransaction<DB>, DurableError> {
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
pub async fn begin_write<DB: OutcomeDatabase>(
    pool: &sqlx::Pool<DB>,
) -> Result<WriteTransaction<DB>, sqlx::Error> {
    <DB as database::driver::Database>::begin_write(pool).await
}

/// How a write transaction begins on SQLite: as the writer.
#[cfg(feature = "durable")]
const SQLITE_BEGIN_WRITE: &str = "BEGIN IMMEDIATE";

/// How long a writer waits for its turn among this process's writers to one SQLite database:
/// SQLite's default busy timeout.
#[cfg(feature = "durable")]
pub const TURN_WAIT: Duration = Duration::from_secs(5);

/// This process's turn to write to the SQLite `database` (its file, or its URL through
/// `Any`), had within [`TURN_WAIT`] or `sqlx::Error::PoolTimedOut`.
#[cfg(feature = "durable")]
async fn writers_turn(database: &str) -> Result<tokio::sync::OwnedSemaphorePermit, sqlx::Error> {
    let turns = writers_of(database);
    tokio::time::timeout(TURN_WAIT, turns.acquire_owned())
        .await
        .map_err(|_| sqlx::Error::PoolTimedOut)
        .map(|turn| turn.expect("the writers' semaphore is never closed"))
}

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
/// connection: `&mut *tx` is a `&mut PgConnection` on a `PgPool`), [`Self::commit`] commits,
/// and dropped uncommitted it rolls back. On SQLite it holds this process's turn to write
/// until then.
#[cfg(feature = "durable")]
pub struct WriteTransaction<DB: OutcomeDatabase = sqlx::Any> {
    transaction: sqlx::Transaction<'static, DB>,
    _turn: Option<tokio::sync::OwnedSemaphorePermit>,
}

#[cfg(feature = "durable")]
impl<DB: OutcomeDatabase> WriteTransaction<DB> {
    fn new(
        transaction: sqlx::Transaction<'static, DB>,
        turn: Option<tokio::sync::OwnedSemaphorePermit>,
    ) -> Self {
        Self {
            transaction,
            _turn: turn,
        }
    }

    /// Commits what was written, and gives up the turn to write.
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.transaction.commit().await
    }
}

#[cfg(feature = "durable")]
impl<DB: OutcomeDatabase> std::ops::Deref for WriteTransaction<DB> {
    type Target = DB::Connection;

    fn deref(&self) -> &DB::Connection {
        &self.transaction
    }
}

#[cfg(feature = "durable")]
impl<DB: OutcomeDatabase> std::ops::DerefMut for WriteTransaction<DB> {
    fn deref_mut(&mut self) -> &mut DB::Connection {
        &mut self.transaction
    }
}

#[cfg(feature = "durable")]
impl<DB: OutcomeDatabase> OutcomeConnection for WriteTransaction<DB> where
    DB::Connection: OutcomeConnection
{
}

#[cfg(feature = "durable")]
impl<DB: OutcomeDatabase> database::driver::Connection for WriteTransaction<DB>
where
    DB::Connection: OutcomeConnection,
{
    fn record<'a>(
        &'a mut self,
        row: &'a database::OutcomeRow<'a>,
    ) -> futures_util::future::BoxFuture<'a, Result<bool, sqlx::Error>> {
        database::driver::Connection::record(&mut *self.transaction, row)
    }
}

#[cfg(feature = "durable")]
/// A durable operation's transaction: the effect runs on it, and [`Self::commit`] records the
/// answer in it before committing. Dropped uncommitted, it rolls back.
pub struct DurableTransaction<DB: OutcomeDatabase = sqlx::Any> {
    transaction: WriteTransaction<DB>,
    recorder: OutcomeRecorder,
}

#[cfg(feature = "durable")]
impl<DB: OutcomeDatabase> DurableTransaction<DB>
where
    DB::Connection: OutcomeConnection,
{
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
impl<DB: OutcomeDatabase> std::ops::Deref for DurableTransaction<DB> {
    type Target = DB::Connection;

    fn deref(&self) -> &DB::Connection {
        &self.transaction
    }
}

#[cfg(feature = "durable")]
impl<DB: OutcomeDatabase> std::ops::DerefMut for DurableTransaction<DB> {
    fn deref_mut(&mut self) -> &mut DB::Connection {
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
    /// Writes the outcome in `transaction` (the handler's own: a `PgConnection`,
    /// `SqliteConnection` or `AnyConnection`, a `sqlx::Transaction` or a [`WriteTransaction`]),
    /// which commits it with the operation's effect, and returns the answer marked as recorded.
    /// Without a pending claim (no key), writes nothing; nor for an answer that is not replayed
    /// (not a 2xx, or a body over `idempotency.max_response_bytes`), so a retry executes. An
    /// error, after which the handler must roll back, when another execution of the key
    /// committed its outcome first.
    #[tracing::instrument(name = "idempotency.record_outcome", skip_all)]
    pub async fn record(
        self,
        transaction: &mut impl OutcomeConnection,
    ) -> Result<Recorded<R>, DurableError> {
        if let Some(pending) = &self.pending {
            let stored = &self.stored;
            let replayable =
                (200..300).contains(&stored.status) && stored.body.len() <= pending.max_body;
            if replayable {
                let row = database::OutcomeRow {
                    scope: &pending.scope,
                    fingerprint: &pending.fingerprint,
                    response: stored,
                    retention: pending.retention,
                };
                let written = database::driver::Connection::record(transaction, &row).await?;
                // Planted bug (simulation only): the conflict ignored, the effect committed.
                if !written && !crate::planted::is(crate::planted::Bug::DurableConflictIgnored) {
                    return Err(pending.superseded());
                }
            }
            pending.state.recorded.store(true, Ordering::Release);
        }
        Ok(Recorded {
            response: self.response,
            answer: PhantomData,
        })
    }
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

#[cfg(test)]
#[cfg(feature = "durable")]
pub(crate) mod tests {
    use poem::http::StatusCode;
    use poem_openapi::payload::Json;

    use bytes::Bytes;
    use sqlx::Row as _;

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
            let migrations = MIGRATIONS.concat();
            let statements = migrations
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
        assert_eq!(format!("{outcomes:?}"), "DurableOutcomes { reads: 1, .. }");
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
        // The database's clock, not this process's: SQLite's reads a millisecond or so behind
        // (seen 1 ms in about one run in five), which a bound this tight would call a failure.
        let clocks_differ_by = 10;
        assert!(
            created >= before - clocks_differ_by && created <= wall_clock_ms(),
            "{created} is now, between {before} and the end"
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

    /// The same promises on every pool a service may have: a `PgPool`, a `SqlitePool`, and an
    /// `AnyPool` on each (the SQLite `AnyPool` is [`TestDatabase`]'s, above).
    mod on_every_pool {
        use std::str::FromStr as _;

        use super::*;

        /// The outcomes table in a schema of its own of the test PostgreSQL (`TEST_DATABASE_URL`,
        /// else the local server; the tests fail without one): the URL whose connections use it.
        async fn postgres_schema() -> String {
            let url = std::env::var("TEST_DATABASE_URL")
                .ok()
                .filter(|url| url.starts_with("postgres"))
                .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".to_owned());
            let schema = format!("outcomes_{}", hex::encode(rand::random::<[u8; 6]>()));
            let admin = sqlx::PgPool::connect(&url).await.unwrap_or_else(|err| {
                panic!("these tests need PostgreSQL at {url} (TEST_DATABASE_URL): {err}")
            });
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
                .execute(&admin)
                .await
                .expect("a schema");
            let separator = if url.contains('?') { '&' } else { '?' };
            let url = format!("{url}{separator}options=-c%20search_path%3D{schema}");
            let pool = sqlx::PgPool::connect(&url)
                .await
                .expect("the schema's pool");
            for statement in MIGRATIONS
                .concat()
                .split(';')
                .filter(|s| !s.trim().is_empty())
            {
                sqlx::query(sqlx::AssertSqlSafe(statement.to_owned()))
                    .execute(&pool)
                    .await
                    .expect("the outcomes table");
            }
            url
        }

        /// A committed answer is found with the database's remaining retention; a second
        /// execution of its key is superseded; an expired one is not found, is swept, and its
        /// key is taken over; an answer written on the pool's own `sqlx::Transaction` commits.
        async fn keeps_its_promises<DB: OutcomeDatabase>(pool: sqlx::Pool<DB>)
        where
            DB::Connection: OutcomeConnection,
            sqlx::Transaction<'static, DB>: OutcomeConnection,
        {
            let outcomes = DurableOutcomes::new(pool.clone());
            let first = pending("k", "{}", DAY, 1024);
            let commit = |pending: &PendingOutcome| {
                let (recorder, pool) = (recorder(pending), pool.clone());
                async move { recorder.begin(&pool).await?.commit(created()).await }
            };

            commit(&first).await.expect("the first commits");
            let found = outcomes.find(&scope("k")).await.unwrap().expect("found");
            assert_eq!(found.fingerprint, first.fingerprint);
            assert_eq!(found.response.status, 201);
            assert_eq!(found.response.body, Bytes::from_static(br#"{"id":1}"#));
            assert_eq!(found.response.etag.as_deref(), Some("\"v1\""));
            assert!(
                found.expires_in <= DAY && found.expires_in > DAY - Duration::from_secs(60),
                "{:?} left of a day",
                found.expires_in
            );

            let second = pending("k", "{}", DAY, 1024);
            let superseded = commit(&second).await.err().expect("superseded");
            assert!(
                matches!(superseded, DurableError::Superseded),
                "{superseded}"
            );

            commit(&pending("old", "{}", Duration::ZERO, 1024))
                .await
                .expect("commits");
            assert_eq!(outcomes.find(&scope("old")).await.unwrap(), None);
            assert_eq!(outcomes.sweep().await.unwrap(), 1);
            let later = pending("old", r#"{"later":true}"#, DAY, 1024);
            commit(&later).await.expect("takes the key over");
            let found = outcomes.find(&scope("old")).await.unwrap().expect("found");
            assert_eq!(found.fingerprint, later.fingerprint);

            let own = pending("own", "{}", DAY, 1024);
            let mut transaction = pool.begin().await.unwrap();
            let prepared = recorder(&own).prepare(created()).await.unwrap();
            prepared.record(&mut transaction).await.expect("recorded");
            transaction.commit().await.unwrap();
            assert!(outcomes.find(&scope("own")).await.unwrap().is_some());
        }

        #[tokio::test]
        async fn on_a_pg_pool() {
            let url = postgres_schema().await;
            keeps_its_promises(sqlx::PgPool::connect(&url).await.unwrap()).await;
        }

        #[tokio::test]
        async fn on_an_any_pool_on_postgresql() {
            sqlx::any::install_default_drivers();
            let url = postgres_schema().await;
            keeps_its_promises(sqlx::AnyPool::connect(&url).await.unwrap()).await;
        }

        #[tokio::test]
        async fn on_a_sqlite_pool() {
            let database = TestDatabase::create().await;
            let options = sqlx::sqlite::SqliteConnectOptions::from_str(&format!(
                "sqlite://{}",
                database.path.display()
            ))
            .unwrap();
            keeps_its_promises(sqlx::SqlitePool::connect_with(options).await.unwrap()).await;
        }

        #[tokio::test]
        async fn on_an_any_pool_on_sqlite() {
            let database = TestDatabase::create().await;
            keeps_its_promises(database.pool.clone()).await;
        }

        #[tokio::test]
        async fn a_sqlite_pool_s_writers_take_turns_and_both_commit() {
            let database = TestDatabase::create().await;
            sqlx::query("PRAGMA journal_mode = WAL")
                .execute(&database.pool)
                .await
                .unwrap();
            let options = sqlx::sqlite::SqliteConnectOptions::from_str(&format!(
                "sqlite://{}",
                database.path.display()
            ))
            .unwrap();
            let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
            let mut first = begin_write(&pool).await.unwrap();
            sqlx::query("INSERT INTO effects (label) VALUES ('first')")
                .execute(&mut *first)
                .await
                .unwrap();
            let second = tokio::spawn({
                let pool = pool.clone();
                async move {
                    let mut second = begin_write(&pool).await?;
                    sqlx::query("INSERT INTO effects (label) VALUES ('second')")
                        .execute(&mut *second)
                        .await?;
                    second.commit().await
                }
            });
            tokio::time::sleep(Duration::from_millis(100)).await;
            assert!(
                !second.is_finished(),
                "the second waits for the first's turn"
            );

            first.commit().await.unwrap();

            second.await.unwrap().expect("the second commits");
            assert_eq!(database.effects().await, 2);
        }
    }
}
