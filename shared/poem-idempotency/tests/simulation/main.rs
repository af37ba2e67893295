//! The deterministic simulation of the guard (docs/adr/0021-deterministic-simulation.md): the
//! crate's own guard, as several service instances over a simulated store and database, with
//! clients, faults and crashes, in one seeded single-threaded run per seed. One seed replays
//! one run exactly; a failure prints its seed and a trace.
//!
//! - `ci_seeds_keep_every_invariant`: the seeds CI runs (10,000; `SIMULATION_SEEDS` and
//!   `SIMULATION_FROM` choose others, and `cargo xtask simulate` runs millions).
//! - one test per planted bug: found within a bounded number of seeds.
//! - `conformance::*`: the simulation's Redis model passes the store's conformance suite.
//! - `one_seed`: the seed in `SIMULATION_SEED` (with the planted bug `SIMULATION_BUG` names;
//!   `SIMULATION_TRACE=1` prints the whole run).

mod check;
mod conformance;
mod database;
mod history;
mod rng;
mod run;
mod service;
mod store;
mod world;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use poem_idempotency::planted::Bug;

use crate::check::{Failure, Stats};

/// The seeds CI runs by default.
const CI_SEEDS: u64 = 10_000;

/// Every planted bug (`one_seed` replays a seed with the one `SIMULATION_BUG` names).
const PLANTED: [Bug; 6] = [
    Bug::UnfencedCompletion,
    Bug::UnfencedRenewal,
    Bug::NoRenewal,
    Bug::ScopeWithoutCaller,
    Bug::FingerprintWithoutBody,
    Bug::DurableConflictIgnored,
];

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|value| {
        value
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a number"))
    })
}

/// Runs `count` seeds from `from` with `bug` planted, on `threads` threads; the totals of the
/// passing runs and the failures (the lowest seeds first), printing progress every
/// `progress_every` seeds when set.
fn run_seeds(
    from: u64,
    count: u64,
    bug: Option<Bug>,
    threads: usize,
    stop_at_first: bool,
    progress_every: Option<u64>,
) -> (Stats, Vec<Failure>) {
    let next = AtomicU64::new(from);
    let done = AtomicU64::new(0);
    let started = Instant::now();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let results = std::sync::Mutex::new((Stats::default(), Vec::new()));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let seed = next.fetch_add(1, Ordering::Relaxed);
                    if seed >= from + count {
                        return;
                    }
                    let outcome = run::run(seed, bug);
                    let mut results = results.lock().unwrap();
                    match outcome {
                        Ok(stats) => results.0.add(&stats),
                        Err(failure) => {
                            if stop_at_first {
                                stop.store(true, Ordering::Relaxed);
                            }
                            results.1.push(failure);
                        }
                    }
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if let Some(every) = progress_every
                        && finished.is_multiple_of(every)
                    {
                        let per_hour = finished as f64 / started.elapsed().as_secs_f64() * 3600.0;
                        eprintln!(
                            "simulated {finished} of {count} seeds, {} failed, {per_hour:.0} seeds/hour",
                            results.1.len()
                        );
                    }
                }
            });
        }
    });
    let (stats, mut failures) = results.into_inner().unwrap();
    failures.sort_by_key(|failure| failure.seed);
    (stats, failures)
}

fn threads() -> usize {
    env_u64("SIMULATION_THREADS")
        .map(|n| n as usize)
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map_or(1, usize::from)
                .min(2)
        })
}

