//! The identity vocabulary: parsed emails and passwords, password hashing, opaque tokens.
//!
//! Parse, don't validate: a handler never holds an unchecked email or password.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use argon2::password_hash::phc::PasswordHash;
use argon2::{Algorithm, Argon2, Params, PasswordHasher as _, PasswordVerifier as _, Version};
use kernel::AppError;
use sha2::{Digest, Sha256};

use crate::settings::Argon2Settings;

pub use kernel::auth::ADMIN_ROLE;

/// An email address in the one form the service stores, so that one mailbox is one account.
///
/// Only a plain addr-spec is accepted: no display name, comment, quotes, angle brackets,
/// whitespace or control characters (each of those let `x<alice@example.com>` or
/// `"y"<alice@example.com>` become a second account whose mail reaches alice). The local part is
/// an RFC 5322 dot-atom of ASCII characters, at most 64 octets; the domain is IDNA-normalised
/// (lower case, Punycode) and must be a DNS name of at least two labels; the whole address is at
/// most 254 octets. The local part is lower-cased too: mailbox providers treat it as
/// case-insensitive, and two accounts differing only in case would be the same person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Self, AppError> {
        Self::normalise(raw.trim()).ok_or_else(|| {
            AppError::Invalid(
                "`email` is not a valid email address: send a plain address such as \
                 name@example.com, without a display name, quotes or angle brackets."
                    .into(),
            )
        })
    }

    fn normalise(raw: &str) -> Option<Self> {
        let (local, domain) = raw.rsplit_once('@')?;
        let local_is_dot_atom = !local.is_empty()
            && local.len() <= 64
            && !local.starts_with('.')
            && !local.ends_with('.')
            && !local.contains("..")
            && local
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~.".contains(&b));
        if !local_is_dot_atom {
            return None;
        }
        let domain = idna::domain_to_ascii_strict(domain).ok()?;
        let labels: Vec<&str> = domain.split('.').collect();
        let domain_is_dns_name = labels.len() >= 2
            && labels.iter().all(|label| {
                (1..=63).contains(&label.len())
                    && !label.starts_with('-')
                    && !label.ends_with('-')
                    && label
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            });
        let email = format!("{}@{domain}", local.to_ascii_lowercase());
        (domain_is_dns_name && email.len() <= 254).then_some(Self(email))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A display name the service may put in its own mail: trimmed, at most 100 characters, and
/// without control characters (a line break would let a name add lines to a mail).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisplayName(String);

impl DisplayName {
    pub const MAX_CHARS: usize = 100;

    /// `None` for an absent or blank name.
    pub fn parse(raw: Option<&str>) -> Result<Option<Self>, AppError> {
        let Some(name) = raw.map(str::trim).filter(|name| !name.is_empty()) else {
            return Ok(None);
        };
        if name.chars().count() > Self::MAX_CHARS {
            return Err(AppError::Invalid(format!(
                "`displayName` must be at most {} characters long.",
                Self::MAX_CHARS
            )));
        }
        if name.chars().any(char::is_control) {
            return Err(AppError::Invalid(
                "`displayName` may not contain line breaks or other control characters.".into(),
            ));
        }
        Ok(Some(Self(name.to_owned())))
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// A password that meets the policy: 10 to 128 characters. Never printed.
pub struct Password(String);

impl Password {
    pub const MIN_CHARS: usize = 10;
    pub const MAX_CHARS: usize = 128;

    pub fn parse(raw: &str, field: &str) -> Result<Self, AppError> {
        let length = raw.chars().count();
        if !(Self::MIN_CHARS..=Self::MAX_CHARS).contains(&length) {
            return Err(AppError::Invalid(format!(
                "`{field}` must be {} to {} characters long.",
                Self::MIN_CHARS,
                Self::MAX_CHARS
            )));
        }
        Ok(Self(raw.to_owned()))
    }

    fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password([redacted])")
    }
}

/// Bounds how many password hashes run at once.
///
/// Each argon2id hash takes tens of megabytes and a core for tens of milliseconds on tokio's
/// blocking pool, which would otherwise start up to 512 of them at once: a burst of logins (or
/// of guesses at unknown emails, which hash too) could exhaust memory. A request waits at most
/// `wait` for a slot, then answers 503 with `Retry-After`. The slot is held by the hashing
/// thread itself, so a client that goes away does not free it while its hash still runs.
#[derive(Clone)]
pub struct HashingSlots {
    permits: Arc<tokio::sync::Semaphore>,
    wait: Duration,
    running: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
}

impl HashingSlots {
    /// `max` hashes at once (0: one per core).
    pub fn new(max: usize, wait: Duration) -> Self {
        let max = match max {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            max => max,
        };
        Self {
            permits: Arc::new(tokio::sync::Semaphore::new(max)),
            wait,
            running: Arc::default(),
            peak: Arc::default(),
        }
    }

    /// Runs `work` on the blocking pool once a slot is free, or refuses after the wait.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AppError> {
        let permit = tokio::time::timeout(self.wait, Arc::clone(&self.permits).acquire_owned())
            .await
            .map_err(|_| AppError::Busy {
                retry_after_secs: 1,
            })?
            .map_err(AppError::internal)?;
        let (running, peak) = (Arc::clone(&self.running), Arc::clone(&self.peak));
        tokio::task::spawn_blocking(move || {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            let output = work();
            running.fetch_sub(1, Ordering::SeqCst);
            drop(permit);
            output
        })
        .await
        .map_err(AppError::internal)
    }

    /// The most hashes that ever ran at once.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::SeqCst)
    }
}

