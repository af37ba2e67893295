//! Typed settings, layered as `config/default.toml`, then `config/{APP_ENV}.toml`, then
//! environment variables `APP__SECTION__KEY`.
//!
//! The TOML files are embedded in the binary by the host, so the service runs from any directory
//! and the container image needs nothing but the executable. Every value is checked once at
//! start-up: a bad or missing one stops the process with a message naming its key.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::Deserialize;
use serde::de::DeserializeOwned;

/// The deployment environment, from `APP_ENV`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Environment {
    Development,
    Test,
    Production,
}

impl Environment {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Development => "development",
            Self::Test => "test",
            Self::Production => "production",
        }
    }

    /// Reads `APP_ENV`; development when unset.
    pub fn from_env() -> Result<Self, SettingsError> {
        match std::env::var("APP_ENV") {
            Ok(value) => value.parse(),
            Err(_) => Ok(Self::Development),
        }
    }
}

impl FromStr for Environment {
    type Err = SettingsError;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        match value.trim().to_ascii_lowercase().as_str() {
            "development" | "dev" => Ok(Self::Development),
            "test" => Ok(Self::Test),
            "production" | "prod" => Ok(Self::Production),
            other => Err(SettingsError::invalid(
                "APP_ENV",
                format!("`{other}` is not one of development, test, production"),
            )),
        }
    }
}

/// A value that must never be printed: `Debug` and `Display` show `[redacted]`.
#[derive(Clone, Deserialize, PartialEq, Eq)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The secret itself, for the one place that needs it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// Why the settings could not be loaded. The message always names the key.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("invalid setting `{key}`: {reason}")]
    Invalid { key: String, reason: String },
    #[error("invalid settings: {0}")]
    Source(#[from] config::ConfigError),
}

impl SettingsError {
    pub fn invalid(key: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::Invalid {
            key: key.into(),
            reason: reason.into(),
        }
    }
}

/// `[server]`: where and how the service listens.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSettings {
    pub host: String,
    pub port: u16,
    pub body_limit_bytes: usize,
    #[serde(with = "humantime_serde")]
    pub shutdown_grace: Duration,
    /// Answer every request with `X-Instance-Id`.
    pub instance_header: bool,
    /// Proxies (CIDRs or addresses) whose forwarding header names the client; empty: the
    /// socket's peer is the client.
    #[serde(default)]
    pub trusted_proxies: Vec<String>,
    /// The header the trusted proxies write: `x-forwarded-for` or `forwarded` (RFC 7239).
    #[serde(default = "default_forwarded_header")]
    pub forwarded_header: String,
    pub cors: CorsSettings,
}

fn default_forwarded_header() -> String {
    "x-forwarded-for".to_owned()
}

impl ServerSettings {
    /// How the host tells a request's client from its proxies. The error names the key.
    pub fn client_addresses(&self) -> Result<kernel::ClientAddressResolver, SettingsError> {
        let header = self
            .forwarded_header
            .parse()
            .map_err(|reason| SettingsError::invalid("server.forwarded_header", reason))?;
        kernel::ClientAddressResolver::new(&self.trusted_proxies, header)
            .map_err(|reason| SettingsError::invalid("server.trusted_proxies", reason))
    }
}

/// `[server.cors]`
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorsSettings {
    pub allowed_origins: Vec<String>,
}

/// `[database]`
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatabaseSettings {
    pub url: Secret,
    pub max_connections: u32,
}

/// `[redis]`: where Redis is — one node (`url`) or a cluster (`cluster_nodes`), never both —
/// and how to reach it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedisSettings {
    /// One node: `redis://`, `rediss://` (TLS) or `unix:`. Empty: no Redis.
    pub url: Secret,
    /// A Redis Cluster's seed nodes (any of its nodes; the rest are discovered). From the
    /// environment, comma-separated.
    pub cluster_nodes: Vec<Secret>,
    /// An ACL user for every node; empty keeps the URLs' (or `default`).
    pub username: String,
    /// The password for every node, overriding the URLs'; empty keeps theirs.
    pub password: Secret,
    /// A PEM file of certificates to trust for `rediss://` besides the public roots (a private
    /// CA). Empty: the public roots only.
    pub tls_ca_file: String,
    /// How long connecting to one node may take.
    #[serde(with = "humantime_serde")]
    pub connect_timeout: Duration,
    /// How long a command may wait for its answer (redirections and retries included): the
    /// most a hung node can add to a request. At most `idempotency.lock_wait`.
    #[serde(with = "humantime_serde")]
    pub response_timeout: Duration,
    pub key_prefix: String,
}

