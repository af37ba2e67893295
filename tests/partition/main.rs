//! The guard's protocol under real network partitions, Jepsen's way (issue 47, ADR 0022).
//!
//! Three instances of the service (this binary, started again inside a network namespace each),
//! a Redis primary and replica (the service's Redis address floating to whichever is primary)
//! and a PostgreSQL server made for the run, each in its own namespace, joined by veth pairs to
//! three bridges. A second run keeps the idempotency records in PostgreSQL instead
//! (`idempotency.store = "postgres"`, no Redis). Clients, in a namespace of their own, send keyed requests to instances at
//! random and retry; a nemesis cuts links (instance ↔ Redis, instance ↔ PostgreSQL, the replica
//! from the primary), fails Redis over to its replica, kills instances and restarts them. Once
//! every fault is healed, the clients finish what they left, and the history checker
//! (`check.rs`) reads the clients' log and the database.
//!
//! Needs root (namespaces), `ip`, `nsenter`, `redis-server`, `redis-cli` and PostgreSQL's server
//! binaries. Where any is missing it is left out loudly; where every suite is required
//! (`CI=true` or `TEST_REQUIRE_ALL=1`) that fails the run. `PARTITION_SECONDS` (default 30)
//! sets how long the faults last in each run; `PARTITION_SEED` replays a nemesis schedule.
//!
//! A binary of its own without the standard test harness: the instances are this executable,
//! told by an environment variable to serve instead of test. Output follows cargo's format.

mod check;
mod clients;
// The history checker, shared with the deterministic simulation: one file, two tests.
#[path = "../../shared/poem-idempotency/tests/simulation/history.rs"]
mod history;
mod nemesis;
mod network;
mod processes;

use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use e2e::fixtures::EffectsFixtureApi;
use infra::settings::Environment;

use crate::clients::{Client, Log};
use crate::nemesis::{CLIENTS_NODE, Cluster, Store};
use crate::network::Net;
use crate::processes::{Postgres, REDIS_ADDRESS_HOST, SERVICE_PORT};

/// Set in an instance: its node's name.
pub const CHILD: &str = "PARTITION_TEST_CHILD";
/// Set in an instance: where it keeps idempotency records ([`Store::name`]).
pub const STORE: &str = "PARTITION_TEST_STORE";
/// How many clients send at once.
const CLIENTS: usize = 6;

const TESTS: [&str; 3] = [
    "the_checker_refuses_each_planted_history",
    "partitions_failovers_and_kills_break_no_invariant",
    "partitions_and_kills_with_the_store_in_postgresql_break_no_invariant",
];

fn main() -> ExitCode {
    if let Ok(node) = std::env::var(CHILD) {
        return serve(&node);
    }
    let mut run = testing::harness::Run::start(TESTS.len());
    for name in TESTS {
        if !run.chosen(name) {
            continue;
        }
        // On a thread named after the test, as the standard harness runs one: a suite left out
        // names the test by its thread.
        let outcome = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || match name {
                "the_checker_refuses_each_planted_history" => check::check_the_checker(),
                "partitions_failovers_and_kills_break_no_invariant" => {
                    partition_test(Store::RedisPair)
                }
                _ => partition_test(Store::Postgres),
            })
            .expect("a thread for the test")
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("the test panicked")));
        run.record(name, outcome.map_err(|err| format!("{err:#}")));
    }
    run.finish()
}

