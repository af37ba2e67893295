//! Test-only operations, mounted beside the modules to provoke what real operations should
//! never do (panic) or do only rarely (run slowly), and to count what the idempotency layer
//! lets execute.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use poem::Body;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Binary, Json, PlainText};
use poem_openapi::{ApiResponse, Object, OpenApi};
use serde_json::{Value, json};

kernel::operation_error! {
    /// How a fixture operation fails: only by a fault (500), which every operation documents.
    pub FixtureError {}
}

/// Operations under `/api/v1/fixtures`.
pub struct FixtureApi;

#[poem_idempotency::intents]
#[OpenApi(prefix_path = "/fixtures")]
impl FixtureApi {
    /// Panics.
    #[oai(path = "/panic", method = "get", operation_id = "fixturePanic")]
    async fn panic(&self) -> PlainText<String> {
        panic!("secret internals that must not leak")
    }

    /// Sleeps `ms` milliseconds, then answers.
    #[oai(path = "/slow", method = "get", operation_id = "fixtureSlow")]
    async fn slow(&self, ms: Query<u64>) -> PlainText<String> {
        tokio::time::sleep(Duration::from_millis(ms.0)).await;
        PlainText("done".to_owned())
    }
}

/// Counts what the idempotency fixtures execute. Clone it into two services to count across
/// instances. It also holds the first execution of `/held` until the test releases it.
#[derive(Clone)]
pub struct Executions {
    count: Arc<AtomicU64>,
    first_held: Arc<tokio::sync::Semaphore>,
}

impl Default for Executions {
    fn default() -> Self {
        Self {
            count: Arc::default(),
            first_held: Arc::new(tokio::sync::Semaphore::new(0)),
        }
    }
}

