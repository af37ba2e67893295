//! Durable outcomes on a `PgPool`, tried over HTTP against the example service
//! (`examples/ledger`, its writes in `sqlx::query!`) on a real socket, each test in a schema of
//! its own of the PostgreSQL at `TEST_DATABASE_URL` (default the local server; the tests fail
//! without one, never skip).

#[path = "../examples/ledger/service.rs"]
#[allow(dead_code)]
mod service;

use std::str::FromStr as _;
use std::sync::Arc;

use poem::Server;
use poem::listener::{Acceptor as _, Listener as _, TcpListener};
use poem_idempotency::{DurableOutcomes, Idempotency, IdempotencySettings};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::PgPool;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use tokio::task::JoinHandle;

fn database_url() -> String {
    std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|url| url.starts_with("postgres"))
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

/// A pool whose connections work in a fresh schema, with the ledger's migrations run.
async fn ledger_database() -> PgPool {
    let schema = format!("ledger_{}", hex::encode(rand::random::<[u8; 6]>()));
    let options = PgConnectOptions::from_str(&database_url()).expect("a PostgreSQL URL");
    let admin = PgPool::connect_with(options.clone())
        .await
        .unwrap_or_else(|err| {
            panic!(
                "these tests need PostgreSQL at {} (TEST_DATABASE_URL): {err}",
                database_url()
            )
        });
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
        .execute(&admin)
        .await
        .expect("a schema");
    let pool = PgPoolOptions::new()
        .max_connections(4)
        .connect_with(options.options([("search_path", schema.as_str())]))
        .await
        .expect("a pool");
    service::MIGRATOR.run(&pool).await.expect("the migrations");
    pool
}

/// One instance of the ledger service: its own in-process store (a restart is a new
/// instance), the outcomes table of the shared database.
struct Ledger {
    base: String,
    http: reqwest::Client,
    server: JoinHandle<()>,
}

impl Drop for Ledger {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl Ledger {
    async fn start(pool: &PgPool) -> Self {
        let layer = Idempotency::in_process(IdempotencySettings::default())
            .with_durable_outcomes(DurableOutcomes::new(pool.clone()));
        let app = service::service(service::LedgerApi::new(pool.clone()), Arc::new(layer));
        let acceptor = TcpListener::bind("127.0.0.1:0")
            .into_acceptor()
            .await
            .expect("a port");
        let address = acceptor.local_addr()[0]
            .as_socket_addr()
            .copied()
            .expect("a TCP address");
        let server = tokio::spawn(async move {
            let _ = Server::new_with_acceptor(acceptor).run(app).await;
        });
        Self {
            base: format!("http://{address}"),
            http: reqwest::Client::new(),
            server,
        }
    }

    async fn pay(&self, key: &str, amount_cents: i64) -> (StatusCode, bool, Value) {
        let response = self
            .http
            .post(format!("{}/accounts/alice/payments", self.base))
            .header("Idempotency-Key", key)
            .json(&json!({ "amount_cents": amount_cents }))
            .send()
            .await
            .expect("an answer");
        let replayed = response
            .headers()
            .get("x-idempotent-replay")
            .is_some_and(|value| value == "true");
        let status = response.status();
        (status, replayed, response.json().await.expect("JSON"))
    }

    async fn payments(&self) -> i64 {
        let balance: Value = self
            .http
            .get(format!("{}/accounts/alice", self.base))
            .send()
            .await
            .expect("the balance")
            .json()
            .await
            .expect("JSON");
        balance["payments"].as_i64().expect("a count")
    }
}

#[tokio::test]
async fn a_keyed_payment_is_made_once_and_its_retry_replayed() {
    let pool = ledger_database().await;
    let ledger = Ledger::start(&pool).await;

    let first = ledger.pay("pay-1", 500).await;
    let retry = ledger.pay("pay-1", 500).await;

    assert_eq!(first.0, StatusCode::CREATED, "{:?}", first.2);
    assert_eq!(first.2["balance_cents"], 500);
    assert_eq!((retry.0, retry.1), (StatusCode::CREATED, true));
    assert_eq!(retry.2, first.2);
    assert_eq!(ledger.payments().await, 1);
}

#[tokio::test]
async fn a_retry_after_a_restart_is_answered_from_the_payments_transaction() {
    let pool = ledger_database().await;
    let before = Ledger::start(&pool).await;
    let first = before.pay("pay-1", 500).await;
    drop(before);
    // A new instance: nothing in its store, the outcome only in the database.
    let after = Ledger::start(&pool).await;

    let retry = after.pay("pay-1", 500).await;

    assert_eq!((retry.0, retry.1), (StatusCode::CREATED, true));
    assert_eq!(retry.2, first.2);
    assert_eq!(after.payments().await, 1);
}

#[tokio::test]
async fn a_reused_key_with_another_amount_is_refused_after_a_restart() {
    let pool = ledger_database().await;
    Ledger::start(&pool).await.pay("pay-1", 500).await;
    let after = Ledger::start(&pool).await;

    let reuse = after.pay("pay-1", 700).await;

    assert_eq!(reuse.0, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", reuse.2);
    assert_eq!(after.payments().await, 1);
}

#[tokio::test]
async fn duplicates_on_two_instances_at_once_make_one_payment() {
    let pool = ledger_database().await;
    // Two instances with stores of their own: only the outcomes table excludes the second.
    let (one, two) = (Ledger::start(&pool).await, Ledger::start(&pool).await);

    let (a, b) = tokio::join!(one.pay("pay-1", 500), two.pay("pay-1", 500));

    assert_eq!((a.0, b.0), (StatusCode::CREATED, StatusCode::CREATED));
    assert_eq!(a.2, b.2, "both get the one payment's answer");
    assert_eq!(one.payments().await, 1);
}

#[test]
fn the_example_migrations_are_the_crates() {
    let files = [
        include_str!("../examples/ledger/migrations/0001_idempotency_outcomes.sql"),
        include_str!("../examples/ledger/migrations/0002_idempotency_outcome_bodies.sql"),
    ];
    for (file, migration) in files.iter().zip(poem_idempotency::durable::MIGRATIONS) {
        let sql = file
            .split_once('\n')
            .expect("a comment line, then the SQL")
            .1;
        assert_eq!(sql, migration);
    }
}
