//! The invariants, checked on a run's history once it is over.
//!
//! Always, by the history checker the partition test shares (`history.rs`):
//! - a durable operation's effect is committed at most once per key, and exactly once if any
//!   attempt got a 2xx;
//! - a durable key's 2xx answers are one answer, byte for byte (status, content type, body),
//!   naming the execution whose effect committed;
//! - no answer is another caller's, nor another body's (every answer names the request it
//!   answers);
//! - a 422 only for a key the client did reuse for another body;
//! - after healing, every intent gets its final answer (a 2xx, or that 422).
//!
//! And here, of the simulated store:
//! - the store never completes a key twice, nor lets a completed key be claimed again, unless
//!   it lost its records in between (FLUSHALL, failover).
//!
//! In runs without faults, also for operations outside the database: one execution per key,
//! one answer. With faults, their double executions are counted, not failed: failing open is
//! the documented trade (ADR 0003).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use poem_idempotency::MetricsSnapshot;
use poem_idempotency::planted::Bug;

use crate::history;
use crate::world::{Config, HEAL_AT, Intent, Route, State, StoreEvent, excerpt};

/// What a passing run adds to the totals.
#[derive(Debug, Default, Clone, Copy)]
pub struct Stats {
    pub runs: u64,
    pub calm_runs: u64,
    pub answers: u64,
    pub executions: u64,
    /// Keys of operations outside the database executed at least once in runs with faults...
    pub outside_keys_executed: u64,
    /// ...and of those, the keys executed more than once.
    pub outside_keys_executed_twice: u64,
    pub store_faults: u64,
    pub database_faults: u64,
    pub crashes: u64,
    /// The paths the guard took, by its own counters: that the runs reach each one.
    pub guard: MetricsSnapshot,
}

impl Stats {
    pub fn add(&mut self, other: &Stats) {
        self.runs += other.runs;
        self.calm_runs += other.calm_runs;
        self.answers += other.answers;
        self.executions += other.executions;
        self.outside_keys_executed += other.outside_keys_executed;
        self.outside_keys_executed_twice += other.outside_keys_executed_twice;
        self.store_faults += other.store_faults;
        self.database_faults += other.database_faults;
        self.crashes += other.crashes;
        add_metrics(&mut self.guard, &other.guard);
    }
}

/// A broken invariant: which seed, what, and the trace lines of the keys involved.
#[derive(Debug)]
pub struct Failure {
    pub seed: u64,
    /// The planted bug the run had, if any.
    pub bug: Option<Bug>,
    pub what: String,
    pub trace: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let planted = self
            .bug
            .map(|bug| format!(" SIMULATION_BUG={bug:?}"))
            .unwrap_or_default();
        write!(
            f,
            "seed {}: {}\n  \
             replay (SIMULATION_TRACE=1 prints the whole run): SIMULATION_SEED={}{planted} \
             cargo test -p poem-idempotency --features simulation --test simulation -- one_seed --exact --nocapture\n  \
             trace (simulated time; the keys involved and every fault):\n{}",
            self.seed, self.what, self.seed, self.trace
        )
    }
}

pub type Outcome = Result<Stats, Failure>;

/// A key as the invariants group requests: (operation, client, key).
type Group = (Route, usize, String);

/// A 2xx answer as a client got it: status, content type, body.
type Answered = (u16, Option<String>, Vec<u8>);

fn name(group: &Group) -> String {
    format!("c{} {} {}", group.1, group.0.path(), group.2)
}

