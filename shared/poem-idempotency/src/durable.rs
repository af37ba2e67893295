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

    /// How many times [`Self::find`] was called: only when an execution met another's committed
    /// outcome (nothing is read on a first execution's path).
    pub fn reads(&self) -> u64 {
        self.reads.load(Ordering::Relaxed)
    }

    /// The unexpired outcome committed under `scope`, if any.
    pub async fn find(&self, scope: &ScopeKey) -> Result<Option<CommittedOutcome>, sqlx::Error> {
        self.find_hex(&scope.to_hex()).await
    }

    /// [`Self::find`] by the scope key's hex form.
    pub(crate) async fn find_hex(
        &self,
        scope: &str,
    ) -> Result<Option<CommittedOutcome>, sqlx::Error> {
        self.reads.fetch_add(1, Ordering::Relaxed);
        let row = sqlx::query(
            "SELECT fingerprint, status, content_type, location, etag, body_hex
             FROM idempotency_outcomes
             WHERE scope_key = $1 AND expires_at_ms > $2",
        )
        .bind(scope)
        .bind(unix_ms())
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
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

/// Without the `durable` feature there is no table: a layer never holds one.
#[cfg(not(feature = "durable"))]
#[derive(Debug, Clone)]
pub(crate) enum DurableOutcomes {}

#[cfg(not(feature = "durable"))]
impl DurableOutcomes {
    pub(crate) fn reads(&self) -> u64 {
        match *self {}
    }

    pub(crate) async fn find_hex(
        &self,
        _scope: &str,
    ) -> Result<Option<CommittedOutcome>, std::convert::Infallible> {
        match *self {}
    }
}

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
        let transaction = pool.begin().await?;
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
        let body = body
            .into_bytes()
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

#[cfg(feature = "durable")]
/// A durable operation's transaction: the effect runs on it, and [`Self::commit`] records the
/// answer in it before committing. Dropped uncommitted, it rolls back.
pub struct DurableTransaction {
    transaction: sqlx::Transaction<'static, sqlx::Any>,
    recorder: OutcomeRecorder,
}

#[cfg(feature = "durable")]
impl DurableTransaction {
    /// Records `answer` and commits it with the effect; the answer, marked as recorded.
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
