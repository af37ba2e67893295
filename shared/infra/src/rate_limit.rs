//! Fixed-window rate limiting for the endpoints attackers hammer: login (password guessing),
//! registration (account spam) and the ones that send mail (mail bombing a victim's inbox).
//!
//! A caller names a bucket (`login:addr:203.0.113.7`, `login:account:ada@example.com`) and a
//! limit per window; [`RateLimiter::hit`] counts the request and answers
//! [`RateDecision::Limited`] once the bucket's count in its current window exceeds the limit,
//! with the time until that window ends (for `Retry-After`). A window opens at a bucket's first
//! hit and lasts `window`; the next hit after it ends opens a new one.
//!
//! Fixed windows are the simplest scheme that bounds an attacker to `limit` attempts per
//! `window` (at worst twice that across a window boundary), which is all these limits are for;
//! they cost one counter per bucket.
//!
//! Backends, chosen by the host ([`RateLimiter::from_settings`]):
//!
//! - **Redis**, when configured: counts are shared by every instance, so running more instances
//!   does not multiply an attacker's budget. One Lua script per hit (one round trip, atomic).
//!   While Redis fails (or has not answered since start-up), hits are **counted in process**
//!   instead: a Redis outage must neither lock every user out of logging in nor lift the limits,
//!   so they hold per instance until Redis answers again. One warning when the outage begins,
//!   one line when it ends.
//! - **Memory**: counts per instance, in a bounded map (`rate_limit.memory_capacity` buckets).
//!   When it is full of live windows it makes room by evicting the least-used eighth of them
//!   (the fewest hits; of equal counts, the soonest to end), and logs a warning. A flood of
//!   fresh bucket names (rotated addresses) thus evicts its own one-hit buckets, not a victim's
//!   count: to push out a bucket of `n` hits, the map must first fill with buckets of more
//!   hits than that. Refusing new buckets instead would let the flood lock every new client
//!   out; letting the map grow would let it take the memory. (IPv6 clients are one bucket per
//!   /64 already: `kernel::client_address`.)
//! - **Disabled**: everything is allowed (`rate_limit.enabled = false`).
//!
//! Bucket names are hashed (SHA-256) before they are stored: they contain user input such as
//! e-mail addresses, which should neither sit in Redis in clear nor make keys arbitrarily long.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};
use std::time::Duration;

use redis::Script;
use redis_topology::{Redis, RedisConnection};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tokio::time::Instant;

use kernel::outage::OutageLog;

use crate::settings::SettingsError;

/// How many buckets the in-process limiter tracks at most by default (`rate_limit.memory_capacity`):
/// at ~100 bytes a bucket, about 10 MiB.
pub const DEFAULT_MEMORY_CAPACITY: usize = 100_000;

/// Windows are clamped to this range: Redis expires keys with millisecond precision (and a zero
/// expiry would delete the counter at once), and a year is past any sensible window while
/// keeping instant arithmetic far from overflow.
const MIN_WINDOW: Duration = Duration::from_millis(1);
const MAX_WINDOW: Duration = Duration::from_secs(366 * 24 * 60 * 60);

/// How often the in-process limiter repeats its "full" warning while it keeps evicting.
const FULL_WARNING_INTERVAL: Duration = Duration::from_secs(60);

/// The answer to one hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateDecision {
    Allowed,
    /// Over the limit until the bucket's current window ends, `retry_after` from now.
    Limited {
        retry_after: Duration,
    },
}

impl RateDecision {
    pub fn is_limited(&self) -> bool {
        matches!(self, Self::Limited { .. })
    }

    /// The `Retry-After` header value in whole seconds: rounded up, and at least 1 (a client told
    /// to retry after 0 seconds would retry at once and be refused again).
    pub fn retry_after_secs(&self) -> Option<u64> {
        match self {
            Self::Allowed => None,
            Self::Limited { retry_after } => {
                let secs = retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0);
                Some(secs.max(1))
            }
        }
    }
}

/// Counts hits per bucket and window. Cheap to clone: clones share their counts.
#[derive(Clone)]
pub enum RateLimiter {
    /// Allows everything.
    Disabled,
    /// Counts in this process.
    Memory(Arc<MemoryLimiter>),
    /// Counts in Redis under `{key_prefix}ratelimit:{sha256(bucket) hex}`, shared by instances;
    /// in process while Redis fails.
    Redis(Arc<RedisLimiter>),
}

