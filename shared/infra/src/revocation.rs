//! Session revocations that take effect on every instance within a second.
//!
//! [`Revocations::revoke`] records a session in this process's [`RevokedSessions`] at once
//! (the authentication step refuses its tokens from the next request on) and, with Redis,
//! shares it with every instance:
//!
//! - a sorted set `{prefix}revoked-sessions` (member: session id, score: Unix ms until which
//!   its tokens are refused) that an instance reads whenever it (re)subscribes, so one that
//!   starts, or reconnects after an outage, knows every revocation still in force;
//! - a pub/sub message on the channel of the same name, which subscribed instances apply as it
//!   arrives (one Redis hop, well under the one-second target). On a cluster the channel is
//!   sharded (`SPUBLISH`/`SSUBSCRIBE`): it lives on the set's shard, and the set, the message
//!   and the expiry go in one transaction there.
//!
//! Requests never touch Redis for this: the set is in memory, and this module only feeds it.
//!
//! Failure, in the degraded-mode spirit of the rest of the service: while Redis is down, a
//! revocation holds on the instance that made it (and the identity module's own endpoints check
//! the database anyway). The instance retries sharing it every second until Redis answers,
//! and on every resubscription writes the revocations it knows back to the sorted set, which
//! also heals a Redis that restarted empty. What is lost: the revocations of an instance that
//! dies while Redis is down reach the others only through the database checks.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_util::StreamExt as _;
use kernel::RevokedSessions;
use kernel::outage::OutageLog;
use kernel::revocation::unix_now_ms;
use redis_topology::Redis;
use tokio::sync::watch;

/// How long a revocation outlives the access-token lifetime: the verifier's clock leeway plus
/// a margin for clocks that disagree between instances.
const MARGIN: Duration = Duration::from_secs(60);

/// How often a subscribed instance retries sharing revocations that Redis did not take.
const RETRY_INTERVAL: Duration = Duration::from_secs(1);

/// Records revocations and shares them between instances. Cheap to clone.
#[derive(Clone)]
pub struct Revocations {
    inner: Arc<Inner>,
}

struct Inner {
    revoked: Arc<RevokedSessions>,
    /// How long after its revocation a session's tokens stay refused.
    keep_for: Duration,
    shared: Option<Shared>,
}

/// The Redis side.
struct Shared {
    redis: Redis,
    /// The sorted set's key and the channel's name (one string: they name one thing).
    key: String,
    /// A revocation Redis did not take: share everything again on the next tick.
    unshared: AtomicBool,
    /// Whether this instance has read the sorted set since it last (re)subscribed.
    synced: watch::Sender<bool>,
    outage: OutageLog,
}

impl std::fmt::Debug for Revocations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Revocations")
            .field("keep_for", &self.inner.keep_for)
            .field("shared", &self.inner.shared.is_some())
            .finish_non_exhaustive()
    }
}

impl Revocations {
    /// Revocations for this process only (no Redis): enough for one instance.
    pub fn in_process(access_token_ttl: Duration) -> Self {
        Self {
            inner: Arc::new(Inner {
                revoked: Arc::default(),
                keep_for: access_token_ttl + MARGIN,
                shared: None,
            }),
        }
    }

    /// Revocations shared through `redis`. Call [`Self::follow`] to start receiving other
    /// instances' revocations.
    pub fn with_redis(redis: Redis, key_prefix: &str, access_token_ttl: Duration) -> Self {
        Self {
            inner: Arc::new(Inner {
                revoked: Arc::default(),
                keep_for: access_token_ttl + MARGIN,
                shared: Some(Shared {
                    redis,
                    key: format!("{key_prefix}revoked-sessions"),
                    unshared: AtomicBool::new(false),
                    synced: watch::channel(false).0,
                    outage: OutageLog::new(
                        "revocation broadcast's Redis",
                        "revocations hold on the instance that made them",
                    ),
                }),
            }),
        }
    }

    /// The set the authentication step reads.
    pub fn revoked_sessions(&self) -> Arc<RevokedSessions> {
        Arc::clone(&self.inner.revoked)
    }

    /// Refuses the tokens of `session_ids` from now on, here at once and on every instance
    /// sharing Redis within a second. Never fails: a Redis that does not take it is retried.
    pub async fn revoke<S: AsRef<str>>(&self, session_ids: &[S]) {
        if session_ids.is_empty() {
            return;
        }
        let until = unix_now_ms() + millis(self.inner.keep_for);
        for id in session_ids {
            self.inner.revoked.insert(id.as_ref(), until);
        }
        if let Some(shared) = &self.inner.shared {
            let entries: Vec<(String, u64)> = session_ids
                .iter()
                .map(|id| (id.as_ref().to_owned(), until))
                .collect();
            shared.share(&entries, self.inner.keep_for).await;
        }
    }

