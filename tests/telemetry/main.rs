//! Traces and metrics reach an OTLP collector, and are flushed at shutdown. The collector here
//! is a real HTTP listener that records what the service's exporters post to it; the test
//! decodes the OTLP protobuf and looks for the very spans and counters its requests made.
//!
//! A test binary of its own: it installs the service's telemetry as `app serve` does, as the
//! process's global subscriber and meter provider, so nothing another test does can produce (or
//! hide) what it asserts on.

mod otlp;

use e2e::{TestApp, WithIdempotencyKey};
use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value;
use opentelemetry_proto::tonic::metrics::v1::metric;
use opentelemetry_proto::tonic::trace::v1::Span;
use otlp::{Collector, attribute, spans, text};
use prost::Message as _;

/// The last exported value of each monotonic sum whose name starts with `idempotency.`.
fn idempotency_counters(received: &[(String, Vec<u8>)]) -> Vec<(String, i64)> {
    let mut counters = Vec::new();
    for (_, body) in received.iter().filter(|(path, _)| path == "/v1/metrics") {
        let export = ExportMetricsServiceRequest::decode(body.as_slice())
            .expect("a metrics export is OTLP protobuf");
        for metric in export
            .resource_metrics
            .into_iter()
            .flat_map(|resource| resource.scope_metrics)
            .flat_map(|scope| scope.metrics)
            .filter(|metric| metric.name.starts_with("idempotency."))
        {
            if let Some(metric::Data::Sum(sum)) = metric.data {
                let total = sum
                    .data_points
                    .iter()
                    .map(|point| match point.value {
                        Some(
                            opentelemetry_proto::tonic::metrics::v1::number_data_point::Value::AsInt(
                                value,
                            ),
                        ) => value,
                        _ => 0,
                    })
                    .sum();
                counters.retain(|(name, _)| *name != metric.name);
                counters.push((metric.name, total));
            }
        }
    }
    counters
}

/// The names of the spans under `root` (children, their children...), in the order they
/// started.
fn steps_under<'a>(spans: &'a [Span], root: &Span) -> Vec<&'a str> {
    let is_under = |span: &Span| {
        let mut parent = span.parent_span_id.clone();
        while !parent.is_empty() {
            if parent == root.span_id {
                return true;
            }
            parent = spans
                .iter()
                .find(|candidate| candidate.span_id == parent)
                .map(|candidate| candidate.parent_span_id.clone())
                .unwrap_or_default();
        }
        false
    };
    let mut under: Vec<&Span> = spans.iter().filter(|span| is_under(span)).collect();
    under.sort_by_key(|span| span.start_time_unix_nano);
    under.iter().map(|span| span.name.as_str()).collect()
}

fn number(value: Option<&any_value::Value>) -> Option<i64> {
    match value {
        Some(any_value::Value::IntValue(number)) => Some(*number),
        _ => None,
    }
}

#[tokio::test]
async fn request_spans_with_their_steps_and_idempotency_counters_reach_an_otlp_collector_and_are_flushed_at_shutdown()
 {
    let collector = Collector::start().await;
    // As `app serve` does: telemetry first, so the service's counters use the exporting meter.
    let telemetry = collector.install_telemetry();
    let app = TestApp::builder()
        .setting("telemetry.otlp_endpoint", &collector.url)
        .spawn()
        .await;
    let create = |key: &str| {
        app.request(reqwest::Method::POST, "/api/v1/things")
            .bearer_auth(app.token_for("alice"))
            .idempotency_key(key)
            .json(&serde_json::json!({ "name": "lamp" }))
            .send()
    };

    let mut answers = Vec::new();
    for key in ["first", "second"] {
        answers.push(create(key).await.unwrap().status());
        answers.push(create(key).await.unwrap().status());
        answers.push(app.get("/health/live").await.status());
    }
    app.stop().await.expect("the server stops cleanly");
    // Flushed at once: the service closed its database connections when it stopped, so no
    // SQLite worker thread still holds one of its spans.
    let flush_failures = telemetry.shutdown().await;

    assert_eq!(
        answers,
        [201, 201, 200, 201, 201, 200].map(|status| reqwest::StatusCode::from_u16(status).unwrap())
    );
    let received = collector.received();
    let mut expected = [
        (Some("/api/v1/things"), Some(201), Some("executed")),
        (Some("/api/v1/things"), Some(201), Some("replayed")),
        (Some("/health/live"), Some(200), None),
    ]
    .repeat(2);
    let mut unexpected = Vec::new();
    for span in spans(&received)
        .iter()
        .filter(|span| span.name == "request")
    {
        let found = (
            text(attribute(&span.attributes, "http.route")),
            number(attribute(&span.attributes, "http.response.status_code")),
            text(attribute(&span.attributes, "idempotency")),
        );
        match expected.iter().position(|wanted| *wanted == found) {
            Some(index) => {
                expected.remove(index);
            }
            None => unexpected.push(format!("{found:?}")),
        }
    }
    // Every request span carries its route, integer status and idempotency outcome.
    assert!(
        unexpected.is_empty(),
        "request spans nobody sent or with wrong attributes: {unexpected:?}"
    );
    assert!(
        expected.is_empty(),
        "request spans missing from the export: {expected:?} (flush failures: {flush_failures:?})"
    );
    // A keyed create's span holds its steps: the guard's claim, the handler (the use case),
    // its SQL, the outcome committed with the effect, the store's completion; a replay only the
    // claim.
    let exported = spans(&received);
    let request = |outcome: &str| {
        exported
            .iter()
            .find(|span| {
                span.name == "request"
                    && text(attribute(&span.attributes, "idempotency")) == Some(outcome)
            })
            .unwrap_or_else(|| panic!("no {outcome} request span"))
    };
    let executed = steps_under(&exported, request("executed"));
    for step in [
        "idempotency.claim",
        "things.create",
        "things.repository.insert",
        "idempotency.commit",
        "idempotency.record_outcome",
        "idempotency.complete",
    ] {
        assert!(
            executed.contains(&step),
            "{step} is not under the executed request's span: {executed:?}"
        );
    }
    let create = exported
        .iter()
        .find(|span| span.name == "things.create")
        .unwrap();
    assert_eq!(
        steps_under(&exported, create),
        [
            "things.repository.insert",
            "idempotency.commit",
            "idempotency.record_outcome"
        ],
        "the handler's span holds its SQL and its commit"
    );
    assert_eq!(
        steps_under(&exported, request("replayed")),
        ["idempotency.claim"],
        "a replay is one claim"
    );
    let counters = idempotency_counters(&received);
    for (name, value) in [("idempotency.executed", 2), ("idempotency.replayed", 2)] {
        assert!(
            counters.contains(&(name.to_owned(), value)),
            "{name} = {value} in {counters:?}"
        );
    }
}