/// The Redis backend, with the in-process limiter it falls back to.
pub struct RedisLimiter {
    connection: RedisConnection,
    key_prefix: String,
    fallback: MemoryLimiter,
    outage: OutageLog,
}

impl fmt::Debug for RateLimiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Disabled => f.write_str("RateLimiter::Disabled"),
            Self::Memory(limiter) => f
                .debug_struct("RateLimiter::Memory")
                .field("capacity", &limiter.capacity)
                .finish_non_exhaustive(),
            Self::Redis(limiter) => f
                .debug_struct("RateLimiter::Redis")
                .field("key_prefix", &limiter.key_prefix)
                .finish_non_exhaustive(),
        }
    }
}

impl RateLimiter {
    pub fn disabled() -> Self {
        Self::Disabled
    }

    /// An in-process limiter tracking at most `capacity` buckets.
    pub fn memory(capacity: usize) -> Self {
        Self::Memory(Arc::new(MemoryLimiter::new(capacity)))
    }

    /// A limiter shared through Redis, counting in process while Redis fails. `key_prefix` is
    /// `redis.key_prefix`.
    pub fn redis(connection: impl Into<RedisConnection>, key_prefix: impl Into<String>) -> Self {
        Self::redis_with_fallback(connection, key_prefix, DEFAULT_MEMORY_CAPACITY)
    }

    /// [`Self::redis`], whose in-process fallback tracks at most `capacity` buckets.
    pub fn redis_with_fallback(
        connection: impl Into<RedisConnection>,
        key_prefix: impl Into<String>,
        capacity: usize,
    ) -> Self {
        Self::Redis(Arc::new(RedisLimiter {
            connection: connection.into(),
            key_prefix: key_prefix.into(),
            fallback: MemoryLimiter::new(capacity),
            outage: OutageLog::new("rate limiter's Redis", "limits are counted per instance"),
        }))
    }

    /// Outages of Redis this limiter has met (0 for the other backends).
    pub fn outages(&self) -> u64 {
        match self {
            Self::Redis(limiter) => limiter.outage.outages(),
            Self::Disabled | Self::Memory(_) => 0,
        }
    }

    /// The limiter the settings call for: disabled, else Redis when the host has a connection,
    /// else in process (which only limits per instance).
    pub fn from_settings(
        settings: &RateLimitSettings,
        redis: Option<&Redis>,
        key_prefix: &str,
    ) -> Self {
        match (settings.enabled, redis) {
            (false, _) => Self::disabled(),
            (true, Some(redis)) => {
                Self::redis_with_fallback(redis.connection(), key_prefix, settings.memory_capacity)
            }
            (true, None) => Self::memory(settings.memory_capacity),
        }
    }

    /// Counts one hit in `bucket`'s current window and answers whether it is over `limit`
    /// (the first `limit` hits of a window are allowed).
    pub async fn hit(&self, bucket: &str, limit: u32, window: Duration) -> RateDecision {
        let window = window.clamp(MIN_WINDOW, MAX_WINDOW);
        match self {
            Self::Disabled => RateDecision::Allowed,
            Self::Memory(limiter) => limiter.hit(bucket, limit, window),
            Self::Redis(limiter) => {
                match redis_hit(&limiter.connection, &limiter.key(bucket), window).await {
                    Ok((count, ttl)) => {
                        limiter.outage.succeeded();
                        decide(count, limit, ttl)
                    }
                    Err(err) => {
                        limiter.outage.failed(&err);
                        limiter.fallback.hit(bucket, limit, window)
                    }
                }
            }
        }
    }
    /// Takes back one hit of `bucket`'s current window: for a hit that turned out not to be what
    /// the limit counts (a login attempt whose password was right, a request refused by another
    /// bucket). Never below zero; the window keeps its end.
    pub async fn take_back(&self, bucket: &str) {
        match self {
            Self::Disabled => {}
            Self::Memory(limiter) => limiter.take_back(bucket),
            Self::Redis(limiter) => {
                let result = TAKE_BACK
                    .key(limiter.key(bucket))
                    .invoke_async::<()>(&mut limiter.connection.clone())
                    .await;
                limiter.after(result, |fallback| fallback.take_back(bucket));
            }
        }
    }