/// Hashes and checks passwords with argon2id.
#[derive(Clone)]
pub struct PasswordHasher {
    params: Params,
    /// A hash of a random password, verified against when the account does not exist, so that
    /// an unknown email costs the same time as a wrong password.
    dummy_hash: String,
}

impl PasswordHasher {
    pub fn new(settings: Argon2Settings) -> anyhow::Result<Self> {
        let params = Params::new(
            settings.memory_kib,
            settings.iterations,
            settings.parallelism,
            None,
        )
        .map_err(|err| anyhow::anyhow!("identity.argon2: {err}"))?;
        let mut hasher = Self {
            params,
            dummy_hash: String::new(),
        };
        let random = hex::encode(rand::random::<[u8; 16]>());
        hasher.dummy_hash = hasher
            .hash(&Password(random))
            .map_err(|err| anyhow::anyhow!("identity.argon2: {err}"))?;
        Ok(hasher)
    }

    fn argon2(&self) -> Argon2<'static> {
        Argon2::new(Algorithm::Argon2id, Version::V0x13, self.params.clone())
    }

    /// A PHC string (`$argon2id$v=19$m=...`) carrying its salt and parameters.
    pub fn hash(&self, password: &Password) -> Result<String, AppError> {
        let hash: PasswordHash = self
            .argon2()
            .hash_password(password.as_bytes())
            .map_err(|err| AppError::internal(err.to_string()))?;
        Ok(hash.to_string())
    }

    /// Whether `password` matches `stored` (or, with `None`, spends the same time and fails).
    pub fn verify(&self, password: &str, stored: Option<&str>) -> bool {
        let stored = stored.unwrap_or(&self.dummy_hash);
        let Ok(parsed) = stored.parse::<PasswordHash>() else {
            return false;
        };
        self.argon2()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
            && stored != self.dummy_hash
    }

    /// Whether `stored` was made with other parameters than today's (then rehash at login).
    pub fn is_outdated(&self, stored: &str) -> bool {
        let current = format!(
            "m={},t={},p={}",
            self.params.m_cost(),
            self.params.t_cost(),
            self.params.p_cost()
        );
        !stored.starts_with("$argon2id$") || !stored.contains(&current)
    }
}

/// A random opaque token (256 bits, hex) and the SHA-256 hash under which it is stored.
///
/// Only the hash is kept: a leaked table of hashes opens no session and resets no password.
pub struct OpaqueToken {
    pub plain: String,
    pub hash: String,
}

impl OpaqueToken {
    pub fn generate() -> Self {
        let plain = hex::encode(rand::random::<[u8; 32]>());
        let hash = Self::hash_of(&plain);
        Self { plain, hash }
    }