impl RedisSettings {
    /// The single node's URL, or `None` when none is set.
    pub fn url(&self) -> Option<&str> {
        let url = self.url.expose().trim();
        (!url.is_empty()).then_some(url)
    }

    /// The cluster's seed nodes (blank entries dropped); empty when no cluster is set.
    pub fn cluster_nodes(&self) -> Vec<&str> {
        self.cluster_nodes
            .iter()
            .map(|node| node.expose().trim())
            .filter(|node| !node.is_empty())
            .collect()
    }

    /// Whether Redis is configured at all.
    pub fn is_configured(&self) -> bool {
        self.url().is_some() || !self.cluster_nodes().is_empty()
    }

    /// The setting to name in messages about the configured Redis.
    pub fn key_name(&self) -> &'static str {
        if self.url().is_some() {
            "redis.url"
        } else {
            "redis.cluster_nodes"
        }
    }

    fn validate(&self) -> Result<(), SettingsError> {
        let nodes = self.cluster_nodes();
        if self.url().is_some() && !nodes.is_empty() {
            return Err(SettingsError::invalid(
                "redis.url",
                "and redis.cluster_nodes are both set: set redis.url for a single node, or \
                 redis.cluster_nodes for a cluster",
            ));
        }
        if let Some(url) = self.url()
            && !["redis://", "rediss://", "unix:"]
                .iter()
                .any(|scheme| url.starts_with(scheme))
        {
            return Err(SettingsError::invalid(
                "redis.url",
                "must start with redis://, rediss:// or unix:",
            ));
        }
        if nodes
            .iter()
            .any(|node| !(node.starts_with("redis://") || node.starts_with("rediss://")))
        {
            return Err(SettingsError::invalid(
                "redis.cluster_nodes",
                "every node must start with redis:// or rediss://",
            ));
        }
        if nodes.iter().any(|node| node.starts_with("rediss://"))
            && nodes.iter().any(|node| node.starts_with("redis://"))
        {
            return Err(SettingsError::invalid(
                "redis.cluster_nodes",
                "mixes redis:// and rediss://: a cluster is reached with TLS or without it",
            ));
        }
        for (key, value) in [
            ("redis.connect_timeout", self.connect_timeout),
            ("redis.response_timeout", self.response_timeout),
        ] {
            if value.is_zero() {
                return Err(SettingsError::invalid(key, "must be greater than 0"));
            }
        }
        Ok(())
    }
}

/// How logs are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Json,
    Pretty,
}

/// `[telemetry]`
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TelemetrySettings {
    pub service_name: String,
    pub log_format: LogFormat,
    pub log_level: String,
    pub otlp_endpoint: String,
}

impl TelemetrySettings {
    pub fn otlp_endpoint(&self) -> Option<&str> {
        let endpoint = self.otlp_endpoint.trim();
        (!endpoint.is_empty()).then_some(endpoint)
    }
}

/// How access tokens are signed: `HS256` with a shared secret (`auth.jwt_secret`), or a key pair
/// (`auth.private_key_pem`, `auth.public_key_pem`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum JwtAlgorithm {
    HS256,
    EdDSA,
    RS256,
    ES256,
}

impl JwtAlgorithm {
    /// Signed with a private key, checked with its public key.
    pub fn is_asymmetric(self) -> bool {
        self != Self::HS256
    }
}

/// `[auth]`: access-token signing and checking.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthSettings {
    /// `HS256` (with `jwt_secret`), or `EdDSA`, `RS256`, `ES256` (with the PEM keys).
    pub algorithm: JwtAlgorithm,
    pub jwt_secret: Secret,
    /// PEM private key for asymmetric algorithms (signs tokens).
    pub private_key_pem: Secret,
    /// PEM public key for asymmetric algorithms (verifies tokens).
    pub public_key_pem: String,
    pub issuer: String,
    pub audience: String,
    #[serde(with = "humantime_serde")]
    pub access_token_ttl: Duration,
}

