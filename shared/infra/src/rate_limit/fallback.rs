//! What the Redis backend does while Redis fails: counts in process instead, and reports the
//! outage through an [`OutageLog`]. Apart from `redis`, so the outage policy reads on its own.

use std::time::Duration;

use kernel::outage::OutageLog;

use super::memory::MemoryLimiter;
use super::{Bucket, RateDecision, decide};

/// The in-process limiter the Redis backend counts in during an outage, and its outage log.
pub(super) struct OutageFallback {
    limiter: MemoryLimiter,
    outage: OutageLog,
}

impl OutageFallback {
    /// A fallback tracking at most `capacity` buckets of each kind.
    pub(super) fn new(capacity: usize) -> Self {
        Self {
            limiter: MemoryLimiter::new(capacity),
            outage: OutageLog::new("rate limiter's Redis", "limits are counted per instance"),
        }
    }

    /// Outages of Redis met so far.
    pub(super) fn outages(&self) -> u64 {
        self.outage.outages()
    }

    /// Records a hit's outcome in Redis (its count and the time until its window ends) and
    /// answers it; on failure counts the hit in process instead, where what `bucket` protects
    /// decides what it may evict.
    pub(super) fn hit(
        &self,
        result: Result<(u64, Duration), redis::RedisError>,
        bucket: &Bucket,
        limit: u32,
        window: Duration,
    ) -> RateDecision {
        match result {
            Ok((count, ttl)) => {
                self.outage.succeeded();
                decide(count, limit, ttl)
            }
            Err(err) => {
                self.outage.failed(&err);
                self.limiter.hit(bucket, limit, window)
            }
        }
    }

    /// Records a Redis call's outcome; on failure applies `fallback` to the in-process counts
    /// (where the hits went during the outage).
    pub(super) fn after(
        &self,
        result: redis::RedisResult<()>,
        fallback: impl FnOnce(&MemoryLimiter),
    ) {
        match result {
            Ok(()) => {
                self.outage.succeeded();
            }
            Err(err) => {
                self.outage.failed(&err);
                fallback(&self.limiter);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use redis::aio::{ConnectionManager, ConnectionManagerConfig};
    use tokio::time::Instant;

    use super::super::RateLimiter;
    use super::super::tests::{WINDOW, unique_prefix, use_up};
    use super::*;

    /// A connection to port 1 on loopback: nothing listens there, so every attempt is refused at
    /// once.
    fn unreachable() -> ConnectionManager {
        let client = redis::Client::open("redis://127.0.0.1:1").expect("valid URL");
        let config = ConnectionManagerConfig::new()
            .set_number_of_retries(0)
            .set_connection_timeout(Some(Duration::from_secs(1)));
        client
            .get_connection_manager_lazy(config)
            .expect("a lazy connection manager does not connect yet")
    }

    #[tokio::test]
    async fn redis_unreachable_counts_in_process_instead() {
        let limiter = RateLimiter::redis(unreachable(), unique_prefix());
        let bucket = Bucket::credential("b");
        let hit = || tokio::time::timeout(Duration::from_secs(10), limiter.hit(&bucket, 1, WINDOW));

        let first = hit().await.expect("a refused connection fails fast");
        let second = hit().await.expect("a refused connection fails fast");

        assert_eq!(first, RateDecision::Allowed);
        assert!(second.is_limited(), "counted in process: the limit holds");
        assert_eq!(limiter.outages(), 1, "one outage, however many hits");
    }

    #[tokio::test]
    async fn no_flood_of_ordinary_buckets_in_an_outage_evicts_a_live_credential_one() {
        let limiter = RateLimiter::redis_with_fallback(unreachable(), unique_prefix(), 8);
        let target = Bucket::credential("login:account:ada@example.com");
        let flood = (0..100).map(|n| Bucket::ordinary(format!("register:address:{n}")));
        let counting = async {
            use_up(&limiter, &target, 5, WINDOW).await;

            // Each flood bucket counts more hits than the target.
            for bucket in flood {
                for _ in 0..6 {
                    limiter.hit(&bucket, 6, WINDOW).await;
                }
            }

            limiter.hit(&target, 5, WINDOW).await
        };

        let decision = tokio::time::timeout(Duration::from_secs(30), counting)
            .await
            .expect("refused connections fail fast");
        assert!(
            decision.is_limited(),
            "the target's count outlived the flood"
        );
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
        let counted_in_redis = Bucket::credential("b");
        use_up(&limiter, &counted_in_redis, 1, WINDOW).await;
        assert!(
            limiter.hit(&counted_in_redis, 1, WINDOW).await.is_limited(),
            "Redis is counting"
        );

        server.stop();
        let counted_in_process = Bucket::credential("c");
        let hit = || {
            tokio::time::timeout(
                Duration::from_secs(10),
                limiter.hit(&counted_in_process, 1, WINDOW),
            )
        };
        let first = hit().await.expect("a Redis outage costs a bounded wait");
        let second = hit().await.expect("a Redis outage costs a bounded wait");

        assert_eq!(first, RateDecision::Allowed);
        assert!(second.is_limited(), "Redis is down: counted in process");
    }
}
