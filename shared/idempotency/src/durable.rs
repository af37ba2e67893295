//! Outcomes committed with the operation's own effect, for operations declared
//! `#[idempotent(transactional)]`.
//!
//! The guard stores a response in its store (Redis, or this process) after the handler returns.
//! A process that dies between the handler's database commit and that store leaves the claim to
//! expire, and the client's retry executes the operation a second time. For an operation where a
//! second execution is unacceptable, the handler writes its outcome (the response it is about to
//! give) into the `idempotency_outcomes` table **in the same database transaction as its
//! effect**, through the [`OutcomeRecorder`] the guard hands it: either both are committed or
//! neither is. When the guard then wins a claim fresh for such an operation, it first reads that
//! table (one indexed read, only for these operations) and replays what it finds instead of
//! executing again. The store keeps its roles: the lock on in-flight requests and the fast
//! replay copy.
//!
//! The handler cannot forget the record: a transactional operation must return
//! [`Recorded<R>`], which only [`PreparedOutcome::record`] makes, inside a transaction
//! (`#[intents]` refuses to compile the operation otherwise). Records expire with
//! `idempotency.retention`; [`DurableOutcomes::sweep`] deletes them (the host runs it
//! periodically; the table is indexed for it).

use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bytes::Bytes;
use kernel::{AppError, AppResult};
use poem::{FromRequest, IntoResponse, Request, RequestBody, Response};
use poem_openapi::ApiResponse;
use poem_openapi::registry::{MetaResponses, Registry};
use sqlx::Row as _;

use crate::key::{Fingerprint, ScopeKey};
use crate::store::StoredResponse;

/// The table's schema, one statement per line of SQL that SQLite and PostgreSQL both accept.
/// The host applies it as the `idempotency` migration namespace's version 1.
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

/// An outcome found in the database: the request it answered (its fingerprint, hex) and the
/// answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommittedOutcome {
    pub fingerprint: String,
    pub response: StoredResponse,
}

/// The `idempotency_outcomes` table.
#[derive(Debug, Clone)]
pub struct DurableOutcomes {
    pool: sqlx::AnyPool,
    reads: Arc<AtomicU64>,
}

impl DurableOutcomes {
    pub fn new(pool: sqlx::AnyPool) -> Self {
        Self {
            pool,
            reads: Arc::default(),
        }
    }

    /// How many times [`Self::find`] was called: what the intent gate watches to verify that
    /// exactly the operations documented as transactional look for committed outcomes.
    pub fn reads(&self) -> u64 {
        self.reads.load(Ordering::Relaxed)
    }

    /// The unexpired outcome committed under `scope`, if any.
    pub async fn find(&self, scope: &ScopeKey) -> Result<Option<CommittedOutcome>, sqlx::Error> {
        self.reads.fetch_add(1, Ordering::Relaxed);
        let row = sqlx::query(
            "SELECT fingerprint, status, content_type, location, etag, body_hex
             FROM idempotency_outcomes WHERE scope_key = $1 AND expires_at_ms > $2",
        )
        .bind(scope.to_hex())
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

/// What the guard puts in the request of a claimed transactional execution: where its outcome
/// goes.
#[derive(Debug, Clone)]
pub(crate) struct PendingOutcome {
    /// [`ScopeKey::to_hex`].
    pub scope: String,
    /// [`Fingerprint::to_hex`].
    pub fingerprint: String,
    pub retention: Duration,
}

impl PendingOutcome {
    pub fn new(scope: &ScopeKey, fingerprint: &Fingerprint, retention: Duration) -> Self {
        Self {
            scope: scope.to_hex(),
            fingerprint: fingerprint.to_hex(),
            retention,
        }
    }
}

/// Hands a transactional operation the means to record its outcome. Take it as an argument of
/// the operation; without a key (or without the guard) recording does nothing, so the same code
/// serves keyed and unkeyed requests.
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
    /// Renders the answer the operation will give, ready to be recorded in its transaction.
    /// Call it before the transaction begins: it only buffers the body.
    pub async fn prepare<R: IntoResponse>(&self, answer: R) -> AppResult<PreparedOutcome<R>> {
        let (parts, body) = answer.into_response().into_parts();
        let body = body.into_bytes().await.map_err(AppError::internal)?;
        let stored = StoredResponse::of(&parts, body.clone());
        Ok(PreparedOutcome {
            pending: self.pending.clone(),
            stored,
            response: Response::from_parts(parts, body.into()),
            answer: PhantomData,
        })
    }
}

/// An answer rendered and waiting to be recorded in the operation's transaction.
pub struct PreparedOutcome<R> {
    pending: Option<PendingOutcome>,
    stored: StoredResponse,
    response: Response,
    answer: PhantomData<fn() -> R>,
}

impl<R> PreparedOutcome<R> {
    /// Writes the outcome in `transaction`, which commits it with the operation's effect, and
    /// returns the answer marked as recorded. Without a pending claim (no key), writes nothing.
    pub async fn record(self, transaction: &mut sqlx::AnyConnection) -> AppResult<Recorded<R>> {
        if let Some(pending) = &self.pending {
            let now = unix_ms();
            let retention = i64::try_from(pending.retention.as_millis()).unwrap_or(i64::MAX);
            sqlx::query(
                "INSERT INTO idempotency_outcomes
                 (scope_key, fingerprint, status, content_type, location, etag, body_hex, created_at_ms, expires_at_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(pending.scope.as_str())
            .bind(pending.fingerprint.as_str())
            .bind(i32::from(self.stored.status))
            .bind(self.stored.content_type.as_deref())
            .bind(self.stored.location.as_deref())
            .bind(self.stored.etag.as_deref())
            .bind(hex::encode(&self.stored.body))
            .bind(now)
            .bind(now.saturating_add(retention))
            .execute(&mut *transaction)
            .await?;
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

/// The wall clock in Unix milliseconds, as the table stores times: the clock every instance
/// sharing the database agrees on.
fn unix_ms() -> i64 {
    i64::try_from(kernel::revocation::unix_now_ms()).unwrap_or(i64::MAX)
}
