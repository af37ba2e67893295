//! The outbox's metrics: `notifications.mail.dead_lettered`, a counter of mails that failed
//! their last attempt, and `notifications.mail.dead_letters`, a gauge of the dead letters
//! waiting for an administrator (read from the database by each instance's mail worker, so
//! every instance reports the same count: aggregate it with `max`, not `sum`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use opentelemetry::metrics::{Counter, Meter, ObservableGauge};

pub struct MailMetrics {
    dead_lettered: Counter<u64>,
    dead_letters: Arc<AtomicU64>,
    /// Kept alive: the gauge reports only while it exists.
    _dead_letters_gauge: ObservableGauge<u64>,
}

impl MailMetrics {
    /// The instruments, on the process's meter provider.
    pub fn global() -> Self {
        Self::new(&opentelemetry::global::meter("notifications"))
    }

    pub fn new(meter: &Meter) -> Self {
        let dead_letters = Arc::new(AtomicU64::new(0));
        let reported = Arc::clone(&dead_letters);
        Self {
            dead_lettered: meter
                .u64_counter("notifications.mail.dead_lettered")
                .with_description("Notification mails that failed their last attempt")
                .build(),
            _dead_letters_gauge: meter
                .u64_observable_gauge("notifications.mail.dead_letters")
                .with_description("Notification mails dead-lettered and not retried")
                .with_callback(move |observer| {
                    observer.observe(reported.load(Ordering::Relaxed), &[])
                })
                .build(),
            dead_letters,
        }
    }

    /// A mail failed its last attempt.
    pub fn dead_lettered(&self) {
        self.dead_lettered.add(1, &[]);
    }

    /// How many dead letters the database holds now.
    pub fn set_dead_letters(&self, count: u64) {
        self.dead_letters.store(count, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use opentelemetry::metrics::MeterProvider as _;
    use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData};
    use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};

    use super::*;

    /// The last exported value of each `u64` instrument.
    fn exported(exporter: &InMemoryMetricExporter) -> Vec<(String, u64)> {
        let mut values = Vec::new();
        for resource in exporter.get_finished_metrics().unwrap() {
            for metric in resource.scope_metrics().flat_map(|scope| scope.metrics()) {
                let value = match metric.data() {
                    AggregatedMetrics::U64(MetricData::Sum(sum)) => {
                        sum.data_points().map(|point| point.value()).sum()
                    }
                    AggregatedMetrics::U64(MetricData::Gauge(gauge)) => {
                        gauge.data_points().map(|point| point.value()).sum()
                    }
                    _ => continue,
                };
                values.retain(|(name, _)| name != metric.name());
                values.push((metric.name().to_owned(), value));
            }
        }
        values.sort();
        values
    }

    #[test]
    fn dead_lettered_mails_are_counted_and_the_waiting_ones_reported() {
        let exporter = InMemoryMetricExporter::default();
        let provider = SdkMeterProvider::builder()
            .with_reader(PeriodicReader::builder(exporter.clone()).build())
            .build();
        let metrics = MailMetrics::new(&provider.meter("notifications"));

        metrics.dead_lettered();
        metrics.dead_lettered();
        metrics.set_dead_letters(1);
        provider.force_flush().unwrap();

        assert_eq!(
            exported(&exporter),
            [
                ("notifications.mail.dead_lettered".to_owned(), 2),
                ("notifications.mail.dead_letters".to_owned(), 1),
            ]
        );
    }
}
