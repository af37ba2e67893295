//! The layer's counters.
//!
//! Each outcome is counted in a plain atomic that the process can read (what tests and the
//! benchmark assert on) and, with the feature `opentelemetry`, in an OpenTelemetry counter
//! exported with the service's other metrics.

use std::sync::atomic::{AtomicU64, Ordering};

/// The exported side of a count.
#[cfg(feature = "opentelemetry")]
type Exported = opentelemetry::metrics::Counter<u64>;

/// Without OpenTelemetry, nothing is exported.
#[cfg(not(feature = "opentelemetry"))]
struct Exported;

type Count = (AtomicU64, Exported);

/// Where a store fault happened; the `step` attribute of `idempotency.degraded`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FaultStep {
    Claim,
    Renew,
    Complete,
    Release,
}

#[cfg_attr(not(feature = "opentelemetry"), allow(dead_code))]
impl FaultStep {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Claim => "claim",
            Self::Renew => "renew",
            Self::Complete => "complete",
            Self::Release => "release",
        }
    }
}

/// A point-in-time copy of the counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MetricsSnapshot {
    /// Requests with a key whose handler ran under the guard.
    pub executed: u64,
    /// Requests answered from a stored response.
    pub replayed: u64,
    /// Duplicates answered 409 because the original was still running.
    pub conflict: u64,
    /// Keys reused with a different payload, answered 422.
    pub key_reuse: u64,
    /// Store faults the layer failed open on.
    pub degraded: u64,
    /// Guards that lost their lease while the handler ran.
    pub lease_lost: u64,
    /// Claimed requests whose client had gone (disconnected, reset the stream) before the
    /// guard finished: the handler still ran to the end and its response was stored or released.
    pub completed_after_disconnect: u64,
    /// Keyed requests to a fail-closed operation refused with 503 because the store failed.
    pub rejected_store_unavailable: u64,
    /// Replays of an outcome a durable operation committed in the database, met by a second
    /// execution of its key when the store had none (a process that died after the commit, a
    /// failover, a store that was down): each is a second effect rolled back. Also counted in
    /// `replayed`.
    pub recovered: u64,
    /// Keyed executions of durable operations handed an outcome recorder.
    pub durable_claims: u64,
    /// 2xx answers executed and given but not kept for replay, their body being over
    /// `idempotency.max_response_bytes`.
    pub too_large_to_keep: u64,
}

pub(crate) struct Metrics {
    executed: Count,
    replayed: Count,
    conflict: Count,
    key_reuse: Count,
    degraded: Count,
    lease_lost: Count,
    completed_after_disconnect: Count,
    rejected_store_unavailable: Count,
    recovered: Count,
    durable_claims: Count,
    too_large_to_keep: Count,
}

impl Default for Metrics {
    fn default() -> Self {
        #[cfg(feature = "opentelemetry")]
        let meter = opentelemetry::global::meter("idempotency");
        #[cfg_attr(not(feature = "opentelemetry"), allow(unused_variables))]
        let counter = |name: &'static str, description: &'static str| -> Count {
            #[cfg(feature = "opentelemetry")]
            let exported = meter
                .u64_counter(name)
                .with_description(description)
                .build();
            #[cfg(not(feature = "opentelemetry"))]
            let exported = Exported;
            (AtomicU64::new(0), exported)
        };
        Self {
            executed: counter(
                "idempotency.executed",
                "Keyed requests executed under the guard",
            ),
            replayed: counter(
                "idempotency.replayed",
                "Keyed requests answered from a stored response",
            ),
            conflict: counter(
                "idempotency.conflict",
                "Duplicates answered 409 while the original ran",
            ),
            key_reuse: counter(
                "idempotency.key_reuse",
                "Keys reused with a different payload (422)",
            ),
            degraded: counter(
                "idempotency.degraded",
                "Store faults the layer failed open on",
            ),
            lease_lost: counter(
                "idempotency.lease_lost",
                "Guards that lost their lease mid-request",
            ),
            completed_after_disconnect: counter(
                "idempotency.completed_after_disconnect",
                "Claimed requests finished and stored after their client had gone",
            ),
            rejected_store_unavailable: counter(
                "idempotency.rejected_store_unavailable",
                "Keyed requests to fail-closed operations refused (503) on a store fault",
            ),
            recovered: counter(
                "idempotency.recovered",
                "Replays of outcomes committed in the database that the store did not hold",
            ),
            durable_claims: counter(
                "idempotency.durable_claims",
                "Keyed executions of operations that commit their answer with their effect",
            ),
            too_large_to_keep: counter(
                "idempotency.too_large_to_keep",
                "2xx answers given but not kept for replay: body over max_response_bytes",
            ),
        }
    }
}