impl AuthSettings {
    /// Production never signs with a key anyone can read or guess: none written in this
    /// repository's files, and no weak shared secret. The error names the setting, never the key.
    fn validate_for_production(&self) -> Result<(), SettingsError> {
        if self.algorithm.is_asymmetric() {
            if written_in_repository(self.private_key_pem.expose()) {
                return Err(SettingsError::invalid(
                    "auth.private_key_pem",
                    "is the test key pair written in this repository's files, so anyone who reads \
                     them can sign tokens: generate a key pair of your own (for example \
                     `openssl genpkey -algorithm ed25519`)",
                ));
            }
            return Ok(());
        }
        let secret = self.jwt_secret.expose();
        if written_in_repository(secret) {
            return Err(SettingsError::invalid(
                "auth.jwt_secret",
                "is written in this repository's files (the development key is one), so anyone \
                 who reads them can sign tokens: generate a key of your own (`openssl rand \
                 -base64 32`) and set APP__AUTH__JWT_SECRET",
            ));
        }
        let bits = estimated_key_bits(secret);
        if bits < MIN_KEY_BITS {
            return Err(SettingsError::invalid(
                "auth.jwt_secret",
                format!(
                    "has too little entropy (about {bits:.0} bits estimated, {MIN_KEY_BITS:.0} \
                     needed: few distinct characters, repeats or runs): generate a key \
                     (`openssl rand -base64 32`) and set APP__AUTH__JWT_SECRET"
                ),
            ));
        }
        Ok(())
    }
}

/// SHA-256 (hex) of every signing key written in this repository's files, now or in its
/// history: the development key, the compose file's old key, the keys of the tests and the
/// benchmark, and the test Ed25519 key pair (PEM without whitespace). Anyone who reads the
/// repository can sign tokens with them, so production refuses them. Kept as hashes: the list
/// must not become one more copy of the keys. `tests/e2e/settings.rs` checks that every key
/// the repository's settings, compose and Markdown files hold is refused.
const REPOSITORY_KEYS: &[&str] = &[
    // config/default.toml (the development key)
    "36620796abfc961346babb2e52970263066bf2764c43c11bbf63a42faeca14d7",
    // docker-compose.yml before it took its key from the environment
    "0e73ca80da40827cd5f97075e9db8c1f149a1c679f32b64705d1df38962bb238",
    // tests/e2e/settings.rs once used it as "a production key"
    "e095fd4f0f52e7a0570cb26efd4c74cfb6ae4d097f803a0e8f2bdcae923947e8",
    // shared/kernel/src/auth.rs tests
    "3eb1bd439947eb762998e566ccc2e099c791118b2f40579cc4f7da2b5061b7f9",
    "4ba68aa8767bde72e8c798ee82d1275291cea73e72ad74d35ecf48e41386eb82",
    // tests: the forger's key
    "425d4a33b30fcda88a689fb6f98256692e291d7aff903fde242b8728f77510b8",
    // tests/bench
    "a2d97109e3defbdd660156e638b1acaed5969831ea43d5db405ceb1227eb6228",
    // tests/keys/ed25519-private.pem
    "97312ce7c02eed544b531227943e486dda77b6cc3649a125b79dd392d158b7f1",
];

/// How strong a shared signing key must be estimated to be in production.
pub const MIN_KEY_BITS: f64 = 128.0;

/// Whether `key` (a shared secret, or a PEM key: whitespace does not count) is one of
/// [`REPOSITORY_KEYS`].
pub fn written_in_repository(key: &str) -> bool {
    use sha2::Digest as _;
    let compact: String = key.split_whitespace().collect();
    let hash = hex::encode(sha2::Sha256::digest(compact.as_bytes()));
    REPOSITORY_KEYS.contains(&hash.as_str())
}

/// A rough estimate, in bits, of how hard a shared signing key is to guess. Each character is
/// worth the Shannon entropy of the key's own character frequencies, except those that continue
/// a run (`aaaa`, `0123`, `fedc`) or repeat a stretch seen before (`abcabc`), which add nothing.
/// A random key (`openssl rand -base64 32`) scores about 200; a short alphabet, repeats or runs
/// score low. Words are not recognised (a passphrase is judged as if its letters were random):
/// this catches careless keys, it does not replace generating one.
pub fn estimated_key_bits(key: &str) -> f64 {
    // Long enough for any generated key; past it, the rest is not counted (an underestimate).
    let chars: Vec<char> = key.chars().take(512).collect();
    if chars.is_empty() {
        return 0.0;
    }
    let mut counts = std::collections::HashMap::<char, usize>::new();
    for c in &chars {
        *counts.entry(*c).or_default() += 1;
    }
    let length = chars.len() as f64;
    let per_char: f64 = counts
        .values()
        .map(|&count| {
            let p = count as f64 / length;
            -p * p.log2()
        })
        .sum();
    let mut surprising = 0usize;
    let mut at = 0;
    while at < chars.len() {
        if let Some(repeated) = repeat_at(&chars, at) {
            at += repeated;
            continue;
        }
        let continues_run = at > 0
            && (i64::from(u32::from(chars[at])) - i64::from(u32::from(chars[at - 1]))).abs() <= 1;
        if !continues_run {
            surprising += 1;
        }
        at += 1;
    }
    surprising as f64 * per_char
}