    /// The stored form of a token a client presents.
    pub fn hash_of(plain: &str) -> String {
        hex::encode(Sha256::digest(plain.trim().as_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cheap() -> PasswordHasher {
        PasswordHasher::new(Argon2Settings {
            memory_kib: 64,
            iterations: 1,
            parallelism: 1,
        })
        .unwrap()
    }

    #[test]
    fn plain_addresses_are_accepted_in_one_normal_form() {
        for (raw, normal) in [
            ("  Alice@Example.COM ", "alice@example.com"),
            ("a.b+tag@example.co.uk", "a.b+tag@example.co.uk"),
            ("o'brien@example.com", "o'brien@example.com"),
            ("x_y-z@sub.example.com", "x_y-z@sub.example.com"),
            ("alice@BÜCHER.example", "alice@xn--bcher-kva.example"),
            ("alice@xn--bcher-kva.example", "alice@xn--bcher-kva.example"),
        ] {
            assert_eq!(Email::parse(raw).unwrap().as_str(), normal, "{raw}");
        }
    }

    #[test]
    fn anything_but_a_plain_address_is_refused() {
        for bad in [
            "",
            "alice",
            "alice@",
            "@example.com",
            "a b@example.com",
            "alice@localhost",
            "a@b@c.com",
            "x<alice@example.com>",
            "\"y\"<alice@example.com>",
            "<alice@example.com>",
            "Alice <alice@example.com>",
            "\"alice\"@example.com",
            "alice(comment)@example.com",
            "alice@example.com (comment)",
            ".alice@example.com",
            "alice.@example.com",
            "al..ice@example.com",
            "alice@-example.com",
            "alice@example..com",
            "alice@exa_mple.com",
            "ålice@example.com",
            "alice\r\nBcc: eve@example.com@example.com",
            "alice@exam\nple.com",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn addresses_are_bounded_in_length() {
        let local_64 = "a".repeat(64);
        assert!(Email::parse(&format!("{local_64}@example.com")).is_ok());
        assert!(Email::parse(&format!("a{local_64}@example.com")).is_err());
        let long_domain = format!("{}.com", vec!["a".repeat(63); 4].join("."));
        assert!(
            Email::parse(&format!("alice@{long_domain}")).is_err(),
            "over 254 octets"
        );
    }

    #[test]
    fn display_names_are_trimmed_bounded_and_single_line() {
        assert_eq!(DisplayName::parse(None).unwrap(), None);
        assert_eq!(DisplayName::parse(Some("  ")).unwrap(), None);
        assert_eq!(
            DisplayName::parse(Some(" Ada "))
                .unwrap()
                .unwrap()
                .into_string(),
            "Ada"
        );
        assert!(DisplayName::parse(Some("Ada\nLovelace")).is_err());
        assert!(DisplayName::parse(Some("Ada\r\nBcc: eve")).is_err());
        assert!(DisplayName::parse(Some(&"x".repeat(101))).is_err());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn many_hashes_at_once_never_run_more_than_the_slots() {
        let slots = HashingSlots::new(2, Duration::from_secs(30));
        let hasher = cheap();

        let mut logins = tokio::task::JoinSet::new();
        for n in 0..16 {
            let (slots, hasher) = (slots.clone(), hasher.clone());
            logins.spawn(async move {
                slots
                    .run(move || {
                        // Long enough that unbounded hashes would overlap.
                        std::thread::sleep(Duration::from_millis(20));
                        hasher.hash(&Password::parse(&format!("password number {n}"), "p").unwrap())
                    })
                    .await
            });
        }
        let outcomes = logins.join_all().await;

        assert!(outcomes.iter().all(|outcome| matches!(outcome, Ok(Ok(_)))));
        assert_eq!(
            slots.peak(),
            2,
            "never more than the two slots, and both used"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_hash_that_cannot_get_a_slot_in_time_is_refused_with_retry_after() {
        let slots = HashingSlots::new(1, Duration::from_millis(20));
        let busy = slots.clone();
        let occupying = tokio::spawn(async move {
            busy.run(|| std::thread::sleep(Duration::from_millis(500)))
                .await
        });
        tokio::time::sleep(Duration::from_millis(100)).await;

        let refused = slots.run(|| ()).await;

        assert!(
            matches!(
                refused,
                Err(AppError::Busy {
                    retry_after_secs: 1
                })
            ),
            "{refused:?}"
        );
        occupying.await.unwrap().unwrap();
    }

    #[test]
    fn passwords_must_be_10_to_128_characters() {
        assert!(Password::parse("short", "password").is_err());
        assert!(Password::parse(&"x".repeat(129), "password").is_err());
        assert!(Password::parse("long enough!", "password").is_ok());
        assert_eq!(
            format!("{:?}", Password::parse("long enough!", "p").unwrap()),
            "Password([redacted])"
        );
    }

    #[test]
    fn a_hash_verifies_its_password_only() {
        let hasher = cheap();
        let hash = hasher
            .hash(&Password::parse("correct horse", "p").unwrap())
            .unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(hasher.verify("correct horse", Some(&hash)));
        assert!(!hasher.verify("wrong horse!", Some(&hash)));
        assert!(
            !hasher.verify("correct horse", None),
            "the dummy hash never verifies"
        );
    }

    #[test]
    fn hashes_with_other_parameters_are_outdated() {
        let hasher = cheap();
        let hash = hasher
            .hash(&Password::parse("correct horse", "p").unwrap())
            .unwrap();
        assert!(!hasher.is_outdated(&hash));
        assert!(
            PasswordHasher::new(Argon2Settings::default())
                .unwrap()
                .is_outdated(&hash)
        );
    }

    #[test]
    fn opaque_tokens_are_256_bits_and_stored_hashed() {
        let token = OpaqueToken::generate();
        assert_eq!(token.plain.len(), 64);
        assert_ne!(token.plain, token.hash);
        assert_eq!(OpaqueToken::hash_of(&token.plain), token.hash);
    }
}