    /// Forgets `bucket`'s current window, so its next hit opens a new one (a successful login
    /// clears the failures counted against its account from its address).
    pub async fn clear(&self, bucket: &str) {
        match self {
            Self::Disabled => {}
            Self::Memory(limiter) => limiter.clear(bucket),
            Self::Redis(limiter) => {
                let key = limiter.key(bucket);
                let result = redis::cmd("DEL")
                    .arg(&key)
                    .query_async::<()>(&mut limiter.connection.clone())
                    .await;
                limiter.after(result, |fallback| fallback.clear(bucket));
            }
        }
    }
}

impl RedisLimiter {
    fn key(&self, bucket: &str) -> String {
        format!(
            "{}ratelimit:{}",
            self.key_prefix,
            hex::encode(digest(bucket))
        )
    }

    /// Records a Redis call's outcome; on failure applies `fallback` to the in-process counts
    /// (where the hits went during the outage).
    fn after(&self, result: redis::RedisResult<()>, fallback: impl FnOnce(&MemoryLimiter)) {
        match result {
            Ok(()) => {
                self.outage.succeeded();
            }
            Err(err) => {
                self.outage.failed(&err);
                fallback(&self.fallback);
            }
        }
    }
}

/// KEYS[1] a bucket's counter: one less, unless it is gone or zero. DECR keeps the TTL.
static TAKE_BACK: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then
  redis.call('DECR', KEYS[1])
end
return 0
",
    )
});

/// KEYS[1] the bucket's counter; ARGV[1] the window in ms. Replies {count, ms until the window
/// ends}. The expiry is set when the key has none: on the window's first hit, and also (should
/// one ever exist) on a counter left without a TTL, which would otherwise limit forever.
static HIT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
",
    )
});

async fn redis_hit(
    connection: &RedisConnection,
    key: &str,
    window: Duration,
) -> Result<(u64, Duration), redis::RedisError> {
    // A clone shares the multiplexed connection; its response timeout (`redis.response_timeout`)
    // bounds how long a silent Redis can hold the request.
    let mut connection = connection.clone();
    let (count, ttl_ms): (u64, u64) = HIT
        .key(key)
        .arg(u64::try_from(window.as_millis()).unwrap_or(u64::MAX))
        .invoke_async(&mut connection)
        .await?;
    Ok((count, Duration::from_millis(ttl_ms)))
}

fn decide(count: u64, limit: u32, until_window_ends: Duration) -> RateDecision {
    if count > u64::from(limit) {
        RateDecision::Limited {
            retry_after: until_window_ends,
        }
    } else {
        RateDecision::Allowed
    }
}

fn digest(bucket: &str) -> [u8; 32] {
    Sha256::digest(bucket.as_bytes()).into()
}

/// The in-process backend: a bounded map from bucket digest to its current window.
///
/// The mutex is held only for a map operation and never across an `await` ([`Self::hit`] is
/// synchronous), so a plain `std::sync::Mutex` is the right lock.
pub struct MemoryLimiter {
    capacity: usize,
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

    /// [`RateLimiter::hit`] for this backend.
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

    /// [`RateLimiter::take_back`] for this backend.
    pub fn take_back(&self, bucket: &str) {
        let now = Instant::now();
        if let Some(window) = self.lock().windows.get_mut(&digest(bucket))
            && window.ends_at > now
        {
            window.count = window.count.saturating_sub(1);
        }
    }