/// The length of the longest stretch (3 characters or more) starting at `at` that also starts
/// earlier in `chars`.
fn repeat_at(chars: &[char], at: usize) -> Option<usize> {
    (0..at)
        .map(|earlier| {
            chars[at..]
                .iter()
                .zip(&chars[earlier..])
                .take_while(|(a, b)| a == b)
                .count()
        })
        .max()
        .filter(|length| *length >= 3)
}

/// Settings that hold lists; from environment variables and overrides they are comma-separated.
const LIST_KEYS: &[&str] = &[
    "server.cors.allowed_origins",
    "server.trusted_proxies",
    "redis.cluster_nodes",
];

/// The settings tree. Sections owned by other crates (the idempotency layer, each module) are
/// read from [`Settings::section`] by their owners, so this crate does not depend on them.
#[derive(Clone)]
pub struct Settings {
    pub environment: Environment,
    pub server: ServerSettings,
    pub database: DatabaseSettings,
    pub redis: RedisSettings,
    pub telemetry: TelemetrySettings,
    pub auth: AuthSettings,
    raw: config::Config,
}

impl fmt::Debug for Settings {
    // The raw tree is left out: it holds secrets as plain strings.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Settings")
            .field("environment", &self.environment)
            .field("server", &self.server)
            .field("database", &self.database)
            .field("redis", &self.redis)
            .field("telemetry", &self.telemetry)
            .field("auth", &self.auth)
            .finish_non_exhaustive()
    }
}

#[derive(Deserialize)]
struct CoreSections {
    server: ServerSettings,
    database: DatabaseSettings,
    redis: RedisSettings,
    telemetry: TelemetrySettings,
    auth: AuthSettings,
}

/// The TOML sources a host embeds: the defaults and one file per environment.
#[derive(Debug, Clone, Copy)]
pub struct EmbeddedConfig {
    pub default: &'static str,
    pub development: &'static str,
    pub test: &'static str,
    pub production: &'static str,
}

impl EmbeddedConfig {
    fn for_environment(&self, environment: Environment) -> &'static str {
        match environment {
            Environment::Development => self.development,
            Environment::Test => self.test,
            Environment::Production => self.production,
        }
    }
}

impl Settings {
    /// Loads the settings for `environment`: embedded defaults, the environment's file, the
    /// process environment (`APP__*`), then `overrides` (dotted keys, used by tests).
    pub fn load(
        embedded: &EmbeddedConfig,
        environment: Environment,
        overrides: &[(&str, &str)],
    ) -> Result<Self, SettingsError> {
        Self::load_from(embedded, environment, None, overrides)
    }

    /// [`Self::load`], reading `APP__*` from `variables` instead of the process environment
    /// (for tests, which share one process environment, and tools that assemble one).
    pub fn load_with_variables(
        embedded: &EmbeddedConfig,
        environment: Environment,
        variables: std::collections::HashMap<String, String>,
    ) -> Result<Self, SettingsError> {
        Self::load_from(embedded, environment, Some(variables), &[])
    }

    fn load_from(
        embedded: &EmbeddedConfig,
        environment: Environment,
        variables: Option<std::collections::HashMap<String, String>>,
        overrides: &[(&str, &str)],
    ) -> Result<Self, SettingsError> {
        let mut environment_variables = config::Environment::with_prefix("APP")
            .prefix_separator("__")
            .separator("__")
            .try_parsing(true)
            .list_separator(",")
            .source(variables);
        for key in LIST_KEYS {
            environment_variables = environment_variables.with_list_parse_key(key);
        }
        let mut builder = config::Config::builder()
            .add_source(config::File::from_str(
                embedded.default,
                config::FileFormat::Toml,
            ))
            .add_source(config::File::from_str(
                embedded.for_environment(environment),
                config::FileFormat::Toml,
            ))
            .add_source(environment_variables);
        for (key, value) in overrides {
            builder = if LIST_KEYS.contains(key) {
                let items: Vec<String> = value
                    .split(',')
                    .map(str::trim)
                    .filter(|item| !item.is_empty())
                    .map(str::to_owned)
                    .collect();
                builder.set_override(*key, items)?
            } else {
                builder.set_override(*key, *value)?
            };
        }
        let raw = builder.build()?;
        let core: CoreSections = raw.clone().try_deserialize()?;
        let settings = Self {
            environment,
            server: core.server,
            database: core.database,
            redis: core.redis,
            telemetry: core.telemetry,
            auth: core.auth,
            raw,
        };
        settings.validate()?;
        Ok(settings)
    }

