//! The idempotency record store: one record per [`ScopeKey`], moved through its life by four
//! operations.
//!
//! ```text
//!            claim (absent)                 complete (our token)
//!   absent ──────────────────▶ in progress ─────────────────────▶ completed ──▶ absent
//!     ▲                          │      │ renew (our token)           (after retention)
//!     └──── release (our token) ─┘      └─ lease expires ──▶ absent
//! ```
//!
//! - [`RecordStore::claim`] either creates the in-progress record or reports what is already
//!   there (in flight, completed and replayable, or a different payload under the same key).
//!   Deciding that and creating the record is one atomic step, so two concurrent first attempts
//!   can never both execute.
//! - An in-progress record only lives for its *lease*. A worker that crashes mid-request must not
//!   block the key forever, so the record expires and a retry can claim it again.
//! - Because a lease can expire under a slow-but-alive worker, every later operation carries the
//!   [`LeaseToken`] handed out by `claim` and only acts if the record is still that claim's: a
//!   fencing token. Without it, the stale worker's `complete` would overwrite (or its `release`
//!   delete) the record of the claimant that took over, and two different responses could be
//!   replayed for one key.
//! - [`RecordStore::renew`] lets a long request keep its lease without choosing a huge lease up
//!   front.
//!
//! A backend is anything that implements [`RecordStore`]; [`Store`] is the handle the layer
//! holds (cheap to clone, counting operations, clamping durations). The crate ships
//! [`MemoryStore`] for a single instance and tests, `RedisStore` (feature `redis`) for a fleet,
//! and `PostgresStore` (feature `postgres`) for a fleet that has PostgreSQL and no Redis. [`conformance`] (feature `conformance`) is the definition of the semantics as tests:
//! a new backend is one that passes it (`store_conformance_suite!`), as these three do.
//!
//! ```ignore
//! struct MyStore { /* ... */ }
//!
//! impl RecordStore for MyStore {
//!     fn name(&self) -> &'static str { "my-store" }
//!     async fn claim(&self, key: &ScopeKey, fingerprint: &Fingerprint, lease: Duration)
//!         -> Result<Claim, StoreError> { /* one atomic check-and-insert */ }
//!     // complete, release, renew: each acts only if the record is still `token`'s claim.
//! }
//!
//! let layer = Idempotency::new(Store::new(MyStore { /* ... */ }), settings);
//! ```

mod memory;
#[cfg(feature = "postgres")]
mod postgres;
#[cfg(feature = "redis")]
mod redis;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bytes::Bytes;

pub use crate::key::{Fingerprint, ScopeKey};

pub use self::memory::MemoryStore;
#[cfg(feature = "postgres")]
pub use self::postgres::{
    DEFAULT_TABLE as POSTGRES_DEFAULT_TABLE, PostgresStore, PostgresStoreError,
};
#[cfg(feature = "redis")]
pub use self::redis::{RedisConnection, RedisStore};

/// The longest lease or retention the store honours. Longer durations are clamped: nothing
/// should be kept for decades, and clamping keeps `now + duration` from overflowing.
const MAX_TTL: Duration = Duration::from_secs(365 * 24 * 60 * 60);

/// The parts of a response that a replay reproduces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredResponse {
    /// The HTTP status code.
    pub status: u16,
    /// The `Content-Type` header, if the response had one.
    pub content_type: Option<String>,
    /// The `Location` header, if the response had one (e.g. a `201 Created`).
    pub location: Option<String>,
    /// The `ETag` header, if the response had one.
    pub etag: Option<String>,
    /// The body, byte for byte.
    pub body: Bytes,
}

impl StoredResponse {
    /// What a replay of the response with these `parts` and this `body` reproduces.
    pub fn of(parts: &poem::ResponseParts, body: Bytes) -> Self {
        let header = |name| {
            parts
                .headers
                .get(name)
                .and_then(|value: &poem::http::HeaderValue| value.to_str().ok())
                .map(str::to_owned)
        };
        Self {
            status: parts.status.as_u16(),
            content_type: header(poem::http::header::CONTENT_TYPE),
            location: header(poem::http::header::LOCATION),
            etag: header(poem::http::header::ETAG),
            body,
        }
    }
}

/// Proof of one particular claim: 128 random bits handed out by [`RecordStore::claim`] and required
/// by every later operation on the record, so that a claimant whose lease expired cannot touch
/// the record of whoever claimed it next.
#[derive(Clone, PartialEq, Eq)]
pub struct LeaseToken([u8; 16]);

impl LeaseToken {
    /// A fresh token. 128 bits from the thread-local CSPRNG make a collision with a concurrent
    /// claimant's token practically impossible, and make tokens unguessable should a token ever
    /// be derived from outside the process.
    pub fn generate() -> LeaseToken {
        LeaseToken(rand::random())
    }

