//! Durable operations (every `#[idempotent]` one whose effect is in the database) commit their
//! answer with their effect, in one database transaction. When the store lost the answer (the
//! process died after the commit, a Redis master failed over before replicating it, the store
//! was down), a retry replays the committed answer instead of executing again, and concurrent
//! duplicates that both reach a handler leave one effect and give one answer. The store losing
//! its records is done here by deleting them from Redis; the real crash, a process aborted
//! after the commit, is the `crash` test binary's.

use e2e::fixtures::EffectsFixtureApi;
use e2e::{RedisChoice, TestApp, TestAppBuilder, assert_problem, is_replay};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use sqlx::Row as _;
use testing::database::TestDatabase;
use testing::fault::Statement;

const TRANSACTIONAL: &str = "/api/v1/fixtures/effects/transactional";
const PLAIN: &str = "/api/v1/fixtures/effects/plain";

/// A service on Redis with the effects fixtures, sharing its database with them.
struct Effects {
    app: TestApp,
    fixture: EffectsFixtureApi,
}

impl Effects {
    async fn spawn() -> Self {
        Self::spawn_with(TestApp::builder().redis(RedisChoice::Shared)).await
    }

    async fn spawn_with(builder: TestAppBuilder) -> Self {
        let database = TestDatabase::create().await;
        let fixture = EffectsFixtureApi::connect(database.url()).await;
        let app = builder.database(database).spawn_with(fixture.clone()).await;
        Self { app, fixture }
    }

    async fn post(&self, path: &str, key: &str, label: &str) -> reqwest::Response {
        self.app
            .request(Method::POST, path)
            .header("idempotency-key", key)
            .json(&json!({ "label": label }))
            .send()
            .await
            .expect("request failed")
    }

    /// Deletes every record the store holds for this service: what a store is left with when
    /// the process died between the commit and keeping the response.
    async fn lose_store_records(&self) {
        let lost = self.app.lose_idempotency_records().await;
        assert!(lost > 0, "the store held records to lose");
    }

    async fn committed_outcomes(&self) -> i64 {
        sqlx::query("SELECT COUNT(*) AS n FROM idempotency_outcomes")
            .fetch_one(self.fixture.pool())
            .await
            .and_then(|row| row.try_get("n"))
            .expect("counting committed outcomes")
    }
}

#[tokio::test]
async fn the_answer_is_committed_with_the_effect_and_replayed() {
    let effects = Effects::spawn().await;

    let first = effects.post(TRANSACTIONAL, "k1", "a").await;
    let retry = effects.post(TRANSACTIONAL, "k1", "a").await;

    assert_eq!(first.status(), StatusCode::CREATED);
    assert!(is_replay(&retry));
    let (first, retry): (Value, Value) = (first.json().await.unwrap(), retry.json().await.unwrap());
    assert_eq!(first, retry);
    assert_eq!(effects.committed_outcomes().await, 1);
    assert_eq!(effects.fixture.effects("a").await, 1);
}

#[tokio::test]
async fn without_a_key_nothing_is_committed_but_the_effect() {
    let effects = Effects::spawn().await;

    let response = effects
        .app
        .request(Method::POST, TRANSACTIONAL)
        .json(&json!({ "label": "a" }))
        .send()
        .await
        .unwrap();

    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(effects.committed_outcomes().await, 0);
    assert_eq!(effects.fixture.effects("a").await, 1);
}

#[tokio::test]
async fn when_the_store_lost_the_answer_the_committed_one_is_replayed() {
    let effects = Effects::spawn().await;
    let first: Value = effects
        .post(TRANSACTIONAL, "k1", "a")
        .await
        .json()
        .await
        .unwrap();
    effects.lose_store_records().await;

    let recovered = effects.post(TRANSACTIONAL, "k1", "a").await;
    let again = effects.post(TRANSACTIONAL, "k1", "a").await;

    assert_eq!(recovered.status(), StatusCode::CREATED);
    assert!(is_replay(&recovered));
    assert_eq!(recovered.json::<Value>().await.unwrap(), first);
    assert!(is_replay(&again), "replayed from the store again");
    assert_eq!(effects.fixture.effects("a").await, 1, "executed once");
    assert_eq!(
        effects.app.idempotency.metrics().recovered,
        1,
        "the second replay came from the store, which the first one refilled"
    );
}

