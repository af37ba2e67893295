//! Behaviour 9: store faults fail open, are counted, and guarding resumes when Redis returns.

use e2e::{RedisChoice, TestApp, WithIdempotencyKey, is_replay};
use reqwest::{Method, StatusCode};
use serde_json::json;
use testing::redis::RedisServer;

use super::{COUNTED, spawn};

#[tokio::test]
async fn requests_keep_succeeding_while_redis_is_down_and_guarding_resumes_after() {
    let mut redis = RedisServer::start().expect("the tests start a private redis-server");
    let (app, executions) = spawn(TestApp::builder().redis(RedisChoice::Url(redis.url()))).await;
    let send = |key: &'static str| {
        app.request(Method::POST, COUNTED)
            .idempotency_key(key)
            .json(&json!({}))
            .send()
    };
    send("before").await.unwrap();
    assert!(
        is_replay(&send("before").await.unwrap()),
        "guarded while Redis is up"
    );

    redis.stop();
    let during: Vec<_> = [send("during").await.unwrap(), send("during").await.unwrap()]
        .into_iter()
        .collect();
    let degraded_during = app.idempotency.metrics().degraded;

    redis.restart().expect("redis-server restarts");
    // The connection manager reconnects on its own; the first call after a restart may still
    // see the broken connection, so allow it one attempt.
    send("after").await.unwrap();
    let first_after = send("after-2").await.unwrap();
    let replay_after = send("after-2").await.unwrap();

    for response in &during {
        assert_eq!(response.status(), StatusCode::CREATED, "executed unguarded");
        assert!(!is_replay(response));
    }
    assert!(
        degraded_during >= 2,
        "each fault is counted: {degraded_during}"
    );
    assert_eq!(first_after.status(), StatusCode::CREATED);
    assert!(
        is_replay(&replay_after),
        "guarding resumed without a restart of the service"
    );
    assert_eq!(executions.count(), 1 + 2 + 1 + 1);
}
