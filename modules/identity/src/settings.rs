//! `[identity]` settings.

use std::time::Duration;

use serde::Deserialize;

/// Argon2id cost parameters (`[identity.argon2]`). The defaults follow OWASP's minimum for
/// argon2id; raise them as far as login latency allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Argon2Settings {
    pub memory_kib: u32,
    pub iterations: u32,
    pub parallelism: u32,
}

impl Default for Argon2Settings {
    fn default() -> Self {
        Self {
            memory_kib: 19_456,
            iterations: 2,
            parallelism: 1,
        }
    }
}

/// How accounts and tokens behave.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IdentitySettings {
    /// Refuse login until the email address is confirmed (true in production).
    pub require_confirmed_email: bool,
    /// Lifetime of a refresh token (each refresh issues a new one).
    #[serde(with = "humantime_serde")]
    pub refresh_token_ttl: Duration,
    /// Lifetime of a password-reset link.
    #[serde(with = "humantime_serde")]
    pub reset_token_ttl: Duration,
    /// Lifetime of an email-confirmation link.
    #[serde(with = "humantime_serde")]
    pub confirmation_token_ttl: Duration,
    /// Where the links in mails point: the front end that takes the token.
    pub public_base_url: String,
    /// The service name in mails.
    pub service_name: String,
    pub argon2: Argon2Settings,
    /// Password hashes (login, registration, reset) that may run at once; 0: one per core.
    pub max_concurrent_hashes: usize,
    /// How long a request waits for a hashing slot before answering 503 with `Retry-After`.
    #[serde(with = "humantime_serde")]
    pub hash_wait: Duration,
    /// How recent the caller's sign-in must be for what could hand the account to someone
    /// else (linking a provider account): a session opened longer ago (a stolen access token,
    /// say) must sign in again, with the password or a linked provider. Refreshing a session
    /// does not make its sign-in recent.
    #[serde(with = "humantime_serde")]
    pub recent_sign_in: Duration,
}

impl Default for IdentitySettings {
    fn default() -> Self {
        Self {
            require_confirmed_email: false,
            refresh_token_ttl: Duration::from_secs(30 * 24 * 60 * 60),
            reset_token_ttl: Duration::from_secs(30 * 60),
            confirmation_token_ttl: Duration::from_secs(24 * 60 * 60),
            public_base_url: "http://127.0.0.1:8080".to_owned(),
            service_name: "Idempotent Service".to_owned(),
            argon2: Argon2Settings::default(),
            max_concurrent_hashes: 0,
            hash_wait: Duration::from_secs(2),
            recent_sign_in: Duration::from_secs(5 * 60),
        }
    }
}
