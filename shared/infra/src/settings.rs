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

mod signing_keys;

pub use signing_keys::{MIN_KEY_BITS, MIN_SECRET_BYTES, estimated_key_bits};

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
    /// repository's files (judged by key material for PEM keys, so the text around a key does not
    /// hide it), no shared secret made from one, and no shared secret short or patterned enough
    /// to guess. The error names the setting and the rule, never the key.
    fn validate_for_production(&self) -> Result<(), SettingsError> {
        if self.algorithm.is_asymmetric() {
            if signing_keys::holds_repository_pem_key(self.private_key_pem.expose()) {
                return Err(SettingsError::invalid(
                    "auth.private_key_pem",
                    "holds the test key pair written in this repository's files, so anyone who \
                     reads them can sign tokens: generate a key pair of your own (for example \
                     `openssl genpkey -algorithm ed25519 -out private.pem`, and `openssl pkey -in \
                     private.pem -pubout` for auth.public_key_pem)",
                ));
            }
            if signing_keys::holds_repository_pem_key(&self.public_key_pem) {
                return Err(SettingsError::invalid(
                    "auth.public_key_pem",
                    "holds the public key of the test key pair written in this repository's \
                     files, whose private key anyone can read, so the tokens it accepts can be \
                     forged: set the public key of your own key pair (`openssl pkey -in \
                     private.pem -pubout`)",
                ));
            }
            return Ok(());
        }
        let secret = self.jwt_secret.expose();
        if signing_keys::made_from_repository_secret(secret) {
            return Err(SettingsError::invalid(
                "auth.jwt_secret",
                "is, or is made from, a key written in this repository's files (the development \
                 key is one; its case, punctuation, order, additions or a base64 or hex encoding \
                 do not hide it), so anyone who reads them can guess it: generate a key of your \
                 own (`openssl rand -base64 32`) and set APP__AUTH__JWT_SECRET",
            ));
        }
        match signing_keys::base64_decoded_len(secret) {
            Some(length) if length >= MIN_SECRET_BYTES => {}
            Some(length) => {
                return Err(SettingsError::invalid(
                    "auth.jwt_secret",
                    format!(
                        "decodes to {length} bytes, {MIN_SECRET_BYTES} needed: it must be base64 \
                         of {MIN_SECRET_BYTES} random bytes or more; generate a key (`openssl \
                         rand -base64 32`) and set APP__AUTH__JWT_SECRET"
                    ),
                ));
            }
            None => {
                return Err(SettingsError::invalid(
                    "auth.jwt_secret",
                    format!(
                        "is not base64: it must be base64 (standard or URL-safe) of \
                         {MIN_SECRET_BYTES} random bytes or more; generate a key (`openssl rand \
                         -base64 32`) and set APP__AUTH__JWT_SECRET"
                    ),
                ));
            }
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
    use base64::Engine as _;

    use super::*;

    fn repository_file(path: &str) -> String {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        std::fs::read_to_string(root.join(path)).unwrap()
    }

    /// The development key, as `config/default.toml` holds it.
    fn development_key() -> String {
        config::Config::builder()
            .add_source(config::File::from_str(
                &repository_file("config/default.toml"),
                config::FileFormat::Toml,
            ))
            .build()
            .unwrap()
            .get_string("auth.jwt_secret")
            .unwrap()
    }

    fn random_bytes() -> [u8; 32] {
        let halves = [uuid::Uuid::new_v4(), uuid::Uuid::new_v4()];
        let mut bytes = [0; 32];
        bytes[..16].copy_from_slice(halves[0].as_bytes());
        bytes[16..].copy_from_slice(halves[1].as_bytes());
        bytes
    }

    /// A new Ed25519 key pair as PEM (PKCS#8 private key, SubjectPublicKeyInfo public key), the
    /// shapes `openssl genpkey -algorithm ed25519` and `openssl pkey -pubout` write.
    fn fresh_ed25519_pair() -> (String, String) {
        const PRIVATE_PREFIX: [u8; 16] = [
            0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22,
            0x04, 0x20,
        ];
        const PUBLIC_PREFIX: [u8; 12] = [
            0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
        ];
        let seed = random_bytes();
        let public_key = ed25519_dalek::SigningKey::from_bytes(&seed)
            .verifying_key()
            .to_bytes();
        let private = pem::Pem::new("PRIVATE KEY", [&PRIVATE_PREFIX[..], &seed].concat());
        let public = pem::Pem::new("PUBLIC KEY", [&PUBLIC_PREFIX[..], &public_key].concat());
        (pem::encode(&private), pem::encode(&public))
    }

    fn eddsa(private_key_pem: &str, public_key_pem: &str) -> AuthSettings {
        AuthSettings {
            algorithm: JwtAlgorithm::EdDSA,
            jwt_secret: Secret::new(""),
            private_key_pem: Secret::new(private_key_pem),
            public_key_pem: public_key_pem.to_owned(),
            issuer: "issuer".to_owned(),
            audience: "audience".to_owned(),
            access_token_ttl: Duration::from_secs(60),
        }
    }

    fn hs256(secret: &str) -> AuthSettings {
        AuthSettings {
            algorithm: JwtAlgorithm::HS256,
            jwt_secret: Secret::new(secret),
            ..eddsa("", "")
        }
    }

    /// The production error for `auth`, which must name `key` and say why without the key.
    fn refusal(auth: &AuthSettings, key: &str) -> String {
        let message = auth
            .validate_for_production()
            .expect_err("production must refuse this key")
            .to_string();
        assert!(message.contains(key), "{message}");
        message
    }

    fn refused_as_the_repositorys(secret: &str) {
        let message = refusal(&hs256(secret), "auth.jwt_secret");
        assert!(message.contains("repository"), "{message}");
        assert!(
            !message.contains(secret),
            "the key is not printed: {message}"
        );
    }

    #[test]
    fn the_repositorys_private_key_after_a_comment_line_is_refused() {
        let private = format!(
            "hello\n{}",
            repository_file("tests/keys/ed25519-private.pem")
        );
        let (_, public) = fresh_ed25519_pair();

        let message = refusal(&eddsa(&private, &public), "auth.private_key_pem");

        assert!(message.contains("repository"), "{message}");
    }

    #[test]
    fn the_repositorys_private_key_with_crlf_line_endings_is_refused() {
        let private = repository_file("tests/keys/ed25519-private.pem").replace('\n', "\r\n");
        let (_, public) = fresh_ed25519_pair();

        refusal(&eddsa(&private, &public), "auth.private_key_pem");
    }

    #[test]
    fn the_repositorys_private_key_encoded_with_its_public_key_is_refused() {
        // PKCS#8 v2 (RFC 8410's OneAsymmetricKey): other DER, the same key.
        let repository_private = pem::parse(repository_file("tests/keys/ed25519-private.pem"))
            .unwrap()
            .into_contents();
        let seed: [u8; 32] = repository_private[16..].try_into().unwrap();
        let public_key = ed25519_dalek::SigningKey::from_bytes(&seed)
            .verifying_key()
            .to_bytes();
        let head = [
            0x30, 0x51, 0x02, 0x01, 0x01, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22,
            0x04, 0x20,
        ];
        let der = [&head[..], &seed, &[0x81, 0x21, 0x00], &public_key].concat();
        let private = pem::encode(&pem::Pem::new("PRIVATE KEY", der));
        let (_, public) = fresh_ed25519_pair();

        refusal(&eddsa(&private, &public), "auth.private_key_pem");
    }

    #[test]
    fn the_repositorys_public_key_beside_a_fresh_private_key_is_refused() {
        let (private, _) = fresh_ed25519_pair();
        let public = repository_file("tests/keys/ed25519-public.pem");

        let message = refusal(&eddsa(&private, &public), "auth.public_key_pem");

        assert!(message.contains("repository"), "{message}");
    }

    #[test]
    fn a_fresh_key_pair_is_accepted() {
        let (private, public) = fresh_ed25519_pair();

        let checked = eddsa(&private, &public).validate_for_production();

        assert!(checked.is_ok(), "{checked:?}");
    }

    #[test]
    fn the_development_key_is_refused_whatever_its_whitespace() {
        refused_as_the_repositorys(&format!("  {}\n", development_key()));
    }

    #[test]
    fn the_development_key_in_base64_is_refused() {
        refused_as_the_repositorys(
            &base64::engine::general_purpose::STANDARD.encode(development_key()),
        );
    }

    #[test]
    fn the_development_key_in_base64url_is_refused() {
        refused_as_the_repositorys(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(development_key()),
        );
    }

    #[test]
    fn the_development_key_in_hex_is_refused() {
        refused_as_the_repositorys(&hex::encode(development_key()));
    }

    #[test]
    fn the_development_key_with_a_suffix_is_refused() {
        refused_as_the_repositorys(&format!("{}-prod", development_key()));
    }

    #[test]
    fn the_development_key_in_upper_case_is_refused() {
        refused_as_the_repositorys(&development_key().to_uppercase());
    }

    #[test]
    fn the_development_key_with_other_punctuation_is_refused() {
        refused_as_the_repositorys(&development_key().replace('-', "_"));
    }

    #[test]
    fn the_development_key_reversed_is_refused() {
        refused_as_the_repositorys(&development_key().chars().rev().collect::<String>());
    }

    #[test]
    fn the_development_key_with_a_suffix_in_base64_reversed_is_refused() {
        let encoded =
            base64::engine::general_purpose::STANDARD.encode(format!("{}-prod", development_key()));

        refused_as_the_repositorys(&encoded.chars().rev().collect::<String>());
    }

    #[test]
    fn a_secret_of_16_bytes_is_refused() {
        let secret = base64::engine::general_purpose::STANDARD.encode(&random_bytes()[..16]);

        let message = refusal(&hs256(&secret), "auth.jwt_secret");

        assert!(message.contains("32"), "{message}");
    }

    #[test]
    fn a_secret_that_is_not_base64_is_refused() {
        let secret = format!(
            "{}!",
            base64::engine::general_purpose::STANDARD.encode(random_bytes())
        );

        let message = refusal(&hs256(&secret), "auth.jwt_secret");

        assert!(message.contains("base64"), "{message}");
    }

    #[test]
    fn a_patterned_secret_long_enough_is_refused_for_its_entropy() {
        let message = refusal(&hs256(&"changeme".repeat(6)), "auth.jwt_secret");

        assert!(message.contains("entropy"), "{message}");
    }

    #[test]
    fn random_32_byte_secrets_are_accepted() {
        // As `openssl rand -base64 32` prints them; and URL-safe, unpadded.
        for _ in 0..20 {
            for secret in [
                base64::engine::general_purpose::STANDARD.encode(random_bytes()),
                base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random_bytes()),
            ] {
                let checked = hs256(&secret).validate_for_production();

                assert!(checked.is_ok(), "{checked:?}");
            }
        }
    }
}
