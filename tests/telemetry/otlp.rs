//! A real OTLP/HTTP collector for the telemetry tests, and readers of what reaches it: the
//! service's exporters post protobuf to it, the tests decode it.

use std::sync::{Arc, Mutex};

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{AnyValue, KeyValue, any_value};
use opentelemetry_proto::tonic::trace::v1::Span;
use poem::listener::{Acceptor, Listener, TcpListener};
use poem::web::Data;
use poem::{EndpointExt, Route, Server, handler, post};
use prost::Message as _;

/// The paths posted to, and the bodies.
pub type Received = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// A real OTLP/HTTP listener recording what is posted to it.
pub struct Collector {
    pub url: String,
    received: Received,
}

impl Collector {
    pub async fn start() -> Self {
        let received: Received = Arc::default();
        let acceptor = TcpListener::bind("127.0.0.1:0")
            .into_acceptor()
            .await
            .unwrap();
        let url = format!(
            "http://{}",
            acceptor.local_addr()[0].as_socket_addr().unwrap()
        );
        let routes = Route::new()
            .at("/v1/traces", post(collect))
            .at("/v1/metrics", post(collect))
            .data(Arc::clone(&received));
        tokio::spawn(Server::new_with_acceptor(acceptor).run(routes));
        Self { url, received }
    }

    /// The service's telemetry exporting here, installed as `app serve` installs it: the
    /// process's subscriber and meter provider (the first call in a process wins).
    pub fn install_telemetry(&self) -> infra::telemetry::Telemetry {
        let settings = app::config::load_with(
            infra::Environment::Test,
            &[("telemetry.otlp_endpoint", &self.url)],
        )
        .unwrap();
        infra::telemetry::Telemetry::init(&settings.telemetry).expect("telemetry starts")
    }

    pub fn received(&self) -> Vec<(String, Vec<u8>)> {
        self.received.lock().unwrap().clone()
    }
}

#[handler]
fn collect(
    req: &poem::Request,
    body: Vec<u8>,
    received: Data<&Received>,
) -> poem::http::StatusCode {
    received
        .lock()
        .unwrap()
        .push((req.uri().path().to_owned(), body));
    poem::http::StatusCode::OK
}

/// Every span in the trace exports.
pub fn spans(received: &[(String, Vec<u8>)]) -> Vec<Span> {
    received
        .iter()
        .filter(|(path, _)| path == "/v1/traces")
        .flat_map(|(_, body)| {
            ExportTraceServiceRequest::decode(body.as_slice())
                .expect("a trace export is OTLP protobuf")
                .resource_spans
        })
        .flat_map(|resource| resource.scope_spans)
        .flat_map(|scope| scope.spans)
        .collect()
}

pub fn attribute<'a>(attributes: &'a [KeyValue], key: &str) -> Option<&'a any_value::Value> {
    attributes
        .iter()
        .find(|attribute| attribute.key == key)
        .and_then(|attribute| attribute.value.as_ref())
        .and_then(|value: &AnyValue| value.value.as_ref())
}

pub fn text(value: Option<&any_value::Value>) -> Option<&str> {
    match value {
        Some(any_value::Value::StringValue(text)) => Some(text),
        _ => None,
    }
}
