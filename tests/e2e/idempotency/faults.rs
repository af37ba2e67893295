//! Store faults fail open, are counted, and guarding resumes when Redis returns.

use e2e::{RedisChoice, TestApp, WithIdempotencyKey, is_replay};
use reqwest::{Method, StatusCode};
use serde_json::json;
use testing::redis::RedisServer;
use testing::tools::Suite;

use super::{COUNTED, spawn};

#[tokio::test]
async fn requests_keep_succeeding_while_redis_is_down_and_guarding_resumes_after() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let mut redis = RedisServer::start().expect("the tests start a private redis-server");
    let (app, executions) = spawn(TestApp::builder().redis(RedisChoice::Url(redis.url()))).await;
    let send = |key: String| {
        app.request(Method::POST, COUNTED)
            .idempotency_key(&key)
            .json(&json!({}))
            .send()
    };
    send("before".into()).await.unwrap();
    assert!(
        is_replay(&send("before".into()).await.unwrap()),
        "guarded while Redis is up"
    );

    redis.stop();
    let during: Vec<_> = [
        send("during".into()).await.unwrap(),
        send("during".into()).await.unwrap(),
    ]
    .into_iter()
    .collect();
    let degraded_during = app.idempotency.metrics().degraded;

    redis.restart().expect("redis-server restarts");
    // The connection manager reconnects on its own, after a failed call or two: try fresh keys
    // until one is guarded again (a replay), within a bound.
    let mut resumed_after = None;
    for attempt in 0..50 {
        let key = format!("after-{attempt}");
        let first = send(key.clone()).await.unwrap();
        assert_eq!(first.status(), StatusCode::CREATED);
        if is_replay(&send(key).await.unwrap()) {
            resumed_after = Some(attempt);
            break;
        }
    }

    for response in &during {
        assert_eq!(response.status(), StatusCode::CREATED, "executed unguarded");
        assert!(!is_replay(response));
    }
    assert!(
        degraded_during >= 2,
        "each fault is counted: {degraded_during}"
    );
    let resumed_after = resumed_after.expect("guarding resumed without a restart of the service");
    // before: 1, during: 2 (both unguarded), then two per unguarded attempt and one for the
    // attempt that was replayed.
    assert_eq!(executions.count(), 1 + 2 + 2 * resumed_after as u64 + 1);
}

const FAIL_CLOSED: &str = "/api/v1/fixtures/idem/fail-closed";

/// POSTs `{}` to `path` with the key `k`.
async fn post_keyed(app: &TestApp, path: &str) -> reqwest::Response {
    app.request(Method::POST, path)
        .idempotency_key("k")
        .json(&json!({}))
        .send()
        .await
        .expect("request failed")
}

/// A service on a private Redis that is already stopped.
async fn spawn_with_redis_down() -> (TestApp, e2e::fixtures::Executions, RedisServer) {
    let mut redis = RedisServer::start().expect("the tests start a private redis-server");
    let (app, executions) = spawn(TestApp::builder().redis(RedisChoice::Url(redis.url()))).await;
    redis.stop();
    (app, executions, redis)
}

#[tokio::test]
async fn a_fail_closed_operation_answers_503_with_retry_after_and_executes_nothing_while_redis_is_down()
 {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let (app, executions, _redis) = spawn_with_redis_down().await;

    let response = post_keyed(&app, FAIL_CLOSED).await;

    let retry_after = response.headers().get("retry-after").cloned();
    let problem = e2e::assert_problem(response, StatusCode::SERVICE_UNAVAILABLE).await;
    assert_eq!(problem["type"], "/problems/idempotency-store-unavailable");
    assert!(retry_after.is_some_and(|v| v.to_str().unwrap().parse::<u64>().is_ok()));
    assert_eq!(executions.count(), 0, "the handler never ran");
    assert_eq!(app.idempotency.metrics().rejected_store_unavailable, 1);
}

#[tokio::test]
async fn fail_open_operations_still_execute_while_a_fail_closed_one_refuses() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let (app, executions, _redis) = spawn_with_redis_down().await;

    let open = post_keyed(&app, COUNTED).await;
    let closed = post_keyed(&app, FAIL_CLOSED).await;

    assert_eq!(open.status(), StatusCode::CREATED);
    assert_eq!(closed.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(executions.count(), 1);
}

#[tokio::test]
async fn a_fail_closed_operation_is_guarded_as_usual_while_redis_is_up() {
    let (app, executions) = spawn(TestApp::builder().redis(RedisChoice::Shared)).await;

    let first = post_keyed(&app, FAIL_CLOSED).await;
    let retry = post_keyed(&app, FAIL_CLOSED).await;

    assert_eq!(first.status(), StatusCode::CREATED);
    assert!(is_replay(&retry));
    assert_eq!(executions.count(), 1);
}
