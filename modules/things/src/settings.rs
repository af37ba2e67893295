//! `[things]` settings: what the API enforces, read by the host from the module's section.

use serde::Deserialize;

/// `[things]` settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ThingsSettings {
    /// The most things one owner may hold.
    pub max_things_per_owner: u64,
    /// PUT, PATCH and DELETE require `If-Match` (428 without it), so that no client overwrites
    /// or deletes a version it has not seen.
    pub require_if_match: bool,
}

impl Default for ThingsSettings {
    fn default() -> Self {
        Self {
            max_things_per_owner: 10_000,
            require_if_match: true,
        }
    }
}
