//! Behaviours 1 and 2: opt-in per operation, and the key header.

use e2e::{TestApp, WithIdempotencyKey, assert_problem, is_replay};
use reqwest::{Method, StatusCode};
use serde_json::json;

use super::{COUNTED, spawn_default};

#[tokio::test]
async fn an_unwrapped_operation_ignores_the_key_and_the_store_sees_nothing() {
    let (app, executions) = spawn_default().await;

    for _ in 0..2 {
        let response = app
            .request(Method::POST, "/api/v1/fixtures/idem/plain")
            .idempotency_key("k1")
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::CREATED);
        assert!(!is_replay(&response));
    }

    assert_eq!(executions.count(), 2);
    assert_eq!(app.idempotency.store().operations(), 0);
}

#[tokio::test]
async fn without_a_key_the_request_runs_as_if_the_layer_were_not_there() {
    let (app, executions) = spawn_default().await;

    for _ in 0..2 {
        let response = app
            .request(Method::POST, COUNTED)
            .json(&json!({ "a": 1 }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::CREATED);
    }

    assert_eq!(executions.count(), 2);
    assert_eq!(
        app.idempotency.store().operations(),
        0,
        "no store access without a key"
    );
}

#[tokio::test]
async fn a_blank_key_counts_as_no_key() {
    let (app, executions) = spawn_default().await;

    for _ in 0..2 {
        app.request(Method::POST, COUNTED)
            .idempotency_key("   ")
            .json(&json!({}))
            .send()
            .await
            .unwrap();
    }

    assert_eq!(executions.count(), 2);
    assert_eq!(app.idempotency.store().operations(), 0);
}

#[tokio::test]
async fn a_quoted_structured_field_key_is_the_same_key_as_the_bare_one() {
    let (app, executions) = spawn_default().await;

    app.request(Method::POST, COUNTED)
        .idempotency_key("order-7")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let quoted = app
        .request(Method::POST, COUNTED)
        .idempotency_key("\"order-7\"")
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    assert!(is_replay(&quoted));
    assert_eq!(executions.count(), 1);
}

#[tokio::test]
async fn a_key_over_255_characters_is_a_400_problem_and_nothing_runs() {
    let (app, executions) = spawn_default().await;

    let response = app
        .request(Method::POST, COUNTED)
        .idempotency_key(&"k".repeat(256))
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    assert_problem(response, StatusCode::BAD_REQUEST).await;
    assert_eq!(executions.count(), 0);
}

#[tokio::test]
async fn a_key_with_characters_outside_visible_ascii_is_a_400_problem() {
    let (app, executions) = spawn_default().await;

    let response = app
        .request(Method::POST, COUNTED)
        .idempotency_key("a key")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let non_ascii = app
        .request(Method::POST, COUNTED)
        .header(
            "Idempotency-Key",
            reqwest::header::HeaderValue::from_bytes("clé".as_bytes()).unwrap(),
        )
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    assert_problem(response, StatusCode::BAD_REQUEST).await;
    assert_problem(non_ascii, StatusCode::BAD_REQUEST).await;
    assert_eq!(executions.count(), 0);
}

#[tokio::test]
async fn several_key_headers_are_a_400_problem_and_nothing_runs() {
    let (app, executions) = spawn_default().await;

    let response = app
        .request(Method::POST, COUNTED)
        .header("Idempotency-Key", "one")
        .header("Idempotency-Key", "two")
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    let problem = assert_problem(response, StatusCode::BAD_REQUEST).await;
    assert_eq!(problem["type"], "/problems/idempotency-key-invalid");
    assert_eq!(executions.count(), 0);
}

#[tokio::test]
async fn an_operation_that_requires_a_key_refuses_a_request_without_one() {
    let (app, executions) = spawn_default().await;

    let without = app
        .request(Method::POST, "/api/v1/fixtures/idem/required")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let with = app
        .request(Method::POST, "/api/v1/fixtures/idem/required")
        .idempotency_key("k")
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    let problem = assert_problem(without, StatusCode::BAD_REQUEST).await;
    assert_eq!(problem["type"], "/problems/idempotency-key-missing");
    assert_eq!(with.status(), StatusCode::CREATED);
    assert_eq!(executions.count(), 1);
}

#[tokio::test]
async fn the_things_module_opts_its_writes_in() {
    let app = TestApp::spawn().await;
    let create = |key: &str| {
        app.request(Method::POST, "/api/v1/things")
            .bearer_auth(app.token_for("alice"))
            .idempotency_key(key)
            .json(&json!({ "name": "lamp" }))
            .send()
    };

    let first = create("create-lamp").await.unwrap();
    let retry = create("create-lamp").await.unwrap();

    assert_eq!(first.status(), StatusCode::CREATED);
    assert!(is_replay(&retry));
    let page: serde_json::Value = app
        .get_as("alice", "/api/v1/things")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(page["total"], 1, "a retried create makes one thing");
}