impl Executions {
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::SeqCst)
    }

    /// Counts one execution and returns its number, from 1.
    pub fn record(&self) -> u64 {
        self.count.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// Lets the held first execution of `/held` answer.
    pub fn release_first(&self) {
        self.first_held.add_permits(1);
    }

    /// Waits until `n` executions have been counted (polling; bounded by the caller's timeout).
    pub async fn until(&self, n: u64) {
        while self.count() < n {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

/// What the counted fixture answers.
#[derive(Debug, Object)]
pub struct Execution {
    /// 1 for the first execution, 2 for the second...
    pub execution: u64,
    /// The request body, echoed.
    pub echo: Value,
}

#[derive(ApiResponse)]
pub enum CountedResponse {
    #[oai(status = 201)]
    Created(
        Json<Execution>,
        #[oai(header = "Location")] String,
        #[oai(header = "ETag")] String,
    ),
}

#[derive(ApiResponse)]
pub enum EmptyResponse {
    #[oai(status = 204)]
    NoContent,
}

#[derive(ApiResponse)]
pub enum VariousResponse {
    #[oai(status = 200)]
    Json(Json<Execution>),
    #[oai(status = 200)]
    Text(PlainText<String>),
    #[oai(status = 200, content_type = "application/json")]
    Streamed(Binary<Body>),
    #[oai(status = 303)]
    SeeOther(#[oai(header = "Location")] String),
    #[oai(status = 409, content_type = "application/problem+json")]
    Conflict(Json<kernel::Problem>),
}

/// Idempotent (and one plain) operations under `/api/v1/fixtures/idem`, counting executions.
pub struct IdempotencyFixtureApi {
    pub executions: Executions,
}

impl IdempotencyFixtureApi {
    pub fn new(executions: Executions) -> Self {
        Self { executions }
    }

    fn execute(&self, echo: Value) -> Execution {
        Execution {
            execution: self.executions.record(),
            echo,
        }
    }

    async fn counted_response(&self, sleep_ms: Option<u64>, body: Value) -> CountedResponse {
        if let Some(ms) = sleep_ms {
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
        let execution = self.execute(body);
        let id = execution.execution;
        CountedResponse::Created(
            Json(execution),
            format!("/api/v1/fixtures/idem/{id}"),
            format!("\"v{id}\""),
        )
    }
}

#[poem_idempotency::intents]
#[OpenApi(prefix_path = "/fixtures/idem")]
impl IdempotencyFixtureApi {
    /// Sleeps `sleepMs`, counts, answers 201 with `Location` and `ETag`.
    #[idempotent(outside_database = "counts its executions in memory, for the tests")]
    #[oai(path = "/counted", method = "post", operation_id = "fixtureCounted")]
    async fn counted(
        &self,
        #[oai(name = "sleepMs")] sleep_ms: Query<Option<u64>>,
        body: Json<Value>,
    ) -> CountedResponse {
        self.counted_response(sleep_ms.0, body.0).await
    }

    /// The same as `counted`, at another route.
    #[idempotent(outside_database = "counts its executions in memory, for the tests")]
    #[oai(
        path = "/counted-too",
        method = "post",
        operation_id = "fixtureCountedToo"
    )]
    async fn counted_too(&self, body: Json<Value>) -> CountedResponse {
        self.counted_response(None, body.0).await
    }

    /// The same as `counted`, but not wrapped by the guard.
    #[non_idempotent("the unguarded baseline that tests and benchmarks compare against")]
    #[oai(path = "/plain", method = "post", operation_id = "fixturePlain")]
    async fn plain(&self, body: Json<Value>) -> CountedResponse {
        self.counted_response(None, body.0).await
    }

    /// The same as `counted`, but refusing requests without a key.
    #[idempotent(
        key_required,
        outside_database = "counts its executions in memory, for the tests"
    )]
    #[oai(path = "/required", method = "post", operation_id = "fixtureRequired")]
    async fn required(&self, body: Json<Value>) -> CountedResponse {
        self.counted_response(None, body.0).await
    }

    /// Counts, answers with the item id: one route template, many concrete paths.
    #[idempotent(outside_database = "counts its executions in memory, for the tests")]
    #[oai(path = "/items/:id", method = "put", operation_id = "fixtureItem")]
    async fn item(&self, id: Path<String>, body: Json<Value>) -> VariousResponse {
        VariousResponse::Json(Json(self.execute(json!({ "id": id.0, "body": body.0 }))))
    }

    /// The same as `counted`, for a signed-in caller only; echoes the caller's id.
    #[idempotent(outside_database = "counts its executions in memory, for the tests")]
    #[oai(path = "/secured", method = "post", operation_id = "fixtureSecured")]
    async fn secured(&self, auth: kernel::BearerAuth, body: Json<Value>) -> CountedResponse {
        self.counted_response(None, json!({ "caller": auth.0.subject, "body": body.0 }))
            .await
    }

    /// The same as `counted`, but failing closed: 503 rather than unguarded when the store fails.
    #[idempotent(
        on_store_failure = "reject",
        outside_database = "counts its executions in memory, for the tests"
    )]
    #[oai(
        path = "/fail-closed",
        method = "post",
        operation_id = "fixtureFailClosed"
    )]
    async fn fail_closed(&self, body: Json<Value>) -> CountedResponse {
        self.counted_response(None, body.0).await
    }

    /// Counts, then panics on its first execution; answers like `counted` after that.
    #[idempotent(outside_database = "counts its executions in memory, for the tests")]
    #[oai(path = "/panics", method = "post", operation_id = "fixturePanics")]
    async fn panics(&self, body: Json<Value>) -> CountedResponse {
        let response = self.counted_response(None, body.0).await;
        if self.executions.count() == 1 {
            panic!("a handler bug on the first execution");
        }
        response
    }

    /// Counts, then answers like `counted`; its first execution waits until the test calls
    /// `Executions::release_first`, so a test can order two executions' ends.
    #[idempotent(outside_database = "counts its executions in memory, for the tests")]
    #[oai(path = "/held", method = "post", operation_id = "fixtureHeld")]
    async fn held(&self, body: Json<Value>) -> CountedResponse {
        let execution = self.execute(body.0);
        if execution.execution == 1 {
            let _permit = self.executions.first_held.acquire().await;
        }
        let id = execution.execution;
        CountedResponse::Created(
            Json(execution),
            format!("/api/v1/fixtures/idem/{id}"),
            format!("\"v{id}\""),
        )
    }

    /// Counts, answers 204 with no body.
    #[idempotent(outside_database = "counts its executions in memory, for the tests")]
    #[oai(path = "/empty", method = "post", operation_id = "fixtureEmpty")]
    async fn empty(&self) -> EmptyResponse {
        self.executions.record();
        EmptyResponse::NoContent
    }

    /// Fails with a 500 on its first execution, then succeeds.
    #[idempotent(outside_database = "counts its executions in memory, for the tests")]
    #[oai(path = "/flaky", method = "post", operation_id = "fixtureFlaky")]
    async fn flaky(&self) -> Result<VariousResponse, FixtureError> {
        let execution = self.execute(Value::Null);
        if execution.execution == 1 {
            return Err(kernel::AppError::internal("a transient fault").into());
        }
        Ok(VariousResponse::Json(Json(execution)))
    }

    /// Answers `kind`: a 409 problem, text, a streamed JSON body, a redirect, or JSON.
    #[idempotent(outside_database = "counts its executions in memory, for the tests")]
    #[oai(path = "/various", method = "post", operation_id = "fixtureVarious")]
    async fn various(&self, kind: Query<String>) -> VariousResponse {
        let execution = self.execute(Value::Null);
        match kind.0.as_str() {
            "conflict" => VariousResponse::Conflict(Json(
                kernel::Problem::from_status(poem::http::StatusCode::CONFLICT)
                    .with_detail("try again"),
            )),
            "text" => {
                VariousResponse::Text(PlainText(format!("execution {}", execution.execution)))
            }
            "stream" => {
                let chunks = futures_util::stream::iter(vec![Ok::<_, std::io::Error>(
                    bytes::Bytes::from_static(b"{\"streamed\":true}"),
                )]);
                VariousResponse::Streamed(Binary(Body::from_bytes_stream(chunks)))
            }
            "redirect" => VariousResponse::SeeOther("/elsewhere".to_owned()),
            _ => VariousResponse::Json(Json(Execution {
                echo: json!("x".repeat(2_000)),
                ..execution
            })),
        }
    }
}

