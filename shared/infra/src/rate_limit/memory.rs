//! The in-process backend: a bounded map per kind of bucket, each with its own eviction order;
//! apart because it serves twice, as the memory backend and as the Redis backend's outage
//! fallback.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use super::{Bucket, BucketKind, MAX_WINDOW, MIN_WINDOW, RateDecision, decide, digest};

/// How often each map repeats its "full" warning while it keeps evicting.
const FULL_WARNING_INTERVAL: Duration = Duration::from_secs(60);

/// The in-process backend: for each kind of bucket, a bounded map from bucket digest to its
/// current window (see the module docs of `rate_limit` for what each evicts, and why).
///
/// The mutex is held only for a map operation and never across an `await` ([`Self::hit`] is
/// synchronous), so a plain `std::sync::Mutex` is the right lock.
pub struct MemoryLimiter {
    /// Buckets each map keeps at most.
    pub(super) capacity: usize,
    state: Mutex<MemoryState>,
}

struct MemoryState {
    credential: Windows,
    ordinary: Windows,
    /// Hits counted so far, in both maps: numbers each hit, so windows rank by their latest
    /// (many hits share one `Instant`).
    hits: u64,
}

/// One kind's buckets.
struct Windows {
    kind: BucketKind,
    by_bucket: HashMap<[u8; 32], Window>,
    warned_full_at: Option<Instant>,
}

struct Window {
    count: u64,
    ends_at: Instant,
    /// The number of the bucket's latest hit (`MemoryState::hits`).
    last_hit: u64,
}

