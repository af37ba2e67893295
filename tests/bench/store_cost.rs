//! The PostgreSQL record store against Redis (`--store-cost`), for keyed requests.
//!
//! Two servers in this process, built the same way (`TestApp::builder()`, the fixture API,
//! logging at `error`) except for where the idempotency records live: one on a private
//! `redis-server` (`redis.url`), one with no Redis and `idempotency.store = "postgres"`, its
//! records in a table of its own database on the PostgreSQL at `TEST_DATABASE_URL` (else the
//! local server). wrk runs scenarios (c) first executions (a new key per request: a claim and
//! a completion) and (d) replays (one primed key: a claim that meets the completed record)
//! against each, interleaved over the rounds, with the same checks as every other run (every
//! request of (c) executed, every request of (d) replayed, no fault).
//!
//! Reported: requests per second (medians, and the ratio PostgreSQL ÷ Redis within each
//! round), the service's CPU per request, the store server's CPU per request (redis-server's
//! from `INFO cpu`; every `postgres` process's from `/proc`) and its work per request (Redis
//! commands; PostgreSQL transactions, one per store operation). The instruction counts of the
//! same two stores are `--instructions` (subjects `first-postgres-store`,
//! `replay-postgres-store`).

use std::collections::BTreeMap;
use std::time::Instant;

use anyhow::Context as _;
use e2e::TestApp;
use e2e::fixtures::{Executions, IdempotencyFixtureApi};
use testing::database::TestDatabase;
use testing::redis::RedisServer;

use crate::redis_stats::{PostgresProbe, Probe, RedisDelta};
use crate::{
    Backend, Keys, Measurement, Options, Scenario, Server, interleaved_rounds, measure, median,
    quiet_app, report,
};

const SCENARIOS: [Scenario; 2] = [Scenario::FirstExecution, Scenario::Replay];
const STORES: [Backend; 2] = [Backend::Redis, Backend::Postgres];

pub async fn run(options: &Options) -> anyhow::Result<()> {
    let _telemetry = crate::install_logging()?;
    let started = Instant::now();
    let machine = report::Machine::describe().await;
    let postgres_server = std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|url| url.starts_with("postgres"))
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".to_owned());

    // Declared before the servers, so that it is dropped (killed) after them.
    let redis = RedisServer::start().context(
        "the comparison starts a private redis-server from PATH \
         (Debian/Ubuntu: `apt-get install -y redis-server`)",
    )?;
    let database = TestDatabase::postgres(&postgres_server).await;
    let probe = Probe::Postgres(PostgresProbe::connect(database.url()).await?);
    let executions = Executions::default();
    let on_postgres = quiet_app(TestApp::builder().database(database))
        .setting("idempotency.store", "postgres")
        .spawn_with(IdempotencyFixtureApi::new(executions.clone()))
        .await;
    let mut servers = [
        Server::start(Backend::Redis, Some(redis.url())).await?,
        Server::from_app(Backend::Postgres, on_postgres, executions, Some(probe))?,
    ];
    let mut keys = Keys::new();

    eprintln!("warming up...");
    for server in &mut servers {
        for scenario in SCENARIOS {
            measure(server, scenario, &options.warm_up(), &mut keys).await?;
        }
    }
    let results = interleaved_rounds(&mut servers, SCENARIOS, options, &mut keys).await?;
    for server in servers {
        server.app.stop().await.context("stopping a server")?;
    }
    drop(redis);

    print(options, &machine, &results, started.elapsed().as_secs_f64());
    Ok(())
}

fn scenario_name(scenario: Scenario) -> &'static str {
    match scenario {
        Scenario::FirstExecution => "first execution",
        Scenario::Replay => "replay",
        _ => scenario.label(),
    }
}

