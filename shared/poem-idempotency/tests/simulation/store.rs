//! The simulated record store behind the crate's `RecordStore` trait: latency, errors, replies
//! that time out after the operation was applied, outages, FLUSHALL, and instances whose calls
//! stall; over either a model of Redis (a primary whose writes reach a replica after a lag, and
//! a failover to that replica, which loses what had not reached it) or the crate's own
//! `MemoryStore` (where the planted store bugs live).
//!
//! The Redis model keeps the semantics the conformance suite defines and the Redis store's
//! scripts implement: a claim is one atomic check-and-set, and complete, release and renew act
//! only on the record of the caller's token. Expiry is by the store's clock (the simulated
//! one): a lease or retention is a duration from the moment the store applies it, as `PX` is.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use poem_idempotency::store::{
    Claim, Fingerprint, LeaseToken, MemoryStore, RecordStore, ScopeKey, StoreError, StoredResponse,
};
use tokio::time::Instant;

use crate::world::{StoreEvent, World};

type Key = [u8; 32];

#[derive(Clone)]
enum Held {
    InProgress(LeaseToken),
    Completed(StoredResponse),
}

#[derive(Clone)]
struct Record {
    fingerprint: Key,
    expires_at: Instant,
    held: Held,
}

/// Redis as one primary and its replica.
pub struct RedisModel {
    primary: BTreeMap<Key, Record>,
    replica: BTreeMap<Key, Record>,
    /// Writes applied on the primary, not yet on the replica: (when, key, the record or none).
    unreplicated: VecDeque<(Instant, Key, Option<Record>)>,
    lag: Duration,
    next_token: u64,
}

impl RedisModel {
    fn live(&self, key: &Key, now: Instant) -> Option<&Record> {
        self.primary
            .get(key)
            .filter(|record| record.expires_at > now)
    }

    fn write(&mut self, key: Key, record: Option<Record>, now: Instant) {
        match &record {
            Some(record) => self.primary.insert(key, record.clone()),
            None => self.primary.remove(&key),
        };
        self.unreplicated.push_back((now, key, record));
    }

    /// The replica catches up with every write at least the lag old.
    fn replicate(&mut self, now: Instant) {
        while let Some((at, ..)) = self.unreplicated.front() {
            if *at + self.lag > now {
                break;
            }
            let (_, key, record) = self.unreplicated.pop_front().expect("just seen");
            match record {
                Some(record) => self.replica.insert(key, record),
                None => self.replica.remove(&key),
            };
        }
    }

    fn claimed_by(&self, key: &Key, token: &LeaseToken, now: Instant) -> Option<Record> {
        self.live(key, now)
            .filter(|record| matches!(&record.held, Held::InProgress(owner) if owner == token))
            .cloned()
    }
}

/// Where the records are.
pub enum Backend {
    Redis(RedisModel),
    /// The crate's memory store (shared so that a call can run without the world's lock).
    Memory(Arc<MemoryStore>),
}

impl Backend {
    pub fn new(redis: bool, lag: Duration) -> Self {
        if redis {
            Self::Redis(RedisModel {
                primary: BTreeMap::new(),
                replica: BTreeMap::new(),
                unreplicated: VecDeque::new(),
                lag,
                next_token: 0,
            })
        } else {
            Self::Memory(fresh_memory_store())
        }
    }

    /// FLUSHALL: every record gone, on the primary and (replicated) on the replica.
    pub fn flush_all(&mut self) {
        match self {
            Self::Redis(redis) => {
                redis.primary.clear();
                redis.replica.clear();
                redis.unreplicated.clear();
            }
            Self::Memory(memory) => *memory = fresh_memory_store(),
        }
    }

    /// The primary fails and its replica takes over, without the writes it had not received.
    /// `false` for the memory store, which has no replica.
    pub fn fail_over(&mut self, now: Instant) -> bool {
        let Self::Redis(redis) = self else {
            return false;
        };
        redis.replicate(now);
        redis.unreplicated.clear();
        redis.primary = redis.replica.clone();
        true
    }
}

fn fresh_memory_store() -> Arc<MemoryStore> {
    // Far larger than a run: nothing is ever evicted.
    Arc::new(MemoryStore::new(1 << 16, 1 << 28))
}