pub fn check(seed: u64, config: &Config, intents: &[Intent], state: State) -> Outcome {
    // The trace excerpt names the keys involved, and the same key scoped to anyone (which only
    // a scope without its caller, a planted bug, makes).
    let failure = |what: String, names: &[String]| {
        Err(Failure {
            seed,
            bug: None,
            what: format!("{what} ({})", describe(config)),
            trace: excerpt(&state.trace, names, 60),
        })
    };
    let fail = |what: String, groups: &[&Group]| {
        let mut names: Vec<String> = groups.iter().map(|group| name(group)).collect();
        names.extend(
            groups
                .iter()
                .map(|group| format!("anyone {} {}", group.0.path(), group.2)),
        );
        failure(what, &names)
    };
    let group_of = |intent: usize| -> Group {
        let intent = &intents[intent];
        (intent.route, intent.client, intent.key.clone())
    };
    let groups: BTreeSet<Group> = (0..intents.len()).map(group_of).collect();

    // The guarantees every history must keep: the checker the partition test runs too.
    let history = history::History {
        intents: intents
            .iter()
            .map(|intent| history::Intent {
                id: intent.intent,
                client: intent.client,
                durable: intent.route == Route::Durable,
                key: intent.key.clone(),
                names: vec![
                    ("client", serde_json::json!(intent.client)),
                    ("intent", serde_json::json!(intent.intent)),
                ],
            })
            .collect(),
        answers: state
            .answers
            .iter()
            .map(|answer| history::Answer {
                intent: answer.intent,
                status: answer.status,
                content_type: answer.content_type.clone(),
                body: answer.body.to_vec(),
                replay: answer.replay,
                // Every request is sent again after healing, and must be answered then.
                settles: answer.at >= HEAL_AT,
            })
            .collect(),
        effects: state
            .database
            .committed_effects
            .iter()
            .filter(|effect| effect.route == Route::Durable)
            .map(|effect| history::Effect {
                group: (true, effect.client, effect.key.clone()),
                id: serde_json::json!(effect.execution),
            })
            .collect(),
        effect_field: "execution",
    };
    if let Err(violation) = history::check(&history) {
        let groups: Vec<Group> = violation
            .groups
            .iter()
            .map(|(durable, client, key)| {
                let route = if *durable {
                    Route::Durable
                } else {
                    Route::Outside
                };
                (route, *client, key.clone())
            })
            .collect();
        return fail(violation.what, &groups.iter().collect::<Vec<_>>());
    }
    // The 2xx answers of each key, for the runs without faults below.
    let mut answers_by_group: BTreeMap<Group, BTreeSet<Answered>> = BTreeMap::new();
    for answer in state
        .answers
        .iter()
        .filter(|answer| (200..300).contains(&answer.status))
    {
        answers_by_group
            .entry(group_of(answer.intent))
            .or_default()
            .insert((
                answer.status,
                answer.content_type.clone(),
                answer.body.to_vec(),
            ));
    }

    // The store's history: no second completion, no claim of a completed key, but after a loss.
    let mut completed: BTreeSet<[u8; 32]> = BTreeSet::new();
    for (at, scope, event) in &state.store_events {
        let Some(scope) = scope else {
            completed.clear();
            continue;
        };
        let broken = match event {
            StoreEvent::Acquired if completed.contains(scope) => "claimed again",
            StoreEvent::Completed if completed.contains(scope) => "completed again",
            StoreEvent::Completed => {
                completed.insert(*scope);
                continue;
            }
            _ => continue,
        };
        let named = state.scope_name(scope);
        return failure(
            format!(
                "the store let a completed key ({named}) be {broken} at {:.3}s without losing its records",
                Duration::as_secs_f64(at)
            ),
            std::slice::from_ref(&named),
        );
    }

    let mut stats = Stats {
        runs: 1,
        calm_runs: u64::from(config.calm),
        answers: state.answers.len() as u64,
        executions: state.executions.len() as u64,
        store_faults: state.store_faults,
        database_faults: state.database_faults,
        crashes: state.crashes,
        ..Stats::default()
    };
    for metrics in &state.guard_metrics {
        add_metrics(&mut stats.guard, metrics);
    }
    for group in &groups {
        let executed = state
            .executions
            .iter()
            .filter(|execution| {
                (execution.route, execution.client, &execution.key) == (group.0, group.1, &group.2)
            })
            .count();
        if config.calm {
            // Without faults, nothing excuses a second execution or a second answer.
            if executed > 1 {
                return fail(
                    format!("executed {executed} times in a run without faults"),
                    &[group],
                );
            }
            let answered = answers_by_group.get(group).map_or(0, BTreeSet::len);
            if answered > 1 {
                return fail(
                    format!("{answered} different 2xx answers in a run without faults"),
                    &[group],
                );
            }
        } else if group.0 == Route::Outside && executed > 0 {
            stats.outside_keys_executed += 1;
            stats.outside_keys_executed_twice += u64::from(executed > 1);
        }
    }
    Ok(stats)
}

fn describe(config: &Config) -> String {
    format!(
        "{}, {}, {} instances with clocks at {:?}, {} clients",
        if config.calm { "no faults" } else { "faults" },
        if config.redis {
            "Redis model"
        } else {
            "memory store"
        },
        config.instances,
        config.clock_rates,
        config.clients
    )
}

fn add_metrics(total: &mut MetricsSnapshot, more: &MetricsSnapshot) {
    total.executed += more.executed;
    total.replayed += more.replayed;
    total.conflict += more.conflict;
    total.key_reuse += more.key_reuse;
    total.degraded += more.degraded;
    total.lease_lost += more.lease_lost;
    total.completed_after_disconnect += more.completed_after_disconnect;
    total.rejected_store_unavailable += more.rejected_store_unavailable;
    total.recovered += more.recovered;
    total.durable_claims += more.durable_claims;
    total.too_large_to_keep += more.too_large_to_keep;
}
