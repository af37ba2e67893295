//! `[rate_limit]` ([`RateLimitSettings`]): the limits, the window and the in-process capacity,
//! with their defaults and start-up checks. Apart from the backends: it is configuration only.

use std::time::Duration;

use serde::Deserialize;

use super::MAX_WINDOW;
use crate::settings::SettingsError;

/// How many buckets of each kind (credential, ordinary) the in-process limiter tracks at most by
/// default (`rate_limit.memory_capacity`): at ~100 bytes a bucket, about 10 MiB a kind.
pub const DEFAULT_MEMORY_CAPACITY: usize = 100_000;

/// `[rate_limit]`: the limits of the abuse-prone endpoints, each per `window`.
///
/// Logins count only *failed* attempts, in three buckets: per (account, client address) with a
/// small limit, which stops a guesser without touching the owner elsewhere; per account across
/// addresses with a much higher one (a distributed guess); per address across accounts (password
/// spraying). A successful login clears its (account, address) bucket, and makes the address
/// known to the account for `known_address_ttl`: from a known address the per-account bucket is
/// not used, so failures from elsewhere cannot lock the owner out of the addresses they use,
/// while new addresses stay bounded by it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RateLimitSettings {
    /// `false` turns every limit off.
    pub enabled: bool,
    /// The length of a counting window, e.g. `15m`.
    #[serde(with = "humantime_serde")]
    pub window: Duration,
    /// Failed logins on one account from one client address (guessing).
    pub failed_logins_per_account_address: u32,
    /// Failed logins on one account from all addresses (guessing from many addresses).
    pub failed_logins_per_account: u32,
    /// Failed logins from one client address on all accounts (password spraying).
    pub failed_logins_per_address: u32,
    /// Registrations per client address.
    pub register_per_address: u32,
    /// Mails requested for one account from one client address (forgot-password,
    /// send-email-confirmation).
    pub email_per_account_address: u32,
    /// Mails requested per account: bounds how often a victim's inbox can be filled. Every link
    /// sent stays valid until it expires or one is used, so reaching this limit never leaves the
    /// owner without a working link.
    pub email_per_account: u32,
    /// Mails requested per client address, for any accounts.
    pub email_per_address: u32,
    /// Sign-ins with a provider started per client address: each keeps a state row until it
    /// is used or expires, so an anonymous flood must not fill the table.
    pub provider_sign_ins_per_address: u32,
    /// Buckets of each kind the in-process limiter (and the Redis limiter's fallback during an
    /// outage) keeps at most: credential buckets (logins, mails) and ordinary ones apart, so
    /// ordinary traffic never evicts a credential count. When full it evicts the least recently
    /// hit ordinary buckets, or the credential buckets of the lowest counts.
    pub memory_capacity: usize,
    /// How long an address an account signed in from stays known: from it, logins and mail
    /// requests are not counted in the account's own buckets (per account, across addresses),
    /// which failures from elsewhere could otherwise fill to lock the owner out.
    #[serde(with = "humantime_serde")]
    pub known_address_ttl: Duration,
}

impl Default for RateLimitSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            window: Duration::from_secs(15 * 60),
            failed_logins_per_account_address: 5,
            failed_logins_per_account: 100,
            failed_logins_per_address: 50,
            register_per_address: 20,
            email_per_account_address: 3,
            email_per_account: 10,
            email_per_address: 20,
            provider_sign_ins_per_address: 60,
            memory_capacity: DEFAULT_MEMORY_CAPACITY,
            known_address_ttl: Duration::from_secs(30 * 24 * 60 * 60),
        }
    }
}

impl RateLimitSettings {
    /// Checks the values; the error names the key, as the host's start-up checks do.
    pub fn validate(&self) -> Result<(), SettingsError> {
        if self.window < Duration::from_secs(1) || self.window > MAX_WINDOW {
            return Err(SettingsError::invalid(
                "rate_limit.window",
                "must be between 1s and 366 days",
            ));
        }
        let limits = [
            (
                "rate_limit.failed_logins_per_account_address",
                self.failed_logins_per_account_address,
            ),
            (
                "rate_limit.failed_logins_per_account",
                self.failed_logins_per_account,
            ),
            (
                "rate_limit.failed_logins_per_address",
                self.failed_logins_per_address,
            ),
            ("rate_limit.register_per_address", self.register_per_address),
            (
                "rate_limit.email_per_account_address",
                self.email_per_account_address,
            ),
            ("rate_limit.email_per_account", self.email_per_account),
            ("rate_limit.email_per_address", self.email_per_address),
            (
                "rate_limit.provider_sign_ins_per_address",
                self.provider_sign_ins_per_address,
            ),
        ];
        if self.known_address_ttl.is_zero() {
            return Err(SettingsError::invalid(
                "rate_limit.known_address_ttl",
                "must be greater than 0",
            ));
        }
        if self.memory_capacity < 8 {
            return Err(SettingsError::invalid(
                "rate_limit.memory_capacity",
                "must be at least 8",
            ));
        }
        for (key, limit) in limits {
            if limit == 0 {
                return Err(SettingsError::invalid(
                    key,
                    "must be greater than 0 (set rate_limit.enabled = false to turn limits off)",
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(toml: &str) -> Result<RateLimitSettings, config::ConfigError> {
        config::Config::builder()
            .add_source(config::File::from_str(toml, config::FileFormat::Toml))
            .build()?
            .get::<RateLimitSettings>("rate_limit")
    }

    #[test]
    fn settings_defaults_and_parsing() {
        let defaults = RateLimitSettings::default();
        assert!(defaults.enabled);
        assert_eq!(defaults.window, Duration::from_secs(900));
        assert_eq!(
            (
                defaults.failed_logins_per_account_address,
                defaults.failed_logins_per_account,
                defaults.failed_logins_per_address,
                defaults.register_per_address,
                defaults.email_per_account_address,
                defaults.email_per_account,
                defaults.email_per_address,
            ),
            (5, 100, 50, 20, 3, 10, 20)
        );
        assert_eq!(defaults.memory_capacity, DEFAULT_MEMORY_CAPACITY);
        defaults.validate().expect("the defaults are valid");

        let settings = parse("[rate_limit]\nwindow = \"1m 30s\"\nfailed_logins_per_account = 3")
            .expect("valid");
        assert_eq!(settings.window, Duration::from_secs(90));
        assert_eq!(settings.failed_logins_per_account, 3);
        assert_eq!(
            settings.failed_logins_per_address, 50,
            "absent keys take their default"
        );

        assert!(
            parse("[rate_limit]\nlogin_per_account = 3").is_err(),
            "unknown key"
        );
        assert!(
            parse("[rate_limit]\nwindow = \"soon\"").is_err(),
            "not a duration"
        );
    }

    #[test]
    fn validation_names_the_key() {
        let zero_limit = RateLimitSettings {
            email_per_account: 0,
            ..RateLimitSettings::default()
        };
        let err = zero_limit.validate().expect_err("a zero limit");
        assert!(
            err.to_string().contains("rate_limit.email_per_account"),
            "{err}"
        );

        let short = RateLimitSettings {
            window: Duration::from_millis(500),
            ..RateLimitSettings::default()
        };
        let err = short.validate().expect_err("a sub-second window");
        assert!(err.to_string().contains("rate_limit.window"), "{err}");
    }
}
