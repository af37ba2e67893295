//! What a durable operation (every `#[idempotent]` one with a database effect, ADR 0012) costs,
//! next to one with the same effect whose answer only the store keeps.
//!
//! Both fixture operations insert one row in one database transaction (SQLite, as the service
//! runs by default; PostgreSQL with `TEST_DATABASE_URL`) and answer 201 with it; the durable
//! one also writes its answer under its key in that transaction, its last statement (nothing
//! is read). The service runs on a private Redis. wrk (one thread, 32 connections) sends, interleaved over
//! the rounds: first executions (a new key per request) and replays (one primed key) of each.
//! The medians are printed with the durable/store-only ratio of each round's pair, for
//! throughput and for the server's CPU per request.
//!
//! On PostgreSQL, the same two operations also run through a `PgPool` (the pool's own driver,
//! [`PgEffectsFixtureApi`]), each durable one compared with the store-only one of its own pool.

use anyhow::{Context as _, ensure};
use e2e::fixtures::{EffectsFixtureApi, PgEffectsFixtureApi};
use e2e::{RedisChoice, TestApp, is_replay};
use testing::database::TestDatabase;
use testing::redis::RedisServer;

use crate::wrk::{CpuTimes, Load};
use crate::{Options, median, quiet_app};

const BODY: &str = r#"{"label":"bench"}"#;

#[derive(Clone, Copy)]
struct Operation {
    name: &'static str,
    path: &'static str,
}

/// Pairs of (store-only, durable): through the service's `AnyPool`, then (on PostgreSQL)
/// through a `PgPool`.
const OPERATIONS: [Operation; 4] = [
    Operation {
        name: "store only (`outside_database`)",
        path: "/api/v1/fixtures/effects/plain",
    },
    Operation {
        name: "durable `#[idempotent]`",
        path: "/api/v1/fixtures/effects/transactional",
    },
    Operation {
        name: "store only, `PgPool`",
        path: "/api/v1/fixtures/pg-effects/plain",
    },
    Operation {
        name: "durable, `PgPool`",
        path: "/api/v1/fixtures/pg-effects/transactional",
    },
];

/// One wrk run: requests per second and the server's CPU per request.
struct Run {
    requests_per_second: f64,
    cpu_us_per_request: f64,
}

pub async fn run(options: &Options) -> anyhow::Result<()> {
    let redis = RedisServer::start().context("the study starts a private redis-server")?;
    let database = TestDatabase::create().await;
    let url = database.url().to_owned();
    let on_postgres = url.starts_with("postgres");
    let fixture = EffectsFixtureApi::connect(database.url()).await;
    let builder = quiet_app(TestApp::builder())
        .redis(RedisChoice::Url(redis.url()))
        .database(database);
    let (app, operations) = if on_postgres {
        let pg_fixture = PgEffectsFixtureApi::connect(&url).await;
        (
            builder.spawn_with((fixture, pg_fixture)).await,
            &OPERATIONS[..],
        )
    } else {
        (builder.spawn_with(fixture).await, &OPERATIONS[..2])
    };
    let nonce = uuid::Uuid::new_v4().simple().to_string();
    for &operation in operations {
        prime(&app, operation, &format!("replay-{nonce}")).await?;
    }

    // [operation][first, replay] -> runs
    let mut runs: Vec<[Vec<Run>; 2]> = operations.iter().map(|_| Default::default()).collect();
    for round in 0..options.rounds {
        for position in 0..operations.len() {
            // Alternate the order, so no operation always follows the same one.
            let index = if round % 2 == 0 {
                position
            } else {
                operations.len() - 1 - position
            };
            let operation = operations[index];
            eprintln!("round {}/{}: {}", round + 1, options.rounds, operation.name);
            let url = app.url(operation.path);
            let unique = vec![
                BODY.to_owned(),
                "unique".to_owned(),
                format!("first-{nonce}-{round}-{index}"),
            ];
            let fixed = vec![
                BODY.to_owned(),
                "fixed".to_owned(),
                format!("replay-{nonce}"),
            ];
            for (scenario, args) in [(0, &unique), (1, &fixed)] {
                runs[index][scenario].push(measure(&url, args, options).await?);
            }
        }
    }
    app.stop().await.context("stopping the server")?;
    drop(redis);

    println!("# What a durable operation costs\n");
    println!(
        "`wrk -t1 -c{} -d{}s`, {} rounds, interleaved; medians. Database: {}. Both operations \
         insert one row in one transaction; the durable one also writes its answer under its key \
         in it. On PostgreSQL each durable operation is compared with the store-only one of its \
         own pool (the service's `AnyPool`, or a `PgPool`). Redis: a private redis-server.\n",
        options.connections,
        options.duration.as_secs(),
        options.rounds,
        if std::env::var("TEST_DATABASE_URL").is_ok_and(|url| !url.is_empty()) {
            "PostgreSQL"
        } else {
            "SQLite"
        }
    );
    println!(
        "| operation | scenario | req/s | server CPU/request | req/s ratio to store-only (per round) | CPU/request ratio |"
    );
    println!("|---|---|---:|---:|---|---:|");
    for (scenario, label) in [(0, "first execution"), (1, "replay")] {
        for (index, operation) in operations.iter().enumerate() {
            let own = &runs[index][scenario];
            // Each durable operation against the store-only one of its own pool.
            let plain = &runs[index - index % 2][scenario];
            let ratios: Vec<String> = own
                .iter()
                .zip(plain)
                .map(|(own, plain)| {
                    format!("{:.2}", own.requests_per_second / plain.requests_per_second)
                })
                .collect();
            let cpu = median(own.iter().map(|r| r.cpu_us_per_request).collect());
            let plain_cpu = median(plain.iter().map(|r| r.cpu_us_per_request).collect());
            println!(
                "| {} | {label} | {:.0} | {cpu:.1} µs | {} | {:.2} |",
                operation.name,
                median(own.iter().map(|r| r.requests_per_second).collect()),
                ratios.join(" / "),
                cpu / plain_cpu
            );
        }
    }
    Ok(())
}

async fn measure(url: &str, args: &[String], options: &Options) -> anyhow::Result<Run> {
    let cpu_before = CpuTimes::now()?;
    let result = Load {
        url,
        connections: options.connections,
        duration: options.duration,
        script_args: args,
        authorization: None,
    }
    .run()
    .await?;
    let cpu = CpuTimes::now()?.own - cpu_before.own;
    ensure!(
        result.socket_errors == 0 && result.status_errors == 0 && result.requests > 0,
        "wrk against {url} ({args:?}): {result:?}"
    );
    Ok(Run {
        requests_per_second: result.requests_per_second(),
        cpu_us_per_request: cpu * 1e6 / result.requests as f64,
    })
}

/// Executes the replay scenario's request once, and checks that the next one replays.
async fn prime(app: &TestApp, operation: Operation, key: &str) -> anyhow::Result<()> {
    for expect_replay in [false, true] {
        let response = app
            .request(reqwest::Method::POST, operation.path)
            .header("Content-Type", "application/json")
            .header(poem_idempotency::IDEMPOTENCY_KEY, key)
            .body(BODY)
            .send()
            .await?;
        ensure!(
            response.status() == reqwest::StatusCode::CREATED
                && is_replay(&response) == expect_replay,
            "priming {}: {} (replay: {})",
            operation.path,
            response.status(),
            is_replay(&response)
        );
    }
    Ok(())
}
