//! The guard around one operation: the poem endpoint that a poem-openapi `transform` installs.
//!
//! For a request that carries an `Idempotency-Key` it:
//!
//! 1. refuses (401) a secured operation's request that the authentication step did not prove,
//!    before touching the store: such a request is never scoped anonymously;
//! 2. validates the key (400 when malformed) and scopes it to the caller (the principal the
//!    authentication step proved, else the client address), the method and the route template;
//! 3. buffers the body (through the host's body limit) and fingerprints it with the query
//!    string, the concrete path, the preconditions (`If-Match`...) and the headers the
//!    operation declared part of its request;
//! 4. claims the key in the store in one atomic step, which either wins the right to execute,
//!    or finds the completed response (replayed, 1 round trip), a different payload (422), or
//!    the original still running (wait up to `lock_wait`, then replay or 409);
//! 5. having won, runs the handler renewing its lease every third of `lock_ttl`, then stores a 2xx JSON or body-less response for `retention` (fenced by the
//!    lease token, so a claimant that lost its lease cannot overwrite its successor), or
//!    releases the key after anything else (a panic included) so that the client's retry
//!    executes. This runs to the end even if the client resets its connection or stream
//!    meanwhile (it moves onto a task of its own), which is exactly when clients retry: the
//!    retry then finds the response.
//!
//! In the code, [`Guard::call`] does 1 and 2's validation, then the keyed path is three named
//! steps: `Guard::identify` (2, 3), `Guard::claim_until_decided` (4, a duplicate's wait in
//! `Guard::while_in_flight`) and `run_claimed` (5),
//! which holds the lease while the handler runs (`hold_lease_while`) and settles its answer
//! (`settle`).
//!
//! A request without a key (or with a blank one) is passed straight to the handler: no
//! buffering, no store access. Store faults fail open (the request executes unguarded and
//! `idempotency.degraded` counts it; one warning per outage, not per request), unless the
//! operation declared `on_store_failure = "reject"`: then it answers 503.

use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use futures_util::FutureExt as _;
use poem::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use poem::{Body, Endpoint, IntoResponse, PathPattern, Request, Response};
use tokio::time::Instant;
use tokio_util::task::TaskTracker;
use tracing::Instrument as _;

use crate::durable::{CommittedOutcome, DurableOutcomes, PendingOutcome};
use crate::host::{Caller, DefaultHost, Host, IdempotencyProblem, ProblemKind};
use crate::intent::{Intent, OnStoreFailure};
use crate::key::{ClientKey, Fingerprint, ScopeKey};
use crate::metrics::{FaultStep, Metrics, MetricsSnapshot};
use crate::outage::StoreOutages;
use crate::planted::{self, Bug};
use crate::settings::IdempotencySettings;
use crate::store::{Claim, LeaseToken, MemoryStore, Store, StoreError, StoredResponse};

/// The request header that carries the client's key.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";
/// The response header that marks a replayed response.
pub const IDEMPOTENT_REPLAY: &str = "x-idempotent-replay";

/// The layer's shared state: the store, the settings, the counters, and the guarded executions
/// that outlived their clients' connections (which shutdown waits for).
///
/// The host builds one and puts it in the request data (`Arc<Idempotency>`), where every guard
/// finds it; the guards themselves are stateless.
pub struct Idempotency {
    store: Store,
    /// Who is asking and how refusals read, as the service says (see [`Host`]).
    host: Arc<dyn Host>,
    /// Where durable operations commit their outcomes; set by the host.
    durable: Option<DurableOutcomes>,
    settings: IdempotencySettings,
    metrics: Metrics,
    executions: TaskTracker,
    // One warning per store outage; every faulty request is still counted in `metrics`.
    outage: StoreOutages,
    // One warning per process for answers too large to keep; each is counted in `metrics`.
    warned_too_large: std::sync::atomic::AtomicBool,
}

impl Idempotency {
    /// A layer over an explicit store.
    pub fn new(store: Store, settings: IdempotencySettings) -> Self {
        Self {
            store,
            host: Arc::new(DefaultHost),
            durable: None,
            settings,
            metrics: Metrics::default(),
            executions: TaskTracker::new(),
            outage: StoreOutages::default(),
            warned_too_large: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// A layer whose records live in this process: exclusion and replay hold per instance only
    /// (the host says so in its start-up warning about running without Redis).
    pub fn in_process(settings: IdempotencySettings) -> Self {
        let store = MemoryStore::new(settings.memory_max_entries, settings.memory_max_bytes);
        Self::new(Store::new(store), settings)
    }

    /// A layer whose records live in Redis, shared by every instance.
    #[cfg(feature = "redis")]
    pub fn with_redis(
        connection: impl Into<crate::store::RedisConnection>,
        key_prefix: &str,
        settings: IdempotencySettings,
    ) -> Self {
        let store = crate::store::RedisStore::new(connection, key_prefix);
        Self::new(Store::new(store), settings)
    }

    /// Scopes keys, refuses unproven callers and renders refusals as `host` says (instead of
    /// [`DefaultHost`]).
    pub fn with_host(mut self, host: impl Host) -> Self {
        self.host = Arc::new(host);
        self
    }

    #[cfg(feature = "durable")]
    /// Lets durable operations commit their outcomes in `outcomes` (the service's database,
    /// with [`crate::durable::MIGRATIONS`] applied).
    pub fn with_durable_outcomes(mut self, outcomes: DurableOutcomes) -> Self {
        self.durable = Some(outcomes);
        self
    }

    #[cfg(feature = "durable")]
    /// Where durable operations commit their outcomes, if the host set it.
    pub fn durable_outcomes(&self) -> Option<&DurableOutcomes> {
        self.durable.as_ref()
    }

    /// Looks for committed outcomes so far (see [`DurableOutcomes::reads`]); 0 without them.
    pub fn outcome_reads(&self) -> u64 {
        self.durable.as_ref().map_or(0, DurableOutcomes::reads)
    }

    /// The settings it was built with.
    pub fn settings(&self) -> &IdempotencySettings {
        &self.settings
    }

    /// Where its records live.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The counters so far.
    pub fn metrics(&self) -> MetricsSnapshot {
        self.metrics.snapshot()
    }

    /// Store outages the layer has met since it started (each logged once).
    pub fn store_outages(&self) -> u64 {
        self.outage.outages()
    }

    /// A store call failed: counted at `step`, logged once per outage.
    fn store_failed(&self, step: FaultStep, err: &StoreError) {
        self.metrics.degraded(step);
        self.outage.failed(err);
    }

    /// Guarded executions still running after their clients went away.
    pub fn abandoned_executions_running(&self) -> usize {
        self.executions.len()
    }

    /// Waits up to `within` for every guarded execution whose client went away to finish and
    /// store its response; `false` if some were still running. Called at shutdown, after the
    /// server drained its connections: such an execution has no connection left for the server
    /// to wait on, so this is what keeps its response from being lost with the process.
    pub async fn drain(&self, within: Duration) -> bool {
        self.executions.close();
        tokio::time::timeout(within, self.executions.wait())
            .await
            .is_ok()
    }

    /// Who is asking, for the key's scope: the principal the service proved, else the client
    /// address ([`Host::caller`]).
    fn caller(&self, req: &Request) -> Caller {
        self.host.caller(req)
    }

    /// One of the layer's refusals, as the host renders it.
    fn refuse(&self, kind: ProblemKind) -> Response {
        self.refuse_with(kind, kind.detail().to_owned(), kind.retry_after_seconds())
    }

    fn refuse_with(
        &self,
        kind: ProblemKind,
        detail: String,
        retry_after_seconds: Option<u32>,
    ) -> Response {
        self.host.problem(&IdempotencyProblem {
            kind,
            detail,
            retry_after_seconds,
        })
    }
}

/// How one operation uses the layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GuardOptions {
    /// Refuse requests without a key (400), as the IETF draft allows an operation to.
    pub key_required: bool,
    /// Answer 503 instead of executing unguarded when the store fails.
    pub on_store_failure: OnStoreFailure,
    /// The operation declares a security requirement: a request without a proven caller gets
    /// its 401 from the guard, before the store is touched, and is never scoped anonymously.
    pub secured: bool,
    /// The handler commits its answer with its effect (see [`crate::durable`]): the guard hands
    /// it an [`crate::OutcomeRecorder`] and answers with another execution's committed outcome
    /// when the handler met one.
    pub durable: bool,
    /// Headers that belong to the operation's request besides the preconditions, which every
    /// fingerprint covers (`["X-Tenant"]`): the same key with another value is another request.
    pub fingerprint_headers: &'static [&'static str],
}

impl GuardOptions {
    /// The options an idempotent intent declares, for an operation that is (or is not) secured.
    pub fn declared(intent: Intent, secured: bool) -> Option<Self> {
        match intent {
            Intent::Idempotent {
                key_required,
                on_store_failure,
                effect,
                fingerprint_headers,
            } => Some(Self {
                key_required,
                on_store_failure,
                secured,
                durable: effect.is_durable(),
                fingerprint_headers,
            }),
            Intent::NonIdempotent { .. } => None,
        }
    }
}

