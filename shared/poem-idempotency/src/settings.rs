//! `[idempotency]` settings.

use std::time::Duration;

use serde::Deserialize;

/// How the layer stores, waits and expires; the defaults are the README's.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IdempotencySettings {
    /// Where the records live; a host builds the [`Store`](crate::store::Store) it names.
    pub store: StoreKind,
    /// How long a completed response is replayed.
    #[serde(with = "humantime_serde")]
    pub retention: Duration,
    /// The lease on an in-progress request. Renewed every third of it while the handler runs,
    /// so it bounds only how long a crashed instance's claim blocks its key.
    #[serde(with = "humantime_serde")]
    pub lock_ttl: Duration,
    /// How long a duplicate waits for the original to finish before answering 409.
    #[serde(with = "humantime_serde")]
    pub lock_wait: Duration,
    /// Responses with larger bodies are not stored; the key is released instead.
    pub max_response_bytes: usize,
    /// How many records the in-process store keeps at most (it evicts the oldest beyond).
    pub memory_max_entries: usize,
    /// How many bytes of records the in-process store keeps at most.
    pub memory_max_bytes: usize,
}

/// Where a service keeps its idempotency records (`idempotency.store`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StoreKind {
    /// Redis when the service has one, else this process.
    #[default]
    Auto,
    /// This process: exclusion and replay per instance only.
    Memory,
    /// Redis, shared by every instance.
    Redis,
    /// A table of the service's PostgreSQL database, shared by every instance: for a fleet
    /// with PostgreSQL and no Redis.
    Postgres,
}

impl Default for IdempotencySettings {
    fn default() -> Self {
        Self {
            store: StoreKind::Auto,
            retention: Duration::from_secs(24 * 60 * 60),
            lock_ttl: Duration::from_secs(30),
            lock_wait: Duration::from_secs(5),
            max_response_bytes: 1024 * 1024,
            memory_max_entries: 100_000,
            memory_max_bytes: 64 * 1024 * 1024,
        }
    }
}

impl IdempotencySettings {
    /// Checks the values; the error names the offending key.
    pub fn validate(&self) -> Result<(), (&'static str, &'static str)> {
        if self.lock_ttl < Duration::from_millis(100) {
            return Err(("idempotency.lock_ttl", "must be at least 100ms"));
        }
        if self.retention < self.lock_ttl {
            return Err((
                "idempotency.retention",
                "must be at least idempotency.lock_ttl",
            ));
        }
        if self.lock_wait.is_zero() {
            return Err(("idempotency.lock_wait", "must be greater than 0"));
        }
        if self.memory_max_entries == 0 {
            return Err((
                "idempotency.memory_max_entries",
                "the in-process store needs room",
            ));
        }
        if self.memory_max_bytes == 0 {
            return Err((
                "idempotency.memory_max_bytes",
                "the in-process store needs room",
            ));
        }
        Ok(())
    }

    /// The retention as an ISO 8601 duration, as the OpenAPI extension states it (`PT24H`).
    pub fn retention_iso8601(&self) -> String {
        let total = self.retention.as_secs();
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60);
        let mut text = String::from("PT");
        if hours > 0 {
            text.push_str(&format!("{hours}H"));
        }
        if minutes > 0 {
            text.push_str(&format!("{minutes}M"));
        }
        if seconds > 0 || total == 0 {
            text.push_str(&format!("{seconds}S"));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retention_is_stated_as_an_iso_8601_duration() {
        let stated = |seconds: u64| {
            IdempotencySettings {
                retention: Duration::from_secs(seconds),
                ..IdempotencySettings::default()
            }
            .retention_iso8601()
        };

        assert_eq!(IdempotencySettings::default().retention_iso8601(), "PT24H");
        assert_eq!(stated(90 * 60 + 5), "PT1H30M5S");
        assert_eq!(stated(2 * 3600 + 5), "PT2H5S");
        assert_eq!(stated(61), "PT1M1S");
        assert_eq!(stated(45), "PT45S");
        assert_eq!(stated(0), "PT0S");
    }

    fn refused(change: impl FnOnce(&mut IdempotencySettings)) -> Option<&'static str> {
        let mut settings = IdempotencySettings::default();
        change(&mut settings);
        settings.validate().err().map(|(key, _)| key)
    }

    #[test]
    fn the_defaults_are_valid() {
        assert_eq!(IdempotencySettings::default().validate(), Ok(()));
    }

    #[test]
    fn a_lease_under_100_ms_is_refused() {
        assert_eq!(
            refused(|s| s.lock_ttl = Duration::from_millis(99)),
            Some("idempotency.lock_ttl")
        );
        assert_eq!(refused(|s| s.lock_ttl = Duration::from_millis(100)), None);
    }

    #[test]
    fn a_retention_shorter_than_the_lease_is_refused() {
        let retention = |ms| {
            refused(|s| {
                s.lock_ttl = Duration::from_secs(1);
                s.retention = Duration::from_millis(ms);
            })
        };
        assert_eq!(retention(999), Some("idempotency.retention"));
        assert_eq!(retention(1000), None);
    }

    #[test]
    fn a_duplicate_must_be_allowed_to_wait() {
        assert_eq!(
            refused(|s| s.lock_wait = Duration::ZERO),
            Some("idempotency.lock_wait")
        );
        assert_eq!(refused(|s| s.lock_wait = Duration::from_millis(1)), None);
    }

    #[test]
    fn an_in_process_store_without_room_is_refused() {
        assert_eq!(
            refused(|s| s.memory_max_entries = 0),
            Some("idempotency.memory_max_entries")
        );
        assert_eq!(
            refused(|s| s.memory_max_bytes = 0),
            Some("idempotency.memory_max_bytes")
        );
    }

    #[test]
    fn settings_read_durations_as_people_write_them() {
        let settings: IdempotencySettings =
            serde_json::from_str(r#"{ "retention": "1h 30m", "lock_wait": "250ms" }"#).unwrap();

        assert_eq!(settings.retention, Duration::from_secs(5400));
        assert_eq!(settings.lock_wait, Duration::from_millis(250));
        assert_eq!(settings.lock_ttl, IdempotencySettings::default().lock_ttl);
        assert!(serde_json::from_str::<IdempotencySettings>(r#"{ "retentoin": "1h" }"#).is_err());
    }

    #[test]
    fn the_store_is_named_in_lower_case_and_chosen_by_the_host_by_default() {
        let store = |json: &str| serde_json::from_str::<IdempotencySettings>(json).map(|s| s.store);

        assert_eq!(store("{}").unwrap(), StoreKind::Auto);
        assert_eq!(
            store(r#"{ "store": "postgres" }"#).unwrap(),
            StoreKind::Postgres
        );
        assert_eq!(store(r#"{ "store": "redis" }"#).unwrap(), StoreKind::Redis);
        assert_eq!(
            store(r#"{ "store": "memory" }"#).unwrap(),
            StoreKind::Memory
        );
        assert!(store(r#"{ "store": "Postgres" }"#).is_err());
    }
}
