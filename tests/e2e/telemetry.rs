//! Traces and metrics reach an OTLP collector. The collector here is a real HTTP listener that
//! records what the service's exporters post to it.
//!
//! The subscriber is scoped to this test's thread (`set_default`) rather than installed for the
//! process, and the test runs on a current-thread runtime, so the server's tasks are traced by it
//! while the other tests running beside it are not.

use std::sync::{Arc, Mutex};

use e2e::{TestApp, WithIdempotencyKey};
use infra::telemetry::Telemetry;
use poem::listener::{Acceptor, Listener, TcpListener};
use poem::web::Data;
use poem::{EndpointExt, Route, Server, handler, post};

/// The paths posted to, and the body sizes.
type Received = Arc<Mutex<Vec<(String, usize)>>>;

#[handler]
fn collect(
    req: &poem::Request,
    body: Vec<u8>,
    received: Data<&Received>,
) -> poem::http::StatusCode {
    received
        .lock()
        .unwrap()
        .push((req.uri().path().to_owned(), body.len()));
    poem::http::StatusCode::OK
}

#[tokio::test]
async fn traces_and_metrics_are_exported_over_otlp_and_flushed_at_shutdown() {
    let received: Received = Arc::default();
    let acceptor = TcpListener::bind("127.0.0.1:0")
        .into_acceptor()
        .await
        .unwrap();
    let collector = format!(
        "http://{}",
        acceptor.local_addr()[0].as_socket_addr().unwrap()
    );
    let routes = Route::new()
        .at("/v1/traces", post(collect))
        .at("/v1/metrics", post(collect))
        .data(Arc::clone(&received));
    tokio::spawn(Server::new_with_acceptor(acceptor).run(routes));
    // As `app serve` does: telemetry first, so the service's counters use the exporting meter.
    let settings = app::config::load_with(
        infra::Environment::Test,
        &[("telemetry.otlp_endpoint", &collector)],
    )
    .unwrap();
    let (telemetry, subscriber) = Telemetry::build(&settings.telemetry).expect("telemetry starts");
    let scope = tracing::subscriber::set_default(subscriber);
    let app = TestApp::builder()
        .setting("telemetry.otlp_endpoint", &collector)
        .spawn()
        .await;
    // tracing caches each callsite's interest when the callsite first registers. A parallel
    // test on a thread without this subscriber can register the request span's callsite at the
    // very moment this subscriber is installed and cache "never" for it; recomputing now, with
    // this subscriber in place, removes that race.
    tracing::callsite::rebuild_interest_cache();

    let created = app
        .request(reqwest::Method::POST, "/api/v1/things")
        .bearer_auth(app.token_for("alice"))
        .idempotency_key("traced")
        .json(&serde_json::json!({ "name": "lamp" }))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), reqwest::StatusCode::CREATED);
    drop(scope);
    telemetry.shutdown().await;

    let received = received.lock().unwrap().clone();
    assert!(
        received
            .iter()
            .any(|(path, size)| path == "/v1/traces" && *size > 0),
        "{received:?}"
    );
    assert!(
        received
            .iter()
            .any(|(path, size)| path == "/v1/metrics" && *size > 0),
        "{received:?}"
    );
}