/// Operations under `/api/v1/fixtures/effects` that leave a row in `fixture_effects` (their
/// side effect, counted by the tests) in one database transaction: one durable (its answer
/// committed with the effect), one that commits the effect alone, to show the difference a crash
/// after the commit makes.
#[derive(Clone)]
pub struct EffectsFixtureApi {
    pool: sqlx::AnyPool,
}

/// The effect's label, which the tests count by.
#[derive(Debug, Object)]
pub struct EffectInput {
    pub label: String,
}

/// The row an effect left.
#[derive(Debug, Object)]
pub struct Effect {
    pub id: String,
    pub label: String,
}

#[derive(ApiResponse)]
pub enum EffectResponse {
    /// The effect took place.
    #[oai(status = 201)]
    Created(Json<Effect>),
}

impl EffectsFixtureApi {
    /// Connects to the service's database (`database_url`) and makes the effects table.
    pub async fn connect(database_url: &str) -> Self {
        sqlx::any::install_default_drivers();
        // Before the service starts, the SQLite file may not exist yet.
        let url = match database_url.starts_with("sqlite:") && !database_url.contains('?') {
            true => format!("{database_url}?mode=rwc"),
            false => database_url.to_owned(),
        };
        let pool = sqlx::any::AnyPoolOptions::new()
            .max_connections(2)
            .connect(&url)
            .await
            .expect("the fixture connects to the test database");
        sqlx::query(
            "CREATE TABLE IF NOT EXISTS fixture_effects (id TEXT PRIMARY KEY, label TEXT NOT NULL)",
        )
        .execute(&pool)
        .await
        .expect("the fixture makes its table");
        Self { pool }
    }

    /// The service's database, for tests that look at it.
    pub fn pool(&self) -> &sqlx::AnyPool {
        &self.pool
    }

    /// The labels that more than one effect carries: the keys whose operation took effect twice.
    pub async fn labels_with_more_than_one_effect(&self) -> Vec<String> {
        use sqlx::Row as _;
        sqlx::query("SELECT label FROM fixture_effects GROUP BY label HAVING COUNT(*) > 1")
            .fetch_all(&self.pool)
            .await
            .expect("grouping effects")
            .iter()
            .map(|row| row.try_get("label").expect("a label"))
            .collect()
    }

    /// How many effects carry `label`.
    pub async fn effects(&self, label: &str) -> i64 {
        use sqlx::Row as _;
        sqlx::query("SELECT COUNT(*) AS n FROM fixture_effects WHERE label = $1")
            .bind(label)
            .fetch_one(&self.pool)
            .await
            .and_then(|row| row.try_get("n"))
            .expect("counting effects")
    }

    /// Inserts the effect in `transaction`.
    async fn take_effect(
        transaction: &mut sqlx::AnyConnection,
        label: String,
    ) -> kernel::AppResult<Effect> {
        let effect = Effect {
            id: uuid::Uuid::new_v4().to_string(),
            label,
        };
        sqlx::query("INSERT INTO fixture_effects (id, label) VALUES ($1, $2)")
            .bind(&effect.id)
            .bind(&effect.label)
            .execute(&mut *transaction)
            .await?;
        Ok(effect)
    }
}