    /// The token as a backend stores it.
    pub fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }

    /// The token a backend stored with [`Self::as_bytes`], read back.
    pub fn from_bytes(bytes: [u8; 16]) -> LeaseToken {
        LeaseToken(bytes)
    }
}

impl std::fmt::Debug for LeaseToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LeaseToken({})", hex::encode(self.0))
    }
}

/// What [`RecordStore::claim`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// No record existed: an in-progress record with our fingerprint and this token now exists,
    /// expiring after the lease. The caller executes the request, then completes or releases.
    Acquired(LeaseToken),
    /// Another claimant holds an unexpired in-progress record with the same fingerprint.
    InFlight,
    /// A completed record with the same fingerprint exists: replay it.
    Completed(StoredResponse),
    /// A record (in progress or completed) exists with a different fingerprint: the client
    /// reused the key for a different payload.
    Mismatch,
}

/// Why a store operation could not be performed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The backend failed (connection refused or lost, timeout, unexpected reply).
    #[error("idempotency store unavailable: {0}")]
    Unavailable(String),
    /// The memory store has no room for the record, even after evicting everything it may
    /// evict (expired records and completed ones; never a live in-progress claim).
    #[error("idempotency store is full")]
    Full,
}

/// A backend of the record store: the four operations of the record's life, each one atomic
/// on the backend (see the module documentation and [`conformance`] for the semantics).
///
/// Durations arrive clamped to a year. Write `async fn` in the implementation: the futures must
/// be `Send`, since the guard runs on a multi-threaded runtime.
pub trait RecordStore: Send + Sync + 'static {
    /// A short name for logs and metrics labels (`"memory"`, `"redis"`).
    fn name(&self) -> &'static str;

    /// Claims `key` for a request with `fingerprint`, or reports the record already there.
    /// A new in-progress record expires after `lease` unless renewed, and carries a fresh
    /// [`LeaseToken::generate`] returned in [`Claim::Acquired`].
    fn claim(
        &self,
        key: &ScopeKey,
        fingerprint: &Fingerprint,
        lease: Duration,
    ) -> impl Future<Output = Result<Claim, StoreError>> + Send;

    /// Turns our in-progress record into a completed one kept for `retention`.
    ///
    /// `Ok(false)`, writing nothing, when the record is no longer `token`'s claim: the lease
    /// expired and someone else claimed the key, or the record vanished.
    fn complete(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        response: &StoredResponse,
        retention: Duration,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Deletes our in-progress record so that a retry executes. `Ok(false)` if it is not ours.
    fn release(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Extends our in-progress record's expiry to now + `lease`. `Ok(false)` if it is not ours
    /// anymore: the lease was lost, and the caller should assume another claimant may run.
    fn renew(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        lease: Duration,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;
}

/// A backend shared with its owner (a test reading the memory store's size, say).
impl<S: RecordStore> RecordStore for Arc<S> {
    fn name(&self) -> &'static str {
        S::name(self)
    }

    fn claim(
        &self,
        key: &ScopeKey,
        fingerprint: &Fingerprint,
        lease: Duration,
    ) -> impl Future<Output = Result<Claim, StoreError>> + Send {
        S::claim(self, key, fingerprint, lease)
    }

    fn complete(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        response: &StoredResponse,
        retention: Duration,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        S::complete(self, key, token, response, retention)
    }

    fn release(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        S::release(self, key, token)
    }

    fn renew(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        lease: Duration,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        S::renew(self, key, token, lease)
    }
}

type Answer<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// [`RecordStore`] behind a pointer: its futures boxed, so that [`Store`] needs no type
/// parameter (one small allocation per operation, next to a round trip or a map update).
trait DynRecordStore: Send + Sync {
    fn name(&self) -> &'static str;
    fn as_any(&self) -> &dyn std::any::Any;
    fn claim<'a>(
        &'a self,
        key: &'a ScopeKey,
        fingerprint: &'a Fingerprint,
        lease: Duration,
    ) -> Answer<'a, Claim>;
    fn complete<'a>(
        &'a self,
        key: &'a ScopeKey,
        token: &'a LeaseToken,
        response: &'a StoredResponse,
        retention: Duration,
    ) -> Answer<'a, bool>;
    fn release<'a>(&'a self, key: &'a ScopeKey, token: &'a LeaseToken) -> Answer<'a, bool>;
    fn renew<'a>(
        &'a self,
        key: &'a ScopeKey,
        token: &'a LeaseToken,
        lease: Duration,
    ) -> Answer<'a, bool>;
}