    /// Reads a section owned by another crate, or its `Default` when the section is absent.
    pub fn section<T: DeserializeOwned + Default>(&self, key: &str) -> Result<T, SettingsError> {
        match self.raw.get::<T>(key) {
            Ok(value) => Ok(value),
            Err(config::ConfigError::NotFound(_)) => Ok(T::default()),
            Err(err) => Err(SettingsError::invalid(key, err.to_string())),
        }
    }

    fn validate(&self) -> Result<(), SettingsError> {
        if self.server.host.trim().is_empty() {
            return Err(SettingsError::invalid("server.host", "must not be empty"));
        }
        if self.server.body_limit_bytes == 0 {
            return Err(SettingsError::invalid(
                "server.body_limit_bytes",
                "must be greater than 0",
            ));
        }
        let db_url = self.database.url.expose();
        if !(db_url.starts_with("sqlite:")
            || db_url.starts_with("postgres://")
            || db_url.starts_with("postgresql://"))
        {
            return Err(SettingsError::invalid(
                "database.url",
                "must start with sqlite:, postgres:// or postgresql://",
            ));
        }
        if self.database.max_connections == 0 {
            return Err(SettingsError::invalid(
                "database.max_connections",
                "must be greater than 0",
            ));
        }
        self.redis.validate()?;
        if let Some(endpoint) = self.telemetry.otlp_endpoint()
            && !(endpoint.starts_with("http://") || endpoint.starts_with("https://"))
        {
            return Err(SettingsError::invalid(
                "telemetry.otlp_endpoint",
                "must be an http:// or https:// URL",
            ));
        }
        self.server.client_addresses()?;
        for origin in &self.server.cors.allowed_origins {
            if !(origin == "*" || origin.starts_with("http://") || origin.starts_with("https://")) {
                return Err(SettingsError::invalid(
                    "server.cors.allowed_origins",
                    format!("`{origin}` is not an origin like https://app.example.com"),
                ));
            }
        }
        let secret = self.auth.jwt_secret.expose();
        if self.auth.algorithm == JwtAlgorithm::HS256 && secret.len() < 32 {
            return Err(SettingsError::invalid(
                "auth.jwt_secret",
                "must be at least 32 bytes long",
            ));
        }
        if self.auth.algorithm.is_asymmetric() {
            if self.auth.private_key_pem.expose().trim().is_empty() {
                return Err(SettingsError::invalid(
                    "auth.private_key_pem",
                    "an asymmetric auth.algorithm needs the PEM private key",
                ));
            }
            if self.auth.public_key_pem.trim().is_empty() {
                return Err(SettingsError::invalid(
                    "auth.public_key_pem",
                    "an asymmetric auth.algorithm needs the PEM public key",
                ));
            }
        }
        if self.environment == Environment::Production {
            self.auth.validate_for_production()?;
        }
        if self.auth.access_token_ttl.is_zero() {
            return Err(SettingsError::invalid(
                "auth.access_token_ttl",
                "must be greater than 0",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_are_estimated_strong() {
        // Shaped as `openssl rand -base64 32` and `openssl rand -hex 32` print them.
        for key in [
            "q3Vx8mZ1kR0pN7bT4yW2cLf9sHdJ6gAeUoIiPzXvEw8=",
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        ] {
            let bits = estimated_key_bits(key);
            assert!(bits >= MIN_KEY_BITS, "{key}: {bits}");
        }
    }

    #[test]
    fn short_alphabets_repeats_and_runs_are_estimated_weak() {
        for key in [
            "a".repeat(64),
            "0123456789abcdef0123456789abcdef".to_owned(),
            "changeme".repeat(6),
            "zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPONMLKJIHGFEDCBA".to_owned(),
        ] {
            let bits = estimated_key_bits(&key);
            assert!(bits < MIN_KEY_BITS, "{key}: {bits}");
        }
    }

    #[test]
    fn the_development_key_is_known_as_the_repositorys_whatever_its_whitespace() {
        assert!(written_in_repository(
            "development-only-secret-change-me-0123456789"
        ));
        assert!(written_in_repository(
            "  development-only-secret-change-me-0123456789\n"
        ));
        assert!(!written_in_repository(
            "q3Vx8mZ1kR0pN7bT4yW2cLf9sHdJ6gAeUoIiPzXvEw8="
        ));
    }
}
