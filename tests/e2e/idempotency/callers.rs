//! A key's caller is the one the authentication step proved, the very caller the
//! handler sees, however the client spells the scheme; an unproven request to a secured
//! operation is refused before the store, never filed under an anonymous scope.

use e2e::{RedisChoice, TestApp, WithIdempotencyKey, is_replay};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::{COUNTED, spawn};

const SECURED: &str = "/api/v1/fixtures/idem/secured";

/// RFC 9110 §11.1: the scheme is case-insensitive, so all of these are one scheme.
const SPELLINGS: [&str; 4] = ["Bearer", "bearer", "BEARER", "BeArEr"];

/// POSTs `{}` to `path` with `key`, and with `authorization` as the whole header, if any.
async fn send(
    app: &TestApp,
    path: &str,
    authorization: Option<&str>,
    key: &str,
) -> reqwest::Response {
    let mut request = app
        .request(Method::POST, path)
        .idempotency_key(key)
        .json(&json!({}));
    if let Some(authorization) = authorization {
        request = request.header("Authorization", authorization);
    }
    request.send().await.expect("request failed")
}

async fn caller_of(response: reqwest::Response) -> String {
    let body: Value = response.json().await.expect("a JSON body");
    body["echo"]["caller"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

async fn every_spelling_scopes_to_the_tokens_user(redis: RedisChoice) {
    let (app, executions) = spawn(TestApp::builder().redis(redis)).await;
    let token = app.token_for("alice");

    for spelling in SPELLINGS {
        let key = format!("spelling-{spelling}");
        let first = send(&app, SECURED, Some(&format!("{spelling} {token}")), &key).await;
        let retry = send(&app, SECURED, Some(&format!("Bearer {token}")), &key).await;

        assert_eq!(first.status(), StatusCode::CREATED, "{spelling}");
        assert_eq!(caller_of(first).await, "alice", "{spelling}");
        assert!(
            is_replay(&retry),
            "{spelling}: filed under alice, so alice's canonical spelling replays it"
        );
    }
    assert_eq!(executions.count(), SPELLINGS.len() as u64);
}

#[tokio::test]
async fn every_spelling_of_the_bearer_scheme_scopes_to_the_tokens_user_in_process() {
    every_spelling_scopes_to_the_tokens_user(RedisChoice::None).await;
}

#[tokio::test]
async fn every_spelling_of_the_bearer_scheme_scopes_to_the_tokens_user_on_redis() {
    every_spelling_scopes_to_the_tokens_user(RedisChoice::Shared).await;
}

async fn never_replayed_without_a_token(redis: RedisChoice) {
    let (app, executions) = spawn(TestApp::builder().redis(redis)).await;
    let token = app.token_for("alice");
    for spelling in SPELLINGS {
        send(
            &app,
            SECURED,
            Some(&format!("{spelling} {token}")),
            spelling,
        )
        .await;
    }

    for spelling in SPELLINGS {
        let anonymous = send(&app, SECURED, None, spelling).await;

        assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED, "{spelling}");
        assert!(!is_replay(&anonymous), "{spelling}");
    }
    assert_eq!(executions.count(), SPELLINGS.len() as u64);
}

#[tokio::test]
async fn a_response_stored_for_a_user_is_never_replayed_to_a_request_without_a_token_in_process() {
    never_replayed_without_a_token(RedisChoice::None).await;
}

#[tokio::test]
async fn a_response_stored_for_a_user_is_never_replayed_to_a_request_without_a_token_on_redis() {
    never_replayed_without_a_token(RedisChoice::Shared).await;
}

#[tokio::test]
async fn a_response_stored_for_a_user_is_never_replayed_to_another_user() {
    let (app, executions) = spawn(TestApp::builder().redis(RedisChoice::Shared)).await;
    let alice = format!("BEARER {}", app.token_for("alice"));
    let bob = format!("Bearer {}", app.token_for("bob"));
    send(&app, SECURED, Some(&alice), "k").await;

    let response = send(&app, SECURED, Some(&bob), "k").await;

    assert_eq!(response.status(), StatusCode::CREATED);
    assert!(!is_replay(&response));
    assert_eq!(caller_of(response).await, "bob");
    assert_eq!(executions.count(), 2);
}

#[tokio::test]
async fn a_response_stored_for_a_user_is_never_replayed_to_a_forged_or_expired_token_naming_them() {
    let (app, executions) = spawn(TestApp::builder().redis(RedisChoice::Shared)).await;
    send(
        &app,
        SECURED,
        Some(&format!("bEaReR {}", app.token_for("alice"))),
        "k",
    )
    .await;
    let forged = format!("Bearer {}", e2e::forged_token(&app.settings, "alice"));
    let expired = format!("BEARER {}", app.expired_token_for("alice"));

    for authorization in [forged, expired] {
        let response = send(&app, SECURED, Some(&authorization), "k").await;

        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        assert!(!is_replay(&response));
    }
    assert_eq!(executions.count(), 1);
}

#[tokio::test]
async fn on_an_open_operation_a_users_response_is_not_replayed_to_an_anonymous_caller_at_the_same_address()
 {
    // The reported attack, on an operation without a security requirement: the token's owner
    // and an anonymous caller behind the same address must not share a scope.
    let (app, executions) = spawn(TestApp::builder().redis(RedisChoice::Shared)).await;
    let alice = format!("BEARER {}", app.token_for("alice"));
    send(&app, COUNTED, Some(&alice), "k").await;

    let anonymous = send(&app, COUNTED, None, "k").await;

    assert_eq!(anonymous.status(), StatusCode::CREATED);
    assert!(!is_replay(&anonymous));
    assert_eq!(executions.count(), 2);
}

async fn unproven_callers_never_reach_the_store(redis: RedisChoice) {
    let (app, executions) = spawn(TestApp::builder().redis(redis)).await;
    let forged = format!("Bearer {}", e2e::forged_token(&app.settings, "alice"));
    let operations_before = app.idempotency.store().operations();

    for authorization in [
        None,
        Some(forged.as_str()),
        Some("Bearer"),
        Some("Basic YTpi"),
    ] {
        let response = send(&app, SECURED, authorization, "k").await;

        let problem = e2e::assert_problem(response, StatusCode::UNAUTHORIZED).await;
        assert_eq!(problem["status"], 401, "{authorization:?}");
    }
    assert_eq!(
        app.idempotency.store().operations(),
        operations_before,
        "no claim, no release: the store is never touched"
    );
    assert_eq!(executions.count(), 0);
}

#[tokio::test]
async fn a_secured_keyed_request_without_a_valid_token_is_a_401_that_never_touches_the_store_in_process()
 {
    unproven_callers_never_reach_the_store(RedisChoice::None).await;
}

#[tokio::test]
async fn a_secured_keyed_request_without_a_valid_token_is_a_401_that_never_touches_the_store_on_redis()
 {
    unproven_callers_never_reach_the_store(RedisChoice::Shared).await;
}

#[tokio::test]
async fn two_authorization_headers_are_refused_rather_than_one_picked() {
    let (app, executions) = spawn(TestApp::builder()).await;

    let response = app
        .request(Method::POST, SECURED)
        .idempotency_key("k")
        .header(
            "Authorization",
            format!("Bearer {}", app.token_for("alice")),
        )
        .header("Authorization", format!("Bearer {}", app.token_for("bob")))
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    e2e::assert_problem(response, StatusCode::UNAUTHORIZED).await;
    assert_eq!(executions.count(), 0);
}

#[tokio::test]
async fn a_401_names_the_bearer_scheme() {
    let (app, _) = spawn(TestApp::builder()).await;

    let response = send(&app, SECURED, None, "k").await;

    assert_eq!(
        response.headers().get("www-authenticate").unwrap(),
        "Bearer"
    );
}

#[tokio::test]
async fn anonymous_callers_at_different_addresses_do_not_share_a_scope() {
    let (app, executions) = spawn(TestApp::builder().redis(RedisChoice::Shared)).await;
    let send_from = |last_octet: u8| {
        let client = app.client_from([127, 0, 0, last_octet].into());
        let url = app.url(COUNTED);
        async move {
            client
                .post(url)
                .idempotency_key("k")
                .json(&json!({}))
                .send()
                .await
                .unwrap()
        }
    };

    let first = send_from(2).await;
    let same_address = send_from(2).await;
    let other_address = send_from(3).await;

    assert_eq!(first.status(), StatusCode::CREATED);
    assert!(is_replay(&same_address));
    assert!(!is_replay(&other_address));
    assert_eq!(executions.count(), 2);
}

#[tokio::test]
async fn the_reported_attack_on_things_is_refused() {
    // The reported replay: a thing created with `BEARER`, then the same key and body without a
    // token from the same address.
    let app = TestApp::builder().redis(RedisChoice::Shared).spawn().await;
    let create = |authorization: Option<String>| {
        let mut request = app
            .request(Method::POST, "/api/v1/things")
            .idempotency_key("k")
            .json(&json!({ "name": "lamp" }));
        if let Some(authorization) = authorization {
            request = request.header("Authorization", authorization);
        }
        request.send()
    };
    let created = create(Some(format!("BEARER {}", app.token_for("alice"))))
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);

    let anonymous = create(None).await.unwrap();

    assert!(!is_replay(&anonymous));
    e2e::assert_problem(anonymous, StatusCode::UNAUTHORIZED).await;
}
