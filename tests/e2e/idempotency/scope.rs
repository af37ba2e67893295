//! A key is scoped to the caller, the method and the route template.

use e2e::{WithIdempotencyKey, is_replay};
use reqwest::{Method, StatusCode};
use serde_json::json;

use super::{COUNTED, spawn_default};

#[tokio::test]
async fn two_users_with_the_same_key_do_not_share_a_response() {
    let (app, executions) = spawn_default().await;

    let alice = app
        .request(Method::POST, COUNTED)
        .bearer_auth(app.token_for("alice"))
        .idempotency_key("same")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let bob = app
        .request(Method::POST, COUNTED)
        .bearer_auth(app.token_for("bob"))
        .idempotency_key("same")
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    assert!(!is_replay(&alice) && !is_replay(&bob));
    assert_eq!(executions.count(), 2);
}

#[tokio::test]
async fn one_user_with_the_same_key_on_two_endpoints_does_not_share_a_response() {
    let (app, executions) = spawn_default().await;
    let token = app.token_for("alice");

    app.request(Method::POST, COUNTED)
        .bearer_auth(&token)
        .idempotency_key("same")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let other = app
        .request(Method::POST, "/api/v1/fixtures/idem/counted-too")
        .bearer_auth(&token)
        .idempotency_key("same")
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    assert!(!is_replay(&other));
    assert_eq!(executions.count(), 2);
}

#[tokio::test]
async fn a_forged_token_naming_another_users_subject_gets_nothing_of_theirs() {
    let (app, executions) = spawn_default().await;
    app.request(Method::POST, COUNTED)
        .bearer_auth(app.token_for("alice"))
        .idempotency_key("k")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let forged = e2e::forged_token(&app.settings, "alice");

    let response = app
        .request(Method::POST, COUNTED)
        .bearer_auth(forged)
        .idempotency_key("k")
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    assert!(
        !is_replay(&response),
        "the forger must not receive alice's stored response"
    );
    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(executions.count(), 2);
}

#[tokio::test]
async fn a_pipe_inside_a_key_cannot_make_two_scopes_collide() {
    let (app, executions) = spawn_default().await;

    app.request(Method::POST, COUNTED)
        .bearer_auth(app.token_for("a"))
        .idempotency_key("b|k")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let other = app
        .request(Method::POST, COUNTED)
        .bearer_auth(app.token_for("a|b"))
        .idempotency_key("k")
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    assert!(!is_replay(&other));
    assert_eq!(executions.count(), 2);
}
