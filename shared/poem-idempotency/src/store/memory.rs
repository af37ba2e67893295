//! The in-process record store: the [`RecordStore`] semantics for a single instance.
//!
//! It owns two concerns beyond the semantics themselves:
//!
//! - **Boundedness.** Idempotency keys are client-chosen, so a client (or an attacker) can mint a
//!   new one per request. The store therefore caps both the number of records and their
//!   approximate size, and makes room by dropping expired records first and then the oldest
//!   *completed* ones. Losing a completed record under a flood only costs a replay (the retry
//!   executes again); evicting a live in-progress claim would let two executions of one request
//!   run concurrently, so that is never done: a store full of live claims answers
//!   [`StoreError::Full`] instead.
//! - **Contention.** Records are spread over a fixed set of shards by the scope key's leading
//!   bytes (uniformly distributed, being a SHA-256 digest), each behind a plain
//!   `std::sync::Mutex`. Every operation is a few map updates done synchronously under one
//!   shard's lock, which is never held across an `.await`, so there is no need for async locks
//!   or a per-key lock table (which would itself need bounding and cleanup): the claim's
//!   check-and-insert is atomic simply because it happens under the shard lock.
//!
//! Expiry is lazy: an expired record is treated as absent by every read, and its memory is
//! reclaimed, in expiry order, whenever a record is inserted into its shard. Time comes from
//! [`tokio::time::Instant`] so that tests can drive leases and retention with tokio's paused
//! clock instead of sleeping.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use super::{Claim, LeaseToken, RecordStore, StoreError, StoredResponse};
use crate::key::{Fingerprint, ScopeKey};
use crate::planted::{self, Bug};

/// The number of shards of a large store: comfortably more than the cores that could contend.
const SHARDS: usize = 64;

/// Smaller stores get fewer shards so that each holds at least this many records: eviction is
/// oldest-first *within a shard*, which only approximates store-wide order when shards are not
/// tiny, and a byte budget split too finely could not hold any sizeable response.
const MIN_ENTRIES_PER_SHARD: usize = 64;

type Key = [u8; 32];

/// A bounded, sharded, in-memory record store. See the module documentation.
pub struct MemoryStore {
    shards: Box<[Mutex<Shard>]>,
    limits: Limits,
}

/// One shard's share of the store's budget.
#[derive(Debug, Clone, Copy)]
struct Limits {
    entries: usize,
    bytes: usize,
}

impl MemoryStore {
    /// What a record costs in the byte budget besides its response's body and header values.
    ///
    /// Derived from the layout rather than guessed: a hash-map slot for the 32-byte key and the
    /// record (~200 bytes) and its entries in the expiry and completion indexes (~110 bytes
    /// with B-tree node overhead); the test `record_overhead_covers_the_record_layout` keeps it
    /// honest if the record grows. The map's spare capacity is not counted, so the real
    /// footprint can exceed the budget by up to that much: the budget is approximate, but it
    /// is a bound that does not move with the number of keys clients invent.
    pub const RECORD_OVERHEAD: usize = 320;

    /// A store holding at most `max_entries` records whose approximate size (bodies, header
    /// values and [`RECORD_OVERHEAD`](Self::RECORD_OVERHEAD) each) stays within `max_bytes`.
    ///
    /// The budget is split evenly across the shards (64 for stores of 4096 entries or more,
    /// fewer below, a single one under 128), so the largest response that can be kept is about
    /// `max_bytes / shards` less the overhead; larger ones make
    /// [`complete`](RecordStore::complete) fail with [`StoreError::Full`]. A `max_entries` of
    /// zero makes a store that can hold nothing.
    pub fn new(max_entries: usize, max_bytes: usize) -> MemoryStore {
        let shard_count = (max_entries / MIN_ENTRIES_PER_SHARD).clamp(1, SHARDS);
        let shards = (0..shard_count)
            .map(|_| Mutex::new(Shard::default()))
            .collect();
        MemoryStore {
            shards,
            limits: Limits {
                entries: max_entries / shard_count,
                bytes: max_bytes / shard_count,
            },
        }
    }