fn print(
    options: &Options,
    machine: &report::Machine,
    results: &BTreeMap<(Backend, Scenario), Vec<Measurement>>,
    elapsed_secs: f64,
) {
    let runs = |store: Backend, scenario: Scenario| -> &[Measurement] {
        results.get(&(store, scenario)).map_or(&[], Vec::as_slice)
    };
    let total = |store: Backend, scenario: Scenario| -> (RedisDelta, u64) {
        let mut total = RedisDelta::default();
        let mut requests = 0;
        for run in runs(store, scenario) {
            if let Some(delta) = &run.redis {
                total.add(delta);
            }
            requests += run.wrk.requests;
        }
        (total, requests)
    };
    println!("# The PostgreSQL record store against Redis\n");
    println!(
        "- **Date**: {}; {elapsed_secs:.0} s for the whole run\n\
         - **Machine**: {} cores ({}), load average {} at the start\n\
         - **Build**: commit {}, release profile\n\
         - **Tools**: {}; {}\n\
         - **Command**: `{}`\n\
         - **Stores**: a private redis-server; the machine's PostgreSQL (a database of its own, \
         `idempotency.store = \"postgres\"`, no Redis). Everything else about the two servers \
         is the same.\n\
         - **Load**: `wrk -t1 -c{} -d{}s`, {} rounds, interleaved; medians, and ratios taken \
         within each round.\n",
        machine.date,
        machine.cores,
        machine.cpu_model,
        machine.load_average,
        machine.commit,
        machine.wrk_version,
        machine.redis_version,
        options.command(),
        options.connections,
        options.duration.as_secs(),
        options.rounds,
    );
    println!(
        "| scenario | store | req/s | req/s by round | p99 | service CPU/request | \
         store server CPU/request | store work/request |"
    );
    println!("|---|---|---:|---|---:|---:|---:|---:|");
    for scenario in SCENARIOS {
        for store in STORES {
            let runs = runs(store, scenario);
            let (delta, requests) = total(store, scenario);
            let by_round = runs
                .iter()
                .map(|run| format!("{:.0}", run.requests_per_second()))
                .collect::<Vec<_>>()
                .join(" / ");
            let work = match store {
                Backend::Postgres => format!(
                    "{:.2} transactions",
                    delta.calls_of("transactions") as f64 / requests.max(1) as f64
                ),
                _ => format!(
                    "{:.2} commands",
                    delta.total_calls() as f64 / requests.max(1) as f64
                ),
            };
            println!(
                "| {} | {} | {:.0} | {by_round} | {:.2} ms | {:.1} µs | {:.1} µs | {work} |",
                scenario_name(scenario),
                store.name(),
                median(runs.iter().map(Measurement::requests_per_second).collect()),
                median(
                    runs.iter()
                        .map(|run| run.wrk.p99_us as f64 / 1000.0)
                        .collect()
                ),
                median(
                    runs.iter()
                        .map(|run| run.server_cpu_us_per_request)
                        .collect()
                ),
                delta.cpu_seconds * 1e6 / requests.max(1) as f64,
            );
        }
    }

    println!("\nPostgreSQL ÷ Redis:\n");
    println!(
        "| scenario | req/s, median of the rounds' ratios | by round | CPU/request (service + \
         store server), ratio of the totals |"
    );
    println!("|---|---:|---|---:|");
    for scenario in SCENARIOS {
        let redis = runs(Backend::Redis, scenario);
        let postgres = runs(Backend::Postgres, scenario);
        let ratios: Vec<f64> = postgres
            .iter()
            .zip(redis)
            .map(|(postgres, redis)| postgres.requests_per_second() / redis.requests_per_second())
            .collect();
        let cpu_per_request = |store: Backend| {
            let (delta, requests) = total(store, scenario);
            let service: f64 = runs(store, scenario)
                .iter()
                .map(|run| run.server_cpu_us_per_request * run.wrk.requests as f64)
                .sum();
            (service + delta.cpu_seconds * 1e6) / requests.max(1) as f64
        };
        println!(
            "| {} | **{:.2}** | {} | {:.2} |",
            scenario_name(scenario),
            median(ratios.clone()),
            ratios
                .iter()
                .map(|ratio| format!("{ratio:.2}"))
                .collect::<Vec<_>>()
                .join(" / "),
            cpu_per_request(Backend::Postgres) / cpu_per_request(Backend::Redis),
        );
    }
    println!(
        "\nThe PostgreSQL server is the machine's own: its CPU counts every `postgres` process, \
         so the run assumes nothing else uses it meanwhile."
    );
}