    /// Starts following other instances' revocations (a no-op without Redis). The task runs
    /// until it is aborted; abort it at shutdown.
    pub fn follow(&self) -> Option<tokio::task::JoinHandle<()>> {
        self.inner.shared.as_ref()?;
        let inner = Arc::clone(&self.inner);
        Some(tokio::spawn(async move { inner.follow().await }))
    }

    /// Waits up to `limit` until this instance has read the revocations in force from Redis;
    /// whether it has. Without Redis there is nothing to read: `true` at once.
    pub async fn wait_synced(&self, limit: Duration) -> bool {
        let Some(shared) = &self.inner.shared else {
            return true;
        };
        let mut synced = shared.synced.subscribe();
        tokio::time::timeout(limit, synced.wait_for(|synced| *synced))
            .await
            .is_ok_and(|result| result.is_ok())
    }
}

impl Inner {
    /// Subscribes, reads the sorted set, applies messages; after a disconnection, again, with
    /// backoff (250 ms doubling to 5 s, reset by a subscription that worked).
    async fn follow(&self) {
        let Some(shared) = &self.shared else { return };
        let mut pause = Duration::from_millis(250);
        loop {
            match self.follow_once(shared).await {
                Ok(()) => pause = Duration::from_millis(250),
                Err(err) => shared.outage.failed(&err),
            }
            shared.synced.send_replace(false);
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_secs(5));
        }
    }

    /// One subscription, until its connection ends (`Ok`) or fails to start (`Err`).
    async fn follow_once(&self, shared: &Shared) -> redis::RedisResult<()> {
        // Subscribe before reading the set: a revocation made in between is then in one or the
        // other (or both), never in neither. (Bounded: `Redis::subscribe` times out.)
        let mut messages = shared.redis.subscribe(&shared.key).await?;
        let mut connection = shared.redis.connection();
        let in_force: Vec<(String, f64)> = redis::cmd("ZRANGE")
            .arg(&shared.key)
            .arg(unix_now_ms())
            .arg("+inf")
            .arg("BYSCORE")
            .arg("WITHSCORES")
            .query_async(&mut connection)
            .await?;
        for (id, until) in in_force {
            self.revoked.insert(&id, until as u64);
        }
        // Ours back to Redis: those it did not take during an outage, and all of them if it
        // restarted empty.
        shared.share_all(&self.revoked, self.keep_for).await;
        shared.outage.succeeded();
        shared.synced.send_replace(true);

        let mut tick = tokio::time::interval(RETRY_INTERVAL);
        loop {
            tokio::select! {
                message = messages.next() => {
                    let Some(payload) = message else { return Ok(()) };
                    match serde_json::from_slice::<Vec<(String, u64)>>(&payload) {
                        Ok(entries) => {
                            for (id, until) in entries {
                                self.revoked.insert(&id, until);
                            }
                        }
                        Err(err) => tracing::warn!(error = %err, "ignored a malformed revocation message"),
                    }
                }
                _ = tick.tick() => {
                    self.revoked.purge_expired();
                    if shared.unshared.load(Ordering::Acquire) {
                        shared.share_all(&self.revoked, self.keep_for).await;
                    }
                }
            }
        }
    }
}

impl Shared {
    /// Adds `entries` to the sorted set and announces them, in one atomic round trip.
    async fn share(&self, entries: &[(String, u64)], keep_for: Duration) {
        let now = unix_now_ms();
        let Ok(payload) = serde_json::to_string(entries) else {
            return;
        };
        let mut pipe = redis::pipe();
        pipe.atomic();
        for (id, until) in entries {
            // GT: an entry never shortens one already there.
            pipe.cmd("ZADD")
                .arg(&self.key)
                .arg("GT")
                .arg(*until)
                .arg(id)
                .ignore();
        }
        pipe.cmd("ZREMRANGEBYSCORE")
            .arg(&self.key)
            .arg("-inf")
            .arg(now)
            .ignore()
            // Every entry ends within `keep_for` of now, so the set may go when it has passed.
            .cmd("PEXPIRE")
            .arg(&self.key)
            .arg(millis(keep_for))
            .ignore()
            // SPUBLISH on a cluster: the channel shares the set's name, so its slot too, which
            // a transaction there needs.
            .cmd(self.redis.publish_command())
            .arg(&self.key)
            .arg(payload)
            .ignore();
        let mut connection = self.redis.connection();
        match pipe.query_async::<()>(&mut connection).await {
            Ok(()) => {
                self.outage.succeeded();
            }
            Err(err) => {
                self.outage.failed(&err);
                self.unshared.store(true, Ordering::Release);
            }
        }
    }

    /// Shares every revocation in force here (after an outage or a resubscription).
    async fn share_all(&self, revoked: &RevokedSessions, keep_for: Duration) {
        // Cleared before the snapshot: a revocation that fails meanwhile sets it again.
        self.unshared.store(false, Ordering::Release);
        let entries = revoked.snapshot();
        if !entries.is_empty() {
            self.share(&entries, keep_for).await;
        }
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