#[tokio::test]
async fn a_recovered_answer_is_kept_in_the_store_only_as_long_as_the_database_keeps_it() {
    let effects = Effects::spawn().await;
    effects.post(TRANSACTIONAL, "k1", "a").await;
    effects.lose_store_records().await;
    // The outcome was committed 23 of its 24 hours ago.
    sqlx::query("UPDATE idempotency_outcomes SET expires_at_ms = expires_at_ms - 82800000")
        .execute(effects.fixture.pool())
        .await
        .expect("aging the committed outcome");

    let recovered = effects.post(TRANSACTIONAL, "k1", "a").await;

    assert!(is_replay(&recovered));
    let records = effects.app.idempotency_records().await;
    assert_eq!(records.len(), 1, "{records:?}");
    let hour_ms = 60 * 60 * 1000;
    assert!(
        records[0].1 > hour_ms - 60_000 && records[0].1 <= hour_ms,
        "kept {} ms, not a fresh retention",
        records[0].1
    );
}

#[tokio::test]
async fn a_plain_idempotent_operation_executes_again_when_the_store_lost_the_answer() {
    let effects = Effects::spawn().await;
    effects.post(PLAIN, "k1", "a").await;
    effects.lose_store_records().await;

    let retry = effects.post(PLAIN, "k1", "a").await;

    assert_eq!(retry.status(), StatusCode::CREATED);
    assert!(!is_replay(&retry));
    assert_eq!(
        effects.fixture.effects("a").await,
        2,
        "the window a durable operation closes"
    );
}

