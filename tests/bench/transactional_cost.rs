//! What `#[idempotent(transactional)]` costs, next to a plain `#[idempotent]` operation with the
//! same effect.
//!
//! Both fixture operations insert one row in one database transaction (SQLite, as the service
//! runs by default) and answer 201 with it; the transactional one also writes its answer in
//! that transaction, and its guard reads the outcomes table once when it wins a claim. The
//! service runs on a private Redis. wrk (one thread, 32 connections) sends, interleaved over
//! the rounds: first executions (a new key per request) and replays (one primed key) of each.
//! The medians are printed with the transactional/plain ratio of each round's pair.

use anyhow::{Context as _, ensure};
use e2e::fixtures::EffectsFixtureApi;
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

const OPERATIONS: [Operation; 2] = [
    Operation {
        name: "plain `#[idempotent]`",
        path: "/api/v1/fixtures/effects/plain",
    },
    Operation {
        name: "`#[idempotent(transactional)]`",
        path: "/api/v1/fixtures/effects/transactional",
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
    let fixture = EffectsFixtureApi::connect(database.url()).await;
    let app = quiet_app(TestApp::builder())
        .redis(RedisChoice::Url(redis.url()))
        .database(database)
        .spawn_with(fixture)
        .await;
    let nonce = uuid::Uuid::new_v4().simple().to_string();
    for operation in OPERATIONS {
        prime(&app, operation, &format!("replay-{nonce}")).await?;
    }

    // [operation][first, replay] -> runs
    let mut runs: [[Vec<Run>; 2]; 2] = Default::default();
    for round in 0..options.rounds {
        for position in 0..OPERATIONS.len() {
            // Alternate which operation goes first, so neither always follows the other.
            let index = if round % 2 == 0 {
                position
            } else {
                OPERATIONS.len() - 1 - position
            };
            let operation = OPERATIONS[index];
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

    println!("# What `transactional` costs\n");
    println!(
        "`wrk -t1 -c{} -d{}s`, {} rounds, interleaved; medians. Both operations insert one row \
         in one SQLite transaction; the transactional one also commits its answer there and \
         reads the outcomes table on each fresh claim. Redis: a private redis-server.\n",
        options.connections,
        options.duration.as_secs(),
        options.rounds
    );
    println!("| operation | scenario | req/s | server CPU/request | ratio to plain (per round) |");
    println!("|---|---|---:|---:|---|");
    for (scenario, label) in [(0, "first execution"), (1, "replay")] {
        for (index, operation) in OPERATIONS.iter().enumerate() {
            let own = &runs[index][scenario];
            let plain = &runs[0][scenario];
            let ratios: Vec<String> = own
                .iter()
                .zip(plain)
                .map(|(own, plain)| {
                    format!("{:.2}", own.requests_per_second / plain.requests_per_second)
                })
                .collect();
            println!(
                "| {} | {label} | {:.0} | {:.1} µs | {} |",
                operation.name,
                median(own.iter().map(|r| r.requests_per_second).collect()),
                median(own.iter().map(|r| r.cpu_us_per_request).collect()),
                ratios.join(" / ")
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
            .header(idempotency::IDEMPOTENCY_KEY, key)
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
