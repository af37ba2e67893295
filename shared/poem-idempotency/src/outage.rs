//! One warning per store outage, not one per request: while the store is down every keyed
//! request meets the fault, and a log line each would bury the one that matters.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The store's outages as the guard meets them: the first failure warns, the first success
/// after it says how long it lasted and how many calls met it.
#[derive(Debug, Default)]
pub(crate) struct StoreOutages {
    // The flag is what every success reads: one relaxed load while the store is up.
    down: AtomicBool,
    since: Mutex<Option<Instant>>,
    affected: AtomicU64,
    outages: AtomicU64,
}

impl StoreOutages {
    /// A store call failed.
    pub fn failed(&self, error: &dyn std::fmt::Display) {
        self.affected.fetch_add(1, Ordering::Relaxed);
        if self.down.swap(true, Ordering::AcqRel) {
            return;
        }
        self.outages.fetch_add(1, Ordering::Relaxed);
        *self.since.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        tracing::warn!(
            error = %error,
            "idempotency store unavailable: keyed requests execute unguarded (fail-closed \
             operations answer 503) until it answers again"
        );
    }

    /// A store call succeeded: ends the outage, if there was one.
    pub fn succeeded(&self) {
        if !self.down.load(Ordering::Relaxed) || !self.down.swap(false, Ordering::AcqRel) {
            return;
        }
        let affected = self.affected.swap(0, Ordering::Relaxed);
        let since = self.since.lock().unwrap_or_else(|e| e.into_inner()).take();
        let lasted = since.map_or(0.0, |since| since.elapsed().as_secs_f64());
        tracing::info!(
            affected,
            "idempotency store available again after {lasted:.1} s; {affected} call(s) met it down"
        );
    }

    /// How many outages have begun.
    pub fn outages(&self) -> u64 {
        self.outages.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_in_a_row_are_one_outage_and_a_success_ends_it() {
        let outages = StoreOutages::default();

        outages.succeeded();
        outages.failed(&"down");
        outages.failed(&"still down");
        assert_eq!(outages.outages(), 1);
        outages.succeeded();
        outages.failed(&"down again");

        assert_eq!(outages.outages(), 2);
        assert_eq!(
            outages.affected.load(Ordering::Relaxed),
            1,
            "counted afresh"
        );
    }
}