#[tokio::test]
async fn a_committed_answer_is_not_replayed_for_another_payload() {
    let effects = Effects::spawn().await;
    effects.post(TRANSACTIONAL, "k1", "a").await;
    effects.lose_store_records().await;

    let reused = effects.post(TRANSACTIONAL, "k1", "b").await;

    assert_problem(reused, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(effects.fixture.effects("b").await, 0);
}

#[tokio::test]
async fn an_answer_that_cannot_be_committed_takes_the_effect_with_it() {
    let effects = Effects::spawn().await;
    let fault = effects
        .app
        .database
        .inject_fault("idempotency_outcomes", Statement::Insert)
        .await;

    let failed = effects.post(TRANSACTIONAL, "k1", "a").await;
    let effects_after_failure = effects.fixture.effects("a").await;
    fault.remove().await;
    let retried = effects.post(TRANSACTIONAL, "k1", "a").await;

    assert_problem(failed, StatusCode::INTERNAL_SERVER_ERROR).await;
    assert_eq!(effects_after_failure, 0, "the effect was rolled back");
    assert_eq!(retried.status(), StatusCode::CREATED);
    assert!(!is_replay(&retried), "the failure released the key");
    assert_eq!(effects.fixture.effects("a").await, 1);
}

#[tokio::test]
async fn committed_answers_are_swept_after_the_retention() {
    let effects = Effects::spawn_with(
        TestApp::builder()
            .redis(RedisChoice::Shared)
            .setting("idempotency.retention", "1s")
            .setting("idempotency.lock_ttl", "1s"),
    )
    .await;
    effects.post(TRANSACTIONAL, "k1", "a").await;
    let durable = effects
        .app
        .idempotency
        .durable_outcomes()
        .expect("the host keeps committed outcomes")
        .clone();

    let swept_early = durable.sweep().await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
    let swept = durable.sweep().await.unwrap();

    assert_eq!(swept_early, 0);
    assert_eq!(swept, 1);
    assert_eq!(effects.committed_outcomes().await, 0);
}

#[tokio::test]
async fn while_the_store_is_down_a_retry_still_replays_the_committed_answer() {
    // Nothing listens on port 1: every store call fails at once, and the guard fails open.
    let effects = Effects::spawn_with(
        TestApp::builder().redis(RedisChoice::Url("redis://127.0.0.1:1".to_owned())),
    )
    .await;

    let first = effects.post(TRANSACTIONAL, "k1", "a").await;
    let retry = effects.post(TRANSACTIONAL, "k1", "a").await;
    let plain_first = effects.post(PLAIN, "k2", "b").await;
    let plain_retry = effects.post(PLAIN, "k2", "b").await;

    assert_eq!(first.status(), StatusCode::CREATED);
    assert!(is_replay(&retry), "replayed from the database");
    assert_eq!(effects.fixture.effects("a").await, 1);
    assert_eq!(plain_first.status(), StatusCode::CREATED);
    assert!(!is_replay(&plain_retry));
    assert_eq!(
        effects.fixture.effects("b").await,
        2,
        "a plain operation runs unguarded while the store is down"
    );
}

// The worked example, durable as every entity module is by default.

const THINGS: &str = "/api/v1/things";

/// Creates a thing named `name` for alice under `key`.
async fn create_thing(app: &TestApp, key: &str, name: &str) -> reqwest::Response {
    app.request(Method::POST, THINGS)
        .bearer_auth(app.token_for("alice"))
        .header("idempotency-key", key)
        .json(&json!({ "name": name }))
        .send()
        .await
        .expect("request failed")
}

/// How many things alice holds.
async fn things_of_alice(app: &TestApp) -> u64 {
    let page: Value = app
        .request(Method::GET, THINGS)
        .bearer_auth(app.token_for("alice"))
        .send()
        .await
        .expect("request failed")
        .json()
        .await
        .expect("a page");
    page["total"].as_u64().expect("a total")
}

#[tokio::test]
async fn a_thing_whose_answer_the_store_lost_is_replayed_from_the_database_not_created_again() {
    let effects = Effects::spawn().await;
    let first: Value = create_thing(&effects.app, "k1", "lamp")
        .await
        .json()
        .await
        .unwrap();
    effects.lose_store_records().await;

    let retry = create_thing(&effects.app, "k1", "lamp").await;

    assert_eq!(retry.status(), StatusCode::CREATED);
    assert!(is_replay(&retry), "the committed answer is replayed");
    assert_eq!(retry.json::<Value>().await.unwrap(), first);
    assert_eq!(things_of_alice(&effects.app).await, 1, "created once");
    assert_eq!(effects.app.idempotency.metrics().recovered, 1);
}

#[tokio::test]
async fn a_thing_whose_answer_the_store_lost_is_not_replayed_for_another_body() {
    let effects = Effects::spawn().await;
    create_thing(&effects.app, "k1", "lamp").await;
    effects.lose_store_records().await;

    let reused = create_thing(&effects.app, "k1", "chair").await;

    assert_problem(reused, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(things_of_alice(&effects.app).await, 1);
}

#[tokio::test]
async fn a_first_execution_reads_no_committed_outcome() {
    let effects = Effects::spawn().await;

    let created = create_thing(&effects.app, "k1", "lamp").await;

    assert_eq!(created.status(), StatusCode::CREATED);
    assert_eq!(
        effects.app.idempotency.outcome_reads(),
        0,
        "the primary key is the check: nothing is read before the handler"
    );
    assert_eq!(effects.committed_outcomes().await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_duplicates_while_the_store_is_down_create_one_thing_and_give_one_answer() {
    // Nothing listens there: every claim fails, and the guard fails open.
    let effects = Effects::spawn_with(
        TestApp::builder().redis(RedisChoice::Url("redis://127.0.0.1:1".into())),
    )
    .await;

    let answers =
        futures_util::future::join_all((0..8).map(|_| create_thing(&effects.app, "k1", "lamp")))
            .await;

    let mut bodies = Vec::new();
    for answer in answers {
        assert_eq!(answer.status(), StatusCode::CREATED, "never a 500");
        bodies.push(answer.json::<Value>().await.unwrap());
    }
    assert!(
        bodies.iter().all(|body| body == &bodies[0]),
        "one answer: {bodies:?}"
    );
    assert_eq!(things_of_alice(&effects.app).await, 1, "one effect");
    assert!(
        effects.app.idempotency.metrics().degraded >= 8,
        "the store was down"
    );
}

#[tokio::test]
async fn an_answer_over_the_size_bound_is_given_but_not_kept_counted_and_said_once() {
    let logs = e2e::CapturedLogs::install();
    let effects = Effects::spawn_with(
        TestApp::builder()
            .redis(RedisChoice::Shared)
            .setting("idempotency.max_response_bytes", "64"),
    )
    .await;
    let long_name = "a lamp whose name alone is longer than sixty-four bytes of answer";

    let first = create_thing(&effects.app, "k1", long_name).await;
    let retry = create_thing(&effects.app, "k1", long_name).await;

    assert_eq!(first.status(), StatusCode::CREATED);
    assert_eq!(retry.status(), StatusCode::CREATED);
    assert!(!is_replay(&retry), "nothing was kept to replay");
    assert_eq!(effects.committed_outcomes().await, 0, "nor committed");
    assert_eq!(things_of_alice(&effects.app).await, 2);
    assert_eq!(effects.app.idempotency.metrics().too_large_to_keep, 2);
    assert_eq!(
        logs.count(tracing::Level::WARN, "over idempotency.max_response_bytes"),
        1,
        "said once, counted every time"
    );
}
