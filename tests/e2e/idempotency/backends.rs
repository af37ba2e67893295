//! The Redis backend spends one round trip per replay and two per first
//! execution, counted by Redis itself; and both backends behave the same.

use std::collections::HashMap;
use testing::tools::Suite;

use e2e::{RedisChoice, TestApp, WithIdempotencyKey, is_replay};
use reqwest::Method;
use serde_json::json;
use testing::redis::RedisServer;

use super::{COUNTED, spawn};

/// Calls per command, from `INFO commandstats`.
async fn command_calls(url: &str) -> HashMap<String, u64> {
    let mut connection = redis::Client::open(url)
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let info: String = redis::cmd("INFO")
        .arg("commandstats")
        .query_async(&mut connection)
        .await
        .unwrap();
    testing::redis_cluster::parse_commandstats(&info)
}

/// Commands whose calls rose between two readings. `INFO commandstats` counts the commands a
/// script runs inside Redis too (HSET, PEXPIRE...), so round trips are the script calls.
fn delta(before: &HashMap<String, u64>, after: &HashMap<String, u64>) -> HashMap<String, u64> {
    after
        .iter()
        .filter_map(|(name, calls)| {
            let rise = calls - before.get(name).copied().unwrap_or(0);
            (rise > 0 && name != "info").then(|| (name.clone(), rise))
        })
        .collect()
}

/// What a script may run inside Redis; anything else in the delta was sent by the service.
const SCRIPT_INTERNAL: &[&str] = &[
    "hset", "hget", "hmget", "hgetall", "pexpire", "del", "exists", "pttl", "hdel", "unlink",
];

fn round_trips(delta: &HashMap<String, u64>) -> u64 {
    let outside_scripts: Vec<_> = delta
        .keys()
        .filter(|name| !SCRIPT_INTERNAL.contains(&name.as_str()) && !name.starts_with("eval"))
        .collect();
    assert!(
        outside_scripts.is_empty(),
        "the service sent commands outside its scripts: {delta:?}"
    );
    delta
        .iter()
        .filter(|(name, _)| name.starts_with("eval"))
        .map(|(_, calls)| calls)
        .sum()
}

#[tokio::test]
async fn a_first_execution_costs_two_redis_round_trips_and_a_replay_one() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let redis = RedisServer::start().expect("the tests start a private redis-server");
    let (app, _) = spawn(TestApp::builder().redis(RedisChoice::Url(redis.url()))).await;
    let send = |key: &'static str| {
        app.request(Method::POST, COUNTED)
            .idempotency_key(key)
            .json(&json!({}))
            .send()
    };
    // Warm up: the first call loads the scripts (NOSCRIPT, then SCRIPT LOAD) once per server.
    send("warm-up").await.unwrap();
    send("warm-up").await.unwrap();

    let before = command_calls(&redis.url()).await;
    send("k").await.unwrap();
    let after_first = command_calls(&redis.url()).await;
    let replay = send("k").await.unwrap();
    let after_replay = command_calls(&redis.url()).await;

    assert!(is_replay(&replay));
    assert_eq!(
        round_trips(&delta(&before, &after_first)),
        2,
        "claim + complete"
    );
    assert_eq!(
        round_trips(&delta(&after_first, &after_replay)),
        1,
        "claim, which returns the record"
    );
}

#[tokio::test]
async fn the_in_process_store_replays_like_redis() {
    let (app, executions) = spawn(TestApp::builder()).await;
    let send = || {
        app.request(Method::POST, COUNTED)
            .idempotency_key("k")
            .json(&json!({}))
            .send()
    };

    send().await.unwrap();
    let replay = send().await.unwrap();

    assert_eq!(app.idempotency.store().backend_name(), "memory");
    assert!(is_replay(&replay));
    assert_eq!(executions.count(), 1);
}

#[tokio::test]
async fn the_in_process_store_stays_within_its_configured_capacity() {
    let (app, _) = spawn(TestApp::builder().setting("idempotency.memory_max_entries", "10")).await;

    for n in 0..40 {
        app.request(Method::POST, COUNTED)
            .idempotency_key(&format!("k{n}"))
            .json(&json!({}))
            .send()
            .await
            .unwrap();
    }

    let store = app
        .idempotency
        .store()
        .backend::<poem_idempotency::store::MemoryStore>()
        .expect("the in-process store");
    assert!(store.len() <= 10, "{} records", store.len());
}
