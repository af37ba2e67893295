//! One warning per outage of a dependency the service tolerates losing.
//!
//! The idempotency layer and the rate limiter keep serving when Redis fails, for every request.
//! Logging each of those failures would flood the log exactly when an operator needs it to be
//! readable, so each of them reports to an [`OutageLog`]: the first failure logs a warning, the
//! first success after it logs the recovery with the outage's length and how many calls it
//! affected, and everything in between is only counted.

use std::fmt::Display;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The outages of one dependency, as one user of it sees them.
#[derive(Debug)]
pub struct OutageLog {
    /// Who reports, e.g. `idempotency store`.
    subject: &'static str,
    /// What the service does meanwhile, e.g. `keyed requests execute unguarded`.
    consequence: &'static str,
    // Checked on every success, so the common path is one relaxed load.
    in_outage: AtomicBool,
    current: Mutex<Option<Outage>>,
    outages: AtomicU64,
}

#[derive(Debug)]
struct Outage {
    since: Instant,
    affected: u64,
}

/// How an outage ended, as the recovery message reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recovery {
    pub lasted: Duration,
    pub affected: u64,
}

impl OutageLog {
    pub const fn new(subject: &'static str, consequence: &'static str) -> Self {
        Self {
            subject,
            consequence,
            in_outage: AtomicBool::new(false),
            current: Mutex::new(None),
            outages: AtomicU64::new(0),
        }
    }

    /// A call failed. The first failure of an outage logs a warning; later ones are counted.
    pub fn failed(&self, error: &dyn Display) {
        let mut current = self.lock();
        match current.as_mut() {
            Some(outage) => outage.affected += 1,
            None => {
                *current = Some(Outage {
                    since: Instant::now(),
                    affected: 1,
                });
                self.in_outage.store(true, Ordering::Release);
                self.outages.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(
                    subject = self.subject,
                    error = %error,
                    "{} unavailable: {} until it answers again",
                    self.subject,
                    self.consequence
                );
            }
        }
    }

    /// A call succeeded. Ends the outage, if there was one, and logs its end once.
    pub fn succeeded(&self) -> Option<Recovery> {
        if !self.in_outage.load(Ordering::Acquire) {
            return None;
        }
        let outage = self.lock().take()?;
        self.in_outage.store(false, Ordering::Release);
        let recovery = Recovery {
            lasted: outage.since.elapsed(),
            affected: outage.affected,
        };
        tracing::info!(
            subject = self.subject,
            outage_ms = u64::try_from(recovery.lasted.as_millis()).unwrap_or(u64::MAX),
            affected = recovery.affected,
            "{} available again after {:.1} s; {} call(s) were served without it",
            self.subject,
            recovery.lasted.as_secs_f64(),
            recovery.affected
        );
        Some(recovery)
    }

    /// How many outages have begun since the process started.
    pub fn outages(&self) -> u64 {
        self.outages.load(Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Outage>> {
        // A panic while logging cannot leave the state half-written: recover it.
        self.current
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use tracing_subscriber::layer::SubscriberExt as _;

    use super::*;
    use crate::test_log::Messages;

    #[test]
    fn an_outage_is_logged_once_when_it_begins_and_once_when_it_ends() {
        let messages = Messages::default();
        let _scope =
            tracing::subscriber::set_default(tracing_subscriber::registry().with(messages.clone()));
        let log = OutageLog::new("test store", "requests go without it");

        log.succeeded();
        for _ in 0..5 {
            log.failed(&"connection refused");
        }
        let recovery = log.succeeded();
        log.succeeded();

        let messages = messages.0.lock().unwrap().clone();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert_eq!(messages[0].0, tracing::Level::WARN);
        assert!(
            messages[0].1.contains("test store unavailable"),
            "{messages:?}"
        );
        assert_eq!(messages[1].0, tracing::Level::INFO);
        assert!(
            messages[1].1.contains("5 call(s) were served without it"),
            "{messages:?}"
        );
        assert_eq!(recovery.map(|r| r.affected), Some(5));
        assert_eq!(log.outages(), 1);
        assert_eq!(log.succeeded(), None, "the outage is over");
    }

    #[test]
    fn a_second_outage_is_a_new_one() {
        let log = OutageLog::new("test store", "requests go without it");

        log.failed(&"down");
        log.succeeded();
        log.failed(&"down again");

        assert_eq!(log.outages(), 2);
        assert_eq!(
            log.succeeded().map(|r| r.affected),
            Some(1),
            "down again, once"
        );
    }
}
