//! Behaviour 10: every outcome is counted.

use e2e::WithIdempotencyKey;
use idempotency::MetricsSnapshot;
use reqwest::Method;
use serde_json::json;

use super::{COUNTED, spawn_default};

#[tokio::test]
async fn executions_replays_and_key_reuse_are_counted() {
    let (app, _) = spawn_default().await;
    let send = |body: serde_json::Value| {
        app.request(Method::POST, COUNTED)
            .idempotency_key("k")
            .json(&body)
            .send()
    };

    send(json!({ "n": 1 })).await.unwrap();
    send(json!({ "n": 1 })).await.unwrap();
    send(json!({ "n": 2 })).await.unwrap();
    app.request(Method::POST, COUNTED)
        .json(&json!({}))
        .send()
        .await
        .unwrap();

    assert_eq!(
        app.idempotency.metrics(),
        MetricsSnapshot {
            executed: 1,
            replayed: 1,
            key_reuse: 1,
            ..MetricsSnapshot::default()
        },
        "a request without a key is not counted"
    );
}

/// Collects the `idempotency` field recorded on spans.
#[derive(Clone, Default)]
struct RecordedOutcomes(std::sync::Arc<std::sync::Mutex<Vec<String>>>);

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for RecordedOutcomes {
    fn on_record(
        &self,
        _span: &tracing::span::Id,
        values: &tracing::span::Record<'_>,
        _context: tracing_subscriber::layer::Context<'_, S>,
    ) {
        struct Visitor<'a>(&'a std::sync::Mutex<Vec<String>>);
        impl tracing::field::Visit for Visitor<'_> {
            fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
                if field.name() == "idempotency" {
                    self.0.lock().unwrap().push(value.to_owned());
                }
            }
            fn record_debug(&mut self, _: &tracing::field::Field, _: &dyn std::fmt::Debug) {}
        }
        values.record(&mut Visitor(&self.0));
    }
}

#[tokio::test]
async fn the_request_span_carries_the_outcome() {
    use tracing_subscriber::layer::SubscriberExt as _;
    // Scoped to this test's thread; the current-thread runtime runs the server's tasks here too.
    let outcomes = RecordedOutcomes::default();
    let _scope =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(outcomes.clone()));
    let (app, _) = spawn_default().await;
    let send = |body: serde_json::Value| {
        app.request(Method::POST, COUNTED)
            .idempotency_key("k")
            .json(&body)
            .send()
    };

    send(json!({ "n": 1 })).await.unwrap();
    send(json!({ "n": 1 })).await.unwrap();
    send(json!({ "n": 2 })).await.unwrap();

    assert_eq!(
        *outcomes.0.lock().unwrap(),
        ["executed", "replayed", "key_reuse"]
    );
}
