//! A replay reproduces the stored response and says it is one.

use e2e::{RedisChoice, TestApp, WithIdempotencyKey, is_replay};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::{COUNTED, spawn, spawn_default};

async fn replay_reproduces_the_first_response(redis: RedisChoice) {
    let (app, executions) = spawn(TestApp::builder().redis(redis)).await;
    let send = || {
        app.request(Method::POST, COUNTED)
            .idempotency_key("k")
            .json(&json!({ "n": 1 }))
            .send()
    };
    let first = send().await.unwrap();
    let (first_headers, first_body) = (first.headers().clone(), first.bytes().await.unwrap());

    let replay = send().await.unwrap();

    assert_eq!(replay.status(), StatusCode::CREATED);
    assert!(is_replay(&replay));
    for header in ["content-type", "location", "etag"] {
        let original = first_headers
            .get(header)
            .unwrap_or_else(|| panic!("the fixture answers {header}"));
        assert_eq!(replay.headers().get(header), Some(original), "{header}");
    }
    assert_eq!(replay.bytes().await.unwrap(), first_body);
    assert_eq!(
        executions.count(),
        1,
        "the handler does not run on a replay"
    );
}

#[tokio::test]
async fn a_replay_reproduces_status_body_content_type_location_and_etag_in_process() {
    replay_reproduces_the_first_response(RedisChoice::None).await;
}

#[tokio::test]
async fn a_replay_reproduces_status_body_content_type_location_and_etag_on_redis() {
    replay_reproduces_the_first_response(RedisChoice::Shared).await;
}

#[tokio::test]
async fn the_first_response_is_not_marked_as_a_replay() {
    let (app, _) = spawn_default().await;

    let first = app
        .request(Method::POST, COUNTED)
        .idempotency_key("k")
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    assert!(first.headers().get("x-idempotent-replay").is_none());
}

#[tokio::test]
async fn a_bodyless_204_replays_as_a_bare_204() {
    let (app, executions) = spawn_default().await;
    let send = || {
        app.request(Method::POST, "/api/v1/fixtures/idem/empty")
            .idempotency_key("k")
            .send()
    };
    send().await.unwrap();

    let replay = send().await.unwrap();

    assert_eq!(replay.status(), StatusCode::NO_CONTENT);
    assert!(is_replay(&replay));
    assert!(
        replay.headers().get("content-type").is_none(),
        "no JSON content type on a bare 204"
    );
    assert!(replay.bytes().await.unwrap().is_empty());
    assert_eq!(executions.count(), 1);
}

#[tokio::test]
async fn a_put_replays_its_200() {
    let (app, executions) = spawn_default().await;
    let send = || {
        app.request(Method::PUT, "/api/v1/fixtures/idem/items/9")
            .idempotency_key("k")
            .json(&json!({ "v": 1 }))
            .send()
    };
    let first: Value = send().await.unwrap().json().await.unwrap();

    let replay = send().await.unwrap();

    assert_eq!(replay.status(), StatusCode::OK);
    assert!(is_replay(&replay));
    assert_eq!(replay.json::<Value>().await.unwrap(), first);
    assert_eq!(executions.count(), 1);
}
