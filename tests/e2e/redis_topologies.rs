//! Redis by topology: a single node with a password or over TLS, and a Redis Cluster — the
//! settings that choose them, what the service refuses at start-up, and a failover under load.
//!
//! The suites written against the shared Redis (idempotency, rate limits, revocations, the
//! notification stream) run on the cluster too: CI runs them again with `TEST_REDIS=cluster`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};
use testing::tools::Suite;

use e2e::fixtures::{EffectsFixtureApi, Executions, IdempotencyFixtureApi};
use e2e::{RedisChoice, TestApp, TestAppBuilder, WithIdempotencyKey, is_replay};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use testing::database::TestDatabase;
use testing::redis::RedisServer;
use testing::redis_cluster::{RedisCluster, shared_redis_cluster};

const COUNTED: &str = "/api/v1/fixtures/idem/counted";
/// Durable: its effect (a row labelled with the key) and its answer are committed together.
const DURABLE: &str = "/api/v1/fixtures/effects/transactional";

async fn readiness(app: &TestApp) -> Value {
    let response = app.get("/health/ready").await;
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

/// Sends one keyed request: its status, whether it was a replay, and which execution answered.
async fn send_keyed(app: &TestApp, key: &str) -> (StatusCode, bool, Option<u64>) {
    let response = app
        .request(Method::POST, COUNTED)
        .idempotency_key(key)
        .json(&json!({ "key": key }))
        .send()
        .await
        .expect("the service answers");
    let status = response.status();
    let replayed = is_replay(&response);
    let body: Value = response.json().await.unwrap_or(Value::Null);
    (status, replayed, body["execution"].as_u64())
}

/// Sends one keyed request to the durable fixture: its status, whether it was a replay, and the
/// effect's id.
async fn send_durable(app: &TestApp, key: &str) -> (StatusCode, bool, Option<String>) {
    let response = app
        .request(Method::POST, DURABLE)
        .idempotency_key(key)
        .json(&json!({ "label": key }))
        .send()
        .await
        .expect("the service answers");
    let status = response.status();
    let replayed = is_replay(&response);
    let body: Value = response.json().await.unwrap_or(Value::Null);
    (status, replayed, body["id"].as_str().map(str::to_owned))
}

fn on_shared_cluster() -> TestAppBuilder {
    TestApp::builder().redis(RedisChoice::Cluster(shared_redis_cluster().seed_urls()))
}

// ---- A Redis Cluster ----------------------------------------------------------------------

#[tokio::test]
async fn readiness_reports_a_cluster_that_serves_every_slot() {
    testing::needs_tools_of!(Suite::RedisCluster);
    let app = on_shared_cluster().spawn().await;

    let body = readiness(&app).await;

    assert_eq!(body["status"], "ok");
    assert_eq!(body["redis"], "ok");
    assert_eq!(body["redisTopology"], "cluster");
}

#[tokio::test]
async fn readiness_names_a_single_node() {
    let app = TestApp::builder().redis(RedisChoice::Shared).spawn().await;

    let body = readiness(&app).await;

    let expected = match e2e::shared_redis_topology() {
        infra::redis::Topology::Node(_) => "node",
        infra::redis::Topology::Cluster(_) => "cluster",
    };
    assert_eq!(body["redisTopology"], expected);
}

#[tokio::test]
async fn keys_on_every_master_are_replayed_on_a_cluster() {
    testing::needs_tools_of!(Suite::RedisCluster);
    let executions = Executions::default();
    let app = e2e::spawn_with_idempotency_fixtures(on_shared_cluster(), &executions).await;
    let keys: Vec<String> = (0..24).map(|n| format!("spread-{n}")).collect();

    for key in &keys {
        let (status, replayed, _) = send_keyed(&app, key).await;
        assert_eq!((status, replayed), (StatusCode::CREATED, false), "{key}");
    }
    for key in &keys {
        let (status, replayed, _) = send_keyed(&app, key).await;
        assert_eq!((status, replayed), (StatusCode::CREATED, true), "{key}");
    }

    assert_eq!(executions.count(), keys.len() as u64);
    let masters_with_records = records_per_master(&app).await;
    assert_eq!(
        masters_with_records, 3,
        "24 keys spread over the three masters' slots"
    );
}

/// A connection to the shared cluster, to inspect or disturb it.
async fn shared_cluster_connection() -> infra::redis::RedisConnection {
    e2e::redis_connection(infra::redis::Topology::Cluster(
        shared_redis_cluster().seed_urls(),
    ))
    .await
}

/// How many masters of the shared cluster hold some of `app`'s idempotency records.
async fn records_per_master(app: &TestApp) -> usize {
    let cluster = shared_redis_cluster();
    let mut connection = shared_cluster_connection().await;
    // KEYS asks every master and joins their answers.
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{}idempotency:*", app.namespace))
        .query_async(&mut connection)
        .await
        .expect("KEYS");
    assert!(!keys.is_empty(), "the records are on the cluster");
    let mut holding = std::collections::HashSet::new();
    for key in keys {
        holding.insert(
            cluster
                .master_for_key(&key)
                .expect("a master owns every slot"),
        );
    }
    holding.len()
}

#[tokio::test]
async fn scripts_flushed_from_every_node_are_loaded_again_on_first_use() {
    testing::needs_tools_of!(Suite::RedisCluster);
    let executions = Executions::default();
    let app = e2e::spawn_with_idempotency_fixtures(on_shared_cluster(), &executions).await;
    assert_eq!(send_keyed(&app, "before").await.0, StatusCode::CREATED);

    // As after a node restarts empty, or a failover to a replica that never saw the scripts.
    let mut redis = shared_cluster_connection().await;
    let _: () = redis::cmd("SCRIPT")
        .arg("FLUSH")
        .query_async(&mut redis)
        .await
        .expect("SCRIPT FLUSH on every node");
    let loads_before = script_loads();

    let first = send_keyed(&app, "after").await;
    let replay = send_keyed(&app, "after").await;

    assert_eq!((first.0, first.1), (StatusCode::CREATED, false));
    assert_eq!((replay.0, replay.1), (StatusCode::CREATED, true));
    assert_eq!(
        app.idempotency.metrics().degraded,
        0,
        "NOSCRIPT is not an outage"
    );
    assert!(
        script_loads() > loads_before,
        "the flushed scripts were loaded again"
    );
}

/// `SCRIPT LOAD`s the shared cluster's nodes have run, in all.
fn script_loads() -> u64 {
    shared_redis_cluster()
        .commandstats()
        .expect("INFO commandstats")
        .iter()
        .filter_map(|(_, calls)| calls.get("script|load"))
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_with_a_master_down_at_start_up_is_served_not_refused() {
    testing::needs_tools_of!(Suite::RedisCluster);
    let mut cluster = RedisCluster::start().expect("a private Redis Cluster");
    let down = cluster.masters().expect("CLUSTER NODES")[0].port;
    cluster.stop_node(down);
    let executions = Executions::default();
    let builder = TestApp::builder().redis(RedisChoice::Cluster(cluster.seed_urls()));

    let app = e2e::spawn_with_idempotency_fixtures(builder, &executions).await;

    // Keys on every master's slots, the stopped one's included: answered, failing open there
    // until its replica takes over.
    for n in 0..12 {
        let (status, _, _) = send_keyed(&app, &format!("while-down-{n}")).await;
        assert_eq!(status, StatusCode::CREATED);
    }
    assert_eq!(executions.count(), 12);
}

#[tokio::test]
async fn setting_both_a_node_and_cluster_nodes_stops_start_up_naming_both() {
    let error = TestApp::builder()
        .redis(RedisChoice::Shared)
        .setting("redis.url", "redis://127.0.0.1:6379")
        .setting("redis.cluster_nodes", "redis://127.0.0.1:7000")
        .start_up_error()
        .await;

    assert!(error.contains("redis.url"), "{error}");
    assert!(error.contains("redis.cluster_nodes"), "{error}");
}

#[tokio::test]
async fn cluster_nodes_mixing_tls_and_plain_stop_start_up() {
    let error = TestApp::builder()
        .setting(
            "redis.cluster_nodes",
            "redis://127.0.0.1:7000,rediss://127.0.0.1:7001",
        )
        .start_up_error()
        .await;

    assert!(error.contains("redis.cluster_nodes"), "{error}");
}

#[tokio::test]
async fn a_response_timeout_longer_than_the_lock_wait_stops_start_up() {
    let error = TestApp::builder()
        .redis(RedisChoice::Shared)
        .setting("idempotency.lock_wait", "2s")
        .setting("redis.response_timeout", "3s")
        .start_up_error()
        .await;

    assert!(error.contains("redis.response_timeout"), "{error}");
    assert!(error.contains("idempotency.lock_wait"), "{error}");
}

// ---- Credentials and TLS on a single node -------------------------------------------------

const PASSWORD: &str = "correct-horse-battery-staple";

#[tokio::test]
async fn a_password_in_the_url_reaches_a_protected_redis() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let redis = RedisServer::start_with_password(PASSWORD).expect("a private redis-server");

    let app = TestApp::builder()
        .redis(RedisChoice::Url(redis.url()))
        .spawn()
        .await;

    assert_eq!(readiness(&app).await["redis"], "ok");
}

#[tokio::test]
async fn redis_password_supplies_the_password_a_url_leaves_out() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let redis = RedisServer::start_with_password(PASSWORD).expect("a private redis-server");

    let app = TestApp::builder()
        .redis(RedisChoice::Url(redis.url_without_password()))
        .setting("redis.password", PASSWORD)
        .spawn()
        .await;

    assert_eq!(readiness(&app).await["redis"], "ok");
}