impl<S: RecordStore> DynRecordStore for S {
    fn name(&self) -> &'static str {
        RecordStore::name(self)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn claim<'a>(
        &'a self,
        key: &'a ScopeKey,
        fingerprint: &'a Fingerprint,
        lease: Duration,
    ) -> Answer<'a, Claim> {
        Box::pin(RecordStore::claim(self, key, fingerprint, lease))
    }

    fn complete<'a>(
        &'a self,
        key: &'a ScopeKey,
        token: &'a LeaseToken,
        response: &'a StoredResponse,
        retention: Duration,
    ) -> Answer<'a, bool> {
        Box::pin(RecordStore::complete(self, key, token, response, retention))
    }

    fn release<'a>(&'a self, key: &'a ScopeKey, token: &'a LeaseToken) -> Answer<'a, bool> {
        Box::pin(RecordStore::release(self, key, token))
    }

    fn renew<'a>(
        &'a self,
        key: &'a ScopeKey,
        token: &'a LeaseToken,
        lease: Duration,
    ) -> Answer<'a, bool> {
        Box::pin(RecordStore::renew(self, key, token, lease))
    }
}

/// The record store the layer holds: any [`RecordStore`], with the durations it is asked for
/// clamped to a year and its operations counted.
///
/// Cheap to clone: clones share the backend and its [`operations`](Store::operations) counter.
#[derive(Clone)]
pub struct Store {
    backend: Arc<dyn DynRecordStore>,
    operations: Arc<AtomicU64>,
}

impl Store {
    /// The store over `backend`.
    pub fn new(backend: impl RecordStore) -> Self {
        Self {
            backend: Arc::new(backend),
            operations: Arc::default(),
        }
    }

    /// See [`RecordStore::claim`].
    pub async fn claim(
        &self,
        key: &ScopeKey,
        fingerprint: &Fingerprint,
        lease: Duration,
    ) -> Result<Claim, StoreError> {
        self.count();
        self.backend
            .claim(key, fingerprint, lease.min(MAX_TTL))
            .await
    }

    /// See [`RecordStore::complete`].
    pub async fn complete(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        response: &StoredResponse,
        retention: Duration,
    ) -> Result<bool, StoreError> {
        self.count();
        self.backend
            .complete(key, token, response, retention.min(MAX_TTL))
            .await
    }

    /// See [`RecordStore::release`].
    pub async fn release(&self, key: &ScopeKey, token: &LeaseToken) -> Result<bool, StoreError> {
        self.count();
        self.backend.release(key, token).await
    }

    /// See [`RecordStore::renew`].
    pub async fn renew(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        self.count();
        self.backend.renew(key, token, lease.min(MAX_TTL)).await
    }

    /// How many store operations (claim, complete, release, renew) have been performed through
    /// this handle and its clones, including failed ones.
    ///
    /// Tests use it to prove that a request without an idempotency key never touched the store.
    pub fn operations(&self) -> u64 {
        self.operations.load(Ordering::Relaxed)
    }

    /// The backend, if it is a `B` (the in-process store's size, for a benchmark).
    pub fn backend<B: RecordStore>(&self) -> Option<&B> {
        self.backend.as_any().downcast_ref()
    }

