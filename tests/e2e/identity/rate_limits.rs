//! Brute-force limits: per client address and per account, answered with 429.

use e2e::{RedisChoice, TestApp, assert_problem};
use reqwest::StatusCode;
use serde_json::json;

use super::Identity;

#[tokio::test]
async fn too_many_logins_from_one_address_are_a_429_with_retry_after() {
    let identity =
        Identity::spawn_with(TestApp::builder().setting("rate_limit.login_per_address", "3")).await;

    for n in 0..3 {
        let response = identity
            .login(&format!("user{n}@example.com"), "wrong password!")
            .await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    let limited = identity.login("user9@example.com", "wrong password!").await;

    assert!(
        limited.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
            >= 1
    );
    assert_problem(limited, StatusCode::TOO_MANY_REQUESTS).await;
}

#[tokio::test]
async fn too_many_logins_on_one_account_are_a_429() {
    let identity =
        Identity::spawn_with(TestApp::builder().setting("rate_limit.login_per_account", "2")).await;

    identity.login("alice@example.com", "wrong password!").await;
    identity.login("ALICE@example.com", "wrong password!").await;
    let limited = identity.login("alice@example.com", "wrong password!").await;

    assert_problem(limited, StatusCode::TOO_MANY_REQUESTS).await;
}

#[tokio::test]
async fn registration_and_reset_mails_are_limited_too() {
    let identity = Identity::spawn_with(
        TestApp::builder()
            .setting("rate_limit.register_per_address", "1")
            .setting("rate_limit.email_per_account", "1"),
    )
    .await;

    identity.register("alice@example.com").await;
    let second_registration = identity.register("bob@example.com").await;
    identity
        .post("/forgot-password", json!({ "email": "alice@example.com" }))
        .await;
    let second_reset = identity
        .post("/forgot-password", json!({ "email": "alice@example.com" }))
        .await;

    assert_problem(second_registration, StatusCode::TOO_MANY_REQUESTS).await;
    assert_problem(second_reset, StatusCode::TOO_MANY_REQUESTS).await;
}

#[tokio::test]
async fn limits_hold_across_instances_sharing_redis() {
    let namespace = format!("test:{}:", testing::unique_suffix());
    let builder = || {
        TestApp::builder()
            .redis(RedisChoice::Shared)
            .setting("redis.key_prefix", &namespace)
            .setting("rate_limit.login_per_account", "3")
    };
    let first = Identity::spawn_with(builder()).await;
    let second = Identity::spawn_with(builder()).await;

    let allowed = [
        first.login("alice@example.com", "wrong password!").await,
        second.login("alice@example.com", "wrong password!").await,
        first.login("alice@example.com", "wrong password!").await,
    ];
    let limited = second.login("alice@example.com", "wrong password!").await;

    for (n, response) in allowed.iter().enumerate() {
        assert_eq!(
            response.status(),
            StatusCode::UNAUTHORIZED,
            "attempt {} of 3 is within the shared limit",
            n + 1
        );
    }
    assert_problem(limited, StatusCode::TOO_MANY_REQUESTS).await;
}

#[tokio::test]
async fn limits_can_be_switched_off() {
    let identity = Identity::spawn_with(
        TestApp::builder()
            .setting("rate_limit.enabled", "false")
            .setting("rate_limit.login_per_address", "1"),
    )
    .await;

    identity.login("alice@example.com", "wrong password!").await;
    let second = identity.login("alice@example.com", "wrong password!").await;

    assert_eq!(second.status(), StatusCode::UNAUTHORIZED);
}
