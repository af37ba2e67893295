//! Fixed-window rate limiting for the endpoints attackers hammer: login (password guessing),
//! registration (account spam) and the ones that send mail (mail bombing a victim's inbox).
//!
//! A caller names a [`Bucket`] (`login:addr:203.0.113.7`, `login:account:ada@example.com`) and a
//! limit per window; [`RateLimiter::hit`] counts the request and answers
//! [`RateDecision::Limited`] once the bucket's count in its current window exceeds the limit,
//! with the time until that window ends (for `Retry-After`). A window opens at a bucket's first
//! hit and lasts `window`; the next hit after it ends opens a new one.
//!
//! Fixed windows are the simplest scheme that bounds an attacker to `limit` attempts per
//! `window` (at worst twice that across a window boundary), which is all these limits are for;
//! they cost one counter per bucket.
//!
//! The caller also says what a bucket protects: [`Bucket::credential`] for the buckets that bound
//! password guessing or mail to an account, [`Bucket::ordinary`] for any other traffic
//! (registrations, sign-ins with a provider started). Only an in-process limiter, which is
//! bounded, tells them apart (below).
//!
//! Backends, chosen by the host ([`RateLimiter::from_settings`]):
//!
//! - **Redis**, when configured: counts are shared by every instance, so running more instances
//!   does not multiply an attacker's budget. One Lua script per hit (one round trip, atomic).
//!   Every counter lives until its window ends, whatever its bucket protects. While Redis fails
//!   (or has not answered since start-up), hits are **counted in process** instead: a Redis
//!   outage must neither lock every user out of logging in nor lift the limits, so they hold per
//!   instance until Redis answers again. One warning when the outage begins, one line when it
//!   ends.
//! - **Memory**: counts per instance, in two bounded maps of `rate_limit.memory_capacity`
//!   buckets each: one for credential buckets, one for ordinary ones. Evicting a live window
//!   resets its count, so no amount of ordinary traffic may push out a credential window: they
//!   never share a map. When a map is full it drops its ended windows and, if live ones still
//!   fill it, evicts an eighth of them and logs a warning:
//!   - ordinary buckets, the least recently hit: their counts cost nothing to raise (an
//!     attacker can drive any number of them to their limits), so a count says nothing about
//!     what is worth keeping, while recency keeps the clients active now;
//!   - credential buckets, the lowest counts (of equal counts, the least recently hit): a flood
//!     of fresh bucket names (rotated addresses) evicts its own one-hit buckets, and to push out
//!     a bucket of `n` hits the map must first fill with buckets of more, each hit a real
//!     login attempt or mail request that these same limits bound.
//!
//!   Refusing new buckets instead would let a flood lock every new client out; letting the maps
//!   grow would let it take the memory. (IPv6 clients are one bucket per /64 already:
//!   `kernel::client_address`.)
//! - **Disabled**: everything is allowed (`rate_limit.enabled = false`).
//!
//! Bucket names are hashed (SHA-256) before they are stored: they contain user input such as
//! e-mail addresses, which should neither sit in Redis in clear nor make keys arbitrarily long.
//!
//! This file is the public face: [`RateLimiter`], [`Bucket`], [`RateDecision`] and what the
//! backends share (window bounds, the decision, the bucket digest). The backends live in
//! `memory` and `redis`, the Redis backend's outage fallback in `fallback`, and `[rate_limit]` in
//! `settings`.

mod fallback;
mod memory;
mod redis;
mod settings;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use redis_topology::{Redis, RedisConnection};
use sha2::{Digest, Sha256};

pub use self::memory::MemoryLimiter;
pub use self::redis::RedisLimiter;
pub use self::settings::{DEFAULT_MEMORY_CAPACITY, RateLimitSettings};

/// Windows are clamped to this range: Redis expires keys with millisecond precision (and a zero
/// expiry would delete the counter at once), and a year is past any sensible window while
/// keeping instant arithmetic far from overflow.
const MIN_WINDOW: Duration = Duration::from_millis(1);
const MAX_WINDOW: Duration = Duration::from_secs(366 * 24 * 60 * 60);

/// A named counter, and what it protects: which decides what a full in-process limiter evicts.
///
/// Give each name one kind: Redis keys a counter by its name alone.
#[derive(Debug, Clone)]
pub struct Bucket {
    name: String,
    kind: BucketKind,
}

/// What a [`Bucket`] protects. In process, each kind has a map of its own.
#[derive(Debug, Clone, Copy)]
enum BucketKind {
    Credential,
    Ordinary,
}

