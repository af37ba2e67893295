//! Only deterministic success shapes are stored; anything else frees the key.

use e2e::{RedisChoice, TestApp, WithIdempotencyKey, is_replay};
use reqwest::{Method, StatusCode};
use serde_json::json;

use super::{spawn, spawn_default};

const VARIOUS: &str = "/api/v1/fixtures/idem/various";

#[tokio::test]
async fn after_a_failure_the_retry_with_the_same_key_executes_and_succeeds() {
    let (app, executions) = spawn_default().await;
    let send = || {
        app.request(Method::POST, "/api/v1/fixtures/idem/flaky")
            .idempotency_key("k")
            .send()
    };

    let failed = send().await.unwrap();
    let retried = send().await.unwrap();

    assert_eq!(failed.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(retried.status(), StatusCode::OK);
    assert!(!is_replay(&retried));
    assert_eq!(executions.count(), 2);
}

async fn assert_not_stored(kind: &str, expected: StatusCode) {
    let (app, executions) =
        spawn(TestApp::builder().setting("idempotency.max_response_bytes", "1000")).await;
    let send = || {
        app.request(Method::POST, &format!("{VARIOUS}?kind={kind}"))
            .idempotency_key("k")
            .send()
    };

    let first = send().await.unwrap();
    let second = send().await.unwrap();

    assert_eq!(first.status(), expected, "{kind}");
    assert!(!is_replay(&second), "{kind} must not be replayed");
    assert_eq!(executions.count(), 2, "{kind}: the retry executes");
}

#[tokio::test]
async fn a_4xx_answer_is_not_stored() {
    assert_not_stored("conflict", StatusCode::CONFLICT).await;
}

#[tokio::test]
async fn a_redirect_is_not_stored() {
    assert_not_stored("redirect", StatusCode::SEE_OTHER).await;
}

#[tokio::test]
async fn a_non_json_body_is_not_stored() {
    assert_not_stored("text", StatusCode::OK).await;
}

#[tokio::test]
async fn a_streamed_body_is_not_stored() {
    assert_not_stored("stream", StatusCode::OK).await;
}

#[tokio::test]
async fn a_body_over_the_configured_size_is_not_stored() {
    assert_not_stored("large", StatusCode::OK).await;
}

#[tokio::test]
async fn a_stored_response_is_kept_for_the_24_hour_retention_by_default() {
    let (app, _) = spawn(TestApp::builder().redis(RedisChoice::Shared)).await;
    app.request(Method::POST, super::COUNTED)
        .idempotency_key("k")
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    let records = app.idempotency_records().await;

    assert_eq!(records.len(), 1, "{records:?}");
    let ttl_ms = records[0].1;
    let day_ms = 24 * 60 * 60 * 1000;
    assert!(
        ttl_ms > day_ms - 60_000 && ttl_ms <= day_ms,
        "ttl {ttl_ms} ms"
    );
}