/// Counts one; `step` is the `step` attribute of a fault.
fn bump(pair: &Count, step: Option<FaultStep>) {
    pair.0.fetch_add(1, Ordering::Relaxed);
    #[cfg(feature = "opentelemetry")]
    match step {
        Some(step) => pair
            .1
            .add(1, &[opentelemetry::KeyValue::new("step", step.as_str())]),
        None => pair.1.add(1, &[]),
    }
    #[cfg(not(feature = "opentelemetry"))]
    let _ = step;
}

impl Metrics {
    pub fn executed(&self) {
        bump(&self.executed, None);
    }
    pub fn replayed(&self) {
        bump(&self.replayed, None);
    }
    pub fn conflict(&self) {
        bump(&self.conflict, None);
    }
    pub fn key_reuse(&self) {
        bump(&self.key_reuse, None);
    }
    pub fn degraded(&self, step: FaultStep) {
        bump(&self.degraded, Some(step));
    }
    pub fn lease_lost(&self) {
        bump(&self.lease_lost, None);
    }
    pub fn completed_after_disconnect(&self) {
        bump(&self.completed_after_disconnect, None);
    }
    pub fn rejected_store_unavailable(&self) {
        bump(&self.rejected_store_unavailable, None);
    }
    pub fn recovered(&self) {
        bump(&self.recovered, None);
    }
    pub fn durable_claim(&self) {
        bump(&self.durable_claims, None);
    }
    pub fn too_large_to_keep(&self) {
        bump(&self.too_large_to_keep, None);
    }

    pub fn snapshot(&self) -> MetricsSnapshot {
        let read = |pair: &Count| pair.0.load(Ordering::Relaxed);
        MetricsSnapshot {
            executed: read(&self.executed),
            replayed: read(&self.replayed),
            conflict: read(&self.conflict),
            key_reuse: read(&self.key_reuse),
            degraded: read(&self.degraded),
            lease_lost: read(&self.lease_lost),
            completed_after_disconnect: read(&self.completed_after_disconnect),
            rejected_store_unavailable: read(&self.rejected_store_unavailable),
            recovered: read(&self.recovered),
            durable_claims: read(&self.durable_claims),
            too_large_to_keep: read(&self.too_large_to_keep),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An event, and how the snapshot reads its counter.
    type Event<'a> = (&'a dyn Fn(&Metrics), fn(&MetricsSnapshot) -> u64);

    #[test]
    fn each_event_counts_in_its_own_counter_once() {
        let metrics = Metrics::default();
        let events: [Event<'_>; 11] = [
            (&Metrics::executed, |s| s.executed),
            (&Metrics::replayed, |s| s.replayed),
            (&Metrics::conflict, |s| s.conflict),
            (&Metrics::key_reuse, |s| s.key_reuse),
            (&|m: &Metrics| m.degraded(FaultStep::Claim), |s| s.degraded),
            (&Metrics::lease_lost, |s| s.lease_lost),
            (&Metrics::completed_after_disconnect, |s| {
                s.completed_after_disconnect
            }),
            (&Metrics::rejected_store_unavailable, |s| {
                s.rejected_store_unavailable
            }),
            (&Metrics::recovered, |s| s.recovered),
            (&Metrics::durable_claim, |s| s.durable_claims),
            (&Metrics::too_large_to_keep, |s| s.too_large_to_keep),
        ];

        for (i, (event, _)) in events.iter().enumerate() {
            for _ in 0..=i {
                event(&metrics);
            }
        }

        let snapshot = metrics.snapshot();
        for (i, (_, read)) in events.iter().enumerate() {
            assert_eq!(read(&snapshot), i as u64 + 1, "counter {i}");
        }
    }

    #[test]
    fn a_fault_names_its_step() {
        let steps = [
            FaultStep::Claim,
            FaultStep::Renew,
            FaultStep::Complete,
            FaultStep::Release,
        ];

        let names: Vec<&str> = steps.into_iter().map(FaultStep::as_str).collect();

        assert_eq!(names, ["claim", "renew", "complete", "release"]);
    }
}