#[poem_idempotency::intents]
#[OpenApi(prefix_path = "/fixtures/effects")]
impl EffectsFixtureApi {
    /// Takes effect and commits its answer with it.
    #[idempotent]
    #[oai(
        path = "/transactional",
        method = "post",
        operation_id = "fixtureEffectTransactional"
    )]
    async fn transactional(
        &self,
        outcome: poem_idempotency::OutcomeRecorder,
        body: Json<EffectInput>,
    ) -> Result<poem_idempotency::Recorded<EffectResponse>, FixtureError> {
        let mut transaction = outcome.begin(&self.pool).await?;
        let effect = Self::take_effect(&mut transaction, body.0.label).await?;
        Ok(transaction
            .commit(EffectResponse::Created(Json(effect)))
            .await?)
    }

    /// Takes effect; the answer is kept only by the idempotency store.
    #[idempotent(
        outside_database = "the baseline: commits its effect without its answer, to show what a crash after the commit does then"
    )]
    #[oai(path = "/plain", method = "post", operation_id = "fixtureEffectPlain")]
    async fn plain(&self, body: Json<EffectInput>) -> Result<EffectResponse, FixtureError> {
        let mut transaction = self.pool.begin().await?;
        let effect = Self::take_effect(&mut transaction, body.0.label).await?;
        transaction.commit().await?;
        Ok(EffectResponse::Created(Json(effect)))
    }
}

/// [`EffectsFixtureApi`]'s two operations written through a `PgPool`, the pool's own driver
/// rather than the service's `Any` (what a service written with `sqlx::query!` on PostgreSQL
/// does), under `/api/v1/fixtures/pg-effects`. The bench compares what a durable answer costs
/// on each (`--transactional-cost` with a PostgreSQL `TEST_DATABASE_URL`).
#[derive(Clone)]
pub struct PgEffectsFixtureApi {
    pool: sqlx::PgPool,
}

impl PgEffectsFixtureApi {
    /// Connects to the service's PostgreSQL database and makes the effects table.
    pub async fn connect(database_url: &str) -> Self {
        let pool = sqlx::postgres::PgPoolOptions::new()
            .max_connections(2)
            .connect(database_url)
            .await
            .expect("the fixture connects to the test database");
        sqlx::query(
            "CREATE TABLE IF NOT EXISTS fixture_effects (id TEXT PRIMARY KEY, label TEXT NOT NULL)",
        )
        .execute(&pool)
        .await
        .expect("the fixture makes its table");
        Self { pool }
    }

    /// Inserts the effect in `transaction`.
    async fn take_effect(
        transaction: &mut sqlx::PgConnection,
        label: String,
    ) -> kernel::AppResult<Effect> {
        let effect = Effect {
            id: uuid::Uuid::new_v4().to_string(),
            label,
        };
        sqlx::query("INSERT INTO fixture_effects (id, label) VALUES ($1, $2)")
            .bind(&effect.id)
            .bind(&effect.label)
            .execute(&mut *transaction)
            .await?;
        Ok(effect)
    }
}

#[poem_idempotency::intents]
#[OpenApi(prefix_path = "/fixtures/pg-effects")]
impl PgEffectsFixtureApi {
    /// Takes effect through a `PgPool` and commits its answer with it.
    #[idempotent]
    #[oai(
        path = "/transactional",
        method = "post",
        operation_id = "fixturePgEffectTransactional"
    )]
    async fn transactional(
        &self,
        outcome: poem_idempotency::OutcomeRecorder,
        body: Json<EffectInput>,
    ) -> Result<poem_idempotency::Recorded<EffectResponse>, FixtureError> {
        let mut transaction = outcome.begin(&self.pool).await?;
        let effect = Self::take_effect(&mut transaction, body.0.label).await?;
        Ok(transaction
            .commit(EffectResponse::Created(Json(effect)))
            .await?)
    }

    /// Takes effect through a `PgPool`; the answer is kept only by the idempotency store.
    #[idempotent(outside_database = "the baseline of the durable operation beside it")]
    #[oai(
        path = "/plain",
        method = "post",
        operation_id = "fixturePgEffectPlain"
    )]
    async fn plain(&self, body: Json<EffectInput>) -> Result<EffectResponse, FixtureError> {
        let mut transaction = self.pool.begin().await?;
        let effect = Self::take_effect(&mut transaction, body.0.label).await?;
        transaction.commit().await?;
        Ok(EffectResponse::Created(Json(effect)))
    }
}
