//! A key is bound to the request's payload and preconditions.

use std::time::Duration;

use e2e::{TestApp, WithIdempotencyKey, assert_problem, is_replay};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::{COUNTED, spawn_default};
use crate::things::{conditional, created_path};

#[tokio::test]
async fn the_same_key_with_another_body_after_completion_is_a_422_and_nothing_runs() {
    let (app, executions) = spawn_default().await;
    app.request(Method::POST, COUNTED)
        .idempotency_key("k")
        .json(&json!({ "amount": 1 }))
        .send()
        .await
        .unwrap();

    let response = app
        .request(Method::POST, COUNTED)
        .idempotency_key("k")
        .json(&json!({ "amount": 2 }))
        .send()
        .await
        .unwrap();

    let problem = assert_problem(response, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(problem["title"], "Idempotency-Key reuse");
    assert_eq!(executions.count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_key_with_another_body_while_the_first_runs_is_a_422() {
    let (app, executions) = spawn_default().await;
    let first = async {
        let response = app
            .request(Method::POST, &format!("{COUNTED}?sleepMs=400"))
            .idempotency_key("k")
            .json(&json!({ "amount": 1 }))
            .send()
            .await;
        (response, std::time::Instant::now())
    };
    let second = async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let response = app
            .request(Method::POST, &format!("{COUNTED}?sleepMs=400"))
            .idempotency_key("k")
            .json(&json!({ "amount": 2 }))
            .send()
            .await;
        (response, std::time::Instant::now())
    };

    let ((first, first_done), (second, second_done)) = tokio::join!(first, second);

    assert_eq!(first.unwrap().status(), StatusCode::CREATED);
    assert!(
        second_done < first_done,
        "the 422 must come while the first still runs, not after it"
    );
    let problem = assert_problem(second.unwrap(), StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(problem["title"], "Idempotency-Key reuse");
    assert_eq!(executions.count(), 1);
}

#[tokio::test]
async fn the_same_key_with_another_query_string_is_a_422() {
    let (app, _) = spawn_default().await;
    app.request(Method::POST, &format!("{COUNTED}?sleepMs=1"))
        .idempotency_key("k")
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    let response = app
        .request(Method::POST, &format!("{COUNTED}?sleepMs=2"))
        .idempotency_key("k")
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    assert_problem(response, StatusCode::UNPROCESSABLE_ENTITY).await;
}

#[tokio::test]
async fn the_same_key_on_another_resource_of_the_same_route_is_a_422_not_a_wrong_replay() {
    let (app, executions) = spawn_default().await;
    app.request(Method::PUT, "/api/v1/fixtures/idem/items/1")
        .idempotency_key("k")
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    let response = app
        .request(Method::PUT, "/api/v1/fixtures/idem/items/2")
        .idempotency_key("k")
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    assert_problem(response, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(executions.count(), 1);
}

#[tokio::test]
async fn reformatted_json_with_the_same_content_is_the_same_request() {
    let (app, executions) = spawn_default().await;
    let send = |body: &'static str| {
        app.request(Method::POST, COUNTED)
            .idempotency_key("k")
            .header("content-type", "application/json")
            .body(body)
            .send()
    };

    send(r#"{"a":1,"b":[1,2]}"#).await.unwrap();
    let retry = send("{ \"b\": [1, 2],\n  \"a\": 1 }").await.unwrap();

    assert!(is_replay(&retry));
    assert_eq!(executions.count(), 1);
}

/// The protocol review's case (issue 46): the same key and body under another `If-Match` asks
/// about another version. Replaying the first answer (`200`, `ETag: "v2"`) would report a write
/// that never happened.
#[tokio::test]
async fn the_same_key_and_body_with_another_if_match_is_a_422_not_the_first_answer() {
    let app = TestApp::spawn().await;
    let path = created_path(&app, "alice", "lamp").await;
    let keyed_replace = |if_match: &'static str| {
        conditional(&app, Method::PUT, &path, Some(if_match))
            .idempotency_key("replace-lamp")
            .json(&json!({ "name": "desk lamp" }))
            .send()
    };
    let first = keyed_replace("\"v1\"").await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(first.headers()["etag"], "\"v2\"");
    let another_write = conditional(&app, Method::PUT, &path, Some("\"v2\""))
        .json(&json!({ "name": "floor lamp" }))
        .send()
        .await
        .unwrap();
    assert_eq!(another_write.headers()["etag"], "\"v3\"");

    let current_version = keyed_replace("\"v3\"").await.unwrap();
    let unknown_version = keyed_replace("\"v999\"").await.unwrap();

    for reuse in [current_version, unknown_version] {
        let problem = assert_problem(reuse, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert_eq!(problem["title"], "Idempotency-Key reuse");
    }
    let thing: Value = app.get_as("alice", &path).await.json().await.unwrap();
    assert_eq!(
        (thing["version"].clone(), thing["name"].clone()),
        (json!(3), json!("floor lamp")),
        "nothing ran under the reused key"
    );
}