    /// [`RateLimiter::clear`] for this backend.
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

/// `[rate_limit]`: the limits of the abuse-prone endpoints, each per `window`.
///
/// Logins count only *failed* attempts, in three buckets: per (account, client address) with a
/// small limit, which stops a guesser without touching the owner elsewhere; per account across
/// addresses with a much higher one (a distributed guess); per address across accounts (password
/// spraying). A successful login clears its (account, address) bucket, and makes the address
/// known to the account for `known_address_ttl`: from a known address the per-account bucket is
/// not used, so failures from elsewhere cannot lock the owner out of the addresses they use,
/// while new addresses stay bounded by it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RateLimitSettings {
    /// `false` turns every limit off.
    pub enabled: bool,
    /// The length of a counting window, e.g. `15m`.
    #[serde(with = "humantime_serde")]
    pub window: Duration,
    /// Failed logins on one account from one client address (guessing).
    pub failed_logins_per_account_address: u32,
    /// Failed logins on one account from all addresses (guessing from many addresses).
    pub failed_logins_per_account: u32,
    /// Failed logins from one client address on all accounts (password spraying).
    pub failed_logins_per_address: u32,
    /// Registrations per client address.
    pub register_per_address: u32,
    /// Mails requested for one account from one client address (forgot-password,
    /// send-email-confirmation).
    pub email_per_account_address: u32,
    /// Mails requested per account: bounds how often a victim's inbox can be filled. Every link
    /// sent stays valid until it expires or one is used, so reaching this limit never leaves the
    /// owner without a working link.
    pub email_per_account: u32,
    /// Mails requested per client address, for any accounts.
    pub email_per_address: u32,
    /// Sign-ins with a provider started per client address: each keeps a state row until it
    /// is used or expires, so an anonymous flood must not fill the table.
    pub provider_sign_ins_per_address: u32,
    /// Buckets the in-process limiter (and the Redis limiter's fallback during an outage) keeps
    /// at most; when full it evicts its least-used windows.
    pub memory_capacity: usize,
    /// How long an address an account signed in from stays known: from it, logins and mail
    /// requests are not counted in the account's own buckets (per account, across addresses),
    /// which failures from elsewhere could otherwise fill to lock the owner out.
    #[serde(with = "humantime_serde")]
    pub known_address_ttl: Duration,
}

impl Default for RateLimitSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            window: Duration::from_secs(15 * 60),
            failed_logins_per_account_address: 5,
            failed_logins_per_account: 100,
            failed_logins_per_address: 50,
            register_per_address: 20,
            email_per_account_address: 3,
            email_per_account: 10,
            email_per_address: 20,
            provider_sign_ins_per_address: 60,
            memory_capacity: DEFAULT_MEMORY_CAPACITY,
            known_address_ttl: Duration::from_secs(30 * 24 * 60 * 60),
        }
    }
}