    /// The number of records held, including expired ones not yet reclaimed.
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|shard| lock(shard).records.len())
            .sum()
    }

    /// Whether the store holds no record at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The approximate size of the records held, as counted against `max_bytes`.
    pub fn approximate_bytes(&self) -> usize {
        self.shards.iter().map(|shard| lock(shard).bytes).sum()
    }

    fn shard(&self, key: &Key) -> MutexGuard<'_, Shard> {
        // The key is a SHA-256 digest, so its leading bytes are already uniform.
        let index = usize::from(u16::from_be_bytes([key[0], key[1]])) % self.shards.len();
        lock(&self.shards[index])
    }
}

impl RecordStore for MemoryStore {
    fn name(&self) -> &'static str {
        "memory"
    }

    async fn claim(
        &self,
        key: &ScopeKey,
        fingerprint: &Fingerprint,
        lease: Duration,
    ) -> Result<Claim, StoreError> {
        let now = Instant::now();
        let key = key.as_bytes();
        let mut shard = self.shard(key);
        if let Some(record) = shard.live(key, now) {
            if record.fingerprint != *fingerprint.as_bytes() {
                return Ok(Claim::Mismatch);
            }
            return Ok(match &record.state {
                State::InProgress(_) => Claim::InFlight,
                State::Completed { response, .. } => Claim::Completed(response.clone()),
            });
        }
        let token = LeaseToken::generate();
        let record = Record {
            fingerprint: *fingerprint.as_bytes(),
            expires_at: now + lease,
            state: State::InProgress(token.clone()),
        };
        shard.insert(*key, record, now, self.limits)?;
        Ok(Claim::Acquired(token))
    }

    /// If the completed record cannot be kept for lack of room, the claim is given up all the
    /// same and `Full` is returned: a retry then executes again, exactly as if the completed
    /// record had been evicted a moment later, instead of being told "in flight" until the
    /// lease runs out.
    async fn complete(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        response: &StoredResponse,
        retention: Duration,
    ) -> Result<bool, StoreError> {
        let now = Instant::now();
        let key = key.as_bytes();
        let mut shard = self.shard(key);
        let fingerprint = match shard.live(key, now) {
            // Planted bug (simulation only): completes whatever record is there.
            Some(record) if record.is_claimed_by(token) || planted::is(Bug::UnfencedCompletion) => {
                record.fingerprint
            }
            _ => return Ok(false),
        };
        shard.remove(key);
        let sequence = shard.next_completion;
        shard.next_completion += 1;
        let record = Record {
            fingerprint,
            expires_at: now + retention,
            state: State::Completed {
                response: response.clone(),
                sequence,
            },
        };
        shard.insert(*key, record, now, self.limits)?;
        Ok(true)
    }

    async fn release(&self, key: &ScopeKey, token: &LeaseToken) -> Result<bool, StoreError> {
        let key = key.as_bytes();
        let mut shard = self.shard(key);
        Ok(match shard.live(key, Instant::now()) {
            Some(record) if record.is_claimed_by(token) => {
                shard.remove(key);
                true
            }
            _ => false,
        })
    }

    async fn renew(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let now = Instant::now();
        let key = key.as_bytes();
        let mut shard = self.shard(key);
        Ok(match shard.live(key, now) {
            // Planted bug (simulation only): renews whatever record is there.
            Some(record) if record.is_claimed_by(token) || planted::is(Bug::UnfencedRenewal) => {
                shard.set_expiry(key, now + lease);
                true
            }
            _ => false,
        })
    }
}

/// Locks a shard, recovering it if a previous holder panicked.
///
/// A panic under a shard lock could only come from a bug in this module; refusing the shard
/// forever after would turn that one bug into failures for every later request on 1/64 of the
/// keys. The shard's indexes tolerate a half-applied update (every lookup treats a missing
/// entry as absent, and reclamation always makes progress), so carrying on is safe.
fn lock(shard: &Mutex<Shard>) -> MutexGuard<'_, Shard> {
    shard.lock().unwrap_or_else(PoisonError::into_inner)
}

impl std::fmt::Debug for MemoryStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryStore")
            .field("shards", &self.shards.len())
            .field("limits_per_shard", &self.limits)
            .field("len", &self.len())
            .field("approximate_bytes", &self.approximate_bytes())
            .finish()
    }
}