impl MemoryLimiter {
    /// A limiter keeping at most `capacity` buckets of each kind.
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity: capacity.max(1),
            state: Mutex::new(MemoryState {
                credential: Windows::new(BucketKind::Credential),
                ordinary: Windows::new(BucketKind::Ordinary),
                hits: 0,
            }),
        }
    }

    /// The number of buckets tracked now, of both kinds (expired ones included until they are
    /// swept).
    pub fn len(&self) -> usize {
        let state = self.lock();
        state.credential.by_bucket.len() + state.ordinary.by_bucket.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// [`RateLimiter::hit`](super::RateLimiter::hit) for this backend.
    pub fn hit(&self, bucket: &Bucket, limit: u32, window: Duration) -> RateDecision {
        let window = window.clamp(MIN_WINDOW, MAX_WINDOW);
        let key = digest(&bucket.name);
        let now = Instant::now();
        let mut state = self.lock();
        state.hits += 1;
        let this_hit = state.hits;
        let windows = state.of(bucket.kind);
        if let Some(current) = windows.by_bucket.get_mut(&key) {
            if current.ends_at > now {
                current.count = current.count.saturating_add(1);
            } else {
                current.count = 1;
                current.ends_at = now + window;
            }
            current.last_hit = this_hit;
            return decide(current.count, limit, current.ends_at - now);
        }
        if windows.by_bucket.len() >= self.capacity {
            windows.make_room(now, self.capacity);
        }
        windows.by_bucket.insert(
            key,
            Window {
                count: 1,
                ends_at: now + window,
                last_hit: this_hit,
            },
        );
        decide(1, limit, window)
    }

    /// [`RateLimiter::take_back`](super::RateLimiter::take_back) for this backend.
    pub fn take_back(&self, bucket: &Bucket) {
        let now = Instant::now();
        if let Some(window) = self
            .lock()
            .of(bucket.kind)
            .by_bucket
            .get_mut(&digest(&bucket.name))
            && window.ends_at > now
        {
            window.count = window.count.saturating_sub(1);
        }
    }

    /// [`RateLimiter::clear`](super::RateLimiter::clear) for this backend.
    pub fn clear(&self, bucket: &Bucket) {
        self.lock()
            .of(bucket.kind)
            .by_bucket
            .remove(&digest(&bucket.name));
    }

    /// Whether `bucket` has a live window.
    #[cfg(test)]
    fn tracks(&self, bucket: &Bucket) -> bool {
        let now = Instant::now();
        self.lock()
            .of(bucket.kind)
            .by_bucket
            .get(&digest(&bucket.name))
            .is_some_and(|window| window.ends_at > now)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, MemoryState> {
        // Every update leaves the maps consistent, so a panic elsewhere cannot have broken them.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl MemoryState {
    fn of(&mut self, kind: BucketKind) -> &mut Windows {
        match kind {
            BucketKind::Credential => &mut self.credential,
            BucketKind::Ordinary => &mut self.ordinary,
        }
    }
}

impl Windows {
    fn new(kind: BucketKind) -> Self {
        Self {
            kind,
            by_bucket: HashMap::new(),
            warned_full_at: None,
        }
    }

    /// Makes room for at least one more bucket: drops ended windows and, when live ones still
    /// fill the map, evicts the first eighth of them in [`Self::eviction_order`]. One O(n) pass
    /// frees n/8 places, so a flood costs O(1) per new bucket.
    fn make_room(&mut self, now: Instant, capacity: usize) {
        self.by_bucket.retain(|_, window| window.ends_at > now);
        if self.by_bucket.len() < capacity {
            return;
        }
        let keep = capacity - (capacity / 8).max(1);
        let mut ranked: Vec<((u64, u64), [u8; 32])> = self
            .by_bucket
            .iter()
            .map(|(key, window)| (self.eviction_order(window), *key))
            .collect();
        let evicted = ranked.len() - keep;
        ranked.select_nth_unstable(evicted - 1);
        for (_, key) in &ranked[..evicted] {
            self.by_bucket.remove(key);
        }
        self.warn_full(now, capacity, evicted);
    }

    /// Where a live window stands in the eviction order: the lowest goes first.
    fn eviction_order(&self, window: &Window) -> (u64, u64) {
        match self.kind {
            // Raising a count costs a login attempt or mail request these limits bound, so
            // the lowest counts are the cheapest to lose; of equal ones, the least recent.
            BucketKind::Credential => (window.count, window.last_hit),
            // Anyone can raise these counts at no cost: recency alone.
            BucketKind::Ordinary => (0, window.last_hit),
        }
    }

    fn warn_full(&mut self, now: Instant, capacity: usize, evicted: usize) {
        let due = self
            .warned_full_at
            .is_none_or(|at| now.duration_since(at) >= FULL_WARNING_INTERVAL);
        if due {
            self.warned_full_at = Some(now);
            let evicting = match self.kind {
                BucketKind::Credential => "the credential buckets of the lowest counts",
                BucketKind::Ordinary => "the least recently hit ordinary buckets",
            };
            tracing::warn!(
                capacity,
                evicted,
                "in-process rate limiter is full of live windows: evicting {evicting} (raise \
                 rate_limit.memory_capacity, or configure Redis to share limits across instances)"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::RateLimiter;
    use super::super::tests::{WINDOW, memory, retry_after, taking_back_and_clearing, use_up};
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn memory_allows_the_limit_then_limits_until_the_window_ends() {
        let limiter = memory();
        let bucket = Bucket::credential("login:addr:1");
        use_up(&limiter, &bucket, 3, WINDOW).await;
        tokio::time::advance(Duration::from_secs(20)).await;
        let decision = limiter.hit(&bucket, 3, WINDOW).await;
        // The window opened at the first hit, 20 s ago.
        assert_eq!(retry_after(decision), Duration::from_secs(40));
        assert_eq!(decision.retry_after_secs(), Some(40));
        // Still limited, and still counting, until the window ends.
        tokio::time::advance(Duration::from_secs(39)).await;
        assert_eq!(
            retry_after(limiter.hit(&bucket, 3, WINDOW).await),
            Duration::from_secs(1)
        );
    }

    #[tokio::test(start_paused = true)]
    async fn memory_windows_reset() {
        let limiter = memory();
        let bucket = Bucket::ordinary("b");
        use_up(&limiter, &bucket, 2, WINDOW).await;
        assert!(limiter.hit(&bucket, 2, WINDOW).await.is_limited());
        tokio::time::advance(WINDOW).await;
        // A new window: the full limit again.
        use_up(&limiter, &bucket, 2, WINDOW).await;
        assert!(limiter.hit(&bucket, 2, WINDOW).await.is_limited());
    }

    #[tokio::test(start_paused = true)]
    async fn memory_buckets_are_independent() {
        let limiter = memory();
        let ada = Bucket::credential("login:account:ada@example.com");
        use_up(&limiter, &ada, 2, WINDOW).await;
        assert!(limiter.hit(&ada, 2, WINDOW).await.is_limited());
        use_up(
            &limiter,
            &Bucket::credential("login:account:bob@example.com"),
            2,
            WINDOW,
        )
        .await;
        use_up(
            &limiter,
            &Bucket::credential("login:addr:ada@example.com"),
            2,
            WINDOW,
        )
        .await;
        use_up(
            &limiter,
            &Bucket::ordinary("login:account:ada@example.com"),
            2,
            WINDOW,
        )
        .await;
    }

    #[tokio::test(start_paused = true)]
    async fn memory_hits_can_be_taken_back_and_windows_cleared_in_ordinary_buckets() {
        taking_back_and_clearing(&memory(), Bucket::ordinary).await;
    }

    #[tokio::test(start_paused = true)]
    async fn memory_hits_can_be_taken_back_and_windows_cleared_in_credential_buckets() {
        taking_back_and_clearing(&memory(), Bucket::credential).await;
    }

    // ---- a full limiter ----

    /// An in-process limiter of `capacity` buckets of each kind, and its backend to look into.
    fn small(capacity: usize) -> (RateLimiter, Arc<MemoryLimiter>) {
        let RateLimiter::Memory(inner) = RateLimiter::memory(capacity) else {
            unreachable!("memory() builds the memory backend");
        };
        (RateLimiter::Memory(Arc::clone(&inner)), inner)
    }

    /// Hits each bucket `hits` times (whatever the decisions).
    async fn hit_each(limiter: &RateLimiter, buckets: &[Bucket], hits: u32) {
        for bucket in buckets {
            for _ in 0..hits {
                limiter.hit(bucket, hits, WINDOW).await;
            }
        }
    }

    fn named(bucket: fn(String) -> Bucket, prefix: &str, count: usize) -> Vec<Bucket> {
        (0..count)
            .map(|n| bucket(format!("{prefix}-{n}")))
            .collect()
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_memory_limiter_makes_room_for_new_buckets_and_stays_bounded() {
        let (limiter, inner) = small(16);

        let mut refused = 0;
        for n in 0..200 {
            for bucket in [
                Bucket::ordinary(format!("flood-{n}")),
                Bucket::credential(format!("flood-{n}")),
            ] {
                if limiter.hit(&bucket, 5, WINDOW).await.is_limited() {
                    refused += 1;
                }
            }
        }

        assert_eq!(refused, 0, "a new bucket is counted, not refused");
        assert!(inner.len() <= 2 * 16, "{} buckets", inner.len());
    }

    #[tokio::test(start_paused = true)]
    async fn no_flood_of_ordinary_buckets_evicts_a_live_credential_one() {
        let (limiter, _) = small(16);
        let target = Bucket::credential("login:account:ada@example.com");
        use_up(&limiter, &target, 5, WINDOW).await;
        let flood = named(Bucket::ordinary, "register:address", 10_000);

        // Each flood bucket counts more hits than the target.
        hit_each(&limiter, &flood, 6).await;

        assert_eq!(
            limiter.hit(&target, 5, WINDOW).await,
            RateDecision::Limited {
                retry_after: WINDOW
            },
            "the target's count outlived the flood"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_ordinary_map_evicts_the_least_recently_hit_bucket_whatever_its_count() {
        let (limiter, inner) = small(8);
        let busiest = Bucket::ordinary("busiest");
        hit_each(&limiter, std::slice::from_ref(&busiest), 20).await;
        let recent = named(Bucket::ordinary, "recent", 7);
        hit_each(&limiter, &recent, 1).await;

        limiter.hit(&Bucket::ordinary("new"), 1, WINDOW).await;

        assert!(!inner.tracks(&busiest), "the least recently hit went");
        assert!(recent.iter().all(|bucket| inner.tracks(bucket)));
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_ordinary_map_drops_ended_windows_before_evicting_a_live_one() {
        let (limiter, inner) = small(8);
        let least_recent = Bucket::ordinary("least-recent");
        limiter.hit(&least_recent, 1, WINDOW * 2).await;
        hit_each(&limiter, &named(Bucket::ordinary, "ended", 7), 1).await;
        tokio::time::advance(WINDOW).await;

        limiter.hit(&Bucket::ordinary("new"), 1, WINDOW).await;

        assert!(inner.tracks(&least_recent), "only the ended windows went");
        assert_eq!(inner.len(), 2);
    }

    #[tokio::test(start_paused = true)]
    async fn a_flood_of_one_hit_credential_buckets_does_not_evict_a_counted_one() {
        let (limiter, _) = small(16);
        let target = Bucket::credential("login:account:ada@example.com");
        use_up(&limiter, &target, 3, WINDOW).await;
        let flood = named(Bucket::credential, "login:address", 10_000);

        hit_each(&limiter, &flood, 1).await;

        assert!(
            limiter.hit(&target, 3, WINDOW).await.is_limited(),
            "the target's count survived the flood"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_credential_map_evicts_the_least_recently_hit_of_equal_counts() {
        let (limiter, inner) = small(8);
        let least_recent = Bucket::credential("least-recent");
        limiter.hit(&least_recent, 1, WINDOW).await;
        let recent = named(Bucket::credential, "recent", 7);
        hit_each(&limiter, &recent, 1).await;

        limiter.hit(&Bucket::credential("new"), 1, WINDOW).await;

        assert!(!inner.tracks(&least_recent), "the least recently hit went");
        assert!(recent.iter().all(|bucket| inner.tracks(bucket)));
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_credential_map_drops_ended_windows_before_evicting_a_live_one() {
        let (limiter, inner) = small(8);
        let live = Bucket::credential("live");
        limiter.hit(&live, 1, WINDOW * 2).await;
        hit_each(&limiter, &named(Bucket::credential, "ended", 7), 2).await;
        tokio::time::advance(WINDOW).await;

        limiter.hit(&Bucket::credential("new"), 1, WINDOW).await;

        assert!(inner.tracks(&live), "only the ended windows went");
        assert_eq!(inner.len(), 2);
    }
}