impl Bucket {
    /// A bucket that bounds password guessing or mail to an account (failed logins per account
    /// or address, mails per account or address). Ordinary traffic never evicts it.
    pub fn credential(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            kind: BucketKind::Credential,
        }
    }

    /// A bucket for any other traffic (registrations, sign-ins with a provider started per
    /// address): anyone can raise its count at no cost, so a full map of them evicts the least
    /// recently hit, whatever their counts.
    pub fn ordinary(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            kind: BucketKind::Ordinary,
        }
    }
}

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

    /// An in-process limiter tracking at most `capacity` buckets of each kind.
    pub fn memory(capacity: usize) -> Self {
        Self::Memory(Arc::new(MemoryLimiter::new(capacity)))
    }

    /// A limiter shared through Redis, counting in process while Redis fails. `key_prefix` is
    /// `redis.key_prefix`.
    pub fn redis(connection: impl Into<RedisConnection>, key_prefix: impl Into<String>) -> Self {
        Self::redis_with_fallback(connection, key_prefix, DEFAULT_MEMORY_CAPACITY)
    }

    /// [`Self::redis`], whose in-process fallback tracks at most `capacity` buckets of each kind.
    pub fn redis_with_fallback(
        connection: impl Into<RedisConnection>,
        key_prefix: impl Into<String>,
        capacity: usize,
    ) -> Self {
        Self::Redis(Arc::new(RedisLimiter::new(
            connection.into(),
            key_prefix.into(),
            capacity,
        )))
    }

    /// Outages of Redis this limiter has met (0 for the other backends).
    pub fn outages(&self) -> u64 {
        match self {
            Self::Redis(limiter) => limiter.fallback.outages(),
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
    pub async fn hit(&self, bucket: &Bucket, limit: u32, window: Duration) -> RateDecision {
        let window = window.clamp(MIN_WINDOW, MAX_WINDOW);
        match self {
            Self::Disabled => RateDecision::Allowed,
            Self::Memory(limiter) => limiter.hit(bucket, limit, window),
            Self::Redis(limiter) => limiter.hit(bucket, limit, window).await,
        }
    }

    /// Takes back one hit of `bucket`'s current window: for a hit that turned out not to be what
    /// the limit counts (a login attempt whose password was right, a request refused by another
    /// bucket). Never below zero; the window keeps its end.
    pub async fn take_back(&self, bucket: &Bucket) {
        match self {
            Self::Disabled => {}
            Self::Memory(limiter) => limiter.take_back(bucket),
            Self::Redis(limiter) => limiter.take_back(bucket).await,
        }
    }

    /// Forgets `bucket`'s current window, so its next hit opens a new one (a successful login
    /// clears the failures counted against its account from its address).
    pub async fn clear(&self, bucket: &Bucket) {
        match self {
            Self::Disabled => {}
            Self::Memory(limiter) => limiter.clear(bucket),
            Self::Redis(limiter) => limiter.clear(bucket).await,
        }
    }
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

/// Helpers the backends' tests share.
#[cfg(test)]
mod tests {
    use super::*;

    pub(super) const WINDOW: Duration = Duration::from_secs(60);

    pub(super) fn memory() -> RateLimiter {
        RateLimiter::memory(DEFAULT_MEMORY_CAPACITY)
    }

    /// Hits `bucket` `limit` times, asserting each is allowed.
    pub(super) async fn use_up(
        limiter: &RateLimiter,
        bucket: &Bucket,
        limit: u32,
        window: Duration,
    ) {
        for n in 1..=limit {
            assert_eq!(
                limiter.hit(bucket, limit, window).await,
                RateDecision::Allowed,
                "hit {n} of {limit} in {bucket:?}"
            );
        }
    }

    pub(super) fn retry_after(decision: RateDecision) -> Duration {
        match decision {
            RateDecision::Limited { retry_after } => retry_after,
            RateDecision::Allowed => panic!("expected Limited, got Allowed"),
        }
    }

    /// `take_back` undoes one hit and `clear` the whole window, on whichever backend, in
    /// buckets of the kind `bucket` makes.
    pub(super) async fn taking_back_and_clearing(
        limiter: &RateLimiter,
        bucket: fn(&'static str) -> Bucket,
    ) {
        let counted = bucket("counted");
        use_up(limiter, &counted, 2, WINDOW).await;
        limiter.take_back(&counted).await;
        assert_eq!(
            limiter.hit(&counted, 2, WINDOW).await,
            RateDecision::Allowed,
            "one hit was taken back"
        );
        assert!(limiter.hit(&counted, 2, WINDOW).await.is_limited());

        limiter.clear(&counted).await;
        use_up(limiter, &counted, 2, WINDOW).await;

        let never_hit = bucket("never-hit");
        for _ in 0..5 {
            limiter.take_back(&never_hit).await;
        }
        use_up(limiter, &never_hit, 1, WINDOW).await;
        assert!(
            limiter.hit(&never_hit, 1, WINDOW).await.is_limited(),
            "taking back more than was counted does not bank hits"
        );
    }

    fn redis_url() -> String {
        std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned())
    }

    /// Connects to the test Redis, failing the test (never skipping it) when there is none.
    pub(super) async fn connect() -> RedisConnection {
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
    pub(super) fn unique_prefix() -> String {
        format!("test:{}:", uuid::Uuid::new_v4().simple())
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
            assert_eq!(
                limiter.hit(&Bucket::ordinary("b"), 1, WINDOW).await,
                RateDecision::Allowed
            );
        }
    }

    #[tokio::test(start_paused = true)]
    async fn clones_share_counts() {
        let limiter = memory();
        let clone = limiter.clone();
        let bucket = Bucket::credential("b");
        use_up(&limiter, &bucket, 2, WINDOW).await;
        assert!(clone.hit(&bucket, 2, WINDOW).await.is_limited());
    }

    #[tokio::test(start_paused = true)]
    async fn a_zero_window_is_clamped_not_a_panic() {
        let limiter = memory();
        let bucket = Bucket::ordinary("b");
        assert_eq!(
            limiter.hit(&bucket, 1, Duration::ZERO).await,
            RateDecision::Allowed
        );
        assert_eq!(
            limiter.hit(&bucket, 1, Duration::MAX).await,
            RateDecision::Limited {
                retry_after: Duration::from_millis(1)
            }
        );
        tokio::time::advance(Duration::from_millis(1)).await;
        assert_eq!(
            limiter.hit(&bucket, 1, Duration::MAX).await,
            RateDecision::Allowed
        );
    }
}