/// Wraps an operation: `#[oai(..., transform = "idempotent")]`. A key is optional.
pub fn idempotent<E: Endpoint + 'static>(endpoint: E) -> Guard<E> {
    guard(endpoint, GuardOptions::default())
}

/// Wraps an operation with explicit options.
///
/// # Panics
///
/// When one of `options.fingerprint_headers` is not a header name: a wiring mistake, met while
/// the routes are built (`#[idempotent(fingerprint_headers = [...])]` refuses it at compile time).
pub fn guard<E: Endpoint + 'static>(endpoint: E, options: GuardOptions) -> Guard<E> {
    let fingerprint_headers = options
        .fingerprint_headers
        .iter()
        .map(|name| {
            HeaderName::from_bytes(name.as_bytes())
                .unwrap_or_else(|_| panic!("fingerprint_headers: {name:?} is not a header name"))
        })
        .collect();
    Guard {
        inner: Arc::new(endpoint),
        options,
        fingerprint_headers,
    }
}

/// Wraps an operation according to an intent declared elsewhere (`#[inherit_intent(...)]`):
/// guarded when it is idempotent, untouched otherwise.
pub fn guard_declared<E: Endpoint + 'static>(
    endpoint: E,
    intent: Intent,
    secured: bool,
) -> poem::endpoint::BoxEndpoint<'static, Response> {
    use poem::EndpointExt as _;
    match GuardOptions::declared(intent, secured) {
        Some(options) => guard(endpoint, options).boxed(),
        None => endpoint.map_to_response().boxed(),
    }
}

/// The guard endpoint; see the module documentation.
pub struct Guard<E> {
    // Shared with the task that runs a claimed execution, which may outlive the connection.
    inner: Arc<E>,
    options: GuardOptions,
    /// `options.fingerprint_headers`, parsed once (and so in lower case).
    fingerprint_headers: Box<[HeaderName]>,
}

/// What happened to a keyed request; recorded on the request span as `idempotency`.
#[derive(Debug, Clone, Copy)]
enum Outcome {
    Executed,
    Replayed,
    Conflict,
    KeyReuse,
    Degraded,
    Rejected,
}

impl Outcome {
    fn record(self) {
        let name = match self {
            Self::Executed => "executed",
            Self::Replayed => "replayed",
            Self::Conflict => "conflict",
            Self::KeyReuse => "key_reuse",
            Self::Degraded => "degraded",
            Self::Rejected => "rejected",
        };
        tracing::Span::current().record("idempotency", name);
    }
}

/// What is wrong when a guarded operation is reached without the layer, and the fix.
const LAYER_MISSING: &str = "This operation is declared idempotent, but the service serves it \
    without the idempotency layer, so it was not run: put the layer in the request data of the \
    route that serves it, e.g. `.data(Arc::new(Idempotency::in_process(settings)))` \
    (poem_idempotency::Idempotency).";

/// The answer of a guarded operation reached without the layer: a 500 problem naming the fix.
fn layer_missing() -> Response {
    crate::host::problem_response(
        StatusCode::INTERNAL_SERVER_ERROR,
        "/problems/idempotency-layer-missing",
        "Idempotency layer missing",
        LAYER_MISSING,
    )
}

impl<E: Endpoint + 'static> Endpoint for Guard<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        let Some(layer) = req.data::<Arc<Idempotency>>().cloned() else {
            // A wiring mistake: running unguarded would break the operation's promise without a
            // sign, so it does not run, and the answer says how to fix it.
            tracing::error!("{LAYER_MISSING}");
            return Ok(layer_missing());
        };
        if self.options.secured {
            // The same refusal the operation's security scheme gives, decided from the same
            // authentication outcome, but before any key is parsed or stored.
            layer.host.require_principal(&req)?;
        }
        match read_key(req.headers()) {
            Ok(Some(key)) => Box::pin(self.call_keyed(layer, key, req)).await,
            Ok(None) if self.options.key_required => Ok(layer.refuse(ProblemKind::KeyMissing)),
            // No key: exactly as if the layer were not there.
            Ok(None) => self.inner.call(req).await.map(IntoResponse::into_response),
            Err(detail) => Ok(layer.refuse_with(ProblemKind::KeyInvalid, detail, None)),
        }
    }
}