#[tokio::test]
async fn a_wrong_password_stops_start_up_naming_redis_url_and_never_printing_it() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let redis = RedisServer::start_with_password(PASSWORD).expect("a private redis-server");
    let wrong = "not-the-password-42";
    let url = redis.url().replace(PASSWORD, wrong);
    let logs = e2e::CapturedLogs::install();

    let error = TestApp::builder()
        .redis(RedisChoice::Url(url))
        .start_up_error()
        .await;

    assert!(error.contains("redis.url"), "{error}");
    assert!(!error.contains(wrong), "the password was printed: {error}");
    assert!(
        logs.all().iter().all(|line| !line.contains(wrong)),
        "the password was logged"
    );
}

#[tokio::test]
async fn a_wrong_password_in_redis_password_is_refused_without_printing_it() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let redis = RedisServer::start_with_password(PASSWORD).expect("a private redis-server");
    let wrong = "not-the-password-43";

    let error = TestApp::builder()
        .redis(RedisChoice::Url(redis.url_without_password()))
        .setting("redis.password", wrong)
        .start_up_error()
        .await;

    assert!(error.contains("redis.url"), "{error}");
    assert!(!error.contains(wrong), "the password was printed: {error}");
}

#[tokio::test]
async fn a_tls_redis_is_reached_over_rediss_trusting_its_ca() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let redis = RedisServer::start_tls().expect("a private TLS redis-server");
    let executions = Executions::default();
    let builder = TestApp::builder()
        .redis(RedisChoice::Url(redis.url()))
        .setting(
            "redis.tls_ca_file",
            redis.ca_certificate_path().to_str().unwrap(),
        );

    let app = e2e::spawn_with_idempotency_fixtures(builder, &executions).await;

    assert!(redis.url().starts_with("rediss://"));
    assert_eq!(readiness(&app).await["redis"], "ok");
    assert!(!send_keyed(&app, "tls").await.1);
    assert!(send_keyed(&app, "tls").await.1, "replayed through TLS");
    assert_eq!(executions.count(), 1);
}

