//! Revocation everywhere: after a lock, a logout, a session revoke or a password reset, the old
//! access token is refused by every module, on every instance sharing Redis, within a second.

use std::time::Duration;
use testing::tools::Suite;

use e2e::{RedisChoice, TestApp, assert_problem};
use reqwest::StatusCode;
use serde_json::json;
use testing::redis::RedisServer;

use super::{Identity, PASSWORD, Tokens};

/// An endpoint of another module (things), which never looks at the identity tables.
const ELSEWHERE: &str = "/api/v1/things";

/// The target: a revocation reaches every instance within this long.
const WITHIN: Duration = Duration::from_secs(1);

async fn status_elsewhere(identity: &Identity, access: &str) -> StatusCode {
    identity.get_as(access, ELSEWHERE).await.status()
}

/// Polls `identity` with `access` until it answers 401; how long that took, or `None` if it
/// still accepted the token after `limit`.
async fn refused_within(identity: &Identity, access: &str, limit: Duration) -> Option<Duration> {
    let started = tokio::time::Instant::now();
    loop {
        if status_elsewhere(identity, access).await == StatusCode::UNAUTHORIZED {
            return Some(started.elapsed());
        }
        if started.elapsed() > limit {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn lock(identity: &Identity, admin: &Tokens, user_id: &str) {
    let locked = identity.admin_action(&admin.access, "lock", user_id).await;
    assert_eq!(locked.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn a_locked_accounts_token_is_refused_by_every_module_at_once() {
    let identity = Identity::spawn().await;
    let admin = identity.signed_in_admin("admin@example.com").await;
    let alice = identity.signed_in("alice@example.com").await;
    assert_eq!(
        status_elsewhere(&identity, &alice.access).await,
        StatusCode::OK
    );

    lock(&identity, &admin, &identity.user_id(&alice.access).await).await;
    let read = identity.get_as(&alice.access, ELSEWHERE).await;
    let write = identity
        .app
        .request(reqwest::Method::POST, ELSEWHERE)
        .bearer_auth(&alice.access)
        .json(&json!({ "name": "after the lock" }))
        .send()
        .await
        .unwrap();

    assert_problem(read, StatusCode::UNAUTHORIZED).await;
    assert_problem(write, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn a_logged_out_sessions_token_is_refused_without_redis_too() {
    let identity = Identity::spawn().await;
    let alice = identity.signed_in("alice@example.com").await;

    let logout = identity
        .post("/revoke", json!({ "refreshToken": alice.refresh }))
        .await;

    assert_eq!(logout.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        status_elsewhere(&identity, &alice.access).await,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn revoking_one_session_refuses_its_token_and_keeps_the_others() {
    let identity = Identity::spawn().await;
    let laptop = identity.signed_in("alice@example.com").await;
    let phone = super::tokens(identity.login("alice@example.com", PASSWORD).await).await;
    let phone_session = identity.other_session_id(&laptop.access).await;

    let revoked = identity
        .post_as(
            &laptop.access,
            &format!("/api/v1/auth/sessions/{phone_session}/revoke"),
        )
        .await;

    assert_eq!(revoked.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        status_elsewhere(&identity, &phone.access).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        status_elsewhere(&identity, &laptop.access).await,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_password_reset_refuses_every_earlier_token() {
    let identity = Identity::spawn().await;
    let alice = identity.signed_in("alice@example.com").await;
    let reset = identity
        .reset_password_by_mail("alice@example.com", "a brand new passphrase")
        .await;

    assert_eq!(reset.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        status_elsewhere(&identity, &alice.access).await,
        StatusCode::UNAUTHORIZED
    );
    let fresh = super::tokens(
        identity
            .login("alice@example.com", "a brand new passphrase")
            .await,
    )
    .await;
    assert_eq!(
        status_elsewhere(&identity, &fresh.access).await,
        StatusCode::OK
    );
}

/// Two instances sharing one database and one Redis namespace.
async fn two_instances(redis: RedisChoice) -> (Identity, Identity) {
    let namespace = format!("test:{}:", testing::unique_suffix());
    let builder = |redis: RedisChoice| {
        TestApp::builder()
            .redis(redis)
            .setting("redis.key_prefix", &namespace)
    };
    let first = Identity::spawn_with(builder(redis.clone())).await;
    let second =
        Identity::spawn_with(builder(redis).setting("database.url", first.app.database.url()))
            .await;
    (first, second)
}

#[tokio::test]
async fn a_lock_on_one_instance_refuses_the_token_on_another_within_a_second() {
    let (first, second) = two_instances(RedisChoice::Shared).await;
    let admin = first.signed_in_admin("admin@example.com").await;
    let alice = first.signed_in("alice@example.com").await;
    assert_eq!(
        status_elsewhere(&second, &alice.access).await,
        StatusCode::OK
    );

    lock(&first, &admin, &first.user_id(&alice.access).await).await;

    let took = refused_within(&second, &alice.access, WITHIN).await;
    assert!(
        took.is_some(),
        "the other instance still accepted the token a second after the lock"
    );
}

#[tokio::test]
async fn a_logout_on_one_instance_refuses_the_token_on_another_within_a_second() {
    let (first, second) = two_instances(RedisChoice::Shared).await;
    let alice = first.signed_in("alice@example.com").await;
    assert_eq!(
        status_elsewhere(&second, &alice.access).await,
        StatusCode::OK
    );

    first
        .post("/revoke", json!({ "refreshToken": alice.refresh }))
        .await;

    assert!(
        refused_within(&second, &alice.access, WITHIN)
            .await
            .is_some()
    );
}

#[tokio::test]
async fn an_instance_started_after_a_revocation_refuses_the_token_at_once() {
    let namespace = format!("test:{}:", testing::unique_suffix());
    let builder = || {
        TestApp::builder()
            .redis(RedisChoice::Shared)
            .setting("redis.key_prefix", &namespace)
    };
    let first = Identity::spawn_with(builder()).await;
    let alice = first.signed_in("alice@example.com").await;
    first
        .post("/revoke", json!({ "refreshToken": alice.refresh }))
        .await;

    let later = Identity::spawn_with(builder()).await;

    assert_eq!(
        status_elsewhere(&later, &alice.access).await,
        StatusCode::UNAUTHORIZED,
        "a new instance reads the revocations in force before it serves"
    );
}

#[tokio::test]
async fn a_revocation_made_while_redis_was_down_reaches_the_other_instance_when_it_returns() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let mut redis = RedisServer::start().expect("a private redis-server");
    let (first, second) = two_instances(RedisChoice::Url(redis.url())).await;
    let alice = first.signed_in("alice@example.com").await;
    assert_eq!(
        status_elsewhere(&second, &alice.access).await,
        StatusCode::OK
    );
    redis.stop();

    let logout = first
        .post("/revoke", json!({ "refreshToken": alice.refresh }))
        .await;
    let on_first = status_elsewhere(&first, &alice.access).await;
    redis.restart().expect("redis-server restarts");

    assert_eq!(logout.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        on_first,
        StatusCode::UNAUTHORIZED,
        "at once where it was made"
    );
    // The other instance resubscribes with backoff (at most 5 s), then reads the set the first
    // one wrote back.
    assert!(
        refused_within(&second, &alice.access, Duration::from_secs(10))
            .await
            .is_some(),
        "the revocation never reached the other instance after Redis returned"
    );
}
