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

/// The development signing key shipped in `config/default.toml`; refused in production.
pub const DEVELOPMENT_JWT_SECRET: &str = "development-only-secret-change-me-0123456789";

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
        if self.environment == Environment::Production
            && self.auth.algorithm == JwtAlgorithm::HS256
            && secret == DEVELOPMENT_JWT_SECRET
        {
            return Err(SettingsError::invalid(
                "auth.jwt_secret",
                "the development key cannot be used in production; set APP__AUTH__JWT_SECRET",
            ));
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
