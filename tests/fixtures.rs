//! Test-only operations, mounted beside the modules to provoke what real operations should
//! never do (panic) or do only rarely (run slowly).

use std::time::Duration;

use poem_openapi::OpenApi;
use poem_openapi::param::Query;
use poem_openapi::payload::PlainText;

/// Operations under `/api/v1/fixtures`.
pub struct FixtureApi;

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
