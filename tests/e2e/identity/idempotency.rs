//! The identity operations honour their declared intents.

use e2e::{WithIdempotencyKey, is_replay};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::{Identity, PASSWORD, tokens};

#[tokio::test]
async fn forgot_password_with_a_repeated_key_is_replayed_and_mails_once() {
    let identity = Identity::spawn().await;
    identity.register("alice@example.com").await;
    let send = || {
        identity
            .app
            .request(Method::POST, "/api/v1/auth/forgot-password")
            .idempotency_key("forgot-1")
            .json(&json!({ "email": "alice@example.com" }))
            .send()
    };

    let first = send().await.unwrap();
    let retry = send().await.unwrap();

    assert_eq!(first.status(), StatusCode::ACCEPTED);
    assert_eq!(retry.status(), StatusCode::ACCEPTED);
    assert!(is_replay(&retry));
    identity
        .token_from_mail("alice@example.com", "reset-password", 1)
        .await;
    let resets = identity
        .mail
        .messages_to("alice@example.com")
        .iter()
        .filter(|m| m.subject().as_deref() == Some("Reset your password"))
        .count();
    assert_eq!(resets, 1, "the replay sent no second mail");
}

#[tokio::test]
async fn confirm_email_with_a_repeated_key_is_replayed() {
    let identity = Identity::spawn().await;
    identity.register("alice@example.com").await;
    let token = identity
        .token_from_mail("alice@example.com", "confirm-email", 1)
        .await;
    let send = || {
        identity
            .app
            .request(Method::POST, "/api/v1/auth/confirm-email")
            .idempotency_key("confirm-1")
            .json(&json!({ "token": token }))
            .send()
    };

    let first = send().await.unwrap();
    let retry = send().await.unwrap();

    assert_eq!(first.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        retry.status(),
        StatusCode::NO_CONTENT,
        "the retry gets the first answer, not 'token already used'"
    );
    assert!(is_replay(&retry));
}

#[tokio::test]
async fn register_login_and_refresh_are_never_replayed_even_with_a_key() {
    let identity = Identity::spawn().await;
    let post = |path: &str, body: Value| {
        identity
            .app
            .request(Method::POST, &format!("/api/v1/auth{path}"))
            .idempotency_key("same-key")
            .json(&body)
            .send()
    };

    let registered = post(
        "/register",
        json!({ "email": "alice@example.com", "password": PASSWORD }),
    )
    .await
    .unwrap();
    let registered_again = post(
        "/register",
        json!({ "email": "alice@example.com", "password": PASSWORD }),
    )
    .await
    .unwrap();
    let login_1 = post(
        "/login",
        json!({ "email": "alice@example.com", "password": PASSWORD }),
    )
    .await
    .unwrap();
    let login_2 = post(
        "/login",
        json!({ "email": "alice@example.com", "password": PASSWORD }),
    )
    .await
    .unwrap();
    assert!(!is_replay(&login_1) && !is_replay(&login_2));
    let (first, second) = (tokens(login_1).await, tokens(login_2).await);
    let refreshed_1 = post("/refresh", json!({ "refreshToken": first.refresh }))
        .await
        .unwrap();
    let refreshed_2 = post("/refresh", json!({ "refreshToken": first.refresh }))
        .await
        .unwrap();

    assert_eq!(registered.status(), StatusCode::CREATED);
    assert_eq!(
        registered_again.status(),
        StatusCode::CONFLICT,
        "a retried register meets the email-exists 409"
    );
    assert!(!is_replay(&registered_again));
    assert_ne!(
        first.refresh, second.refresh,
        "each login issues its own pair"
    );
    assert_eq!(refreshed_1.status(), StatusCode::OK);
    assert!(!is_replay(&refreshed_2));
    assert_eq!(
        refreshed_2.status(),
        StatusCode::UNAUTHORIZED,
        "a second refresh with the same token is reuse, not a replay"
    );
    assert_eq!(
        identity.app.idempotency.store().operations(),
        0,
        "the guard never saw these operations"
    );
}