fn partition_test(store: Store) -> anyhow::Result<()> {
    if !testing::tools::Suite::Partition.runs_here() {
        return Ok(());
    }
    network::sweep_stale_namespaces();
    let prefix = format!("{}{}", network::PREFIX, std::process::id());
    let why_not = network::why_namespaces_are_not_permitted(&prefix)
        .or_else(processes::missing_postgres_server);
    if let Some(why) = why_not {
        if testing::tools::every_suite_required() {
            anyhow::bail!(
                "the partition test needs {why}; every suite is required here (CI or \
                 TEST_REQUIRE_ALL is set)"
            );
        }
        testing::tools::say(&format!(
            "\n==================== SUITE LEFT OUT: partition ====================\n\
             LEFT OUT partitions_failovers_and_kills_break_no_invariant (suite `partition`, \
             tests/partition): needs {why}\n\
             ====================================================================\n"
        ));
        return Ok(());
    }
    let seconds: u64 = std::env::var("PARTITION_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let seed: u64 = std::env::var("PARTITION_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |t| t.as_nanos() as u64)
        });
    println!(
        "partition test, records in {}: PARTITION_SEED={seed} PARTITION_SECONDS={seconds}",
        store.name()
    );
    let dir = tempfile::Builder::new().prefix("partition-").tempdir()?;
    let mut cluster = Cluster::build(&prefix, dir.path(), store)?;
    // From here on this process is a client: its sockets are the clients' namespace's.
    cluster.lab.namespace(CLIENTS_NODE).enter()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let database = runtime.block_on(prepare_database())?;
    // The first instance migrates the database alone; the others find it done.
    for index in 0..cluster.instances.len() {
        cluster.start_and_wait(index, Duration::from_secs(60))?;
    }

    let log = Arc::new(Mutex::new(Log::default()));
    let started = Instant::now();
    let until = started + Duration::from_secs(seconds);
    let endpoints = cluster.endpoints();
    let (nemesis, left) = std::thread::scope(|scope| {
        let nemesis = scope.spawn(|| cluster.rage(seed, started, until));
        let left = runtime.block_on(async {
            let mut clients = Vec::new();
            for number in 0..CLIENTS {
                let mut client = Client::new(number, seed, endpoints.clone(), log.clone(), started);
                clients.push(tokio::spawn(async move {
                    let left = client.run_until(until).await;
                    (client, left)
                }));
            }
            let mut all = Vec::new();
            for client in clients {
                all.push(client.await.expect("a client"));
            }
            all
        });
        (nemesis.join().expect("the nemesis"), left)
    });
    let healed = started.elapsed();
    cluster.all_serving(Duration::from_secs(60))?;
    let settle_until = Instant::now() + Duration::from_secs(90);
    runtime.block_on(async {
        let settling: Vec<_> = left
            .into_iter()
            .map(|(mut client, left)| {
                tokio::spawn(async move { client.settle(left, settle_until).await })
            })
            .collect();
        for client in settling {
            client.await.expect("a client");
        }
    });

    let effects = runtime.block_on(read_effects(&database))?;
    let log = std::mem::take(&mut *log.lock().expect("the log"));
    let history = check::History {
        intents: log.intents,
        answers: log.answers,
        effects,
    };
    let mut trace: Vec<String> = log.lines.into_iter().chain(nemesis.trace).collect();
    trace.sort_by(|a, b| time_of(a).total_cmp(&time_of(b)));
    match check::check(&history) {
        Ok(totals) => {
            println!(
                "partition test, records in {}, seed {seed}: {} intents ({} durable keys, {} outside the \
                 database), {} attempts ({} without an answer), {} replays, statuses {:?}; \
                 faults over {:.0} s: {:?}{}; \
                 outside-the-database keys executed twice: {} of {}",
                store.name(),
                history.intents.len(),
                totals.durable_keys,
                totals.outside_keys,
                log.attempts,
                log.attempts_without_answer,
                totals.replays,
                totals.statuses,
                healed.as_secs_f64(),
                nemesis.counts,
                cluster
                    .redis
                    .as_ref()
                    .map_or(String::new(), |redis| format!(
                        "; Redis keys on the primary at the end: {}",
                        redis.keys_on_primary(&cluster.lab)
                    )),
                totals.outside_keys_executed_twice,
                totals.outside_keys,
            );
            Ok(())
        }
        Err(violation) => {
            let of_the_keys = |line: &String| {
                violation
                    .keys
                    .iter()
                    .any(|key| line.contains(&format!(" {key} ")))
            };
            // The faults from 5 s before the keys' first attempt to 5 s after their last.
            let times: Vec<f64> = trace
                .iter()
                .filter(|line| of_the_keys(line))
                .map(|line| time_of(line))
                .collect();
            let first = times.iter().copied().fold(f64::INFINITY, f64::min) - 5.0;
            let last = times.iter().copied().fold(f64::NEG_INFINITY, f64::max) + 5.0;
            let involved: Vec<&String> = trace
                .iter()
                .filter(|line| {
                    of_the_keys(line)
                        || (line.contains("nemesis:") && (first..=last).contains(&time_of(line)))
                })
                .collect();
            let logs: Vec<String> = cluster
                .instances
                .iter()
                .map(|instance| {
                    format!(
                        "--- {} (last lines)\n{}",
                        instance.node,
                        instance.log_tail()
                    )
                })
                .collect();
            anyhow::bail!(
                "seed {seed}: {}\n  replay the schedule: PARTITION_SEED={seed} cargo test -p e2e \
                 --test partition\n  trace (the keys involved, and every fault from 5 s before \
                 to 5 s after):\n{}\n{}",
                violation.what,
                involved
                    .iter()
                    .map(|line| format!("    {line}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
                logs.join("\n")
            )
        }
    }
}

/// The seconds a trace line starts with.
fn time_of(line: &str) -> f64 {
    line.trim_start()
        .split('s')
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0.0)
}