#[tokio::test]
async fn a_tls_redis_with_a_password_is_reached_with_both() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let redis = RedisServer::start_tls_with_password(PASSWORD).expect("a private TLS redis-server");

    let app = TestApp::builder()
        .redis(RedisChoice::Url(redis.url()))
        .setting(
            "redis.tls_ca_file",
            redis.ca_certificate_path().to_str().unwrap(),
        )
        .spawn()
        .await;

    assert_eq!(readiness(&app).await["redis"], "ok");
}

#[tokio::test]
async fn a_tls_redis_whose_certificate_is_not_trusted_stops_start_up_naming_redis_url() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let redis = RedisServer::start_tls().expect("a private TLS redis-server");

    let error = TestApp::builder()
        .redis(RedisChoice::Url(redis.url()))
        .start_up_error()
        .await;

    assert!(error.contains("redis.url"), "{error}");
}

#[tokio::test]
async fn an_unreadable_tls_ca_file_stops_start_up_naming_it() {
    let error = TestApp::builder()
        .redis(RedisChoice::Shared)
        .setting("redis.tls_ca_file", "/nonexistent/ca.pem")
        .start_up_error()
        .await;

    assert!(error.contains("redis.tls_ca_file"), "{error}");
}

// ---- Failover under load ------------------------------------------------------------------