    /// The backend's [`RecordStore::name`], for logs and metrics labels.
    pub fn backend_name(&self) -> &'static str {
        self.backend.name()
    }

    fn count(&self) {
        // Relaxed: the counter orders nothing, it is only ever read as a total.
        self.operations.fetch_add(1, Ordering::Relaxed);
    }
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("backend", &self.backend_name())
            .field("operations", &self.operations())
            .finish()
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::key::ClientKey;

    fn store() -> Store {
        Store::new(MemoryStore::new(100, 1 << 20))
    }

    fn scope() -> ScopeKey {
        ScopeKey::derive(
            "user",
            "POST",
            "/a",
            &ClientKey::parse("k").unwrap().unwrap(),
        )
    }

    fn fingerprint() -> Fingerprint {
        Fingerprint::of(b"{}", Some("application/json"), "")
    }

    const DAY: Duration = Duration::from_secs(24 * 60 * 60);

    async fn acquire(store: &Store) -> LeaseToken {
        match store.claim(&scope(), &fingerprint(), DAY).await.unwrap() {
            Claim::Acquired(token) => token,
            other => panic!("a first claim acquires, not {other:?}"),
        }
    }

    /// A year less a day on, a claim still meets `during`; two days later, the record is gone.
    async fn assert_claimed_for_a_year_only(store: &Store, during: Claim) {
        tokio::time::advance(364 * DAY).await;
        assert_eq!(
            store.claim(&scope(), &fingerprint(), DAY).await.unwrap(),
            during
        );
        tokio::time::advance(2 * DAY).await;
        assert!(matches!(
            store.claim(&scope(), &fingerprint(), DAY).await.unwrap(),
            Claim::Acquired(_)
        ));
    }

    #[tokio::test(start_paused = true)]
    async fn a_lease_longer_than_a_year_lasts_a_year() {
        let store = store();
        store
            .claim(&scope(), &fingerprint(), 10 * 365 * DAY)
            .await
            .unwrap();

        assert_claimed_for_a_year_only(&store, Claim::InFlight).await;
    }

    #[tokio::test(start_paused = true)]
    async fn a_retention_longer_than_a_year_lasts_a_year() {
        let store = store();
        let token = acquire(&store).await;
        let response = StoredResponse {
            status: 201,
            content_type: None,
            location: None,
            etag: None,
            body: Bytes::new(),
        };
        store
            .complete(&scope(), &token, &response, 10 * 365 * DAY)
            .await
            .unwrap();

        assert_claimed_for_a_year_only(&store, Claim::Completed(response)).await;
    }

    #[tokio::test(start_paused = true)]
    async fn a_renewal_longer_than_a_year_lasts_a_year() {
        let store = store();
        let token = acquire(&store).await;

        assert!(store.renew(&scope(), &token, 10 * 365 * DAY).await.unwrap());

        assert_claimed_for_a_year_only(&store, Claim::InFlight).await;
    }

    #[tokio::test]
    async fn a_store_says_what_it_is_and_how_much_it_was_used() {
        let store = store();
        store.claim(&scope(), &fingerprint(), DAY).await.unwrap();

        assert_eq!(store.backend_name(), "memory");
        assert_eq!(
            format!("{store:?}"),
            r#"Store { backend: "memory", operations: 1 }"#
        );
        let token = LeaseToken([0xab; 16]);
        assert_eq!(
            format!("{token:?}"),
            format!("LeaseToken({})", "ab".repeat(16))
        );
    }

    #[test]
    fn a_store_reaches_its_own_backend_and_no_other() {
        let store = store();
        let shared = Store::new(Arc::new(MemoryStore::new(100, 1 << 20)));

        assert!(store.backend::<MemoryStore>().is_some());
        assert!(store.backend::<Arc<MemoryStore>>().is_none());
        assert_eq!(shared.backend_name(), "memory", "an Arc is its store");
        assert!(shared.backend::<Arc<MemoryStore>>().is_some());
    }

    #[test]
    fn a_lease_token_reads_back_from_its_bytes() {
        let token = LeaseToken::generate();

        let read_back = LeaseToken::from_bytes(*token.as_bytes());

        assert_eq!(read_back, token);
        assert_ne!(LeaseToken::generate(), token, "tokens are random");
    }
}

/// Instantiates every test of [`conformance`] for one backend: `$make` is an async expression
/// producing a fresh [`Store`] (`Store::new(your_backend)`), `$test` the test attribute to use. With `when $runs_here;`,
/// each test returns at once where `$runs_here` is false (the caller says so loudly).
///
/// ```ignore
/// poem_idempotency::store_conformance_suite!(#[tokio::test] my_store().await);
/// ```
#[cfg(any(test, feature = "conformance"))]
#[macro_export]
macro_rules! store_conformance_suite {
    (#[$test:meta] $make:expr) => {
        $crate::store_conformance_suite!(@every #[$test] true; $make);
    };
    (#[$test:meta] when $runs_here:expr; $make:expr) => {
        $crate::store_conformance_suite!(@every #[$test] $runs_here; $make);
    };
    (@every #[$test:meta] $runs_here:expr; $make:expr) => {
        $crate::store_conformance_suite!(@tests #[$test] $runs_here; $make;
            claim_on_empty_acquires,
            second_claim_with_same_fingerprint_is_in_flight,
            different_fingerprint_is_mismatch_while_in_progress,
            different_fingerprint_is_mismatch_after_completion,
            completed_record_replays_every_field,
            completed_record_replays_empty_body_and_absent_headers,
            empty_header_values_are_not_confused_with_absent_ones,
            stale_token_cannot_complete,
            complete_after_the_record_vanished_writes_nothing,
            complete_twice_is_refused,
            release_by_owner_lets_next_claim_acquire,
            release_with_foreign_token_does_nothing,
            release_after_completion_does_nothing,
            renew_extends_the_lease,
            renew_after_losing_the_lease_fails,
            renew_of_a_foreign_or_completed_record_fails,
            in_progress_record_expires_after_the_lease,
            completed_record_expires_after_retention,
            keys_are_independent,
            concurrent_claims_acquire_exactly_once,
            operations_counts_every_call,
        );
    };
    (@tests #[$test:meta] $runs_here:expr; $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[$test]
            async fn $name() {
                if !$runs_here {
                    return;
                }
                $crate::store::conformance::$name($make).await;
            }
        )*
    };
}

#[cfg(any(test, feature = "conformance"))]
#[allow(missing_docs)]
pub mod conformance;
