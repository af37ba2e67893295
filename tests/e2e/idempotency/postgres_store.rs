//! `idempotency.store = "postgres"`: a fleet with PostgreSQL and no Redis shares its records in
//! the database, and a store the configuration cannot serve stops start-up. (The whole
//! idempotency suite also runs on this store: CI's postgres step, `TEST_IDEMPOTENCY_STORE`.)

use e2e::fixtures::Executions;
use e2e::{RedisChoice, TestApp, WithIdempotencyKey, is_replay, spawn_with_idempotency_fixtures};
use futures_util::future::join_all;
use reqwest::{Method, StatusCode};
use serde_json::json;
use testing::database::TestDatabase;

use super::COUNTED;

/// Two instances without Redis whose records live in one PostgreSQL database.
async fn two_instances_sharing_postgres(executions: &Executions) -> Option<(TestApp, TestApp)> {
    let server = testing::database::postgres_server_for("postgres_store").await?;
    let database = TestDatabase::postgres(&server).await;
    let url = database.url().to_owned();
    let on_postgres = |builder: e2e::TestAppBuilder| {
        builder
            .redis(RedisChoice::None)
            .setting("idempotency.store", "postgres")
    };
    let first = spawn_with_idempotency_fixtures(
        on_postgres(TestApp::builder().database(database)),
        executions,
    )
    .await;
    let second = spawn_with_idempotency_fixtures(
        on_postgres(TestApp::builder().setting("database.url", &url)),
        executions,
    )
    .await;
    Some((first, second))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn duplicates_across_two_instances_sharing_postgres_execute_once() {
    let executions = Executions::default();
    let Some((first, second)) = two_instances_sharing_postgres(&executions).await else {
        return;
    };

    let answers = join_all((0..20).map(|n| {
        let app = if n % 2 == 0 { &first } else { &second };
        async move {
            let response = app
                .request(Method::POST, &format!("{COUNTED}?sleepMs=300"))
                .idempotency_key("shared-key")
                .json(&json!({ "n": 1 }))
                .send()
                .await
                .unwrap();
            (response.status(), is_replay(&response))
        }
    }))
    .await;

    assert_eq!(executions.count(), 1, "one execution across both instances");
    let fresh = answers
        .iter()
        .filter(|(status, replayed)| *status == StatusCode::CREATED && !replayed)
        .count();
    assert_eq!(fresh, 1, "{answers:?}");
    assert!(
        answers
            .iter()
            .all(|(status, _)| *status == StatusCode::CREATED || *status == StatusCode::CONFLICT),
        "{answers:?}"
    );
}

#[tokio::test]
async fn a_retry_on_the_other_instance_is_replayed_from_postgres() {
    let executions = Executions::default();
    let Some((first, second)) = two_instances_sharing_postgres(&executions).await else {
        return;
    };
    let send = |app: &TestApp| {
        app.request(Method::POST, COUNTED)
            .idempotency_key("retried")
            .json(&json!({ "n": 2 }))
            .send()
    };

    let original = send(&first).await.unwrap();
    let retry = send(&second).await.unwrap();

    assert_eq!(original.status(), StatusCode::CREATED);
    assert_eq!(retry.status(), StatusCode::CREATED);
    assert!(is_replay(&retry));
    assert_eq!(original.text().await.unwrap(), retry.text().await.unwrap());
    assert_eq!(executions.count(), 1);
    assert_eq!(first.idempotency.store().backend_name(), "postgres");
}

#[tokio::test]
async fn the_redis_store_without_redis_stops_start_up_naming_the_setting() {
    let error = TestApp::builder()
        .redis(RedisChoice::None)
        .setting("idempotency.store", "redis")
        .start_up_error()
        .await;

    assert!(error.contains("idempotency.store"), "{error}");
}

#[tokio::test]
async fn the_postgres_store_on_sqlite_stops_start_up_naming_the_setting() {
    let error = TestApp::builder()
        .database(TestDatabase::sqlite())
        .setting("idempotency.store", "postgres")
        .start_up_error()
        .await;

    assert!(error.contains("idempotency.store"), "{error}");
}
