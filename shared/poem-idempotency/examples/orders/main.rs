//! A complete poem-openapi service guarded by poem-idempotency: orders kept in memory, created
//! and shipped exactly once per `Idempotency-Key`.
//!
//! ```text
//! cargo run -p poem-idempotency --example orders                       # in-process store
//! REDIS_URL=redis://127.0.0.1:6379 cargo run -p poem-idempotency --example orders
//! ```
//!
//! It listens on `ADDRESS` (default `127.0.0.1:3000`) and serves its document, with the
//! `Idempotency-Key` header documented, at `/openapi.json`. The crate's README shows curl
//! against it.

use std::sync::Arc;
use std::time::Duration;

use poem::Server;
use poem::listener::TcpListener;
use poem_idempotency::{Idempotency, IdempotencySettings};

mod service;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A duplicate waits up to a second for the original, so that a 409 is easy to see.
    let settings = IdempotencySettings {
        lock_wait: Duration::from_secs(1),
        ..IdempotencySettings::default()
    };
    let idempotency = match std::env::var("REDIS_URL") {
        Ok(url) => {
            let redis = redis::Client::open(url)?.get_connection_manager().await?;
            Idempotency::with_redis(redis, "orders-example:", settings)
        }
        Err(_) => Idempotency::in_process(settings),
    };
    let api = service::OrdersApi::new(Duration::from_secs(3));

    let address = std::env::var("ADDRESS").unwrap_or_else(|_| "127.0.0.1:3000".to_owned());
    println!("orders example listening on http://{address}");
    Server::new(TcpListener::bind(address))
        .run(service::service(api, Arc::new(idempotency)))
        .await?;
    Ok(())
}
