//! The warning about answers too large to keep, said once per process (a binary of its own: a
//! subscriber scoped to one test thread misses events whenever tests in other threads, with
//! subscribers of their own, race it for the callsite's registration, which made the same test
//! among the unit tests fail about one run in six).

use std::sync::{Arc, Mutex};

use poem::test::TestClient;
use poem::{EndpointExt, Route, handler, post};
use poem_idempotency::{IDEMPOTENCY_KEY, Idempotency, IdempotencySettings, idempotent};
use tracing_subscriber::layer::SubscriberExt;

/// The warnings logged, as their messages.
#[derive(Clone, Default)]
struct Warnings(Arc<Mutex<Vec<String>>>);

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Warnings {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        struct Message(String);
        impl tracing::field::Visit for Message {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                if field.name() == "message" {
                    self.0 = format!("{value:?}");
                }
            }
        }
        if *event.metadata().level() == tracing::Level::WARN {
            let mut message = Message(String::new());
            event.record(&mut message);
            self.0.lock().unwrap().push(message.0);
        }
    }
}

/// A JSON string of 16 bytes: more than the layer below keeps.
#[handler]
fn sixteen_bytes() -> poem::Response {
    poem::Response::builder()
        .content_type("application/json")
        .body(format!("\"{}\"", "x".repeat(14)))
}

#[tokio::test]
async fn an_answer_too_large_to_keep_is_warned_about_once_per_process() {
    let warnings = Warnings::default();
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(warnings.clone()))
        .expect("the only test of this binary installs the subscriber");
    let layer = Arc::new(Idempotency::in_process(IdempotencySettings {
        max_response_bytes: 8,
        ..IdempotencySettings::default()
    }));
    let client = TestClient::new(
        Route::new()
            .at("/json", post(idempotent(sixteen_bytes)))
            .data(Arc::clone(&layer)),
    );

    for key in ["a", "a", "b", "b"] {
        let answer = client
            .post("/json")
            .header(IDEMPOTENCY_KEY, key)
            .send()
            .await;
        answer.assert_status_is_ok();
    }

    assert_eq!(layer.metrics().too_large_to_keep, 4, "none was kept");
    let warnings = warnings.0.lock().unwrap().clone();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("max_response_bytes"), "{warnings:?}");
}
