//! The in-process backend and its bounded map with least-used eviction; apart because it serves
//! twice, as the memory backend and as the Redis backend's outage fallback.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use super::{MAX_WINDOW, MIN_WINDOW, RateDecision, decide, digest};

/// How often the in-process limiter repeats its "full" warning while it keeps evicting.
const FULL_WARNING_INTERVAL: Duration = Duration::from_secs(60);

/// The in-process backend: a bounded map from bucket digest to its current window.
///
/// The mutex is held only for a map operation and never across an `await` ([`Self::hit`] is
/// synchronous), so a plain `std::sync::Mutex` is the right lock.
pub struct MemoryLimiter {
    pub(super) capacity: usize,
    state: Mutex<MemoryState>,
}

struct MemoryState {
    windows: HashMap<[u8; 32], Window>,
    warned_full_at: Option<Instant>,
}

struct Window {
    count: u64,
    ends_at: Instant,
}

impl MemoryLimiter {
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity: capacity.max(1),
            state: Mutex::new(MemoryState {
                windows: HashMap::new(),
                warned_full_at: None,
            }),
        }
    }

    /// The number of buckets tracked now (expired ones included until they are swept).
    pub fn len(&self) -> usize {
        self.lock().windows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// [`RateLimiter::hit`](super::RateLimiter::hit) for this backend.
    pub fn hit(&self, bucket: &str, limit: u32, window: Duration) -> RateDecision {
        let window = window.clamp(MIN_WINDOW, MAX_WINDOW);
        let key = digest(bucket);
        let now = Instant::now();
        let mut state = self.lock();
        if let Some(current) = state.windows.get_mut(&key) {
            if current.ends_at > now {
                current.count = current.count.saturating_add(1);
            } else {
                *current = Window {
                    count: 1,
                    ends_at: now + window,
                };
            }
            return decide(current.count, limit, current.ends_at - now);
        }
        if state.windows.len() >= self.capacity {
            state.make_room(now, self.capacity);
        }
        state.windows.insert(
            key,
            Window {
                count: 1,
                ends_at: now + window,
            },
        );
        decide(1, limit, window)
    }

    /// [`RateLimiter::take_back`](super::RateLimiter::take_back) for this backend.
    pub fn take_back(&self, bucket: &str) {
        let now = Instant::now();
        if let Some(window) = self.lock().windows.get_mut(&digest(bucket))
            && window.ends_at > now
        {
            window.count = window.count.saturating_sub(1);
        }
    }

    /// [`RateLimiter::clear`](super::RateLimiter::clear) for this backend.
    pub fn clear(&self, bucket: &str) {
        self.lock().windows.remove(&digest(bucket));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, MemoryState> {
        // Every update leaves the map consistent, so a panic elsewhere cannot have broken it.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl MemoryState {
    /// Makes room for at least one more bucket: drops ended windows and, when live ones still
    /// fill the map, evicts the least-used eighth of it (the fewest hits first; of equal counts,
    /// the soonest to end). One O(n) pass frees n/8 places, so a flood costs O(1) per new bucket.
    fn make_room(&mut self, now: Instant, capacity: usize) {
        self.windows.retain(|_, window| window.ends_at > now);
        if self.windows.len() < capacity {
            return;
        }
        let keep = capacity - (capacity / 8).max(1);
        let mut ranked: Vec<(u64, Instant, [u8; 32])> = self
            .windows
            .iter()
            .map(|(key, window)| (window.count, window.ends_at, *key))
            .collect();
        let evicted = ranked.len() - keep;
        ranked.select_nth_unstable(evicted - 1);
        for (_, _, key) in &ranked[..evicted] {
            self.windows.remove(key);
        }
        self.warn_full(now, capacity, evicted);
    }

    fn warn_full(&mut self, now: Instant, capacity: usize, evicted: usize) {
        let due = self
            .warned_full_at
            .is_none_or(|at| now.duration_since(at) >= FULL_WARNING_INTERVAL);
        if due {
            self.warned_full_at = Some(now);
            tracing::warn!(
                capacity,
                evicted,
                "in-process rate limiter is full of live windows: evicting the least-used ones \
                 (raise rate_limit.memory_capacity, or configure Redis to share limits across \
                 instances)"
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
        use_up(&limiter, "login:addr:1", 3, WINDOW).await;
        tokio::time::advance(Duration::from_secs(20)).await;
        let decision = limiter.hit("login:addr:1", 3, WINDOW).await;
        // The window opened at the first hit, 20 s ago.
        assert_eq!(retry_after(decision), Duration::from_secs(40));
        assert_eq!(decision.retry_after_secs(), Some(40));
        // Still limited, and still counting, until the window ends.
        tokio::time::advance(Duration::from_secs(39)).await;
        assert_eq!(
            retry_after(limiter.hit("login:addr:1", 3, WINDOW).await),
            Duration::from_secs(1)
        );
    }

    #[tokio::test(start_paused = true)]
    async fn memory_windows_reset() {
        let limiter = memory();
        use_up(&limiter, "b", 2, WINDOW).await;
        assert!(limiter.hit("b", 2, WINDOW).await.is_limited());
        tokio::time::advance(WINDOW).await;
        // A new window: the full limit again.
        use_up(&limiter, "b", 2, WINDOW).await;
        assert!(limiter.hit("b", 2, WINDOW).await.is_limited());
    }

    #[tokio::test(start_paused = true)]
    async fn memory_buckets_are_independent() {
        let limiter = memory();
        use_up(&limiter, "login:account:ada@example.com", 2, WINDOW).await;
        assert!(
            limiter
                .hit("login:account:ada@example.com", 2, WINDOW)
                .await
                .is_limited()
        );
        use_up(&limiter, "login:account:bob@example.com", 2, WINDOW).await;
        use_up(&limiter, "login:addr:ada@example.com", 2, WINDOW).await;
    }

    /// An in-process limiter of `capacity` buckets, and its backend to look into.
    fn small(capacity: usize) -> (RateLimiter, Arc<MemoryLimiter>) {
        let RateLimiter::Memory(inner) = RateLimiter::memory(capacity) else {
            unreachable!("memory() builds the memory backend");
        };
        (RateLimiter::Memory(Arc::clone(&inner)), inner)
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_memory_limiter_makes_room_for_new_buckets_and_stays_bounded() {
        let (limiter, inner) = small(16);

        let mut refused = 0;
        for n in 0..200 {
            if limiter
                .hit(&format!("flood-{n}"), 5, WINDOW)
                .await
                .is_limited()
            {
                refused += 1;
            }
        }

        assert_eq!(refused, 0, "a new bucket is counted, not refused");
        assert!(inner.len() <= 16, "{} buckets", inner.len());
    }

    #[tokio::test(start_paused = true)]
    async fn a_flood_of_new_buckets_does_not_evict_a_used_one() {
        let (limiter, _) = small(16);
        use_up(&limiter, "login:account:ada@example.com", 3, WINDOW).await;
        assert!(
            limiter
                .hit("login:account:ada@example.com", 3, WINDOW)
                .await
                .is_limited()
        );

        for n in 0..1_000 {
            limiter.hit(&format!("flood-{n}"), 3, WINDOW).await;
        }

        assert!(
            limiter
                .hit("login:account:ada@example.com", 3, WINDOW)
                .await
                .is_limited(),
            "the victim's count survived the flood"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn ended_windows_are_dropped_before_any_live_one_is_evicted() {
        let (limiter, inner) = small(8);
        for n in 0..8 {
            limiter.hit(&format!("old-{n}"), 1, WINDOW).await;
        }
        tokio::time::advance(WINDOW).await;
        limiter.hit("live", 1, WINDOW * 2).await;

        limiter.hit("new", 1, WINDOW).await;

        assert_eq!(inner.len(), 2, "only the ended windows went");
        assert!(limiter.hit("live", 1, WINDOW).await.is_limited());
    }

    #[tokio::test(start_paused = true)]
    async fn memory_hits_can_be_taken_back_and_windows_cleared() {
        taking_back_and_clearing(&memory()).await;
    }
}
