use e2e::{RedisChoice, TestApp};
use reqwest::StatusCode;
use serde_json::Value;
use testing::redis::RedisServer;
use testing::tools::Suite;

#[tokio::test]
async fn live_answers_ok() {
    let app = TestApp::spawn().await;

    let response = app.get("/health/live").await;

    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn ready_answers_ok_when_the_database_answers_and_redis_is_not_configured() {
    let app = TestApp::spawn().await;

    let response = app.get("/health/ready").await;

    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["database"], "ok");
    assert_eq!(body["redis"], "not configured");
}

#[tokio::test]
async fn ready_checks_redis_when_it_is_configured() {
    let app = TestApp::builder().redis(RedisChoice::Shared).spawn().await;

    let body: Value = app.get("/health/ready").await.json().await.unwrap();

    assert_eq!(body["redis"], "ok");
}

#[tokio::test]
async fn ready_answers_200_degraded_not_503_when_redis_is_down() {
    testing::needs_tools_of!(Suite::PrivateRedis);
    let mut redis = RedisServer::start().expect("the tests start a private redis-server");
    let app = TestApp::builder()
        .redis(RedisChoice::Url(redis.url()))
        .spawn()
        .await;

    redis.stop();
    let response = app.get("/health/ready").await;

    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], "degraded");
    assert_eq!(body["redis"], "unavailable");
}
