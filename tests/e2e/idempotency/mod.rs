//! The idempotency layer, behaviour by behaviour (docs/adr/0003 and the gaps it closes), against the
//! real service. Fixture operations under `/api/v1/fixtures/idem` count their executions.

mod backends;
mod callers;
mod disconnect;
mod durable;
mod exclusion;
mod faults;
mod fingerprint;
mod instances;
mod key;
mod observability;
mod postgres_store;
mod replay;
mod scope;
mod storage;
mod store_on_a_cluster;

use e2e::fixtures::Executions;
use e2e::{TestApp, TestAppBuilder, spawn_with_idempotency_fixtures};

pub const COUNTED: &str = "/api/v1/fixtures/idem/counted";

/// A service with the fixtures, and the counter of what they executed.
pub async fn spawn(builder: TestAppBuilder) -> (TestApp, Executions) {
    let executions = Executions::default();
    let app = spawn_with_idempotency_fixtures(builder, &executions).await;
    (app, executions)
}

/// A service with the fixtures on the in-process store.
pub async fn spawn_default() -> (TestApp, Executions) {
    spawn(TestApp::builder()).await
}