/// Waits for PostgreSQL and makes the effects table before any instance could race to.
async fn prepare_database() -> anyhow::Result<sqlx::PgPool> {
    let deadline = Instant::now() + Duration::from_secs(30);
    let pool = loop {
        match sqlx::postgres::PgPoolOptions::new()
            .max_connections(2)
            .connect(&Postgres::url())
            .await
        {
            Ok(pool) => break pool,
            Err(err) if Instant::now() > deadline => {
                anyhow::bail!("the run's PostgreSQL did not answer: {err}")
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    };
    sqlx::query(
        "CREATE TABLE IF NOT EXISTS fixture_effects (id TEXT PRIMARY KEY, label TEXT NOT NULL)",
    )
    .execute(&pool)
    .await?;
    Ok(pool)
}

async fn read_effects(pool: &sqlx::PgPool) -> anyhow::Result<Vec<check::Effect>> {
    let rows: Vec<(String, String)> = sqlx::query_as("SELECT id, label FROM fixture_effects")
        .fetch_all(pool)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(id, label)| check::Effect { id, label })
        .collect())
}

/// An instance: serves the effects fixture with every module, on the Redis address and the
/// PostgreSQL server of the run, until killed.
fn serve(node: &str) -> ExitCode {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    runtime.block_on(async {
        let database_url = Postgres::url();
        let redis_url = format!("redis://{}:6379", Net::Redis.address(REDIS_ADDRESS_HOST));
        let port = SERVICE_PORT.to_string();
        let in_postgres = std::env::var(STORE).is_ok_and(|store| store == Store::Postgres.name());
        let (redis_url, store) = match in_postgres {
            true => (String::new(), "postgres"),
            false => (redis_url, "redis"),
        };
        let overrides = [
            ("server.host", "0.0.0.0"),
            ("server.port", port.as_str()),
            ("database.url", database_url.as_str()),
            ("database.max_connections", "8"),
            ("redis.url", redis_url.as_str()),
            ("redis.key_prefix", "partition:"),
            ("idempotency.store", store),
            // A short lease, so that a claim stranded by a cut or a kill lapses within the run.
            ("idempotency.lock_ttl", "2s"),
            ("idempotency.lock_wait", "1500ms"),
            ("telemetry.log_level", "warn"),
        ];
        let settings = match app::config::load_with(Environment::Test, &overrides) {
            Ok(settings) => settings,
            Err(err) => {
                eprintln!("{node}: settings: {err}");
                return ExitCode::FAILURE;
            }
        };
        let fixture = EffectsFixtureApi::connect(&database_url).await;
        let application = match app::Application::build_with(settings, fixture).await {
            Ok(application) => application,
            Err(err) => {
                eprintln!("{node}: did not start: {err:#}");
                return ExitCode::FAILURE;
            }
        };
        eprintln!("{node}: serving on {}", application.local_addr());
        match application.run_until(std::future::pending()).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("{node}: {err}");
                ExitCode::FAILURE
            }
        }
    })
}
