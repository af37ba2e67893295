//! A Redis outage degrades the service, never stops it: it starts without Redis, stays ready,
//! keeps credential limits per instance, switches to Redis by itself when it answers, and logs
//! one warning per outage. A configuration that can never work still stops start-up.

use std::time::{Duration, Instant};
use testing::tools::Suite;

use e2e::fixtures::Executions;
use e2e::{CapturedLogs, RedisChoice, TestApp, WithIdempotencyKey, is_replay};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use testing::redis::RedisServer;

const COUNTED: &str = "/api/v1/fixtures/idem/counted";
/// How long the service may take to notice that Redis is back.
const RECOVERY_WITHIN: Duration = Duration::from_secs(15);

/// A private Redis that has been stopped: its port is known and nothing listens there.
fn stopped_redis() -> RedisServer {
    let mut redis = RedisServer::start().expect("the tests start a private redis-server");
    redis.stop();
    redis
}

async fn spawn_on(redis: &RedisServer) -> (TestApp, Executions) {
    let executions = Executions::default();
    let app = e2e::spawn_with_idempotency_fixtures(
        TestApp::builder().redis(RedisChoice::Url(redis.url())),
        &executions,
    )
    .await;
    (app, executions)
}

async fn post_counted(app: &TestApp, key: &str) -> reqwest::Response {
    app.request(Method::POST, COUNTED)
        .idempotency_key(key)
        .json(&json!({}))
        .send()
        .await
        .expect("request failed")
}

async fn readiness(app: &TestApp) -> (StatusCode, Value) {
    let response = app.get("/health/ready").await;
    (response.status(), response.json().await.unwrap_or_default())
}

/// Sends duplicate pairs under fresh keys until one is replayed (Redis is guarding again), and
/// answers after how many attempts; fails the test after [`RECOVERY_WITHIN`].
async fn wait_until_guarded(app: &TestApp) -> u32 {
    let deadline = Instant::now() + RECOVERY_WITHIN;
    let mut attempt = 0;
    loop {
        attempt += 1;
        let key = format!("recovery-{attempt}");
        post_counted(app, &key).await;
        if is_replay(&post_counted(app, &key).await) {
            return attempt;
        }
        assert!(
            Instant::now() < deadline,
            "Redis came back, but the service did not use it within {RECOVERY_WITHIN:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn the_service_starts_while_redis_is_down_and_reports_itself_degraded() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let redis = stopped_redis();

    let (app, _) = spawn_on(&redis).await;

    assert_eq!(app.get("/health/live").await.status(), StatusCode::OK);
    let (status, body) = readiness(&app).await;
    assert_eq!(status, StatusCode::OK, "degraded, not unready: {body}");
    assert_eq!(body["status"], "degraded");
    assert_eq!(body["redis"], "unavailable");
    assert_eq!(body["database"], "ok");
}

#[tokio::test]
async fn keyed_requests_execute_while_redis_has_never_answered() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let redis = stopped_redis();
    let (app, executions) = spawn_on(&redis).await;

    let first = post_counted(&app, "k").await;
    let second = post_counted(&app, "k").await;

    assert_eq!(first.status(), StatusCode::CREATED);
    assert_eq!(second.status(), StatusCode::CREATED);
    assert!(!is_replay(&second), "unguarded: nothing to replay from");
    assert_eq!(executions.count(), 2);
}

#[tokio::test]
async fn the_service_switches_to_redis_when_it_first_answers_without_a_restart() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let mut redis = stopped_redis();
    let (app, _) = spawn_on(&redis).await;
    post_counted(&app, "before").await;

    redis.restart().expect("redis-server starts on its port");
    wait_until_guarded(&app).await;

    let (status, body) = readiness(&app).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["status"], "ok", "{body}");
    assert_eq!(body["redis"], "ok", "{body}");
}