/// What the load saw, by phase: before the master stopped; while its slots had no master; after
/// the cluster reported itself healthy but before both instances had seen the new topology
/// (the client learns it from its next failed request); and once both report ready again.
#[derive(Debug, Default, Clone, Copy)]
struct PhaseCounts {
    pairs: u64,
    /// The duplicate (sent to the other instance) was answered from the stored response.
    replayed: u64,
    /// The duplicate executed again: its key's record could not be read or written.
    executed_twice: u64,
    failed: u64,
    /// The statuses of the first failed pair (original, duplicate), to say what went wrong.
    first_failure: Option<(u16, u16)>,
}

const BEFORE: u8 = 0;
const FAILING_OVER: u8 = 1;
const CATCHING_UP: u8 = 2;
const HEALTHY_AGAIN: u8 = 3;

/// The successive values of `app`'s readiness `redis` field until `stop`, each change once.
async fn readiness_states(app: Arc<TestApp>, stop: Arc<AtomicBool>) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let state = readiness(&app).await["redis"]
            .as_str()
            .unwrap_or("")
            .to_owned();
        if seen.last() != Some(&state) {
            seen.push(state);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    seen
}

/// Waits until `app`'s readiness says its Redis answers on every master it knows.
async fn until_ready(app: &TestApp) -> Duration {
    let started = Instant::now();
    while readiness(app).await["redis"] != "ok" {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the instance never saw the new topology"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    started.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_master_failing_over_under_load_fails_open_then_guards_again_without_a_restart() {
    testing::needs_tools_of!(Suite::RedisCluster);
    let mut cluster = RedisCluster::start().expect("a private Redis Cluster");
    let executions = Executions::default();
    let namespace = format!("test:{}:", testing::unique_suffix());
    // Both instances share one database, where the durable fixture leaves its effects.
    let database = TestDatabase::create().await;
    let effects = EffectsFixtureApi::connect(database.url()).await;
    let builder = || {
        TestApp::builder()
            .redis(RedisChoice::Cluster(cluster.seed_urls()))
            .setting("redis.key_prefix", &namespace)
            .setting("database.url", database.url())
    };
    let fixtures = || {
        (
            IdempotencyFixtureApi::new(executions.clone()),
            effects.clone(),
        )
    };
    let first = Arc::new(builder().spawn_with(fixtures()).await);
    let second = Arc::new(builder().spawn_with(fixtures()).await);
    let phase = Arc::new(AtomicU8::new(BEFORE));
    let stop = Arc::new(AtomicBool::new(false));

    // Eight clients, each sending a new key to one instance and its duplicate to the other:
    // four to an operation whose effect is outside the database (the store alone guards it),
    // four to a durable one.
    let load = (0..8).map(|client| {
        let (first, second) = (Arc::clone(&first), Arc::clone(&second));
        let (phase, stop) = (Arc::clone(&phase), Arc::clone(&stop));
        let durable = client % 2 == 1;
        tokio::spawn(async move {
            let mut counts = [PhaseCounts::default(); 4];
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                let started_in = phase.load(Ordering::Relaxed);
                let key = format!("c{client}-{n}");
                n += 1;
                let (original, duplicate) = if durable {
                    let original = send_durable(&first, &key).await;
                    let duplicate = send_durable(&second, &key).await;
                    (
                        (original.0, original.1, original.2),
                        (duplicate.0, duplicate.1, duplicate.2),
                    )
                } else {
                    let original = send_keyed(&first, &key).await;
                    let duplicate = send_keyed(&second, &key).await;
                    let id = |execution: Option<u64>| execution.map(|n| n.to_string());
                    (
                        (original.0, original.1, id(original.2)),
                        (duplicate.0, duplicate.1, id(duplicate.2)),
                    )
                };
                // A pair that spans a phase change counts in the unhealthy phase it touched: its
                // original may have been stored before the master stopped and its duplicate
                // sent while the slot had none.
                let ended_in = phase.load(Ordering::Relaxed);
                let counted_in = if ended_in == started_in {
                    started_in
                } else {
                    started_in.max(FAILING_OVER)
                };
                let counts = &mut counts[usize::from(counted_in)];
                counts.pairs += 1;
                if original.0 != StatusCode::CREATED || duplicate.0 != StatusCode::CREATED {
                    counts.failed += 1;
                    counts
                        .first_failure
                        .get_or_insert((original.0.as_u16(), duplicate.0.as_u16()));
                } else if duplicate.1 && duplicate.2 == original.2 {
                    counts.replayed += 1;
                } else {
                    counts.executed_twice += 1;
                }
            }
            (durable, counts)
        })
    });
    let load: Vec<_> = load.collect();

    tokio::time::sleep(Duration::from_secs(1)).await;
    let victim = cluster.masters().expect("CLUSTER NODES")[0].port;
    let failover_started = Instant::now();
    phase.store(FAILING_OVER, Ordering::Relaxed);
    cluster.stop_node(victim);
    let watching = tokio::spawn(readiness_states(Arc::clone(&first), Arc::clone(&stop)));
    // The replica is promoted by the cluster itself once the node timeout passes.
    tokio::task::block_in_place(|| cluster.wait_until_healthy(Duration::from_secs(30)))
        .expect("the replica takes over");
    let failover_took = failover_started.elapsed();
    phase.store(CATCHING_UP, Ordering::Relaxed);
    let caught_up_in = until_ready(&first).await.max(until_ready(&second).await);
    phase.store(HEALTHY_AGAIN, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.store(true, Ordering::Relaxed);

    let mut totals = [PhaseCounts::default(); 4];
    let mut durable_totals = [PhaseCounts::default(); 4];
    for client in load {
        let (durable, client_counts) = client.await.unwrap();
        let totals = if durable {
            &mut durable_totals
        } else {
            &mut totals
        };
        for (total, counts) in totals.iter_mut().zip(client_counts) {
            total.pairs += counts.pairs;
            total.replayed += counts.replayed;
            total.executed_twice += counts.executed_twice;
            total.failed += counts.failed;
            total.first_failure = total.first_failure.or(counts.first_failure);
        }
    }
    let effects_twice = effects.labels_with_more_than_one_effect().await;
    let failed_open = first.idempotency.metrics().degraded + second.idempotency.metrics().degraded;
    let readiness_said = watching.await.unwrap();
    eprintln!(
        "failover of 127.0.0.1:{victim} took {failover_took:?}, the instances caught up in \
         {caught_up_in:?}; before: {:?}; failing over: {:?}; catching up: {:?}; healthy again: \
         {:?}; store faults failed open: {failed_open}; executions: {}; readiness said \
         {readiness_said:?}; durable pairs: {durable_totals:?}, their effects twice: \
         {effects_twice:?}",
        totals[0],
        totals[1],
        totals[2],
        totals[3],
        executions.count()
    );
    let [before, during, catching_up, after] = totals;
    assert!(
        before.pairs > 0 && during.pairs > 0 && after.pairs > 0,
        "{totals:?}"
    );
    assert_eq!(
        before.failed + during.failed + catching_up.failed + after.failed,
        0,
        "every request succeeded, the failover included: {totals:?}"
    );
    assert_eq!(before.replayed, before.pairs, "{before:?}");
    assert!(
        failed_open > 0,
        "the stopped master's slots were unavailable for a while"
    );
    assert_eq!(
        after.replayed, after.pairs,
        "once healthy, no keyed request executes twice: {after:?}"
    );
    // Durable operations execute once through the whole failover, fail-open included.
    let durable_pairs: u64 = durable_totals.iter().map(|counts| counts.pairs).sum();
    let durable_failed: u64 = durable_totals.iter().map(|counts| counts.failed).sum();
    let durable_replayed: u64 = durable_totals.iter().map(|counts| counts.replayed).sum();
    assert!(durable_totals[1].pairs > 0, "{durable_totals:?}");
    assert_eq!(durable_failed, 0, "{durable_totals:?}");
    assert_eq!(
        durable_replayed, durable_pairs,
        "every durable duplicate got its original's answer: {durable_totals:?}"
    );
    assert!(
        effects_twice.is_empty(),
        "no durable effect happened twice: {effects_twice:?}"
    );
}