#[test]
fn ci_seeds_keep_every_invariant() {
    let from = env_u64("SIMULATION_FROM").unwrap_or(0);
    let count = env_u64("SIMULATION_SEEDS").unwrap_or(CI_SEEDS);
    let progress = env_u64("SIMULATION_PROGRESS");
    let started = Instant::now();

    let (stats, failures) = run_seeds(from, count, None, threads(), false, progress);

    let elapsed = started.elapsed();
    eprintln!(
        "simulated seeds {from}..{}: {} passed ({} without faults) in {:.1} s, {:.0} seeds/hour; \
         {} answers, {} executions, {} store faults, {} database faults, {} crashes; \
         operations outside the database under faults: {} of {} keys executed twice ({:.2} %)",
        from + count,
        stats.runs,
        stats.calm_runs,
        elapsed.as_secs_f64(),
        count as f64 / elapsed.as_secs_f64() * 3600.0,
        stats.answers,
        stats.executions,
        stats.store_faults,
        stats.database_faults,
        stats.crashes,
        stats.outside_keys_executed_twice,
        stats.outside_keys_executed,
        100.0 * stats.outside_keys_executed_twice as f64
            / stats.outside_keys_executed.max(1) as f64,
    );
    let guard = stats.guard;
    eprintln!(
        "the guard's paths: {} executed, {} replayed ({} recovered from the database), {} conflicts, \
         {} key reuses, {} degraded (store failed), {} leases lost, {} finished after their client left",
        guard.executed,
        guard.replayed,
        guard.recovered,
        guard.conflict,
        guard.key_reuse,
        guard.degraded,
        guard.lease_lost,
        guard.completed_after_disconnect,
    );
    for failure in failures.iter().take(3) {
        eprintln!("{failure}");
    }
    assert!(
        failures.is_empty(),
        "{} of {count} seeds failed; the first: seed {}",
        failures.len(),
        failures[0].seed
    );
}

#[test]
fn one_seed_replays_exactly() {
    for seed in [1, 2, 3, 42] {
        let (first, first_trace) = run::run_keeping_trace(seed, None, true);
        let (second, second_trace) = run::run_keeping_trace(seed, None, true);

        assert!(first_trace.len() > 20, "seed {seed} did something");
        assert_eq!(first_trace, second_trace, "seed {seed} ran twice alike");
        assert_eq!(
            first.map(|stats| stats.answers).ok(),
            second.map(|stats| stats.answers).ok()
        );
    }
}

#[test]
fn one_seed() {
    let Some(seed) = env_u64("SIMULATION_SEED") else {
        return;
    };
    let bug = std::env::var("SIMULATION_BUG").ok().map(|name| {
        PLANTED
            .into_iter()
            .find(|bug| format!("{bug:?}") == name)
            .unwrap_or_else(|| panic!("SIMULATION_BUG: {name} is none of {PLANTED:?}"))
    });
    match run::run(seed, bug) {
        Ok(stats) => eprintln!("seed {seed} passed: {stats:?}"),
        Err(failure) => panic!("{failure}"),
    }
}

/// Runs seeds from 0 with `bug` planted until one fails, at most `within`; the failure.
fn first_failure_with(bug: Bug, within: u64) -> Failure {
    let (stats, failures) = run_seeds(0, within, Some(bug), 1, true, None);
    let failure = failures.into_iter().next().unwrap_or_else(|| {
        panic!(
            "{bug:?} planted, {} seeds passed: the simulation cannot see it",
            stats.runs
        )
    });
    eprintln!(
        "{bug:?} found at seed {} (of at most {within}):\n{failure}",
        failure.seed
    );
    failure
}

#[test]
fn a_completion_without_the_fencing_token_is_found() {
    first_failure_with(Bug::UnfencedCompletion, 5_000);
}

#[test]
fn a_renewal_that_ignores_the_token_is_found() {
    first_failure_with(Bug::UnfencedRenewal, 5_000);
}

#[test]
fn a_lease_that_expires_without_renewal_is_found() {
    first_failure_with(Bug::NoRenewal, 5_000);
}

#[test]
fn a_scope_without_the_caller_is_found() {
    first_failure_with(Bug::ScopeWithoutCaller, 5_000);
}

#[test]
fn a_fingerprint_without_the_body_is_found() {
    first_failure_with(Bug::FingerprintWithoutBody, 5_000);
}

#[test]
fn a_durable_conflict_ignored_is_found() {
    first_failure_with(Bug::DurableConflictIgnored, 5_000);
}