/// One store operation, as an instance asks for it.
enum Operation<'a> {
    Claim(&'a Fingerprint, Duration),
    Complete(&'a LeaseToken, &'a StoredResponse, Duration),
    Release(&'a LeaseToken),
    Renew(&'a LeaseToken, Duration),
}

impl Operation<'_> {
    fn name(&self) -> &'static str {
        match self {
            Self::Claim(..) => "claim",
            Self::Complete(..) => "complete",
            Self::Release(..) => "release",
            Self::Renew(..) => "renew",
        }
    }
}

enum Reply {
    Claim(Claim),
    Done(bool),
}

/// How an operation fails, decided when it is sent.
#[derive(PartialEq)]
enum Fault {
    None,
    /// Refused before it reached the store (connection refused, an outage).
    Refused,
    /// Applied, and its reply lost (a timeout).
    TimedOut,
}

/// The store as one instance sees it.
pub struct SimulatedStore {
    pub world: Arc<World>,
    pub instance: usize,
}

impl SimulatedStore {
    /// A duration the instance's settings give (a lease, a retention), as the store measures
    /// it. The instance was configured in its own clock's time (see `service::Fleet::start`),
    /// so that its timers run at its clock's rate; the store measures the number it is sent in
    /// its own.
    fn in_store_time(&self, duration: Duration) -> Duration {
        duration.mul_f64(self.world.config.clock_rates[self.instance])
    }

    async fn call(&self, key: &ScopeKey, operation: Operation<'_>) -> Result<Reply, StoreError> {
        let (latency, fault) = {
            let mut state = self.world.state();
            let now = Instant::now();
            let state = &mut *state;
            let rng = &mut state.rng;
            let mut latency = rng.millis(0, 4);
            let mut fault = Fault::None;
            if state.faulty {
                if rng.chance(0.02) {
                    latency += rng.millis(10, 400);
                }
                if state.stalled_until[self.instance] > now {
                    latency += state.stalled_until[self.instance] - now;
                }
                if state.store_down_until > now || rng.chance(self.world.config.store_error) {
                    fault = Fault::Refused;
                } else if rng.chance(self.world.config.store_timeout) {
                    fault = Fault::TimedOut;
                }
            }
            (latency, fault)
        };
        tokio::time::sleep(latency / 2).await;
        let name = operation.name();
        if fault == Fault::Refused {
            self.world.state().store_faults += 1;
            self.world.trace(|state| {
                format!(
                    "i{} store {name} {}: refused",
                    self.instance,
                    state.scope_name(key.as_bytes())
                )
            });
            return Err(StoreError::Unavailable("simulated: refused".to_owned()));
        }
        // Traced when applied, which is when it counts; a lost reply is traced when lost.
        let reply = self.apply(key, operation).await;
        let shown = match &reply {
            Reply::Claim(Claim::Acquired(_)) => "acquired".to_owned(),
            Reply::Claim(Claim::Completed(_)) => "completed".to_owned(),
            Reply::Claim(claim) => format!("{claim:?}").to_lowercase(),
            Reply::Done(done) => done.to_string(),
        };
        self.world.trace(|state| {
            format!(
                "i{} store {name} {}: {shown}",
                self.instance,
                state.scope_name(key.as_bytes())
            )
        });
        let chance = self.world.config.crash_at_store_call;
        let at = || format!("right after the store applied its {name}");
        self.world.crash_here(self.instance, chance, at).await;
        tokio::time::sleep(latency - latency / 2).await;
        if fault == Fault::TimedOut {
            self.world.state().store_faults += 1;
            self.world.trace(|state| {
                format!(
                    "i{} store {name} {}: reply lost, timed out",
                    self.instance,
                    state.scope_name(key.as_bytes())
                )
            });
            return Err(StoreError::Unavailable("simulated: timed out".to_owned()));
        }
        Ok(reply)
    }

    /// Applies `operation` at this instant, and records what the invariants need.
    async fn apply(&self, key: &ScopeKey, operation: Operation<'_>) -> Reply {
        let now = Instant::now();
        let at = self.world.now();
        let scope = *key.as_bytes();
        let memory = {
            let mut state = self.world.state();
            match &mut state.backend {
                Backend::Memory(memory) => Arc::clone(memory),
                Backend::Redis(redis) => {
                    redis.replicate(now);
                    let reply = apply_to_redis(redis, &scope, &operation, now);
                    record(&mut state.store_events, at, scope, &operation, &reply);
                    return reply;
                }
            }
        };
        // The memory store's futures finish when first polled: nothing else runs meanwhile.
        let reply = match &operation {
            Operation::Claim(fingerprint, lease) => {
                Reply::Claim(memory.claim(key, fingerprint, *lease).await.expect("room"))
            }
            Operation::Complete(token, response, retention) => Reply::Done(
                memory
                    .complete(key, token, response, *retention)
                    .await
                    .expect("room"),
            ),
            Operation::Release(token) => Reply::Done(memory.release(key, token).await.expect("ok")),
            Operation::Renew(token, lease) => {
                Reply::Done(memory.renew(key, token, *lease).await.expect("ok"))
            }
        };
        record(
            &mut self.world.state().store_events,
            at,
            scope,
            &operation,
            &reply,
        );
        reply
    }
}