#[derive(Default)]
struct Shard {
    /// Hashed with foldhash seeded per process: the keys are SHA-256 digests of client-chosen
    /// keys, so a client could grind keys into one bucket of an unseeded (or identity) hash;
    /// SipHash would resist too, at several times the cost on every request.
    records: HashMap<Key, Record, foldhash::quality::RandomState>,
    /// Every record by expiry, so expired records are reclaimed oldest-first without scanning.
    expiries: BTreeSet<(Instant, Key)>,
    /// Completed records by completion order: the eviction candidates, oldest first.
    completions: BTreeMap<u64, Key>,
    /// The sum of the records' [`Record::cost`].
    bytes: usize,
    next_completion: u64,
}

struct Record {
    fingerprint: [u8; 32],
    expires_at: Instant,
    state: State,
}

enum State {
    InProgress(LeaseToken),
    Completed {
        response: StoredResponse,
        /// The record's key in [`Shard::completions`].
        sequence: u64,
    },
}

impl Record {
    fn is_claimed_by(&self, token: &LeaseToken) -> bool {
        matches!(&self.state, State::InProgress(owner) if owner == token)
    }

    fn cost(&self) -> usize {
        MemoryStore::RECORD_OVERHEAD
            + match &self.state {
                State::InProgress(_) => 0,
                State::Completed { response, .. } => {
                    let header = |value: &Option<String>| value.as_ref().map_or(0, String::len);
                    response.body.len()
                        + header(&response.content_type)
                        + header(&response.location)
                        + header(&response.etag)
                }
            }
    }
}

impl Shard {
    /// The record under `key` unless it has expired; an expired one is dropped on the way.
    fn live(&mut self, key: &Key, now: Instant) -> Option<&mut Record> {
        if self.records.get(key)?.expires_at <= now {
            self.remove(key);
            return None;
        }
        self.records.get_mut(key)
    }

    /// Inserts a record for a key that has none, making room first; `Full` if there is none to
    /// be made without evicting a live claim.
    fn insert(
        &mut self,
        key: Key,
        record: Record,
        now: Instant,
        limits: Limits,
    ) -> Result<(), StoreError> {
        let cost = record.cost();
        // Checked first so that a record that could never fit does not evict anything.
        if limits.entries == 0 || cost > limits.bytes {
            return Err(StoreError::Full);
        }
        // Expired records are garbage to everyone, so they go first, and all of them: reclaiming
        // in expiry order is cheap, and it keeps `len()` close to the live count.
        self.reclaim_expired(now);
        while self.records.len() >= limits.entries || self.bytes.saturating_add(cost) > limits.bytes
        {
            let Some((_, oldest)) = self.completions.pop_first() else {
                return Err(StoreError::Full);
            };
            self.remove(&oldest);
        }
        self.expiries.insert((record.expires_at, key));
        if let State::Completed { sequence, .. } = record.state {
            self.completions.insert(sequence, key);
        }
        self.bytes += cost;
        self.records.insert(key, record);
        Ok(())
    }

    fn reclaim_expired(&mut self, now: Instant) {
        while let Some(&(expires_at, key)) = self.expiries.first() {
            if expires_at > now {
                break;
            }
            // Popped before removing, so the loop advances even if the record is already gone.
            self.expiries.pop_first();
            self.remove(&key);
        }
    }

    fn remove(&mut self, key: &Key) -> Option<Record> {
        let record = self.records.remove(key)?;
        self.expiries.remove(&(record.expires_at, *key));
        if let State::Completed { sequence, .. } = record.state {
            self.completions.remove(&sequence);
        }
        self.bytes = self.bytes.saturating_sub(record.cost());
        Some(record)
    }

