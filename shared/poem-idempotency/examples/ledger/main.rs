//! A poem-openapi service on a `PgPool`, its writes in `sqlx::query!`, made exactly-once by
//! poem-idempotency's durable outcomes: each payment commits with its answer.
//!
//! ```text
//! DATABASE_URL=postgres://postgres@127.0.0.1:5432/test cargo run -p poem-idempotency --example ledger
//! ```
//!
//! It runs its migrations (the outcomes table among them), listens on `ADDRESS` (default
//! `127.0.0.1:3000`) and serves its document at `/openapi.json`.
//!
//! `sqlx::query!` checks its SQL at build time against `DATABASE_URL`, or without one against
//! the statements recorded in the crate's `.sqlx` folder. After changing a query, with the
//! ledger's schema in the database at `DATABASE_URL`:
//! `SQLX_OFFLINE_DIR=shared/poem-idempotency/.sqlx cargo build -p poem-idempotency --example ledger --features postgres`.

use std::sync::Arc;

use poem::Server;
use poem::listener::TcpListener;
use poem_idempotency::{DurableOutcomes, Idempotency, IdempotencySettings};
use sqlx::PgPool;

mod service;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned());
    let pool = PgPool::connect(&url).await?;
    service::MIGRATOR.run(&pool).await?;
    let outcomes = DurableOutcomes::new(pool.clone());
    let _sweep = outcomes
        .clone()
        .sweep_periodically(std::time::Duration::from_secs(60));
    let idempotency =
        Idempotency::in_process(IdempotencySettings::default()).with_durable_outcomes(outcomes);

    let address = std::env::var("ADDRESS").unwrap_or_else(|_| "127.0.0.1:3000".to_owned());
    println!("ledger example listening on http://{address}");
    Server::new(TcpListener::bind(address))
        .run(service::service(
            service::LedgerApi::new(pool),
            Arc::new(idempotency),
        ))
        .await?;
    Ok(())
}
