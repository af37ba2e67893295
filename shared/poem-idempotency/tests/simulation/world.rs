//! One simulated run: what a seed decides (the [`Config`]), the shared state every simulated
//! part reads and writes (the [`World`]), and the history the invariants are checked on.
//!
//! Everything runs on one thread, in a current-thread Tokio runtime whose clock is paused: time
//! moves only when every task waits on a timer, and then straight to the next one. The state
//! sits behind one `std::sync::Mutex`, never held across an `.await`; the guard's futures must
//! be `Send`, so `Rc<RefCell>` would not do.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use bytes::Bytes;
use tokio::time::Instant;

use crate::database::Database;
use crate::rng::Rng;
use crate::store::Backend;

/// The lease on a running request in every run: short, so that runs see leases expire.
pub const LOCK_TTL: Duration = Duration::from_millis(1500);
/// When faults stop: after it, only clients finishing (and checking) their requests.
pub const HEAL_AT: Duration = Duration::from_secs(12);
/// How long after [`HEAL_AT`] every request must have its final answer.
pub const SETTLE_WITHIN: Duration = Duration::from_secs(40);

/// The two operations every instance serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Route {
    /// `#[idempotent]`: the effect and the answer committed in one database transaction.
    Durable,
    /// `#[idempotent(outside_database = ...)]`: the store's copy of the answer is the only one.
    Outside,
}

impl Route {
    pub fn path(self) -> &'static str {
        match self {
            Self::Durable => "/durable",
            Self::Outside => "/outside",
        }
    }
}

/// What a seed decides before the run starts.
#[derive(Debug, Clone)]
pub struct Config {
    /// No fault at all: no store or database fault, no crash, no stall. Clients still vanish,
    /// retry, send duplicates and reuse keys, and handlers may outlast a lease.
    pub calm: bool,
    /// Redis as a primary with a lagging replica (`true`), or the crate's own memory store.
    pub redis: bool,
    pub instances: usize,
    pub clients: usize,
    pub lock_wait: Duration,
    /// Per store operation, before healing: fails before it is applied, or is applied and its
    /// reply times out.
    pub store_error: f64,
    pub store_timeout: f64,
    /// Per database statement, before healing: fails; per commit: commits and then fails.
    pub database_error: f64,
    pub ambiguous_commit: f64,
    /// How far the Redis replica lags its primary.
    pub replication_lag: Duration,
    /// The chaos events before healing (crash, outage, failover, FLUSHALL, stall).
    pub chaos_events: usize,
    /// Before healing, the chance that an instance dies the moment the store applied one of
    /// its operations (before the reply reaches it), and the moment the database applied one
    /// of its commits: the crashes at the await points that matter most.
    pub crash_at_store_call: f64,
    pub crash_at_commit: f64,
    /// How fast each instance's clock runs against the store's and the database's (1.0: as
    /// fast). An instance's timers (renewal every third of the lease, the duplicate's wait)
    /// run on its clock; the leases it asks for run on the store's.
    pub clock_rates: Vec<f64>,
}

impl Config {
    pub fn of(rng: &mut Rng) -> Self {
        let calm = rng.chance(0.25);
        let faulty = |rng: &mut Rng, most: f64| {
            if calm {
                0.0
            } else {
                most * rng.below(101) as f64 / 100.0
            }
        };
        let instances = 2 + rng.below(2) as usize;
        let clock_rates = (0..instances)
            .map(|_| {
                if calm {
                    1.0
                } else {
                    0.6 + rng.below(81) as f64 / 100.0
                }
            })
            .collect();
        Self {
            calm,
            redis: rng.chance(0.6),
            instances,
            clients: 3 + rng.below(4) as usize,
            lock_wait: rng.millis(100, 4000),
            store_error: faulty(rng, 0.08),
            store_timeout: faulty(rng, 0.05),
            database_error: faulty(rng, 0.05),
            ambiguous_commit: faulty(rng, 0.05),
            replication_lag: rng.millis(0, 80),
            chaos_events: if calm { 0 } else { 1 + rng.below(6) as usize },
            crash_at_store_call: faulty(rng, 0.02),
            crash_at_commit: faulty(rng, 0.05),
            clock_rates,
        }
    }
}

/// One execution of a handler (an effect attempted), as the handler saw it.
#[derive(Debug, Clone)]
pub struct Execution {
    pub id: u64,
    pub route: Route,
    pub client: usize,
    pub key: String,
    pub intent: usize,
}

/// An effect that happened: a committed database row, or an outside effect done.
#[derive(Debug, Clone)]
pub struct Effect {
    pub route: Route,
    pub client: usize,
    pub key: String,
    pub execution: u64,
}

/// What one attempt of a client got.
#[derive(Debug, Clone)]
pub struct Answer {
    pub intent: usize,
    pub at: Duration,
    pub status: u16,
    pub replay: bool,
    pub content_type: Option<String>,
    pub body: Bytes,
}

/// What the store did, as the invariants on its history need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreEvent {
    /// A claim acquired the key.
    Acquired,
    /// A completion was applied (whatever its caller was then told).
    Completed,
    /// Every record may have been lost (FLUSHALL, a failover to a lagging replica).
    DataLost,
}

/// One logical request of a client: a key, a route and a body, sent until it has its answer.
#[derive(Debug, Clone)]
pub struct Intent {
    pub client: usize,
    pub intent: usize,
    pub route: Route,
    pub key: String,
}

