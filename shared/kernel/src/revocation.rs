//! Sessions whose access tokens must stop working before they expire.
//!
//! Access tokens are verified without a round trip (a signature and a few claims), so a
//! logout, a lock or a password reset would otherwise leave them working until `exp`. The
//! authentication step also looks the token's session up in this set: a memory lookup, no
//! network. An entry only has to outlive the tokens already issued for its session, so each one
//! carries an expiry (the access-token lifetime from the revocation, plus a margin) and the set
//! stays as small as the revocations of the last few minutes.
//!
//! The set is per process. The host fills it from every source it has: this instance's own
//! revocations, and with Redis those of every other instance (`infra::revocation`).

use std::collections::HashMap;
use std::sync::{PoisonError, RwLock};
use std::time::{SystemTime, UNIX_EPOCH};

use tokio::sync::watch;

/// Revoked session ids, each until the Unix time (ms) after which its tokens have all expired.
#[derive(Debug)]
pub struct RevokedSessions {
    entries: RwLock<HashMap<String, u64>>,
    /// Counts insertions, so that what outlives a request (an event stream) can wait for its
    /// session's revocation instead of polling the set.
    changes: watch::Sender<u64>,
}

impl Default for RevokedSessions {
    fn default() -> Self {
        Self {
            entries: RwLock::default(),
            changes: watch::Sender::new(0),
        }
    }
}

impl RevokedSessions {
    pub fn new() -> Self {
        Self::default()
    }

    /// Changes whenever a revocation is recorded: subscribe, then check [`Self::contains`],
    /// then wait for a change and check again (a revocation between the two is not missed).
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// Records that tokens of `session_id` are refused until `until_ms` (Unix ms). A later
    /// expiry wins over an earlier one for the same session.
    pub fn insert(&self, session_id: &str, until_ms: u64) {
        let now = unix_now_ms();
        let mut entries = self.entries.write().unwrap_or_else(PoisonError::into_inner);
        // Sweep whenever the map doubles past its last swept size: amortised O(1) per insert,
        // and expired entries never outnumber live ones by much.
        if entries.len() >= 1024 && entries.len().is_power_of_two() {
            entries.retain(|_, until| *until > now);
        }
        let until = entries.entry(session_id.to_owned()).or_insert(until_ms);
        *until = (*until).max(until_ms);
        drop(entries);
        self.changes
            .send_modify(|count| *count = count.wrapping_add(1));
    }

    /// Whether tokens of `session_id` are refused now.
    pub fn contains(&self, session_id: &str) -> bool {
        let entries = self.entries.read().unwrap_or_else(PoisonError::into_inner);
        entries
            .get(session_id)
            .is_some_and(|until| *until > unix_now_ms())
    }

    /// Drops entries whose tokens have all expired.
    pub fn purge_expired(&self) {
        let now = unix_now_ms();
        self.entries
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|_, until| *until > now);
    }

    /// Every entry still in force, as (session id, until ms).
    pub fn snapshot(&self) -> Vec<(String, u64)> {
        let now = unix_now_ms();
        self.entries
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter(|(_, until)| **until > now)
            .map(|(id, until)| (id.clone(), *until))
            .collect()
    }

    /// Entries held now, expired ones included until they are swept.
    pub fn len(&self) -> usize {
        self.entries
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The wall clock in Unix milliseconds: entries are shared between instances, so they are
/// compared on the clock instances share, not on a monotonic one.
pub fn unix_now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_revoked_session_is_refused_until_its_entry_expires() {
        let revoked = RevokedSessions::new();
        revoked.insert("live", unix_now_ms() + 60_000);
        revoked.insert("over", unix_now_ms() - 1);

        assert!(revoked.contains("live"));
        assert!(
            !revoked.contains("over"),
            "an expired entry refuses nothing"
        );
        assert!(!revoked.contains("other"));
    }

    #[test]
    fn the_later_expiry_wins() {
        let revoked = RevokedSessions::new();
        revoked.insert("s", unix_now_ms() + 60_000);
        revoked.insert("s", unix_now_ms() - 1);

        assert!(revoked.contains("s"));
    }

    #[tokio::test]
    async fn a_revocation_wakes_whoever_waits_for_one() {
        let revoked = RevokedSessions::new();
        let mut changes = revoked.changes();

        revoked.insert("s", unix_now_ms() + 60_000);

        assert!(changes.has_changed().unwrap());
        changes.changed().await.unwrap();
        assert!(revoked.contains("s"));
    }

    #[test]
    fn expired_entries_are_swept() {
        let revoked = RevokedSessions::new();
        for n in 0..2_000 {
            revoked.insert(&format!("old-{n}"), unix_now_ms() - 1);
        }
        revoked.insert("live", unix_now_ms() + 60_000);

        revoked.purge_expired();

        assert_eq!(revoked.len(), 1);
        assert!(revoked.contains("live"));
    }
}
