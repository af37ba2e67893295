//! Every outcome is counted.

use e2e::WithIdempotencyKey;
use poem_idempotency::MetricsSnapshot;
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