fn record(
    events: &mut Vec<(Duration, Option<Key>, StoreEvent)>,
    at: Duration,
    scope: Key,
    operation: &Operation<'_>,
    reply: &Reply,
) {
    let event = match (operation, reply) {
        (Operation::Claim(..), Reply::Claim(Claim::Acquired(_))) => StoreEvent::Acquired,
        (Operation::Complete(..), Reply::Done(true)) => StoreEvent::Completed,
        _ => return,
    };
    events.push((at, Some(scope), event));
}

fn apply_to_redis(
    redis: &mut RedisModel,
    key: &Key,
    operation: &Operation<'_>,
    now: Instant,
) -> Reply {
    match *operation {
        Operation::Claim(fingerprint, lease) => {
            if let Some(record) = redis.live(key, now) {
                if record.fingerprint != *fingerprint.as_bytes() {
                    return Reply::Claim(Claim::Mismatch);
                }
                return Reply::Claim(match &record.held {
                    Held::InProgress(_) => Claim::InFlight,
                    Held::Completed(response) => Claim::Completed(response.clone()),
                });
            }
            // Tokens are counted, not random: a run's store is the same every time.
            redis.next_token += 1;
            let mut bytes = [0; 16];
            bytes[8..].copy_from_slice(&redis.next_token.to_be_bytes());
            let token = LeaseToken::from_bytes(bytes);
            let record = Record {
                fingerprint: *fingerprint.as_bytes(),
                expires_at: now + lease,
                held: Held::InProgress(token.clone()),
            };
            redis.write(*key, Some(record), now);
            Reply::Claim(Claim::Acquired(token))
        }
        Operation::Complete(token, response, retention) => {
            let Some(mut record) = redis.claimed_by(key, token, now) else {
                return Reply::Done(false);
            };
            record.held = Held::Completed(response.clone());
            record.expires_at = now + retention;
            redis.write(*key, Some(record), now);
            Reply::Done(true)
        }
        Operation::Release(token) => {
            if redis.claimed_by(key, token, now).is_none() {
                return Reply::Done(false);
            }
            redis.write(*key, None, now);
            Reply::Done(true)
        }
        Operation::Renew(token, lease) => {
            let Some(mut record) = redis.claimed_by(key, token, now) else {
                return Reply::Done(false);
            };
            record.expires_at = now + lease;
            redis.write(*key, Some(record), now);
            Reply::Done(true)
        }
    }
}

impl RecordStore for SimulatedStore {
    fn name(&self) -> &'static str {
        "simulated"
    }

    async fn claim(
        &self,
        key: &ScopeKey,
        fingerprint: &Fingerprint,
        lease: Duration,
    ) -> Result<Claim, StoreError> {
        let lease = self.in_store_time(lease);
        match self.call(key, Operation::Claim(fingerprint, lease)).await? {
            Reply::Claim(claim) => Ok(claim),
            Reply::Done(_) => unreachable!("a claim answers a claim"),
        }
    }

    async fn complete(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        response: &StoredResponse,
        retention: Duration,
    ) -> Result<bool, StoreError> {
        let retention = self.in_store_time(retention);
        done(
            self.call(key, Operation::Complete(token, response, retention))
                .await,
        )
    }

    async fn release(&self, key: &ScopeKey, token: &LeaseToken) -> Result<bool, StoreError> {
        done(self.call(key, Operation::Release(token)).await)
    }

    async fn renew(
        &self,
        key: &ScopeKey,
        token: &LeaseToken,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let lease = self.in_store_time(lease);
        done(self.call(key, Operation::Renew(token, lease)).await)
    }
}

fn done(reply: Result<Reply, StoreError>) -> Result<bool, StoreError> {
    match reply? {
        Reply::Done(done) => Ok(done),
        Reply::Claim(_) => unreachable!("only a claim answers a claim"),
    }
}