    fn set_expiry(&mut self, key: &Key, expires_at: Instant) {
        if let Some(record) = self.records.get_mut(key) {
            self.expiries.remove(&(record.expires_at, *key));
            record.expires_at = expires_at;
            self.expiries.insert((expires_at, *key));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use bytes::Bytes;

    use super::*;
    use crate::store::Store;

    fn store() -> Store {
        Store::new(Arc::new(MemoryStore::new(10_000, 64 << 20)))
    }

    // The shared semantic suite, on tokio's paused clock: leases and retention are waited out
    // instantly and deterministically.
    crate::store_conformance_suite!(
        #[tokio::test(start_paused = true)]
        store()
    );

    // The paused clock needs a single thread; concurrency needs several.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_claims_on_four_threads_acquire_exactly_once() {
        crate::store::conformance::concurrent_claims_acquire_exactly_once(store()).await;
    }

    const MIB: usize = 1 << 20;
    const LEASE: Duration = Duration::from_secs(30);
    const RETENTION: Duration = Duration::from_secs(3600);

    /// A well-spread scope key for record `i`, without hashing: the leading bytes come from a
    /// SplitMix64 finalizer so that consecutive `i` land in different shards, and `i` itself is
    /// embedded so that keys are distinct.
    fn key(i: u64) -> ScopeKey {
        let mut z = i.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let mut bytes = [0; 32];
        bytes[..8].copy_from_slice(&z.to_be_bytes());
        bytes[8..16].copy_from_slice(&i.to_be_bytes());
        ScopeKey::from_bytes(bytes)
    }

    fn fp() -> Fingerprint {
        Fingerprint::of(b"{}", None, "")
    }

    fn response(body_len: usize) -> StoredResponse {
        StoredResponse {
            status: 200,
            content_type: Some("application/json".into()),
            location: None,
            etag: None,
            body: Bytes::from(vec![b'x'; body_len]),
        }
    }

    async fn acquire(store: &Store, key: &ScopeKey, lease: Duration) -> LeaseToken {
        match store.claim(key, &fp(), lease).await {
            Ok(Claim::Acquired(token)) => token,
            other => panic!("expected Acquired, got {other:?}"),
        }
    }

    async fn complete(store: &Store, key: &ScopeKey, body_len: usize, retention: Duration) {
        let token = acquire(store, key, LEASE).await;
        let completed = store
            .complete(key, &token, &response(body_len), retention)
            .await
            .expect("complete");
        assert!(completed);
    }

    #[tokio::test]
    async fn a_flood_of_distinct_keys_stays_within_bounds() {
        // 200,000 keys rather than the million a real flood would bring: it is 20 times the
        // entry budget, which is what the bound is about, and keeps this test to a few seconds
        // in a debug build (a million takes over ten, mostly in the CSPRNG minting tokens).
        // Bodies vary from 0 to 2 KiB so that both bounds bind: on average the byte budget is
        // hit first, for small bodies the entry budget is.
        const KEYS: u64 = 200_000;
        let memory = Arc::new(MemoryStore::new(10_000, 8 * MIB));
        let store = Store::new(memory.clone());
        let response = response(2048);
        let fingerprint = fp();
        for i in 0..KEYS {
            let key = key(i);
            let Ok(Claim::Acquired(token)) = store.claim(&key, &fingerprint, LEASE).await else {
                panic!("claim {i} did not acquire");
            };
            let body = response.body.slice(..(i as usize * 7919) % 2049);
            let stored = StoredResponse {
                body,
                ..response.clone()
            };
            assert!(matches!(
                store.complete(&key, &token, &stored, RETENTION).await,
                Ok(true)
            ));
            if i % 20_000 == 0 {
                assert!(memory.len() <= 10_000, "len {} at {i}", memory.len());
                assert!(memory.approximate_bytes() <= 8 * MIB);
            }
        }
        assert!(memory.len() <= 10_000, "len {}", memory.len());
        assert!(
            memory.approximate_bytes() <= 8 * MIB,
            "bytes {}",
            memory.approximate_bytes()
        );
        // It still works as a cache rather than having thrown everything away: the most recent
        // records replay.
        assert!(memory.len() > 1_000, "len {}", memory.len());
        let last = key(KEYS - 1);
        assert!(matches!(
            store.claim(&last, &fp(), LEASE).await,
            Ok(Claim::Completed(_))
        ));
        assert_eq!(store.operations(), 2 * KEYS + 1);
    }

    #[tokio::test(start_paused = true)]
    async fn a_store_full_of_live_claims_answers_full_instead_of_evicting() {
        // Room for four records.
        let store = Store::new(Arc::new(MemoryStore::new(4, MIB)));
        let mut tokens = Vec::new();
        for i in 0..4 {
            tokens.push(acquire(&store, &key(i), LEASE).await);
        }
        assert!(matches!(
            store.claim(&key(4), &fp(), LEASE).await,
            Err(StoreError::Full)
        ));
        // Every claim survived, and each can still complete.
        for (i, token) in (0..).zip(&tokens) {
            assert_eq!(
                store.claim(&key(i), &fp(), LEASE).await.expect("claim"),
                Claim::InFlight
            );
            assert!(store.renew(&key(i), token, LEASE).await.expect("renew"));
        }
        // Releasing one makes room for the newcomer.
        assert!(store.release(&key(0), &tokens[0]).await.expect("release"));
        acquire(&store, &key(4), LEASE).await;
    }

    #[tokio::test(start_paused = true)]
    async fn an_expired_claim_is_reclaimed_to_make_room() {
        // Room for a single record.
        let store = Store::new(Arc::new(MemoryStore::new(1, MIB)));
        acquire(&store, &key(0), Duration::from_millis(100)).await;
        assert!(matches!(
            store.claim(&key(1), &fp(), LEASE).await,
            Err(StoreError::Full)
        ));
        // Once its lease is over, the claim is no longer protected: its worker is presumed dead.
        tokio::time::sleep(Duration::from_millis(200)).await;
        acquire(&store, &key(1), LEASE).await;
    }

    #[tokio::test(start_paused = true)]
    async fn a_claim_whose_lease_ends_this_instant_is_reclaimed_to_make_room() {
        // Room for a single record.
        let store = Store::new(Arc::new(MemoryStore::new(1, MIB)));
        acquire(&store, &key(0), Duration::from_millis(100)).await;

        tokio::time::advance(Duration::from_millis(100)).await;

        acquire(&store, &key(1), LEASE).await;
    }

    #[tokio::test(start_paused = true)]
    async fn eviction_drops_expired_records_then_the_oldest_completed() {
        // Room for three records (a single shard).
        let memory = Arc::new(MemoryStore::new(3, MIB));
        let store = Store::new(memory.clone());
        complete(&store, &key(0), 0, RETENTION).await; // oldest completed
        complete(&store, &key(1), 0, Duration::from_secs(1)).await; // expires soon
        complete(&store, &key(2), 0, RETENTION).await;
        tokio::time::sleep(Duration::from_secs(2)).await;

        // Full (3 records, one expired): the expired one makes room, nothing live is evicted.
        acquire(&store, &key(3), LEASE).await;
        assert_eq!(memory.len(), 3);
        assert!(matches!(
            store.claim(&key(0), &fp(), LEASE).await,
            Ok(Claim::Completed(_))
        ));
        assert!(matches!(
            store.claim(&key(2), &fp(), LEASE).await,
            Ok(Claim::Completed(_))
        ));

        // Full again with nothing expired: the oldest completed record (`0`) goes, not the
        // newer one, and never the live claim on `3`.
        acquire(&store, &key(4), LEASE).await;
        assert_eq!(memory.len(), 3);
        assert!(matches!(
            store.claim(&key(2), &fp(), LEASE).await,
            Ok(Claim::Completed(_))
        ));
        assert_eq!(
            store.claim(&key(3), &fp(), LEASE).await.expect("claim"),
            Claim::InFlight
        );
        // `0` was evicted: claiming it acquires, and makes room by evicting `2`, the last
        // completed record. Only live claims remain, so a newcomer finds the store full.
        assert!(matches!(
            store.claim(&key(0), &fp(), LEASE).await,
            Ok(Claim::Acquired(_))
        ));
        assert!(matches!(
            store.claim(&key(5), &fp(), LEASE).await,
            Err(StoreError::Full)
        ));
    }

    #[tokio::test(start_paused = true)]
    async fn a_response_too_large_to_keep_is_refused_and_the_claim_given_up() {
        // A single shard whose byte budget fits a claim, not a 4 KiB response.
        let memory = Arc::new(MemoryStore::new(1, MemoryStore::RECORD_OVERHEAD + 1024));
        let store = Store::new(memory.clone());
        let token = acquire(&store, &key(0), LEASE).await;
        assert!(matches!(
            store
                .complete(&key(0), &token, &response(4096), RETENTION)
                .await,
            Err(StoreError::Full)
        ));
        assert!(memory.is_empty());
        // A retry executes again rather than waiting out the lease...
        let token = acquire(&store, &key(0), LEASE).await;
        // ...and a response that fits is kept.
        assert!(
            store
                .complete(&key(0), &token, &response(1000), RETENTION)
                .await
                .expect("complete")
        );
        assert_eq!(memory.len(), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn a_response_that_could_never_fit_evicts_nothing() {
        // A single shard with room for two records and a byte budget for two small answers.
        let budget = 2 * (MemoryStore::RECORD_OVERHEAD + 100 + "application/json".len());
        let memory = Arc::new(MemoryStore::new(2, budget));
        let store = Store::new(memory.clone());
        complete(&store, &key(0), 100, RETENTION).await;
        let token = acquire(&store, &key(1), LEASE).await;

        let kept = store
            .complete(&key(1), &token, &response(budget), RETENTION)
            .await;

        assert!(matches!(kept, Err(StoreError::Full)));
        assert!(
            matches!(
                store.claim(&key(0), &fp(), LEASE).await,
                Ok(Claim::Completed(_))
            ),
            "the answer already kept must not make way for one that cannot be kept anyway"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_response_of_exactly_the_budget_is_kept() {
        let cost = MemoryStore::RECORD_OVERHEAD + 1000 + "application/json".len();
        let store = Store::new(Arc::new(MemoryStore::new(1, cost)));
        let token = acquire(&store, &key(0), LEASE).await;

        let kept = store
            .complete(&key(0), &token, &response(1000), RETENTION)
            .await;

        assert!(matches!(kept, Ok(true)), "{kept:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_store_says_whether_it_holds_anything_and_debugs_as_its_counts() {
        let memory = Arc::new(MemoryStore::new(4, MIB));
        let store = Store::new(memory.clone());
        assert!(memory.is_empty());

        complete(&store, &key(0), 10, RETENTION).await;

        assert!(!memory.is_empty());
        let debug = format!("{memory:?}");
        assert!(debug.starts_with("MemoryStore {"), "{debug}");
        assert!(debug.contains("shards: 1"), "{debug}");
        assert!(debug.contains("len: 1"), "{debug}");
    }

    #[tokio::test(start_paused = true)]
    async fn bytes_are_accounted_and_returned() {
        let memory = Arc::new(MemoryStore::new(100, MIB));
        let store = Store::new(memory.clone());
        assert_eq!(memory.approximate_bytes(), 0);

        let token = acquire(&store, &key(0), LEASE).await;
        assert_eq!(memory.approximate_bytes(), MemoryStore::RECORD_OVERHEAD);
        let stored = StoredResponse {
            location: Some("/x".into()),
            etag: Some("\"e\"".into()),
            ..response(1000)
        };
        assert!(
            store
                .complete(&key(0), &token, &stored, Duration::from_secs(1))
                .await
                .expect("complete")
        );
        let header_bytes = "application/json".len() + "/x".len() + "\"e\"".len();
        assert_eq!(
            memory.approximate_bytes(),
            MemoryStore::RECORD_OVERHEAD + 1000 + header_bytes
        );

        let token = acquire(&store, &key(1), LEASE).await;
        assert!(store.release(&key(1), &token).await.expect("release"));
        assert_eq!(
            memory.approximate_bytes(),
            MemoryStore::RECORD_OVERHEAD + 1000 + header_bytes
        );

        // Expired records are reclaimed by the next insertion into their shard.
        tokio::time::sleep(Duration::from_secs(2)).await;
        for i in 2..200 {
            let token = acquire(&store, &key(i), LEASE).await;
            assert!(store.release(&key(i), &token).await.expect("release"));
        }
        assert_eq!(memory.len(), 0);
        assert_eq!(memory.approximate_bytes(), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn tiny_stores_still_hold_their_budget() {
        let memory = Arc::new(MemoryStore::new(1, MIB));
        let store = Store::new(memory.clone());
        complete(&store, &key(0), 10, RETENTION).await;
        complete(&store, &key(1), 10, RETENTION).await;
        assert_eq!(memory.len(), 1);

        let empty = Store::new(Arc::new(MemoryStore::new(0, MIB)));
        assert!(matches!(
            empty.claim(&key(0), &fp(), LEASE).await,
            Err(StoreError::Full)
        ));
    }

    #[test]
    fn record_overhead_covers_the_record_layout() {
        use std::mem::size_of;
        // The map slot, plus one entry in each index (B-tree nodes add roughly a quarter).
        let slot = size_of::<(Key, Record)>() + 1;
        let indexes = (size_of::<(Instant, Key)>() + size_of::<(u64, Key)>()) * 5 / 4;
        assert!(
            slot + indexes <= MemoryStore::RECORD_OVERHEAD,
            "slot {slot} + indexes {indexes} > {}",
            MemoryStore::RECORD_OVERHEAD
        );
    }
}