impl RateLimitSettings {
    /// Checks the values; the error names the key, as the host's start-up checks do.
    pub fn validate(&self) -> Result<(), SettingsError> {
        if self.window < Duration::from_secs(1) || self.window > MAX_WINDOW {
            return Err(SettingsError::invalid(
                "rate_limit.window",
                "must be between 1s and 366 days",
            ));
        }
        let limits = [
            (
                "rate_limit.failed_logins_per_account_address",
                self.failed_logins_per_account_address,
            ),
            (
                "rate_limit.failed_logins_per_account",
                self.failed_logins_per_account,
            ),
            (
                "rate_limit.failed_logins_per_address",
                self.failed_logins_per_address,
            ),
            ("rate_limit.register_per_address", self.register_per_address),
            (
                "rate_limit.email_per_account_address",
                self.email_per_account_address,
            ),
            ("rate_limit.email_per_account", self.email_per_account),
            ("rate_limit.email_per_address", self.email_per_address),
            (
                "rate_limit.provider_sign_ins_per_address",
                self.provider_sign_ins_per_address,
            ),
        ];
        if self.known_address_ttl.is_zero() {
            return Err(SettingsError::invalid(
                "rate_limit.known_address_ttl",
                "must be greater than 0",
            ));
        }
        if self.memory_capacity < 8 {
            return Err(SettingsError::invalid(
                "rate_limit.memory_capacity",
                "must be at least 8",
            ));
        }
        for (key, limit) in limits {
            if limit == 0 {
                return Err(SettingsError::invalid(
                    key,
                    "must be greater than 0 (set rate_limit.enabled = false to turn limits off)",
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use redis::AsyncCommands;
    use redis::aio::ConnectionManagerConfig;

    use super::*;

    const WINDOW: Duration = Duration::from_secs(60);

    fn memory() -> RateLimiter {
        RateLimiter::memory(DEFAULT_MEMORY_CAPACITY)
    }

    /// Hits `bucket` `limit` times, asserting each is allowed.
    async fn use_up(limiter: &RateLimiter, bucket: &str, limit: u32, window: Duration) {
        for n in 1..=limit {
            assert_eq!(
                limiter.hit(bucket, limit, window).await,
                RateDecision::Allowed,
                "hit {n} of {limit} in {bucket}"
            );
        }
    }

    fn retry_after(decision: RateDecision) -> Duration {
        match decision {
            RateDecision::Limited { retry_after } => retry_after,
            RateDecision::Allowed => panic!("expected Limited, got Allowed"),
        }
    }

    // ---- the decision ----

    #[test]
    fn retry_after_rounds_up_to_whole_seconds_and_never_zero() {
        let limited = |ms| RateDecision::Limited {
            retry_after: Duration::from_millis(ms),
        };
        assert_eq!(limited(1500).retry_after_secs(), Some(2));
        assert_eq!(limited(2000).retry_after_secs(), Some(2));
        assert_eq!(limited(200).retry_after_secs(), Some(1));
        assert_eq!(limited(0).retry_after_secs(), Some(1));
        assert_eq!(RateDecision::Allowed.retry_after_secs(), None);
        assert!(limited(1).is_limited());
        assert!(!RateDecision::Allowed.is_limited());
    }

    #[tokio::test]
    async fn disabled_allows_everything() {
        let limiter = RateLimiter::from_settings(
            &RateLimitSettings {
                enabled: false,
                ..RateLimitSettings::default()
            },
            None,
            "",
        );
        assert!(matches!(limiter, RateLimiter::Disabled));
        for _ in 0..10 {
            assert_eq!(limiter.hit("b", 1, WINDOW).await, RateDecision::Allowed);
        }
    }

    // ---- in process ----

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

    #[tokio::test(start_paused = true)]
    async fn clones_share_counts() {
        let limiter = memory();
        let clone = limiter.clone();
        use_up(&limiter, "b", 2, WINDOW).await;
        assert!(clone.hit("b", 2, WINDOW).await.is_limited());
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

    /// `take_back` undoes one hit and `clear` the whole window, on whichever backend.
    async fn taking_back_and_clearing(limiter: &RateLimiter) {
        use_up(limiter, "b", 2, WINDOW).await;
        limiter.take_back("b").await;
        assert_eq!(
            limiter.hit("b", 2, WINDOW).await,
            RateDecision::Allowed,
            "one hit was taken back"
        );
        assert!(limiter.hit("b", 2, WINDOW).await.is_limited());

        limiter.clear("b").await;
        use_up(limiter, "b", 2, WINDOW).await;

        for _ in 0..5 {
            limiter.take_back("never-hit").await;
        }
        use_up(limiter, "never-hit", 1, WINDOW).await;
        assert!(
            limiter.hit("never-hit", 1, WINDOW).await.is_limited(),
            "taking back more than was counted does not bank hits"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn memory_hits_can_be_taken_back_and_windows_cleared() {
        taking_back_and_clearing(&memory()).await;
    }

    #[tokio::test]
    async fn redis_hits_can_be_taken_back_and_windows_cleared() {
        taking_back_and_clearing(&RateLimiter::redis(connect().await, unique_prefix())).await;
    }

    #[tokio::test(start_paused = true)]
    async fn a_zero_window_is_clamped_not_a_panic() {
        let limiter = memory();
        assert_eq!(
            limiter.hit("b", 1, Duration::ZERO).await,
            RateDecision::Allowed
        );
        assert_eq!(
            limiter.hit("b", 1, Duration::MAX).await,
            RateDecision::Limited {
                retry_after: Duration::from_millis(1)
            }
        );
        tokio::time::advance(Duration::from_millis(1)).await;
        assert_eq!(
            limiter.hit("b", 1, Duration::MAX).await,
            RateDecision::Allowed
        );
    }

    // ---- settings ----

    fn parse(toml: &str) -> Result<RateLimitSettings, config::ConfigError> {
        config::Config::builder()
            .add_source(config::File::from_str(toml, config::FileFormat::Toml))
            .build()?
            .get::<RateLimitSettings>("rate_limit")
    }

    #[test]
    fn settings_defaults_and_parsing() {
        let defaults = RateLimitSettings::default();
        assert!(defaults.enabled);
        assert_eq!(defaults.window, Duration::from_secs(900));
        assert_eq!(
            (
                defaults.failed_logins_per_account_address,
                defaults.failed_logins_per_account,
                defaults.failed_logins_per_address,
                defaults.register_per_address,
                defaults.email_per_account_address,
                defaults.email_per_account,
                defaults.email_per_address,
            ),
            (5, 100, 50, 20, 3, 10, 20)
        );
        assert_eq!(defaults.memory_capacity, DEFAULT_MEMORY_CAPACITY);
        defaults.validate().expect("the defaults are valid");

        let settings = parse("[rate_limit]\nwindow = \"1m 30s\"\nfailed_logins_per_account = 3")
            .expect("valid");
        assert_eq!(settings.window, Duration::from_secs(90));
        assert_eq!(settings.failed_logins_per_account, 3);
        assert_eq!(
            settings.failed_logins_per_address, 50,
            "absent keys take their default"
        );

        assert!(
            parse("[rate_limit]\nlogin_per_account = 3").is_err(),
            "unknown key"
        );
        assert!(
            parse("[rate_limit]\nwindow = \"soon\"").is_err(),
            "not a duration"
        );
    }

    #[test]
    fn validation_names_the_key() {
        let zero_limit = RateLimitSettings {
            email_per_account: 0,
            ..RateLimitSettings::default()
        };
        let err = zero_limit.validate().expect_err("a zero limit");
        assert!(
            err.to_string().contains("rate_limit.email_per_account"),
            "{err}"
        );

        let short = RateLimitSettings {
            window: Duration::from_millis(500),
            ..RateLimitSettings::default()
        };
        let err = short.validate().expect_err("a sub-second window");
        assert!(err.to_string().contains("rate_limit.window"), "{err}");
    }

    // ---- Redis ----

    fn redis_url() -> String {
        std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned())
    }

    /// Connects to the test Redis, failing the test (never skipping it) when there is none.
    async fn connect() -> RedisConnection {
        let url = redis_url();
        match tokio::time::timeout(Duration::from_secs(10), crate::redis::connect(&url)).await {
            Ok(Ok((redis, crate::redis::AtStartup::Available))) => redis.connection(),
            Ok(Ok((_, crate::redis::AtStartup::Unavailable(err))) | Err(err)) => panic!(
                "the Redis rate limiter tests need a Redis server at {url} (set REDIS_URL to use \
                 another one): {err}"
            ),
            Err(_) => panic!(
                "the Redis rate limiter tests need a Redis server at {url} (set REDIS_URL to use \
                 another one): connecting timed out"
            ),
        }
    }

    /// A prefix no other test (or test run) uses, so tests run in parallel on one Redis.
    /// Every counter carries a TTL, so nothing needs cleaning up afterwards.
    fn unique_prefix() -> String {
        format!("test:{}:", uuid::Uuid::new_v4().simple())
    }

    #[tokio::test]
    async fn redis_allows_the_limit_then_limits_until_the_window_ends() {
        let limiter = RateLimiter::redis(connect().await, unique_prefix());
        use_up(&limiter, "login:addr:1", 3, WINDOW).await;
        let first = retry_after(limiter.hit("login:addr:1", 3, WINDOW).await);
        assert!(
            first <= WINDOW && first > WINDOW - Duration::from_secs(10),
            "retry_after {first:?}"
        );
        let second = retry_after(limiter.hit("login:addr:1", 3, WINDOW).await);
        assert!(second <= first, "the window does not restart on later hits");
    }

    #[tokio::test]
    async fn redis_windows_reset() {
        let limiter = RateLimiter::redis(connect().await, unique_prefix());
        let window = Duration::from_millis(300);
        use_up(&limiter, "b", 2, window).await;
        let decision = limiter.hit("b", 2, window).await;
        assert!(retry_after(decision) <= window, "{decision:?}");
        tokio::time::sleep(window + Duration::from_millis(100)).await;
        use_up(&limiter, "b", 2, window).await;
        assert!(limiter.hit("b", 2, window).await.is_limited());
    }

    #[tokio::test]
    async fn redis_buckets_are_independent_and_instances_share_counts() {
        let connection = connect().await;
        let prefix = unique_prefix();
        let first_instance = RateLimiter::redis(connection.clone(), prefix.clone());
        let second_instance = RateLimiter::redis(connect().await, prefix.clone());
        use_up(&first_instance, "login:account:ada@example.com", 2, WINDOW).await;
        assert!(
            second_instance
                .hit("login:account:ada@example.com", 2, WINDOW)
                .await
                .is_limited(),
            "another instance sees the same count"
        );
        use_up(&second_instance, "login:account:bob@example.com", 2, WINDOW).await;
        // The same bucket under another prefix (another service) is another counter.
        use_up(
            &RateLimiter::redis(connection, unique_prefix()),
            "login:account:ada@example.com",
            2,
            WINDOW,
        )
        .await;
    }

    #[tokio::test]
    async fn redis_key_is_the_hashed_bucket_with_a_ttl() {
        let mut connection = connect().await;
        let prefix = unique_prefix();
        let limiter = RateLimiter::redis(connection.clone(), prefix.clone());
        let bucket = "login:account:ada@example.com";
        limiter.hit(bucket, 5, WINDOW).await;
        limiter.hit(bucket, 5, WINDOW).await;

        let keys: Vec<String> = connection.keys(format!("{prefix}*")).await.expect("KEYS");
        let expected = format!("{prefix}ratelimit:{}", hex::encode(digest(bucket)));
        assert_eq!(keys, std::slice::from_ref(&expected));
        assert!(
            !expected.contains("ada"),
            "the address is not stored in clear"
        );
        let count: u64 = connection.get(&expected).await.expect("GET");
        assert_eq!(count, 2);
        let ttl: i64 = connection.pttl(&expected).await.expect("PTTL");
        assert!((1..=60_000).contains(&ttl), "TTL {ttl}");
    }

    #[tokio::test]
    async fn redis_counter_without_a_ttl_gets_one() {
        let mut connection = connect().await;
        let prefix = unique_prefix();
        let bucket = "b";
        let key = format!("{prefix}ratelimit:{}", hex::encode(digest(bucket)));
        let () = connection.set(&key, 7).await.expect("SET");
        let limiter = RateLimiter::redis(connection.clone(), prefix);
        assert!(limiter.hit(bucket, 5, WINDOW).await.is_limited());
        let ttl: i64 = connection.pttl(&key).await.expect("PTTL");
        assert!(
            (1..=60_000).contains(&ttl),
            "a stray counter would otherwise limit forever: TTL {ttl}"
        );
    }

    #[tokio::test]
    async fn redis_unreachable_counts_in_process_instead() {
        // Port 1 on loopback: nothing listens there, so every attempt is refused at once.
        let client = redis::Client::open("redis://127.0.0.1:1").expect("valid URL");
        let config = ConnectionManagerConfig::new()
            .set_number_of_retries(0)
            .set_connection_timeout(Some(Duration::from_secs(1)));
        let connection = client
            .get_connection_manager_lazy(config)
            .expect("a lazy connection manager does not connect yet");
        let limiter = RateLimiter::redis(connection, unique_prefix());
        let hit = || tokio::time::timeout(Duration::from_secs(10), limiter.hit("b", 1, WINDOW));

        let first = hit().await.expect("a refused connection fails fast");
        let second = hit().await.expect("a refused connection fails fast");

        assert_eq!(first, RateDecision::Allowed);
        assert!(second.is_limited(), "counted in process: the limit holds");
        assert_eq!(limiter.outages(), 1, "one outage, however many hits");
    }

    #[tokio::test]
    async fn a_redis_outage_keeps_limiting_in_process() {
        testing::needs_tools_of!(testing::tools::Suite::PrivateRedis);
        let mut server = testing::redis::RedisServer::start().expect("a private redis-server");
        let deadline = Instant::now() + Duration::from_secs(10);
        let connection = loop {
            match crate::redis::connect(&server.url()).await {
                Ok((redis, crate::redis::AtStartup::Available)) => break redis.connection(),
                Ok((_, crate::redis::AtStartup::Unavailable(err))) | Err(err)
                    if Instant::now() > deadline =>
                {
                    panic!("the private redis-server did not answer within 10 s: {err}")
                }
                Ok(_) | Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        };
        let limiter = RateLimiter::redis(connection, unique_prefix());
        use_up(&limiter, "b", 1, WINDOW).await;
        assert!(
            limiter.hit("b", 1, WINDOW).await.is_limited(),
            "Redis is counting"
        );

        server.stop();
        let hit = || tokio::time::timeout(Duration::from_secs(10), limiter.hit("c", 1, WINDOW));
        let first = hit().await.expect("a Redis outage costs a bounded wait");
        let second = hit().await.expect("a Redis outage costs a bounded wait");

        assert_eq!(first, RateDecision::Allowed);
        assert!(second.is_limited(), "Redis is down: counted in process");
    }
}
