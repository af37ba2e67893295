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
use tracing::span;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::layer::Context;
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
                Some(CallersOnly(
                    tracing_opentelemetry::layer()
                        .with_tracer(tracer)
                        .with_filter(LevelFilter::INFO),
                ))
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

    /// Exports what is buffered now, and says what could not be exported; the exporters go on.
    pub async fn flush(&self) -> Vec<String> {
        let tracer_provider = self.tracer_provider.clone();
        let meter_provider = self.meter_provider.clone();
        tokio::task::spawn_blocking(move || {
            let mut failures = Vec::new();
            if let Some(Err(err)) = tracer_provider.map(|provider| provider.force_flush()) {
                failures.push(format!("flushing traces: {err}"));
            }
            if let Some(Err(err)) = meter_provider.map(|provider| provider.force_flush()) {
                failures.push(format!("flushing metrics: {err}"));
            }
            failures
        })
        .await
        .unwrap_or_else(|err| vec![format!("the flush did not finish: {err}")])
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

/// The name sqlx gives the thread that runs an SQLite connection's statements
/// (`sqlx-sqlite-worker-<n>`; this service keeps sqlx's default).
const SQLITE_WORKER_THREAD: &str = "sqlx-sqlite-worker-";

thread_local! {
    static ON_SQLITE_WORKER: bool = std::thread::current()
        .name()
        .is_some_and(|name| name.starts_with(SQLITE_WORKER_THREAD));
}

/// The exporting layer, told of a span being entered and left only by the code whose span it
/// is. sqlx's SQLite driver hands each statement to its connection's worker thread with the
/// caller's span, and the worker enters it while the statement runs and leaves it *after*
/// answering: a span ends when it was last left, so a commit's or a rollback's span (and with
/// it the request's trace) would end after the answer was sent. The log layer still sees the
/// worker in the span, so a statement's log line keeps its request id.
struct CallersOnly<L>(L);

impl<S, L> Layer<S> for CallersOnly<L>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    L: Layer<S>,
{
    fn on_register_dispatch(&self, subscriber: &tracing::Dispatch) {
        self.0.on_register_dispatch(subscriber);
    }

    fn on_layer(&mut self, subscriber: &mut S) {
        self.0.on_layer(subscriber);
    }

    fn register_callsite(
        &self,
        metadata: &'static tracing::Metadata<'static>,
    ) -> tracing::subscriber::Interest {
        self.0.register_callsite(metadata)
    }

    fn enabled(&self, metadata: &tracing::Metadata<'_>, ctx: Context<'_, S>) -> bool {
        self.0.enabled(metadata, ctx)
    }

    fn on_new_span(&self, attrs: &span::Attributes<'_>, id: &span::Id, ctx: Context<'_, S>) {
        self.0.on_new_span(attrs, id, ctx);
    }

    fn max_level_hint(&self) -> Option<LevelFilter> {
        self.0.max_level_hint()
    }

    fn on_record(&self, span: &span::Id, values: &span::Record<'_>, ctx: Context<'_, S>) {
        self.0.on_record(span, values, ctx);
    }

    fn on_follows_from(&self, span: &span::Id, follows: &span::Id, ctx: Context<'_, S>) {
        self.0.on_follows_from(span, follows, ctx);
    }

    fn event_enabled(&self, event: &tracing::Event<'_>, ctx: Context<'_, S>) -> bool {
        self.0.event_enabled(event, ctx)
    }

    fn on_event(&self, event: &tracing::Event<'_>, ctx: Context<'_, S>) {
        self.0.on_event(event, ctx);
    }

    fn on_enter(&self, id: &span::Id, ctx: Context<'_, S>) {
        if !ON_SQLITE_WORKER.with(|on_worker| *on_worker) {
            self.0.on_enter(id, ctx);
        }
    }

    fn on_exit(&self, id: &span::Id, ctx: Context<'_, S>) {
        if !ON_SQLITE_WORKER.with(|on_worker| *on_worker) {
            self.0.on_exit(id, ctx);
        }
    }

    fn on_close(&self, id: span::Id, ctx: Context<'_, S>) {
        self.0.on_close(id, ctx);
    }

    fn on_id_change(&self, old: &span::Id, new: &span::Id, ctx: Context<'_, S>) {
        self.0.on_id_change(old, new, ctx);
    }

    // The exporting layer is found by downcasting (tracing-opentelemetry reads a span's
    // OpenTelemetry context that way): this wrapper must not hide it.
    unsafe fn downcast_raw(&self, id: std::any::TypeId) -> Option<*const ()> {
        if id == std::any::TypeId::of::<Self>() {
            Some(self as *const Self as *const ())
        } else {
            // SAFETY: the inner layer answers for its own types, as the caller requires.
            unsafe { self.0.downcast_raw(id) }
        }
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

    /// Counts the spans entered and left through it.
    #[derive(Clone, Default)]
    struct Entries(std::sync::Arc<std::sync::atomic::AtomicUsize>);

    impl<S: tracing::Subscriber> Layer<S> for Entries {
        fn on_enter(&self, _: &span::Id, _: Context<'_, S>) {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }

        fn on_exit(&self, _: &span::Id, _: Context<'_, S>) {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    #[test]
    fn the_exporting_layer_hears_of_enters_and_exits_from_callers_not_sqlite_workers() {
        let entries = Entries::default();
        let subscriber = tracing_subscriber::registry().with(CallersOnly(entries.clone()));
        let _default = tracing::subscriber::set_default(subscriber);
        let span = tracing::info_span!("request");
        let entered_by = |thread_name: &str| {
            let span = span.clone();
            std::thread::Builder::new()
                .name(thread_name.to_owned())
                .spawn(move || drop(span.enter()))
                .unwrap()
                .join()
                .unwrap();
        };

        entered_by("sqlx-sqlite-worker-3");
        let after_the_worker = entries.0.load(std::sync::atomic::Ordering::SeqCst);
        entered_by("tokio-runtime-worker");
        drop(span.enter());

        assert_eq!(after_the_worker, 0);
        assert_eq!(entries.0.load(std::sync::atomic::Ordering::SeqCst), 4);
    }

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
