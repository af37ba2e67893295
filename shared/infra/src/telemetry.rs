//! Logs, traces and metrics.
//!
//! Logs go to stdout through `tracing` (JSON in production, readable in development). When
//! `telemetry.otlp_endpoint` is set, spans and metrics are also exported over OTLP/HTTP by
//! background batch processors: a collector that is slow or down costs requests nothing, and
//! lost telemetry is the price rather than lost availability.

use std::time::Duration;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

use crate::settings::{LogFormat, TelemetrySettings};

/// Keeps the exporters alive; [`Telemetry::shutdown`] flushes what is buffered.
#[derive(Default)]
pub struct Telemetry {
    tracer_provider: Option<SdkTracerProvider>,
    meter_provider: Option<SdkMeterProvider>,
}

impl Telemetry {
    /// Installs the process-wide subscriber (the first call wins) with, when configured, the
    /// OTLP exporters.
    pub fn init(settings: &TelemetrySettings) -> Result<Self, TelemetryError> {
        let (telemetry, subscriber) = Self::build(settings)?;
        // A second init in the same process keeps the first subscriber. `try_init` also routes
        // `log` records (from dependencies that use `log`) into it.
        let _ = subscriber.try_init();
        Ok(telemetry)
    }

    /// The exporters and the subscriber, without installing it: for a caller that scopes it
    /// (`tracing::subscriber::set_default`), as a test does.
    pub fn build(
        settings: &TelemetrySettings,
    ) -> Result<(Self, Box<dyn tracing::Subscriber + Send + Sync>), TelemetryError> {
        let filter = EnvFilter::try_from_default_env()
            .or_else(|_| EnvFilter::try_new(&settings.log_level))
            .map_err(|err| TelemetryError::Filter(err.to_string()))?;
        // Each layer has its own filter: quiet logs must not starve the trace export of the
        // request spans (INFO).
        let fmt_layer = match settings.log_format {
            LogFormat::Json => tracing_subscriber::fmt::layer()
                .json()
                .flatten_event(true)
                .with_current_span(true)
                .with_filter(filter)
                .boxed(),
            LogFormat::Pretty => tracing_subscriber::fmt::layer()
                .compact()
                .with_filter(filter)
                .boxed(),
        };

        let mut telemetry = Telemetry::default();
        let otel_layer = match settings.otlp_endpoint() {
            Some(endpoint) => {
                let resource = Resource::builder()
                    .with_service_name(settings.service_name.clone())
                    .build();
                let spans = opentelemetry_otlp::SpanExporter::builder()
                    .with_http()
                    .with_endpoint(format!("{}/v1/traces", endpoint.trim_end_matches('/')))
                    .with_timeout(Duration::from_secs(3))
                    .build()
                    .map_err(|err| TelemetryError::Exporter(err.to_string()))?;
                let tracer_provider = SdkTracerProvider::builder()
                    .with_batch_exporter(spans)
                    .with_resource(resource.clone())
                    .build();
                let metrics = opentelemetry_otlp::MetricExporter::builder()
                    .with_http()
                    .with_endpoint(format!("{}/v1/metrics", endpoint.trim_end_matches('/')))
                    .with_timeout(Duration::from_secs(3))
                    .build()
                    .map_err(|err| TelemetryError::Exporter(err.to_string()))?;
                let meter_provider = SdkMeterProvider::builder()
                    .with_periodic_exporter(metrics)
                    .with_resource(resource)
                    .build();
                opentelemetry::global::set_meter_provider(meter_provider.clone());
                let tracer = tracer_provider.tracer(settings.service_name.clone());
                telemetry.tracer_provider = Some(tracer_provider);
                telemetry.meter_provider = Some(meter_provider);
                Some(
                    tracing_opentelemetry::layer()
                        .with_tracer(tracer)
                        .with_filter(LevelFilter::INFO),
                )
            }
            None => None,
        };

        let logged = tracing_subscriber::registry().with(fmt_layer);
        // No exporter, no second layer: an absent (`None`) layer counts as one that wants every
        // span, so each request's spans would be recorded although nothing reads them (a few
        // thousand instructions a request: docs/benchmarks.md).
        let subscriber: Box<dyn tracing::Subscriber + Send + Sync> = match otel_layer {
            Some(exported) => Box::new(logged.with(exported)),
            None => Box::new(logged),
        };
        Ok((telemetry, subscriber))
    }

    /// Flushes and stops the exporters, and says what could not be flushed (the caller prints
    /// it: by then the log pipeline may itself be gone). Runs on a blocking thread because the
    /// OTLP/HTTP client is the blocking one (the async one needs a reactor inside the batch
    /// processor's thread).
    pub async fn shutdown(self) -> Vec<String> {
        tokio::task::spawn_blocking(move || {
            let mut failures = Vec::new();
            if let Some(Err(err)) = self.tracer_provider.map(|provider| provider.shutdown()) {
                failures.push(format!("flushing traces: {err}"));
            }
            if let Some(Err(err)) = self.meter_provider.map(|provider| provider.shutdown()) {
                failures.push(format!("flushing metrics: {err}"));
            }
            failures
        })
        .await
        .unwrap_or_else(|err| vec![format!("the flush did not finish: {err}")])
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    #[error("invalid setting `telemetry.log_level`: {0}")]
    Filter(String),
    #[error("cannot build the OTLP exporter for `telemetry.otlp_endpoint`: {0}")]
    Exporter(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logging_at(level: &str, otlp_endpoint: &str) -> TelemetrySettings {
        TelemetrySettings {
            service_name: "test".to_owned(),
            log_format: LogFormat::Json,
            log_level: level.to_owned(),
            otlp_endpoint: otlp_endpoint.to_owned(),
        }
    }

    #[test]
    fn a_span_below_the_log_level_is_not_recorded_when_nothing_is_exported() {
        let (_telemetry, subscriber) = Telemetry::build(&logging_at("error", "")).unwrap();

        let span = tracing::subscriber::with_default(subscriber, || tracing::info_span!("request"));

        assert!(span.is_disabled());
    }

    #[test]
    fn a_span_at_the_log_level_is_recorded() {
        let (_telemetry, subscriber) = Telemetry::build(&logging_at("info", "")).unwrap();

        let span = tracing::subscriber::with_default(subscriber, || tracing::info_span!("request"));

        assert!(!span.is_disabled());
    }
}