/// The state of a run, shared by every simulated part.
pub struct State {
    pub rng: Rng,
    /// Whether the trace is written: only when it will be read (a failing seed is run again
    /// with it, and runs the same), since formatting it costs more than the rest of a run.
    pub tracing: bool,
    pub trace: Vec<(Duration, String)>,
    /// Faults are injected until healing.
    pub faulty: bool,
    pub store_down_until: Instant,
    pub database_down_until: Instant,
    /// Per instance: its store calls are held up until then (a stalled process, a frozen VM,
    /// a clock that ran slow).
    pub stalled_until: Vec<Instant>,
    pub backend: Backend,
    pub database: Database,
    pub next_execution: u64,
    pub executions: Vec<Execution>,
    pub outside_effects: Vec<Effect>,
    pub answers: Vec<Answer>,
    /// The store's history: (when, which scope key, what), data losses with no key.
    pub store_events: Vec<(Duration, Option<[u8; 32]>, StoreEvent)>,
    /// Scope keys by the name the trace gives them (`c2 /outside k1`).
    pub scope_names: BTreeMap<[u8; 32], String>,
    pub store_faults: u64,
    pub database_faults: u64,
    pub crashes: u64,
    /// The guard's own counters, of every instance that stopped.
    pub guard_metrics: Vec<poem_idempotency::MetricsSnapshot>,
}

pub struct World {
    pub config: Config,
    /// Instances that must die now (see [`World::crash_here`]).
    crashes: tokio::sync::mpsc::UnboundedSender<usize>,
    pub start: Instant,
    pub intents: Vec<Intent>,
    state: Mutex<State>,
}

impl World {
    pub fn new(
        config: Config,
        tracing: bool,
        rng: Rng,
        intents: Vec<Intent>,
        crashes: tokio::sync::mpsc::UnboundedSender<usize>,
    ) -> Arc<Self> {
        let start = Instant::now();
        let backend = Backend::new(config.redis, config.replication_lag);
        let mut scope_names = BTreeMap::new();
        for intent in &intents {
            let key = poem_idempotency::key::ClientKey::parse(&intent.key)
                .unwrap()
                .unwrap();
            let path = intent.route.path();
            for (subject, name) in [
                (
                    format!("user:c{}", intent.client),
                    format!("c{}", intent.client),
                ),
                // What a scope without its caller names (a planted bug).
                ("anon:".to_owned(), "anyone".to_owned()),
            ] {
                let scope = poem_idempotency::key::ScopeKey::derive(&subject, "POST", path, &key);
                scope_names.insert(*scope.as_bytes(), format!("{name} {path} {}", intent.key));
            }
        }
        Arc::new(Self {
            crashes,
            start,
            intents,
            state: Mutex::new(State {
                rng,
                tracing,
                trace: Vec::new(),
                faulty: !config.calm,
                store_down_until: start,
                database_down_until: start,
                stalled_until: vec![start; config.instances],
                backend,
                database: Database::default(),
                next_execution: 0,
                executions: Vec::new(),
                outside_effects: Vec::new(),
                answers: Vec::new(),
                store_events: Vec::new(),
                scope_names,
                store_faults: 0,
                database_faults: 0,
                crashes: 0,
                guard_metrics: Vec::new(),
            }),
            config,
        })
    }

    pub fn state(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Time since the run started.
    pub fn now(&self) -> Duration {
        Instant::now() - self.start
    }

    /// Before healing, with chance `chance`: `instance` dies here, at this await point of its
    /// task (which never resumes: the crash drops it).
    pub async fn crash_here(&self, instance: usize, chance: f64, at: impl FnOnce() -> String) {
        let crashes = {
            let mut state = self.state();
            state.faulty && state.rng.chance(chance)
        };
        if crashes {
            self.trace(|_| format!("CHAOS i{instance} crashes {}", at()));
            let _ = self.crashes.send(instance);
            std::future::pending::<()>().await;
        }
    }

    /// Adds a line to the run's trace.
    pub fn trace(&self, line: impl FnOnce(&State) -> String) {
        let now = self.now();
        let mut state = self.state();
        if state.tracing {
            let line = line(&state);
            state.trace.push((now, line));
        }
    }

    /// The state once the run is over.
    pub fn into_state(self: Arc<Self>) -> State {
        match Arc::try_unwrap(self) {
            Ok(world) => world
                .state
                .into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
            Err(_) => panic!("a part of the run outlived it"),
        }
    }
}

impl State {
    /// Adds a line to the trace, when it is written.
    pub fn note(&mut self, at: Duration, line: impl FnOnce() -> String) {
        if self.tracing {
            self.trace.push((at, line()));
        }
    }

    pub fn scope_name(&self, scope: &[u8; 32]) -> String {
        self.scope_names
            .get(scope)
            .cloned()
            .unwrap_or_else(|| format!("scope {}", hex::encode(&scope[..4])))
    }
}

/// The trace lines that mention any of `names`, and every fault and crash, the last `at_most`
/// of them, one a line with the simulated time.
pub fn excerpt(trace: &[(Duration, String)], names: &[String], at_most: usize) -> String {
    let relevant: Vec<&(Duration, String)> = trace
        .iter()
        .filter(|(_, line)| {
            line.starts_with("CHAOS") || names.iter().any(|name| line.contains(name.as_str()))
        })
        .collect();
    let skipped = relevant.len().saturating_sub(at_most);
    let mut out = String::new();
    if skipped > 0 {
        let _ = writeln!(out, "    ... {skipped} earlier lines");
    }
    for (at, line) in &relevant[skipped..] {
        let _ = writeln!(out, "    {:>8.3}s  {line}", at.as_secs_f64());
    }
    out
}
