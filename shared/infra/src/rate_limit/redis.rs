//! The Redis backend: counts shared by every instance, one Lua script per hit. Its calls and
//! scripts live here; what it does while Redis fails is [`super::fallback`]'s.

use std::sync::LazyLock;
use std::time::Duration;

use redis::Script;
use redis_topology::RedisConnection;

use super::fallback::OutageFallback;
use super::{Bucket, RateDecision, digest};

/// The Redis backend, with the in-process limiter it falls back to. Redis keeps every counter
/// until its window ends, so what a bucket protects matters only to the fallback.
pub struct RedisLimiter {
    connection: RedisConnection,
    pub(super) key_prefix: String,
    pub(super) fallback: OutageFallback,
}

impl RedisLimiter {
    pub(super) fn new(connection: RedisConnection, key_prefix: String, capacity: usize) -> Self {
        Self {
            connection,
            key_prefix,
            fallback: OutageFallback::new(capacity),
        }
    }

    /// [`RateLimiter::hit`](super::RateLimiter::hit) for this backend (`window` is clamped).
    pub(super) async fn hit(&self, bucket: &Bucket, limit: u32, window: Duration) -> RateDecision {
        let result = redis_hit(&self.connection, &self.key(bucket), window).await;
        self.fallback.hit(result, bucket, limit, window)
    }

    /// [`RateLimiter::take_back`](super::RateLimiter::take_back) for this backend.
    pub(super) async fn take_back(&self, bucket: &Bucket) {
        let result = TAKE_BACK
            .key(self.key(bucket))
            .invoke_async::<()>(&mut self.connection.clone())
            .await;
        self.fallback
            .after(result, |fallback| fallback.take_back(bucket));
    }

    /// [`RateLimiter::clear`](super::RateLimiter::clear) for this backend.
    pub(super) async fn clear(&self, bucket: &Bucket) {
        let key = self.key(bucket);
        let result = redis::cmd("DEL")
            .arg(&key)
            .query_async::<()>(&mut self.connection.clone())
            .await;
        self.fallback
            .after(result, |fallback| fallback.clear(bucket));
    }

    fn key(&self, bucket: &Bucket) -> String {
        format!(
            "{}ratelimit:{}",
            self.key_prefix,
            hex::encode(digest(&bucket.name))
        )
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

#[cfg(test)]
mod tests {
    use redis::AsyncCommands;

    use super::super::RateLimiter;
    use super::super::tests::{
        WINDOW, connect, retry_after, taking_back_and_clearing, unique_prefix, use_up,
    };
    use super::*;

    #[tokio::test]
    async fn redis_hits_can_be_taken_back_and_windows_cleared() {
        taking_back_and_clearing(
            &RateLimiter::redis(connect().await, unique_prefix()),
            Bucket::credential,
        )
        .await;
    }

    #[tokio::test]
    async fn redis_allows_the_limit_then_limits_until_the_window_ends() {
        let limiter = RateLimiter::redis(connect().await, unique_prefix());
        let bucket = Bucket::credential("login:addr:1");
        use_up(&limiter, &bucket, 3, WINDOW).await;
        let first = retry_after(limiter.hit(&bucket, 3, WINDOW).await);
        assert!(
            first <= WINDOW && first > WINDOW - Duration::from_secs(10),
            "retry_after {first:?}"
        );
        let second = retry_after(limiter.hit(&bucket, 3, WINDOW).await);
        assert!(second <= first, "the window does not restart on later hits");
    }

    #[tokio::test]
    async fn redis_windows_reset() {
        let limiter = RateLimiter::redis(connect().await, unique_prefix());
        let window = Duration::from_millis(300);
        let bucket = Bucket::ordinary("b");
        use_up(&limiter, &bucket, 2, window).await;
        let decision = limiter.hit(&bucket, 2, window).await;
        assert!(retry_after(decision) <= window, "{decision:?}");
        tokio::time::sleep(window + Duration::from_millis(100)).await;
        use_up(&limiter, &bucket, 2, window).await;
        assert!(limiter.hit(&bucket, 2, window).await.is_limited());
    }

    #[tokio::test]
    async fn redis_buckets_are_independent_and_instances_share_counts() {
        let connection = connect().await;
        let prefix = unique_prefix();
        let first_instance = RateLimiter::redis(connection.clone(), prefix.clone());
        let second_instance = RateLimiter::redis(connect().await, prefix.clone());
        let ada = Bucket::credential("login:account:ada@example.com");
        use_up(&first_instance, &ada, 2, WINDOW).await;
        assert!(
            second_instance.hit(&ada, 2, WINDOW).await.is_limited(),
            "another instance sees the same count"
        );
        use_up(
            &second_instance,
            &Bucket::credential("login:account:bob@example.com"),
            2,
            WINDOW,
        )
        .await;
        // The same bucket under another prefix (another service) is another counter.
        use_up(
            &RateLimiter::redis(connection, unique_prefix()),
            &ada,
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
        let name = "login:account:ada@example.com";
        let bucket = Bucket::credential(name);
        limiter.hit(&bucket, 5, WINDOW).await;
        limiter.hit(&bucket, 5, WINDOW).await;

        let keys: Vec<String> = connection.keys(format!("{prefix}*")).await.expect("KEYS");
        let expected = format!("{prefix}ratelimit:{}", hex::encode(digest(name)));
        assert_eq!(keys, std::slice::from_ref(&expected));
        // (The whole address: the random prefix and the hex digest may hold "ada" by chance.)
        assert!(
            !expected.contains("ada@example.com"),
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
        let name = "b";
        let key = format!("{prefix}ratelimit:{}", hex::encode(digest(name)));
        let () = connection.set(&key, 7).await.expect("SET");
        let limiter = RateLimiter::redis(connection.clone(), prefix);
        assert!(
            limiter
                .hit(&Bucket::ordinary(name), 5, WINDOW)
                .await
                .is_limited()
        );
        let ttl: i64 = connection.pttl(&key).await.expect("PTTL");
        assert!(
            (1..=60_000).contains(&ttl),
            "a stray counter would otherwise limit forever: TTL {ttl}"
        );
    }
}
