//! Exclusion across instances: many concurrent duplicates, one execution.

use std::collections::HashSet;

use e2e::fixtures::Executions;
use e2e::{RedisChoice, TestApp, WithIdempotencyKey, is_replay, spawn_with_idempotency_fixtures};
use futures_util::future::join_all;
use reqwest::{Method, StatusCode};
use serde_json::json;

use super::COUNTED;

/// Fires `per_key` concurrent requests for each key, round-robin across `apps`, and checks
/// that each key executed once and every other request got that execution replayed or a 409.
async fn fire(apps: &[&TestApp], keys: usize, per_key: usize, executions: &Executions) {
    let requests = (0..keys)
        .flat_map(|k| (0..per_key).map(move |n| (k, n)))
        .map(|(k, n)| {
            let app = apps[(k + n) % apps.len()];
            async move {
                let response = app
                    .request(Method::POST, &format!("{COUNTED}?sleepMs=300"))
                    .idempotency_key(&format!("key-{k}"))
                    .json(&json!({ "key": k }))
                    .send()
                    .await
                    .unwrap();
                let replayed = is_replay(&response);
                let status = response.status();
                (k, status, replayed, response.text().await.unwrap())
            }
        });

    let results = join_all(requests).await;

    assert_eq!(
        executions.count(),
        keys as u64,
        "exactly one execution per key"
    );
    for k in 0..keys {
        let of_key: Vec<_> = results.iter().filter(|r| r.0 == k).collect();
        let fresh: Vec<_> = of_key
            .iter()
            .filter(|r| r.1 == StatusCode::CREATED && !r.2)
            .collect();
        assert_eq!(fresh.len(), 1, "key {k}: one fresh execution");
        let bodies: HashSet<&String> = of_key
            .iter()
            .filter(|r| r.1 == StatusCode::CREATED)
            .map(|r| &r.3)
            .collect();
        assert_eq!(
            bodies.len(),
            1,
            "key {k}: every replay carries the one execution's body"
        );
        for (_, status, replayed, _) in &of_key {
            assert!(
                (*status == StatusCode::CREATED) || *status == StatusCode::CONFLICT,
                "key {k}: {status} (replayed: {replayed})"
            );
        }
    }
}

async fn two_instances_sharing_redis(executions: &Executions) -> (TestApp, TestApp) {
    let namespace = format!("test:{}:", testing::unique_suffix());
    let builder = || {
        TestApp::builder()
            .redis(RedisChoice::Shared)
            .setting("redis.key_prefix", &namespace)
    };
    let first = spawn_with_idempotency_fixtures(builder(), executions).await;
    let second = spawn_with_idempotency_fixtures(builder(), executions).await;
    assert_ne!(first.address, second.address);
    (first, second)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_duplicates_across_two_instances_sharing_redis_execute_once() {
    let executions = Executions::default();
    let (first, second) = two_instances_sharing_redis(&executions).await;

    fire(&[&first, &second], 1, 50, &executions).await;
}

#[tokio::test]
async fn many_keys_at_once_across_two_instances_each_execute_once() {
    let executions = Executions::default();
    let (first, second) = two_instances_sharing_redis(&executions).await;

    fire(&[&first, &second], 10, 10, &executions).await;
}

// Multi-threaded: the server's connections are served on several threads at once, so the
// in-process store's claims really race.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_duplicates_on_one_instance_with_the_in_process_store_execute_once() {
    let executions = Executions::default();
    let app = spawn_with_idempotency_fixtures(TestApp::builder(), &executions).await;

    fire(&[&app], 1, 50, &executions).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn many_keys_at_once_on_the_in_process_store_each_execute_once() {
    let executions = Executions::default();
    let app = spawn_with_idempotency_fixtures(TestApp::builder(), &executions).await;

    fire(&[&app], 10, 10, &executions).await;
}