#[tokio::test]
async fn readiness_stays_200_degraded_when_redis_stops_while_serving() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let mut redis = RedisServer::start().expect("the tests start a private redis-server");
    let (app, _) = spawn_on(&redis).await;
    assert_eq!(readiness(&app).await.1["status"], "ok");

    redis.stop();
    let (status, body) = readiness(&app).await;

    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["status"], "degraded");
    assert_eq!(body["redis"], "unavailable");
}

#[tokio::test]
async fn an_outage_is_logged_once_when_it_begins_and_once_when_it_ends() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let logs = CapturedLogs::install();
    let mut redis = RedisServer::start().expect("the tests start a private redis-server");
    let (app, executions) = spawn_on(&redis).await;
    post_counted(&app, "before").await;

    redis.stop();
    for n in 0..5 {
        let response = post_counted(&app, &format!("during-{n}")).await;
        assert_eq!(response.status(), StatusCode::CREATED);
    }
    redis.restart().expect("redis-server restarts");
    wait_until_guarded(&app).await;

    // Every warning about the store, whatever its wording: there must be one.
    let began = logs.count(tracing::Level::WARN, "idempotency");
    let ended = logs.count(tracing::Level::INFO, "idempotency store available again");
    assert_eq!(began, 1, "one warning for the outage: {:#?}", logs.all());
    assert_eq!(
        logs.count(tracing::Level::WARN, "idempotency store unavailable"),
        1
    );
    assert_eq!(ended, 1, "one line for the recovery: {:#?}", logs.all());
    assert!(
        app.idempotency.metrics().degraded >= 5,
        "every unguarded request is still counted"
    );
    assert_eq!(app.idempotency.store_outages(), 1);
    assert!(executions.count() >= 6);
}

#[tokio::test]
async fn credential_rate_limits_still_hold_per_instance_while_redis_is_down() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let redis = stopped_redis();
    let app = TestApp::builder()
        .redis(RedisChoice::Url(redis.url()))
        .setting("rate_limit.failed_logins_per_account", "2")
        .spawn()
        .await;
    let login = || {
        app.request(Method::POST, "/api/v1/auth/login")
            .json(&json!({ "email": "alice@example.com", "password": "wrong password!" }))
            .send()
    };

    let first = login().await.unwrap();
    let second = login().await.unwrap();
    let third = login().await.unwrap();

    assert_eq!(first.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(second.status(), StatusCode::UNAUTHORIZED);
    e2e::assert_problem(third, StatusCode::TOO_MANY_REQUESTS).await;
}

#[tokio::test]
async fn a_wrong_redis_password_stops_start_up_naming_redis_url() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let redis = RedisServer::start_with_password("the-right-one").expect("a private redis-server");
    let wrong = format!("redis://:the-wrong-one@127.0.0.1:{}", redis.port());

    let error = TestApp::builder()
        .redis(RedisChoice::Url(wrong))
        .start_up_error()
        .await;

    assert!(error.contains("redis.url"), "{error}");
}

#[tokio::test]
async fn a_missing_redis_password_stops_start_up_naming_redis_url() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let redis = RedisServer::start_with_password("the-right-one").expect("a private redis-server");

    let error = TestApp::builder()
        .redis(RedisChoice::Url(redis.url_without_password()))
        .start_up_error()
        .await;

    assert!(error.contains("redis.url"), "{error}");
}

#[tokio::test]
async fn a_malformed_redis_url_stops_start_up_naming_redis_url() {
    let error = TestApp::builder()
        .redis(RedisChoice::Url("redis://127.0.0.1:not-a-port".to_owned()))
        .start_up_error()
        .await;

    assert!(error.contains("redis.url"), "{error}");
}

#[tokio::test]
async fn the_right_redis_password_is_used() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let redis = RedisServer::start_with_password("the-right-one").expect("a private redis-server");
    let (app, executions) = spawn_on(&redis).await;

    post_counted(&app, "k").await;
    let retry = post_counted(&app, "k").await;

    assert!(is_replay(&retry));
    assert_eq!(executions.count(), 1);
    assert_eq!(readiness(&app).await.1["redis"], "ok");
}