impl<E: Endpoint + 'static> Guard<E> {
    /// A request with a key, in three steps: identify it, claim its key until that is decided,
    /// answer (execute under the claim, or the answer the claim decided). Boxed by
    /// [`Guard::call`]: its future is many times larger than the operation's own, and a
    /// request without a key would otherwise pay for moving it around (docs/benchmarks.md).
    async fn call_keyed(
        &self,
        layer: Arc<Idempotency>,
        key: ClientKey,
        mut req: Request,
    ) -> poem::Result<Response> {
        let (scope, fingerprint) = self.identify(&layer, &key, &mut req).await?;
        match self.claim_until_decided(&layer, &scope, &fingerprint).await {
            Decided::Execute(token) => {
                let pending = self.hand_outcome_to(&layer, &scope, &fingerprint, &mut req);
                self.execute_claimed(layer, scope, token, pending, req)
                    .await
            }
            Decided::Answer(answer) => Ok(answer),
            Decided::StoreFailed(err) => {
                self.without_the_store(&layer, &scope, &fingerprint, &err, req)
                    .await
            }
        }
    }

    /// Step 1, which request this is: its scope (the caller, the method, the route template,
    /// the key) and its fingerprint (the body, read here through the host's body limit, so an
    /// oversized one fails before any claim; the content type, the concrete path and query;
    /// the preconditions and the headers the operation declared part of its request).
    async fn identify(
        &self,
        layer: &Idempotency,
        key: &ClientKey,
        req: &mut Request,
    ) -> poem::Result<(ScopeKey, Fingerprint)> {
        let route: Arc<str> = req
            .data::<PathPattern>()
            .map(|pattern| Arc::clone(&pattern.0))
            .unwrap_or_else(|| req.original_uri().path().into());
        let scope = ScopeKey::derive_with_subject_in_parts(
            // Planted bug (simulation only): every caller scoped as one.
            &planted::caller(layer.caller(req)).scope_subject(),
            req.method().as_str(),
            &route,
            key,
        );
        let body = crate::buffer::whole(req.take_body()).await?;
        // The scope uses the route template, so `PUT /things/1` and `PUT /things/2` under one
        // key differ here, by the concrete path (`original_uri`: a nested route sees only the
        // rest of the path in `uri`). `If-Match: "v3"` under the key of `If-Match: "v1"` is
        // not a retry either, and must not be answered with the first request's answer.
        let uri = req.original_uri();
        let headers = req.headers();
        let fingerprint = Fingerprint::of_request(
            // Planted bug (simulation only): the body left out.
            planted::body(&body),
            headers
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok()),
            uri.path(),
            uri.query().unwrap_or_default(),
            headers,
            &self.fingerprint_headers,
        );
        req.set_body(body);
        Ok((scope, fingerprint))
    }

    /// Step 2, the claim: won (this request executes), or decided by what holds the key (its
    /// stored answer, a 422 for another request under it, a 409 once the original outlasts
    /// `lock_wait`), or the store failed.
    async fn claim_until_decided(
        &self,
        layer: &Idempotency,
        scope: &ScopeKey,
        fingerprint: &Fingerprint,
    ) -> Decided {
        let settings = &layer.settings;
        let mut wait = DuplicateWait {
            deadline: Instant::now() + settings.lock_wait,
            pause: Duration::from_millis(5),
            looked_for_a_committed_outcome: false,
        };
        loop {
            let claimed = layer
                .store
                .claim(scope, fingerprint, settings.lock_ttl)
                .instrument(tracing::info_span!("idempotency.claim"))
                .await;
            if claimed.is_ok() {
                layer.outage.succeeded();
            }
            return match claimed {
                Ok(Claim::Acquired(token)) => Decided::Execute(token),
                Ok(Claim::Completed(stored)) => {
                    layer.metrics.replayed();
                    Outcome::Replayed.record();
                    Decided::Answer(replay(stored))
                }
                Ok(Claim::Mismatch) => {
                    layer.metrics.key_reuse();
                    Outcome::KeyReuse.record();
                    Decided::Answer(layer.refuse(ProblemKind::KeyReuse))
                }
                Ok(Claim::InFlight) => {
                    match self
                        .while_in_flight(layer, scope, fingerprint, &mut wait)
                        .await
                    {
                        Some(decided) => decided,
                        None => continue,
                    }
                }
                Err(err) => Decided::StoreFailed(err),
            };
        }
    }

    /// The key is held by a running original: the answer its database committed (a durable
    /// operation's), or a pause before claiming again (`None`), or, once `lock_wait` is spent,
    /// a 409.
    async fn while_in_flight(
        &self,
        layer: &Idempotency,
        scope: &ScopeKey,
        fingerprint: &Fingerprint,
        wait: &mut DuplicateWait,
    ) -> Option<Decided> {
        let waited_enough = Instant::now() + wait.pause > wait.deadline;
        // A durable operation's claim may outlive its execution in the store (the completion
        // lost with a Redis master that failed over): its database knows. Asked when the claim
        // is first met and before giving up, never per pause.
        if self.options.durable && (!wait.looked_for_a_committed_outcome || waited_enough) {
            wait.looked_for_a_committed_outcome = true;
            if let Some(answer) = committed_answer(layer, scope, fingerprint).await {
                return Some(Decided::Answer(answer));
            }
        }
        if !waited_enough {
            // The original is running: wait for its response rather than fail the duplicate.
            tokio::time::sleep(wait.pause).await;
            wait.pause = (wait.pause * 2).min(Duration::from_millis(100));
            return None;
        }
        layer.metrics.conflict();
        Outcome::Conflict.record();
        Some(Decided::Answer(layer.refuse(ProblemKind::InProgress)))
    }

    /// The store could not claim: the operation runs unguarded (fail open), or, declared
    /// `on_store_failure = "reject"`, is refused with a 503.
    async fn without_the_store(
        &self,
        layer: &Idempotency,
        scope: &ScopeKey,
        fingerprint: &Fingerprint,
        err: &StoreError,
        mut req: Request,
    ) -> poem::Result<Response> {
        layer.store_failed(FaultStep::Claim, err);
        match self.options.on_store_failure {
            OnStoreFailure::Execute => {
                tracing::debug!(error = %err, "idempotency store could not claim: executing unguarded");
                Outcome::Degraded.record();
                // A durable operation still has its committed outcomes: a retry replays from
                // them, and of two concurrent duplicates the second meets the first's outcome
                // and rolls its effect back.
                let pending = self.hand_outcome_to(layer, scope, fingerprint, &mut req);
                let answer = self.inner.call(req).await.map(IntoResponse::into_response);
                let failed = is_failure(&answer);
                match superseded_answer(layer, pending.as_ref(), None, failed).await {
                    Some(committed) => Ok(committed),
                    None => answer,
                }
            }
            OnStoreFailure::Reject => {
                tracing::debug!(error = %err, "idempotency store could not claim: refusing a fail-closed operation");
                layer.metrics.rejected_store_unavailable();
                Outcome::Rejected.record();
                Ok(layer.refuse(ProblemKind::StoreUnavailable))
            }
        }
    }

    /// For a durable operation, tells the request where its handler commits its outcome.
    fn hand_outcome_to(
        &self,
        layer: &Idempotency,
        scope: &ScopeKey,
        fingerprint: &Fingerprint,
        req: &mut Request,
    ) -> Option<PendingOutcome> {
        layer.durable.as_ref().filter(|_| self.options.durable)?;
        let pending = PendingOutcome::new(
            scope,
            fingerprint,
            layer.settings.retention,
            layer.settings.max_response_bytes,
        );
        layer.metrics.durable_claim();
        req.extensions_mut().insert(pending.clone());
        Some(pending)
    }

    /// Runs a claimed execution to the end, whatever the client does.
    ///
    /// hyper drops this future when the client resets its connection or HTTP/2 stream. The
    /// execution (handler, lease renewal, the store's `complete` or `release`) is therefore
    /// owned by a [`ClaimedExecution`], which, dropped unfinished, moves it as it stands onto a
    /// task of its own to finish there: the client's retry then finds the response instead of
    /// a claim nobody renews. While the client waits, nothing is spawned. A panic in the
    /// handler releases the key (the retry may execute at once) and is resumed here, where the
    /// host's panic handler turns it into a 500.
    async fn execute_claimed(
        &self,
        layer: Arc<Idempotency>,
        scope: ScopeKey,
        token: LeaseToken,
        pending: Option<PendingOutcome>,
        req: Request,
    ) -> poem::Result<Response> {
        let inner = Arc::clone(&self.inner);
        let work_layer = Arc::clone(&layer);
        let work =
            async move { run_claimed(&*inner, &work_layer, &scope, token, pending, req).await };
        let execution = ClaimedExecution {
            work: Some(Box::pin(work)),
            layer,
        };
        match execution.await {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

/// A duplicate's wait for its original ([`Guard::while_in_flight`]): pauses doubling from
/// 5 ms up to 100 ms until `lock_wait` is spent.
struct DuplicateWait {
    deadline: Instant,
    pause: Duration,
    /// A durable operation's database is asked once on the way in and once before giving up.
    looked_for_a_committed_outcome: bool,
}

/// How the claim of a key was decided ([`Guard::claim_until_decided`]).
enum Decided {
    /// Won: this request executes, under the lease of this token.
    Execute(LeaseToken),
    /// Decided without executing: the stored answer replayed, or a refusal (422, 409).
    Answer(Response),
    /// The store could not say.
    StoreFailed(StoreError),
}

/// What a claimed execution ends with: the response (or error), or the handler's panic after
/// the key was released.
type Executed = Result<poem::Result<Response>, Panic>;

/// A claimed execution, polled in place while its client waits for it.
///
/// Dropped before it finished (the client went away), it is moved onto a task of its own,
/// tracked by the layer so that shutdown waits for it, and runs to the end there.
struct ClaimedExecution {
    work: Option<Pin<Box<dyn Future<Output = Executed> + Send>>>,
    layer: Arc<Idempotency>,
}

impl Future for ClaimedExecution {
    type Output = Executed;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Executed> {
        let Some(work) = self.work.as_mut() else {
            return Poll::Pending;
        };
        let executed = std::task::ready!(work.as_mut().poll(cx));
        self.work = None;
        Poll::Ready(executed)
    }
}

impl Drop for ClaimedExecution {
    fn drop(&mut self) {
        let Some(work) = self.work.take() else {
            return;
        };
        let layer = Arc::clone(&self.layer);
        if tokio::runtime::Handle::try_current().is_err() {
            // No runtime left to finish on: the key stays claimed until its lease ends.
            tracing::warn!("a guarded execution was abandoned with no runtime to finish it");
            return;
        }
        // Dropped inside the request's span and context (tracing and tokio keep both set
        // while a future is dropped): the continuation keeps them.
        let host = Arc::clone(&layer.host);
        let rescued = host
            .detach(Box::pin(async move {
                let _ = work.await;
                layer.metrics.completed_after_disconnect();
            }))
            .instrument(tracing::Span::current());
        self.layer.executions.spawn(rescued);
    }
}

type Panic = Box<dyn Any + Send + 'static>;

/// Step 3, the execution under our claim: the handler, holding the lease while it runs, then
/// its answer settled. `Err` carries a handler's panic, after the key was released.
async fn run_claimed<E: Endpoint>(
    inner: &E,
    layer: &Idempotency,
    scope: &ScopeKey,
    token: LeaseToken,
    pending: Option<PendingOutcome>,
    req: Request,
) -> Result<poem::Result<Response>, Panic> {
    let handler = AssertUnwindSafe(inner.call(req)).catch_unwind();
    let result = hold_lease_while(layer, scope, &token, handler).await;
    layer.metrics.executed();
    Outcome::Executed.record();
    // Crash tests: the process dies after the handler committed, before the store keeps the
    // response (compiled in only with the `failpoints` feature).
    fail::fail_point!("idempotency-after-handler", |_| std::process::abort());
    let result = result.map(|answer| answer.map(IntoResponse::into_response));
    settle(layer, scope, &token, pending.as_ref(), result).await
}

/// Runs `handler` to its end, renewing the lease every third of `lock_ttl` until the store
/// says it is lost (a store that cannot be reached is tried again at the next renewal).
async fn hold_lease_while<F: Future>(
    layer: &Idempotency,
    scope: &ScopeKey,
    token: &LeaseToken,
    handler: F,
) -> F::Output {
    let settings = &layer.settings;
    tokio::pin!(handler);
    let renew_every = settings.lock_ttl / 3;
    let mut next_renewal = Instant::now() + renew_every;
    let mut lease_held = true;
    loop {
        tokio::select! {
            // The handler first: one that is done needs no renewal, and a timer never polled
            // is never registered (most handlers finish well within a third of the lease).
            biased;
            result = &mut handler => return result,
            // Planted bug (simulation only): never renewed.
            () = tokio::time::sleep_until(next_renewal), if lease_held && !planted::is(Bug::NoRenewal) => {
                next_renewal += renew_every;
                match layer.store.renew(scope, token, settings.lock_ttl).await {
                    Ok(true) => {}
                    Ok(false) => {
                        tracing::warn!("idempotency lease lost while the handler ran");
                        layer.metrics.lease_lost();
                        lease_held = false;
                    }
                    Err(err) => {
                        tracing::debug!(error = %err, "idempotency lease could not be renewed");
                        layer.store_failed(FaultStep::Renew, &err);
                    }
                }
            }
        }
    }
}

/// What the handler's answer becomes: a committed answer of this key's that supersedes it,
/// or the answer, stored for replay (a 2xx that fits) or released for the retry to execute
/// (anything else, a panic resumed after the release).
async fn settle(
    layer: &Idempotency,
    scope: &ScopeKey,
    token: &LeaseToken,
    pending: Option<&PendingOutcome>,
    result: Result<poem::Result<Response>, Panic>,
) -> Result<poem::Result<Response>, Panic> {
    // A failure may be the trace of this key's earlier execution (its effect spent a link, took
    // a unique name): if that one committed an answer, the answer is what the client gets.
    let failed = result.as_ref().is_ok_and(is_failure);
    if let Some(committed) = superseded_answer(layer, pending, Some((scope, token)), failed).await {
        return Ok(Ok(committed));
    }
    match result {
        Ok(Ok(response)) => {
            if response.status().is_success() && pending.is_some_and(|p| !p.state.recorded()) {
                // A durable declaration whose handler commits nothing (an inherited intent on a
                // handler that does not record): the store alone guards this answer.
                tracing::error!(
                    "an operation declared durable answered without recording its outcome: \
                     commit it with OutcomeRecorder, or declare its effect outside_database"
                );
            }
            Ok(store_or_release(layer, scope, token, response).await)
        }
        Ok(Err(err)) => {
            release(layer, scope, token).await;
            Ok(Err(err))
        }
        Err(panic) => {
            release(layer, scope, token).await;
            Err(panic)
        }
    }
}

/// Whether a handler's answer is a failure: an error, or a response other than a 2xx.
fn is_failure(answer: &poem::Result<Response>) -> bool {
    !answer
        .as_ref()
        .is_ok_and(|response| response.status().is_success())
}

/// When the handler of a durable operation met an outcome another execution of its key had
/// committed (a retry after a crash or a failover, a duplicate while the store was down), the
/// answer that execution gave: replayed (and, under a `claim` of the store, copied into it so
/// later retries replay from there), 422 for another payload, 409 when it cannot be read back.
/// When the handler `failed`, the same if such an outcome is there (its effect may be why this
/// execution failed). `None` otherwise: the handler's own answer stands.
///
/// With [`committed_answer`] (a duplicate meeting its key in flight), the only places committed
/// outcomes are read: never on a first execution's way to its handler.
async fn superseded_answer(
    layer: &Idempotency,
    pending: Option<&PendingOutcome>,
    claim: Option<(&ScopeKey, &LeaseToken)>,
    failed: bool,
) -> Option<Response> {
    let pending = pending?;
    let superseded = pending.state.superseded();
    if !superseded && !failed {
        return None;
    }
    let durable = layer.durable.as_ref()?;
    let committed = match durable.find_hex(&pending.scope).await {
        Ok(Some(committed)) => committed,
        Ok(None) | Err(_) if !superseded => return None,
        Ok(None) | Err(_) => {
            // Expired or swept since, or a database gone meanwhile: the retry decides.
            if let Some((scope, token)) = claim {
                release(layer, scope, token).await;
            }
            layer.metrics.conflict();
            Outcome::Conflict.record();
            return Some(layer.refuse(ProblemKind::InProgress));
        }
    };
    let same_request = committed.fingerprint == pending.fingerprint;
    if let Some((scope, token)) = claim {
        if !same_request {
            release(layer, scope, token).await;
        } else if let Err(err) = layer
            .store
            // Kept as long as the database keeps it, not a fresh retention from now.
            .complete(scope, token, &committed.response, committed.expires_in)
            .instrument(tracing::info_span!("idempotency.complete"))
            .await
        {
            layer.store_failed(FaultStep::Complete, &err);
        }
    }
    Some(replay_or_refuse_committed(layer, committed, same_request))
}

/// Another execution's committed outcome as this request's answer: its replay, or 422 when
/// this request is not the `same_request` (another payload under the key).
fn replay_or_refuse_committed(
    layer: &Idempotency,
    committed: CommittedOutcome,
    same_request: bool,
) -> Response {
    if !same_request {
        layer.metrics.key_reuse();
        Outcome::KeyReuse.record();
        return layer.refuse(ProblemKind::KeyReuse);
    }
    layer.metrics.recovered();
    layer.metrics.replayed();
    Outcome::Replayed.record();
    replay(committed.response)
}

/// The answer a durable operation's execution of this key committed, when the store still
/// says it is in flight: replayed, or 422 for another payload. `None` when nothing is committed
/// (the original is still running) or the database cannot tell.
async fn committed_answer(
    layer: &Idempotency,
    scope: &ScopeKey,
    fingerprint: &Fingerprint,
) -> Option<Response> {
    let committed = match layer.durable.as_ref()?.find_hex(&scope.to_hex()).await {
        Ok(committed) => committed?,
        Err(err) => {
            tracing::debug!(error = %err, "could not look for a committed outcome");
            return None;
        }
    };
    let same_request = committed.fingerprint == fingerprint.to_hex();
    Some(replay_or_refuse_committed(layer, committed, same_request))
}

/// Keeps a replayable response, or releases the key so the retry executes.
async fn store_or_release(
    layer: &Idempotency,
    scope: &ScopeKey,
    token: &LeaseToken,
    response: Response,
) -> poem::Result<Response> {
    let settings = &layer.settings;
    let storable = match storable(response, settings.max_response_bytes).await {
        Ok(storable) => storable,
        Err(err) => {
            release(layer, scope, token).await;
            return Err(err);
        }
    };
    match storable {
        Storable::Yes(stored, response) => {
            match layer
                .store
                .complete(scope, token, &stored, settings.retention)
                .instrument(tracing::info_span!("idempotency.complete"))
                .await
            {
                Ok(true) => {}
                Ok(false) => {
                    // Our lease expired and someone else may own the key now: their record wins.
                    tracing::warn!("idempotency lease lost: the response was not stored");
                    layer.metrics.lease_lost();
                }
                Err(err) => {
                    tracing::debug!(error = %err, "idempotency store could not keep the response");
                    layer.store_failed(FaultStep::Complete, &err);
                }
            }
            Ok(response)
        }
        Storable::No(response) => {
            release(layer, scope, token).await;
            Ok(response)
        }
        Storable::TooLarge(response) => {
            layer.metrics.too_large_to_keep();
            if !layer
                .warned_too_large
                .swap(true, std::sync::atomic::Ordering::Relaxed)
            {
                tracing::warn!(
                    max_response_bytes = settings.max_response_bytes,
                    "an answer over idempotency.max_response_bytes was given but not kept: \
                     a retry executes again (counted in idempotency.too_large_to_keep; \
                     said once per process)"
                );
            }
            release(layer, scope, token).await;
            Ok(response)
        }
    }
}

async fn release(layer: &Idempotency, scope: &ScopeKey, token: &LeaseToken) {
    if let Err(err) = layer
        .store
        .release(scope, token)
        .instrument(tracing::info_span!("idempotency.release"))
        .await
    {
        // The claim will expire with its lease; until then retries wait or get 409.
        tracing::debug!(error = %err, "idempotency store could not release a key");
        layer.store_failed(FaultStep::Release, &err);
    }
}

enum Storable {
    Yes(StoredResponse, Response),
    No(Response),
    /// A replayable 2xx but for its size: answered, not kept, counted.
    TooLarge(Response),
}

/// Decides whether `response` is replayable: a 2xx that is body-less or a buffered JSON body
/// within `max_bytes`. Streaming and file bodies (no exact size), redirects and failures are not.
async fn storable(response: Response, max_bytes: usize) -> poem::Result<Storable> {
    if !response.status().is_success() {
        return Ok(Storable::No(response));
    }
    // `Some(is JSON)` when the answer has a content type.
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .map(crate::key::is_json);
    let (parts, body) = response.into_parts();
    let boxed: http_body_util::combinators::BoxBody<Bytes, std::io::Error> = body.into();
    let exact_size = http_body::Body::size_hint(&boxed).exact();
    let body = Body::from(boxed);
    let replayable = match (exact_size, json) {
        (Some(0), None) => true,
        (Some(size), Some(true)) => {
            if size > max_bytes as u64 {
                return Ok(Storable::TooLarge(Response::from_parts(parts, body)));
            }
            true
        }
        _ => false,
    };
    if !replayable {
        return Ok(Storable::No(Response::from_parts(parts, body)));
    }
    let bytes = crate::buffer::whole(body).await?;
    let stored = StoredResponse::of(&parts, bytes.clone());
    Ok(Storable::Yes(
        stored,
        Response::from_parts(parts, Body::from(bytes)),
    ))
}

/// The key from the header: `Ok(None)` when absent or blank.
fn read_key(headers: &HeaderMap) -> Result<Option<ClientKey>, String> {
    let mut values = headers.get_all(IDEMPOTENCY_KEY).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err("Send one Idempotency-Key header, not several.".to_owned());
    }
    let text = value.to_str().map_err(|_| {
        "The Idempotency-Key header may contain only visible ASCII characters.".to_owned()
    })?;
    ClientKey::parse(text).map_err(|err| err.to_string())
}

/// Rebuilds a stored response, marked as a replay.
fn replay(stored: StoredResponse) -> Response {
    let mut response = Response::builder()
        .status(StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK))
        .header(IDEMPOTENT_REPLAY, "true");
    for (name, value) in [
        (header::CONTENT_TYPE, stored.content_type),
        (header::LOCATION, stored.location),
        (header::ETAG, stored.etag),
    ] {
        // From the `String` itself: no copy of the value.
        if let Some(value) = value.and_then(|v| HeaderValue::try_from(v).ok()) {
            response = response.header(name, value);
        }
    }
    response.body(stored.body)
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use poem::test::TestClient;
    use poem::web::Json;
    use poem::{EndpointExt, Route, handler, post};
    use tracing::Instrument;
    use tracing_subscriber::layer::SubscriberExt;

    use super::*;

    /// Collects the `idempotency` field recorded on spans.
    #[derive(Clone, Default)]
    struct RecordedOutcomes(Arc<Mutex<Vec<String>>>);

    impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for RecordedOutcomes {
        fn on_record(
            &self,
            _span: &tracing::span::Id,
            values: &tracing::span::Record<'_>,
            _context: tracing_subscriber::layer::Context<'_, S>,
        ) {
            struct Visitor<'a>(&'a Mutex<Vec<String>>);
            impl tracing::field::Visit for Visitor<'_> {
                fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
                    if field.name() == "idempotency" {
                        self.0.lock().unwrap().push(value.to_owned());
                    }
                }
                fn record_debug(&mut self, _: &tracing::field::Field, _: &dyn std::fmt::Debug) {}
            }
            values.record(&mut Visitor(&self.0));
        }
    }

    #[handler]
    fn created() -> Json<serde_json::Value> {
        Json(serde_json::json!({ "created": true }))
    }

    /// Answers after `Slow`'s duration, on the (paused) Tokio clock.
    #[derive(Clone, Copy)]
    struct Slow(Duration);

    #[handler]
    async fn slow(slow: poem::web::Data<&Slow>) -> Json<serde_json::Value> {
        tokio::time::sleep(slow.0.0).await;
        Json(serde_json::json!({ "done": true }))
    }

    /// A layer with `settings` over a route that takes `takes` to answer, and the layer.
    fn slow_route(
        settings: IdempotencySettings,
        takes: Duration,
    ) -> (TestClient<impl Endpoint>, Arc<Idempotency>) {
        let layer = Arc::new(Idempotency::in_process(settings));
        let endpoint = Route::new()
            .at("/things", post(idempotent(slow)))
            .data(Arc::clone(&layer))
            .data(Slow(takes));
        (TestClient::new(endpoint), layer)
    }

    fn waiting(lock_wait: Duration) -> IdempotencySettings {
        IdempotencySettings {
            lock_wait,
            // No renewal within the tests' time: the store sees claims only.
            lock_ttl: Duration::from_secs(3600),
            ..IdempotencySettings::default()
        }
    }

    /// Sends a keyed request at once and a duplicate `after`; the duplicate's status, when it
    /// was answered (since the first was sent), and the store calls made until then.
    async fn duplicate_of_a_running_request(
        client: &TestClient<impl Endpoint>,
        layer: &Idempotency,
        after: Duration,
    ) -> (StatusCode, Duration, u64) {
        let started = Instant::now();
        let send = || client.post("/things").header(IDEMPOTENCY_KEY, "k").send();
        let first = send();
        let duplicate = async {
            tokio::time::sleep(after).await;
            let response = send().await;
            (
                response.0.status(),
                started.elapsed(),
                layer.store().operations(),
            )
        };
        tokio::select! {
            // The first is polled first: it claims the key before the duplicate is sent.
            biased;
            _ = first => panic!("the first request finished before its duplicate"),
            answered = duplicate => answered,
        }
    }

    /// Counts the requests that reach it.
    #[derive(Clone, Default)]
    struct Reached(Arc<std::sync::atomic::AtomicUsize>);

    #[handler]
    fn counted(reached: poem::web::Data<&Reached>) -> Json<serde_json::Value> {
        reached
            .0
            .0
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Json(serde_json::json!({ "created": true }))
    }

    #[tokio::test]
    async fn a_guarded_operation_without_the_layer_answers_500_naming_the_fix_and_does_not_run() {
        let reached = Reached::default();
        let client = TestClient::new(
            Route::new()
                .at("/things", post(idempotent(counted)))
                .data(reached.clone()),
        );

        let response = client
            .post("/things")
            .header(IDEMPOTENCY_KEY, "k")
            .send()
            .await;

        response.assert_status(StatusCode::INTERNAL_SERVER_ERROR);
        response.assert_content_type("application/problem+json");
        let problem: serde_json::Value = response.0.into_body().into_json().await.unwrap();
        assert_eq!(problem["type"], "/problems/idempotency-layer-missing");
        assert!(
            problem["detail"]
                .as_str()
                .unwrap()
                .contains(".data(Arc::new(Idempotency::"),
            "{problem}"
        );
        assert_eq!(reached.0.load(std::sync::atomic::Ordering::SeqCst), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn a_duplicate_retries_its_claim_with_a_doubling_pause_up_to_100_ms() {
        let (client, layer) = slow_route(waiting(Duration::from_secs(1)), Duration::from_secs(60));

        let (status, answered_at, operations) =
            duplicate_of_a_running_request(&client, &layer, Duration::ZERO).await;

        // Claims at 0, 5, 15, 35, 75, 155 ms, then every 100 ms up to 955 ms: the next pause
        // would end past the 1 s wait, so the duplicate is answered then, not at the deadline.
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(answered_at, Duration::from_millis(955));
        assert_eq!(operations, 1 + 14, "the first claim and the duplicate's 14");
    }

    #[tokio::test(start_paused = true)]
    async fn a_pause_that_ends_exactly_at_the_deadline_is_still_taken() {
        let (client, layer) =
            slow_route(waiting(Duration::from_millis(155)), Duration::from_secs(60));

        let (status, answered_at, operations) =
            duplicate_of_a_running_request(&client, &layer, Duration::ZERO).await;

        // 75 ms + 80 ms ends at the 155 ms deadline: one more claim there, then the 409.
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(answered_at, Duration::from_millis(155));
        assert_eq!(operations, 1 + 6);
    }

    #[tokio::test(start_paused = true)]
    async fn a_duplicate_that_sees_the_answer_within_its_wait_replays_it() {
        let (client, layer) =
            slow_route(waiting(Duration::from_secs(1)), Duration::from_millis(100));
        let send = || client.post("/things").header(IDEMPOTENCY_KEY, "k").send();

        let (first, duplicate) = tokio::join!(send(), async {
            tokio::time::sleep(Duration::from_millis(1)).await;
            send().await
        });

        first.assert_status_is_ok();
        duplicate.assert_status_is_ok();
        duplicate.assert_header(IDEMPOTENT_REPLAY, "true");
        // Claims at 1, 6, 16, 36, 76 and 156 ms (the answer was kept at 100 ms).
        assert_eq!(layer.metrics().replayed, 1);
        assert_eq!(layer.store().operations(), 1 + 1 + 6);
    }

    #[tokio::test(start_paused = true)]
    async fn a_running_handler_renews_its_lease_every_third_of_it() {
        let settings = IdempotencySettings {
            lock_ttl: Duration::from_millis(300),
            ..IdempotencySettings::default()
        };
        let (client, layer) = slow_route(settings, Duration::from_millis(350));

        client
            .post("/things")
            .header(IDEMPOTENCY_KEY, "k")
            .send()
            .await
            .assert_status_is_ok();

        // The claim, renewals at 100, 200 and 300 ms, and the completion.
        assert_eq!(layer.store().operations(), 1 + 3 + 1);
        assert_eq!(layer.metrics().lease_lost, 0);
    }

    #[tokio::test(start_paused = true)]
    async fn a_renewed_lease_outlives_its_first_term_so_a_late_duplicate_waits_instead_of_executing()
     {
        let settings = IdempotencySettings {
            lock_ttl: Duration::from_millis(300),
            lock_wait: Duration::from_millis(50),
            ..IdempotencySettings::default()
        };
        let (client, layer) = slow_route(settings, Duration::from_secs(2));

        let (status, _, _) =
            duplicate_of_a_running_request(&client, &layer, Duration::from_millis(1000)).await;

        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(
            layer.metrics().executed,
            0,
            "the first is still running, alone"
        );
    }

    #[test]
    fn a_layer_answers_with_the_settings_it_was_built_with() {
        let layer = Idempotency::in_process(waiting(Duration::from_millis(1234)));

        assert_eq!(layer.settings().lock_wait, Duration::from_millis(1234));
        assert_eq!(layer.settings().lock_ttl, Duration::from_secs(3600));
    }

    #[test]
    fn a_new_layer_has_met_no_store_outage() {
        let layer = Idempotency::in_process(IdempotencySettings::default());

        assert_eq!(layer.store_outages(), 0);
    }

    #[test]
    fn an_idempotent_declaration_becomes_the_guard_s_options_and_a_non_idempotent_one_none() {
        let declared = Intent::Idempotent {
            key_required: true,
            on_store_failure: OnStoreFailure::Reject,
            effect: crate::intent::Effect::OutsideDatabase("a test effect"),
            fingerprint_headers: &["X-Tenant"],
        };

        assert_eq!(
            GuardOptions::declared(declared, true),
            Some(GuardOptions {
                key_required: true,
                on_store_failure: OnStoreFailure::Reject,
                secured: true,
                durable: false,
                fingerprint_headers: &["X-Tenant"],
            })
        );
        assert_eq!(
            GuardOptions::declared(Intent::IDEMPOTENT, false).map(|o| (o.durable, o.secured)),
            Some((true, false))
        );
        assert_eq!(
            GuardOptions::declared(
                Intent::NonIdempotent {
                    justification: "a test"
                },
                true
            ),
            None
        );
    }

    #[tokio::test]
    async fn an_inherited_intent_guards_exactly_the_idempotent_operations() {
        let layer = Arc::new(Idempotency::in_process(IdempotencySettings::default()));
        let idempotent = Intent::Idempotent {
            key_required: false,
            on_store_failure: OnStoreFailure::Execute,
            effect: crate::intent::Effect::OutsideDatabase("a test effect"),
            fingerprint_headers: &[],
        };
        let client = TestClient::new(
            Route::new()
                .at("/guarded", post(guard_declared(created, idempotent, false)))
                .at(
                    "/plain",
                    post(guard_declared(
                        created,
                        Intent::NonIdempotent {
                            justification: "a test",
                        },
                        false,
                    )),
                )
                .data(Arc::clone(&layer)),
        );
        let send = |path: &'static str| client.post(path).header(IDEMPOTENCY_KEY, "k").send();

        send("/plain").await.assert_status_is_ok();
        assert_eq!(layer.store().operations(), 0);
        send("/guarded").await.assert_status_is_ok();
        send("/guarded")
            .await
            .assert_header(IDEMPOTENT_REPLAY, "true");
    }

    /// Collects the level and message of every event (for the durable operations' tests).
    #[cfg(feature = "durable")]
    #[derive(Clone, Default)]
    struct Logged(Arc<Mutex<Vec<(tracing::Level, String)>>>);

    #[cfg(feature = "durable")]
    impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Logged {
        fn on_event(
            &self,
            event: &tracing::Event<'_>,
            _context: tracing_subscriber::layer::Context<'_, S>,
        ) {
            struct Message(String);
            impl tracing::field::Visit for Message {
                fn record_debug(
                    &mut self,
                    field: &tracing::field::Field,
                    value: &dyn std::fmt::Debug,
                ) {
                    if field.name() == "message" {
                        self.0 = format!("{value:?}");
                    }
                }
            }
            let mut message = Message(String::new());
            event.record(&mut message);
            self.0
                .lock()
                .unwrap()
                .push((*event.metadata().level(), message.0));
        }
    }

    #[cfg(feature = "durable")]
    impl Logged {
        fn at(&self, level: tracing::Level) -> Vec<String> {
            let logged = self.0.lock().unwrap();
            logged
                .iter()
                .filter(|(at, _)| *at == level)
                .map(|(_, message)| message.clone())
                .collect()
        }
    }

    #[handler]
    fn no_content() -> StatusCode {
        StatusCode::NO_CONTENT
    }

    #[handler]
    fn text() -> &'static str {
        "plain text"
    }

    /// A JSON body of exactly `size` bytes (`size` at least 2).
    #[handler]
    fn json_of(size: poem::web::Path<usize>) -> poem::Response {
        let body = format!("\"{}\"", "x".repeat(size.0 - 2));
        poem::Response::builder()
            .content_type("application/json")
            .body(body)
    }

    /// A layer keeping answers of up to `max_bytes`, over routes answering in several ways.
    fn answering(max_bytes: usize) -> (TestClient<impl Endpoint>, Arc<Idempotency>) {
        let layer = Arc::new(Idempotency::in_process(IdempotencySettings {
            max_response_bytes: max_bytes,
            ..IdempotencySettings::default()
        }));
        let endpoint = Route::new()
            .at("/no-content", post(idempotent(no_content)))
            .at("/text", post(idempotent(text)))
            .at("/json/:size", post(idempotent(json_of)))
            .data(Arc::clone(&layer));
        (TestClient::new(endpoint), layer)
    }

    /// Sends a request twice with a key of its own; whether the second was a replay.
    async fn replayed_the_second_time(client: &TestClient<impl Endpoint>, path: &str) -> bool {
        let send = || client.post(path).header(IDEMPOTENCY_KEY, path).send();
        let first = send().await;
        assert!(first.0.status().is_success(), "{:?}", first.0.status());
        let second = send().await;
        second.0.headers().contains_key(IDEMPOTENT_REPLAY)
    }

    #[tokio::test]
    async fn a_body_less_answer_is_kept_and_a_non_json_one_is_not() {
        let (client, layer) = answering(1024);

        assert!(replayed_the_second_time(&client, "/no-content").await);
        assert!(!replayed_the_second_time(&client, "/text").await);
        assert_eq!(layer.metrics().executed, 3);
    }

    #[tokio::test]
    async fn an_answer_of_exactly_the_limit_is_kept_and_one_byte_more_is_not() {
        let (client, layer) = answering(64);

        assert!(
            replayed_the_second_time(&client, "/json/64").await,
            "64 bytes fit in 64"
        );
        assert!(
            !replayed_the_second_time(&client, "/json/65").await,
            "65 do not"
        );
        assert_eq!(layer.metrics().too_large_to_keep, 2);
    }

    #[tokio::test]
    async fn the_request_span_carries_the_outcome() {
        let outcomes = RecordedOutcomes::default();
        let _scope =
            tracing::subscriber::set_default(tracing_subscriber::registry().with(outcomes.clone()));
        let layer = Arc::new(Idempotency::in_process(IdempotencySettings::default()));
        // As the host's request middleware does: a span with an empty `idempotency` field.
        let endpoint = Route::new()
            .at("/things", post(idempotent(created)))
            .data(layer)
            .around(|next, req| async move {
                let span = tracing::info_span!("request", idempotency = tracing::field::Empty);
                next.call(req).instrument(span).await
            });
        let client = TestClient::new(endpoint);
        let send = |n: u32| {
            client
                .post("/things")
                .header(IDEMPOTENCY_KEY, "k")
                .body_json(&serde_json::json!({ "n": n }))
                .send()
        };

        send(1).await.assert_status_is_ok();
        send(1).await.assert_status_is_ok();
        send(2)
            .await
            .assert_status(StatusCode::UNPROCESSABLE_ENTITY);

        assert_eq!(
            *outcomes.0.lock().unwrap(),
            ["executed", "replayed", "key_reuse"]
        );
    }

    /// A layer over `created` at `PUT /things`, whose requests carry `X-Tenant` too.
    fn tenant_route() -> (TestClient<impl Endpoint>, Arc<Idempotency>) {
        let layer = Arc::new(Idempotency::in_process(IdempotencySettings::default()));
        let options = GuardOptions {
            fingerprint_headers: &["X-Tenant"],
            ..GuardOptions::default()
        };
        let endpoint = Route::new()
            .at("/things", poem::put(guard(created, options)))
            .data(Arc::clone(&layer));
        (TestClient::new(endpoint), layer)
    }

    /// The same keyed PUT of the same body, with `headers`.
    async fn put_with(
        client: &TestClient<impl Endpoint>,
        headers: &[(&'static str, &'static str)],
    ) -> poem::test::TestResponse {
        let mut request = client
            .put("/things")
            .header(IDEMPOTENCY_KEY, "k")
            .body_json(&serde_json::json!({ "name": "lamp" }));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await
    }

    #[tokio::test]
    async fn the_same_key_with_the_same_if_match_replays() {
        let (client, layer) = tenant_route();
        put_with(&client, &[("if-match", "\"v1\"")])
            .await
            .assert_status_is_ok();

        let retry = put_with(&client, &[("if-match", "\"v1\"")]).await;

        retry.assert_status_is_ok();
        retry.assert_header(IDEMPOTENT_REPLAY, "true");
        assert_eq!(layer.metrics().executed, 1);
    }

    #[tokio::test]
    async fn the_same_key_with_another_if_match_is_a_422_and_executes_nothing() {
        let (client, layer) = tenant_route();
        put_with(&client, &[("if-match", "\"v1\"")])
            .await
            .assert_status_is_ok();

        let reuse = put_with(&client, &[("if-match", "\"v3\"")]).await;

        reuse.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
        reuse.assert_content_type("application/problem+json");
        let metrics = layer.metrics();
        assert_eq!((metrics.executed, metrics.key_reuse), (1, 1));
    }

    #[tokio::test]
    async fn an_if_match_added_under_a_key_first_sent_without_one_is_a_422() {
        let (client, layer) = tenant_route();
        put_with(&client, &[]).await.assert_status_is_ok();

        let reuse = put_with(&client, &[("if-match", "\"v1\"")]).await;

        reuse.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(layer.metrics().executed, 1);
    }

    #[tokio::test]
    async fn the_same_key_with_another_value_of_a_declared_header_is_a_422() {
        let (client, layer) = tenant_route();
        put_with(&client, &[("x-tenant", "t1")])
            .await
            .assert_status_is_ok();

        let reuse = put_with(&client, &[("x-tenant", "t2")]).await;

        reuse.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(layer.metrics().executed, 1);
    }

    #[test]
    #[should_panic(expected = "fingerprint_headers: \"X Tenant\" is not a header name")]
    fn a_declared_header_that_is_no_header_name_fails_when_the_route_is_built() {
        let options = GuardOptions {
            fingerprint_headers: &["X Tenant"],
            ..GuardOptions::default()
        };

        let _ = guard(created, options);
    }

    /// Durable operations through the guard, on SQLite: what a retry gets when the store no
    /// longer has the answer (a process that died after its commit, a failover, a flush).
    #[cfg(feature = "durable")]
    mod durable {
        use poem::web::Data;
        use serde_json::{Value, json};
        use sqlx::Row as _;

        use super::*;
        use crate::durable::tests::TestDatabase;
        use crate::{OutcomeRecorder, Recorded};

        /// Records an effect and commits its answer with it.
        #[handler]
        async fn make(
            pool: Data<&sqlx::AnyPool>,
            outcome: OutcomeRecorder,
            body: Json<Value>,
        ) -> poem::Result<Recorded<Json<Value>>> {
            let mut tx = outcome.begin(&pool).await?;
            sqlx::query("INSERT INTO effects (label) VALUES ('made')")
                .execute(&mut *tx)
                .await
                .map_err(crate::DurableError::from)?;
            Ok(tx.commit(Json(json!({ "made": body.0 }))).await?)
        }

        /// Like `make`, but answers 400 once an effect exists (a link already spent).
        #[handler]
        async fn spend(
            pool: Data<&sqlx::AnyPool>,
            outcome: OutcomeRecorder,
        ) -> poem::Result<Recorded<Json<Value>>> {
            let mut tx = outcome.begin(&pool).await?;
            let spent: i64 = sqlx::query("SELECT COUNT(*) AS n FROM effects")
                .fetch_one(&mut *tx)
                .await
                .and_then(|row| row.try_get("n"))
                .map_err(crate::DurableError::from)?;
            if spent > 0 {
                return Err(poem::Error::from_status(StatusCode::BAD_REQUEST));
            }
            sqlx::query("INSERT INTO effects (label) VALUES ('spent')")
                .execute(&mut *tx)
                .await
                .map_err(crate::DurableError::from)?;
            Ok(tx.commit(Json(json!({ "spent": true }))).await?)
        }

        /// The gates an execution of `commit_then_stall` waits at.
        #[derive(Clone, Default)]
        struct Gates {
            /// Opened by it once its effect is written (not yet committed).
            written: Arc<tokio::sync::Notify>,
            /// Opened to let it commit.
            commit: Arc<tokio::sync::Notify>,
            /// Opened to let it answer (until then the store says it is in flight).
            answer: Arc<tokio::sync::Notify>,
        }

        /// Commits its answer with its effect when let, then answers when let: an execution
        /// whose committed outcome the store has not seen (as when its completion is lost).
        #[handler]
        async fn commit_then_stall(
            pool: Data<&sqlx::AnyPool>,
            gates: Data<&Gates>,
            outcome: OutcomeRecorder,
        ) -> poem::Result<Recorded<Json<Value>>> {
            let mut tx = outcome.begin(&pool).await?;
            sqlx::query("INSERT INTO effects (label) VALUES ('stalled')")
                .execute(&mut *tx)
                .await
                .map_err(crate::DurableError::from)?;
            gates.written.notify_one();
            gates.commit.notified().await;
            let recorded = tx.commit(Json(json!({ "made": true }))).await?;
            gates.answer.notified().await;
            Ok(recorded)
        }

        async fn until_an_effect_is_committed(database: &TestDatabase) {
            while database.effects().await == 0 {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }

        /// An instance serving `commit_then_stall` at `/stall`, whose duplicates wait a second.
        fn stalling_instance(
            database: &TestDatabase,
            gates: &Gates,
        ) -> (TestClient<impl Endpoint>, Arc<Idempotency>) {
            // Long enough for the original to commit within a duplicate's wait on a busy machine.
            let settings = IdempotencySettings {
                lock_wait: Duration::from_secs(1),
                ..IdempotencySettings::default()
            };
            let layer = Arc::new(
                Idempotency::in_process(settings).with_durable_outcomes(database.outcomes()),
            );
            let endpoint = Route::new()
                .at("/stall", post(guard(commit_then_stall, DURABLE)))
                .data(Arc::clone(&layer))
                .data(database.pool.clone())
                .data(gates.clone());
            (TestClient::new(endpoint), layer)
        }

        const DURABLE: GuardOptions = GuardOptions {
            key_required: false,
            on_store_failure: OnStoreFailure::Execute,
            secured: false,
            durable: true,
            fingerprint_headers: &[],
        };

        /// A fresh layer (an empty store) over `database`'s outcomes, and a client of it.
        fn instance(database: &TestDatabase) -> (TestClient<impl Endpoint>, Arc<Idempotency>) {
            let layer = Arc::new(
                Idempotency::in_process(IdempotencySettings::default())
                    .with_durable_outcomes(database.outcomes()),
            );
            let endpoint = Route::new()
                .at("/things", post(guard(make, DURABLE)))
                .at("/spend", post(guard(spend, DURABLE)))
                .data(Arc::clone(&layer))
                .data(database.pool.clone());
            (TestClient::new(endpoint), layer)
        }

        async fn send(
            client: &TestClient<impl Endpoint>,
            path: &str,
            body: Value,
        ) -> poem::test::TestResponse {
            client
                .post(path)
                .header(IDEMPOTENCY_KEY, "k")
                .body_json(&body)
                .send()
                .await
        }

        #[tokio::test]
        async fn a_first_execution_commits_its_answer_and_reads_nothing() {
            let database = TestDatabase::create().await;
            let (client, layer) = instance(&database);

            send(&client, "/things", json!({ "a": 1 }))
                .await
                .assert_status_is_ok();

            assert_eq!(layer.outcome_reads(), 0);
            assert_eq!(layer.metrics().durable_claims, 1);
            assert!(layer.durable_outcomes().is_some());
            let kept: i64 = sqlx::query("SELECT COUNT(*) AS n FROM idempotency_outcomes")
                .fetch_one(&database.pool)
                .await
                .and_then(|row| row.try_get("n"))
                .unwrap();
            assert_eq!(kept, 1, "the answer was committed with the effect");
        }

        #[tokio::test]
        async fn a_retry_the_store_forgot_is_answered_from_the_database_once() {
            let database = TestDatabase::create().await;
            let (first_instance, _) = instance(&database);
            let first = send(&first_instance, "/things", json!({ "a": 1 })).await;
            first.assert_status_is_ok();
            let first_body = first.0.into_body().into_string().await.unwrap();
            let (survivor, layer) = instance(&database);

            let retry = send(&survivor, "/things", json!({ "a": 1 })).await;

            retry.assert_status_is_ok();
            retry.assert_header(IDEMPOTENT_REPLAY, "true");
            assert_eq!(retry.0.into_body().into_string().await.unwrap(), first_body);
            assert_eq!(database.effects().await, 1, "the second effect rolled back");
            let metrics = layer.metrics();
            assert_eq!((metrics.recovered, metrics.replayed), (1, 1));
            // The store keeps it now: the next retry is answered without the database.
            let again = send(&survivor, "/things", json!({ "a": 1 })).await;
            again.assert_header(IDEMPOTENT_REPLAY, "true");
            assert_eq!(layer.outcome_reads(), 1);
        }

        #[tokio::test]
        async fn another_payload_under_a_key_the_database_holds_is_a_422() {
            let database = TestDatabase::create().await;
            let (first_instance, _) = instance(&database);
            send(&first_instance, "/things", json!({ "a": 1 })).await;
            let (survivor, layer) = instance(&database);

            let reuse = send(&survivor, "/things", json!({ "a": 2 })).await;

            reuse.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
            assert_eq!(database.effects().await, 1);
            assert_eq!(layer.metrics().key_reuse, 1);
            // The key was released: a request with the first payload gets the first answer.
            send(&survivor, "/things", json!({ "a": 1 }))
                .await
                .assert_header(IDEMPOTENT_REPLAY, "true");
        }

        async fn send_if_match(
            client: &TestClient<impl Endpoint>,
            if_match: &'static str,
        ) -> poem::test::TestResponse {
            client
                .post("/things")
                .header(IDEMPOTENCY_KEY, "k")
                .header(header::IF_MATCH, if_match)
                .body_json(&json!({ "a": 1 }))
                .send()
                .await
        }

        #[tokio::test]
        async fn another_precondition_under_a_key_the_database_holds_is_a_422() {
            let database = TestDatabase::create().await;
            let (first_instance, _) = instance(&database);
            send_if_match(&first_instance, "\"v1\"")
                .await
                .assert_status_is_ok();
            let (survivor, layer) = instance(&database);

            let reuse = send_if_match(&survivor, "\"v3\"").await;

            reuse.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
            assert_eq!(database.effects().await, 1);
            assert_eq!(layer.metrics().key_reuse, 1);
            send_if_match(&survivor, "\"v1\"")
                .await
                .assert_header(IDEMPOTENT_REPLAY, "true");
        }

        #[tokio::test]
        async fn a_retry_that_fails_on_its_own_first_effect_gets_the_first_answer() {
            let database = TestDatabase::create().await;
            let (first_instance, _) = instance(&database);
            send(&first_instance, "/spend", json!({}))
                .await
                .assert_status_is_ok();
            let (survivor, layer) = instance(&database);

            let retry = send(&survivor, "/spend", json!({})).await;

            retry.assert_status_is_ok();
            retry.assert_header(IDEMPOTENT_REPLAY, "true");
            assert_eq!(layer.metrics().recovered, 1);
        }

        #[tokio::test]
        async fn a_durable_operation_that_records_nothing_is_reported_and_still_kept_in_the_store()
        {
            let logged = Logged::default();
            let _scope = tracing::subscriber::set_default(
                tracing_subscriber::registry().with(logged.clone()),
            );
            let database = TestDatabase::create().await;
            let layer = Arc::new(
                Idempotency::in_process(IdempotencySettings::default())
                    .with_durable_outcomes(database.outcomes()),
            );
            let client = TestClient::new(
                Route::new()
                    .at("/forgets", post(guard(created, DURABLE)))
                    .at("/records", post(guard(make, DURABLE)))
                    .data(Arc::clone(&layer))
                    .data(database.pool.clone()),
            );

            send(&client, "/records", json!({}))
                .await
                .assert_status_is_ok();
            assert!(
                logged.at(tracing::Level::ERROR).is_empty(),
                "recording is not reported"
            );
            send(&client, "/forgets", json!({}))
                .await
                .assert_status_is_ok();

            let errors = logged.at(tracing::Level::ERROR);
            assert_eq!(errors.len(), 1, "{errors:?}");
            assert!(
                errors[0].contains("declared durable answered without recording"),
                "{errors:?}"
            );
            send(&client, "/forgets", json!({}))
                .await
                .assert_header(IDEMPOTENT_REPLAY, "true");
        }

        /// Meets the committed answer of its key, then the sweep deletes that answer before the
        /// guard looks for it.
        #[handler]
        async fn superseded_then_swept(
            pool: Data<&sqlx::AnyPool>,
            outcome: OutcomeRecorder,
        ) -> poem::Result<Recorded<Json<Value>>> {
            let tx = outcome.begin(&pool).await?;
            let superseded = tx.commit(Json(json!({ "late": true }))).await;
            sqlx::query("DELETE FROM idempotency_outcomes")
                .execute(*pool)
                .await
                .map_err(crate::DurableError::from)?;
            Ok(superseded?)
        }

        #[tokio::test]
        async fn a_superseded_execution_whose_committed_answer_is_gone_is_told_to_retry() {
            let database = TestDatabase::create().await;
            let (first_instance, _) = instance(&database);
            send(&first_instance, "/things", json!({})).await;
            let layer = Arc::new(
                Idempotency::in_process(IdempotencySettings::default())
                    .with_durable_outcomes(database.outcomes()),
            );
            let survivor = TestClient::new(
                Route::new()
                    .at("/things", post(guard(superseded_then_swept, DURABLE)))
                    .data(Arc::clone(&layer))
                    .data(database.pool.clone()),
            );

            let answer = send(&survivor, "/things", json!({})).await;

            answer.assert_status(StatusCode::CONFLICT);
            answer.assert_header(header::RETRY_AFTER, "1");
            answer.assert_content_type("application/problem+json");
            assert_eq!(layer.metrics().conflict, 1);
        }

        #[tokio::test]
        async fn a_duplicate_meeting_a_claim_whose_answer_is_committed_replays_it_at_once() {
            let database = TestDatabase::create().await;
            let gates = Gates::default();
            let (client, layer) = stalling_instance(&database, &gates);
            gates.commit.notify_one();

            let original = send(&client, "/stall", json!({}));
            let duplicate = async {
                until_an_effect_is_committed(&database).await;
                let duplicate = send(&client, "/stall", json!({})).await;
                let claims_until_then = layer.store().operations();
                gates.answer.notify_one();
                (duplicate, claims_until_then)
            };
            let (original, (duplicate, claims)) = tokio::join!(original, duplicate);

            original.assert_status_is_ok();
            duplicate.assert_status_is_ok();
            duplicate.assert_header(IDEMPOTENT_REPLAY, "true");
            let metrics = layer.metrics();
            assert_eq!((metrics.recovered, metrics.conflict), (1, 0));
            assert_eq!(layer.outcome_reads(), 1, "one look, not one per pause");
            assert_eq!(
                claims, 2,
                "the original's claim and the duplicate's, no second try"
            );
        }

        #[tokio::test]
        async fn a_store_only_operation_meeting_its_key_in_flight_never_reads_the_database() {
            let database = TestDatabase::create().await;
            let gates = Gates::default();
            let settings = IdempotencySettings {
                lock_wait: Duration::from_millis(100),
                ..IdempotencySettings::default()
            };
            let layer = Arc::new(
                Idempotency::in_process(settings).with_durable_outcomes(database.outcomes()),
            );
            let store_only = GuardOptions {
                durable: false,
                ..DURABLE
            };
            let client = TestClient::new(
                Route::new()
                    .at("/stall", post(guard(commit_then_stall, store_only)))
                    .data(Arc::clone(&layer))
                    .data(database.pool.clone())
                    .data(gates.clone()),
            );
            gates.commit.notify_one();

            let original = send(&client, "/stall", json!({}));
            let duplicate = async {
                gates.written.notified().await;
                let duplicate = send(&client, "/stall", json!({})).await;
                gates.answer.notify_one();
                duplicate
            };
            let (original, duplicate) = tokio::join!(original, duplicate);

            original.assert_status_is_ok();
            duplicate.assert_status(StatusCode::CONFLICT);
            assert_eq!(layer.outcome_reads(), 0);
        }

        #[tokio::test]
        async fn a_duplicate_at_the_end_of_its_wait_replays_an_answer_committed_meanwhile() {
            let database = TestDatabase::create().await;
            let gates = Gates::default();
            let (client, layer) = stalling_instance(&database, &gates);

            let original = send(&client, "/stall", json!({}));
            let duplicate = async {
                gates.written.notified().await;
                let duplicate = send(&client, "/stall", json!({}));
                tokio::pin!(duplicate);
                let first_look = async {
                    while layer.outcome_reads() == 0 {
                        tokio::time::sleep(Duration::from_millis(5)).await;
                    }
                };
                // Committed once the duplicate has looked and found nothing (or, if it never
                // looks, once it has answered: the assertions below then fail, nothing hangs).
                let duplicate = tokio::select! {
                    answered = &mut duplicate => {
                        gates.commit.notify_one();
                        answered
                    }
                    () = first_look => {
                        gates.commit.notify_one();
                        duplicate.await
                    }
                };
                gates.answer.notify_one();
                duplicate
            };
            let (original, duplicate) = tokio::join!(original, duplicate);

            original.assert_status_is_ok();
            duplicate.assert_status_is_ok();
            duplicate.assert_header(IDEMPOTENT_REPLAY, "true");
            assert_eq!(
                layer.outcome_reads(),
                2,
                "when first met and before giving up"
            );
            assert_eq!(database.effects().await, 1);
        }

        #[tokio::test]
        async fn another_payload_meeting_a_claim_whose_answer_is_committed_is_a_422() {
            let database = TestDatabase::create().await;
            let gates = Gates::default();
            let (client, layer) = stalling_instance(&database, &gates);
            gates.commit.notify_one();

            let original = send(&client, "/stall", json!({ "a": 1 }));
            let reuse = async {
                until_an_effect_is_committed(&database).await;
                let reuse = send(&client, "/stall", json!({ "a": 2 })).await;
                gates.answer.notify_one();
                reuse
            };
            let (original, reuse) = tokio::join!(original, reuse);

            original.assert_status_is_ok();
            reuse.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
            assert_eq!(layer.metrics().key_reuse, 1);
        }

        #[tokio::test]
        async fn a_failure_with_nothing_committed_is_answered_as_it_is() {
            let logged = Logged::default();
            let _scope = tracing::subscriber::set_default(
                tracing_subscriber::registry().with(logged.clone()),
            );
            let database = TestDatabase::create().await;
            sqlx::query("INSERT INTO effects (label) VALUES ('spent elsewhere')")
                .execute(&database.pool)
                .await
                .unwrap();
            let (client, layer) = instance(&database);

            let refused = send(&client, "/spend", json!({})).await;

            refused.assert_status(StatusCode::BAD_REQUEST);
            assert_eq!(layer.metrics().recovered, 0);
            assert!(
                logged.at(tracing::Level::ERROR).is_empty(),
                "a failure is not a missing record"
            );
            assert_eq!(layer.outcome_reads(), 1, "a failure looks once");
        }
    }
}
