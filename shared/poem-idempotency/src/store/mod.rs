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
//! - [`Store::claim`] either creates the in-progress record or reports what is already there
//!   (in flight, completed and replayable, or a different payload under the same key). Deciding
//!   that and creating the record is one atomic step, so two concurrent first attempts can never
//!   both execute.
//! - An in-progress record only lives for its *lease*. A worker that crashes mid-request must not
//!   block the key forever, so the record expires and a retry can claim it again.
//! - Because a lease can expire under a slow-but-alive worker, every later operation carries the
//!   [`LeaseToken`] handed out by `claim` and only acts if the record is still that claim's: a
//!   fencing token. Without it, the stale worker's `complete` would overwrite (or its `release`
//!   delete) the record of the claimant that took over, and two different responses could be
//!   replayed for one key.
//! - [`Store::renew`] lets a long request keep its lease without choosing a huge lease up front.
//!
//! Two backends implement exactly these semantics, and one test suite ([`conformance`], at the bottom of
//! this file) runs against both: [`MemoryStore`] for a single instance and tests, [`RedisStore`] for
//! a fleet. [`Store`] is an enum rather than a trait object because the set is closed and an enum
//! keeps the hot path free of boxing and `async fn`-in-trait object-safety workarounds.

mod memory;
mod redis;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bytes::Bytes;

use crate::key::{Fingerprint, ScopeKey};

pub use self::memory::MemoryStore;
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

/// Proof of one particular claim: 128 random bits handed out by [`Store::claim`] and required
/// by every later operation on the record, so that a claimant whose lease expired cannot touch
/// the record of whoever claimed it next.
#[derive(Clone, PartialEq, Eq)]
pub struct LeaseToken([u8; 16]);

impl LeaseToken {
    /// A fresh token. 128 bits from the thread-local CSPRNG make a collision with a concurrent
    /// claimant's token practically impossible, and make tokens unguessable should a token ever
    /// be derived from outside the process.
    pub(crate) fn generate() -> LeaseToken {
        LeaseToken(rand::random())
    }

    pub(crate) fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }
}

impl std::fmt::Debug for LeaseToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LeaseToken({})", hex::encode(self.0))
    }
}

/// What [`Store::claim`] found.
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

/// The record store, over one of the two backends.
///
/// Cheap to clone: clones share the backend and its [`operations`](Store::operations) counter.
#[derive(Clone)]
pub enum Store {
    /// In-process, bounded; for single-instance deployments and tests.
    Memory(Arc<MemoryStore>),
    /// Shared by every instance of the service.
    Redis(RedisStore),
}

impl Store {
    /// Claims `key` for a request with `fingerprint`, or reports the record already there.
    /// A new in-progress record expires after `lease` unless renewed.
    pub async fn claim(
        &self,
        key: &ScopeKey,
        fingerprint: &Fingerprint,
        lease: Duration,
    ) -> Result<Claim, StoreError> {
        self.count();
        let lease = lease.min(MAX_TTL);
        match self {
            Store::Memory(store) => store.claim(key, fingerprint, lease),
            Store::Redis(store) => store.claim(key, fingerprint, lease).await,
        }
    }

    /// Turns our in-progress record into a completed one kept for `retention`.
    ///
    /// Returns `Ok(false)`, writing nothing, when the record is no longer ours: the lease
    /// expired and someone else claimed the key, or the record vanished.
    pub async fn complete(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        response: &StoredResponse,
        retention: Duration,
    ) -> Result<bool, StoreError> {
        self.count();
        let retention = retention.min(MAX_TTL);
        match self {
            Store::Memory(store) => store.complete(key, token, response, retention),
            Store::Redis(store) => store.complete(key, token, response, retention).await,
        }
    }

    /// Deletes our in-progress record so that a retry executes. `Ok(false)` if it is not ours.
    pub async fn release(&self, key: &ScopeKey, token: &LeaseToken) -> Result<bool, StoreError> {
        self.count();
        match self {
            Store::Memory(store) => Ok(store.release(key, token)),
            Store::Redis(store) => store.release(key, token).await,
        }
    }

    /// Extends our in-progress record's expiry to now + `lease`. `Ok(false)` if it is not ours
    /// anymore: the lease was lost, and the caller should assume another claimant may run.
    pub async fn renew(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        self.count();
        let lease = lease.min(MAX_TTL);
        match self {
            Store::Memory(store) => Ok(store.renew(key, token, lease)),
            Store::Redis(store) => store.renew(key, token, lease).await,
        }
    }

    /// How many store operations (claim, complete, release, renew) have been performed through
    /// this backend instance, by this handle and its clones, including failed ones.
    ///
    /// Tests use it to prove that a request without an idempotency key never touched the store.
    pub fn operations(&self) -> u64 {
        self.counter().load(Ordering::Relaxed)
    }

    /// `"memory"` or `"redis"`, for logs and metrics labels.
    pub fn backend_name(&self) -> &'static str {
        match self {
            Store::Memory(_) => "memory",
            Store::Redis(_) => "redis",
        }
    }

    fn counter(&self) -> &AtomicU64 {
        match self {
            Store::Memory(store) => store.operations_counter(),
            Store::Redis(store) => store.operations_counter(),
        }
    }

    fn count(&self) {
        // Relaxed: the counter orders nothing, it is only ever read as a total.
        self.counter().fetch_add(1, Ordering::Relaxed);
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
    use std::sync::Arc;

    use super::*;
    use crate::key::ClientKey;

    fn store() -> Store {
        Store::Memory(Arc::new(MemoryStore::new(100, 1 << 20)))
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
}

/// Instantiates every test of [`conformance`] for one backend: `$make` is an async expression
/// producing a fresh [`Store`], `$test` the test attribute to use. With `when $runs_here;`,
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
