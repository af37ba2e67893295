//! The first two steps of start-up: [`CheckedSettings::check`] reads and checks every section
//! that crosses module lines before anything connects, then [`Infrastructure::connect`] builds
//! what the modules are given (database, Redis, access-token keys, revocations, mail, rate
//! limits, the idempotency layer) and the background work that keeps them current.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use infra::mail::{MailSettings, Mailer, mailer_from_settings};
use infra::module::{BackgroundTasks, ModuleContext};
use infra::rate_limit::{RateLimitSettings, RateLimiter};
use infra::redis::{AtStartup, Redis};
use infra::revocation::Revocations;
use infra::settings::{AuthSettings, Environment, Settings, SettingsError};
use infra::{Database, Migration};
use kernel::{AccessTokenKeys, ClientAddressResolver};
use poem_idempotency::store::{
    MemoryStore, POSTGRES_DEFAULT_TABLE, PostgresStore, RedisStore, Store,
};
use poem_idempotency::{DurableOutcomes, Idempotency, IdempotencySettings, StoreKind};
use tokio::task::JoinHandle;

use crate::modules;

/// The idempotency layer's own table (see `poem_idempotency::durable`).
const DURABLE_OUTCOMES_MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "outcomes committed by transactional operations",
        sql: poem_idempotency::durable::MIGRATIONS[0],
    },
    Migration {
        version: 2,
        name: "outcome bodies as bytes",
        sql: poem_idempotency::durable::MIGRATIONS[1],
    },
];

/// How often expired committed outcomes are deleted.
const OUTCOME_SWEEP_INTERVAL: Duration = Duration::from_secs(60);

/// How long a new instance waits to read the revocations in force before serving.
const REVOCATIONS_SYNC_WAIT: Duration = Duration::from_secs(2);

/// The sections the host reads itself, each checked, and the rules that span sections.
pub struct CheckedSettings {
    pub idempotency: IdempotencySettings,
    pub mail: MailSettings,
    pub rate_limits: RateLimitSettings,
    pub tokens: AccessTokenKeys,
    pub client_addresses: Arc<ClientAddressResolver>,
}

impl CheckedSettings {
    /// Refuses settings the service must not start with, naming the key at fault.
    pub fn check(settings: &Settings) -> anyhow::Result<Self> {
        let idempotency: IdempotencySettings = settings.section("idempotency")?;
        idempotency
            .validate()
            .map_err(|(key, reason)| SettingsError::invalid(key, reason))?;
        if settings.redis.is_configured() && settings.redis.response_timeout > idempotency.lock_wait
        {
            // A duplicate waits `lock_wait` for the original; a Redis answer slower than that
            // would hold a request longer than the contract says.
            return Err(SettingsError::invalid(
                "redis.response_timeout",
                "must not exceed idempotency.lock_wait",
            )
            .into());
        }
        match idempotency.store {
            StoreKind::Redis if !settings.redis.is_configured() => {
                return Err(SettingsError::invalid(
                    "idempotency.store",
                    "\"redis\" needs redis.url or redis.cluster_nodes",
                )
                .into());
            }
            StoreKind::Postgres if !settings.database.url.expose().starts_with("postgres") => {
                return Err(SettingsError::invalid(
                    "idempotency.store",
                    "\"postgres\" needs database.url to be a PostgreSQL database",
                )
                .into());
            }
            _ => {}
        }
        let mail: MailSettings = settings.section("mail")?;
        if settings.environment == Environment::Production && mail.smtp_url().is_none() {
            return Err(SettingsError::invalid(
                "mail.smtp_url",
                "production needs an SMTP server: the log mailer would write single-use links to the logs",
            )
            .into());
        }
        let rate_limits: RateLimitSettings = settings.section("rate_limit")?;
        rate_limits.validate()?;
        Ok(Self {
            idempotency,
            mail,
            rate_limits,
            tokens: token_keys(&settings.auth)?,
            client_addresses: Arc::new(settings.server.client_addresses()?),
        })
    }
}

/// What the modules are given, connected.
pub struct Infrastructure {
    pub database: Database,
    /// Present when Redis is configured (`redis.url` or `redis.cluster_nodes`).
    pub redis: Option<Redis>,
    pub tokens: Arc<AccessTokenKeys>,
    pub revocations: Revocations,
    pub mailer: Arc<dyn Mailer>,
    pub rate_limiter: RateLimiter,
    pub idempotency: Arc<Idempotency>,
    /// Stopped at shutdown: the pings of a Redis that did not answer at start-up, the
    /// revocation follower, the sweep of expired outcomes.
    pub background: Vec<JoinHandle<()>>,
}

impl Infrastructure {
    /// Connects the database and Redis (a Redis that does not answer yet is tolerated: the
    /// service starts degraded) and builds everything on top of them.
    pub async fn connect(settings: &Settings, checked: CheckedSettings) -> anyhow::Result<Self> {
        let mut background = Vec::new();
        let database = Database::connect(&settings.database)
            .await
            .context("database.url")?;
        let (redis, redis_answered) = connect_redis(settings, &mut background).await?;
        let revocations = match &redis {
            Some(redis) => Revocations::with_redis(
                redis.clone(),
                &settings.redis.key_prefix,
                settings.auth.access_token_ttl,
            ),
            None => Revocations::in_process(settings.auth.access_token_ttl),
        };
        background.extend(revocations.follow());
        // A new instance must not serve a token another instance revoked: read what is in force
        // before serving (bounded: a Redis that answered a moment ago answers now).
        if redis_answered && !revocations.wait_synced(REVOCATIONS_SYNC_WAIT).await {
            tracing::warn!("revocations in force could not be read from Redis yet; serving anyway");
        }
        let mailer = mailer_from_settings(&checked.mail).context("mail.smtp_url")?;
        let rate_limiter = RateLimiter::from_settings(
            &checked.rate_limits,
            redis.as_ref(),
            &settings.redis.key_prefix,
        );
        // Durable operations commit their answers in the service's own database.
        database
            .migrate("idempotency", DURABLE_OUTCOMES_MIGRATIONS)
            .await?;
        let durable = DurableOutcomes::new(database.pool().clone());
        background.push(durable.clone().sweep_periodically(OUTCOME_SWEEP_INTERVAL));
        let store = idempotency_store(
            settings,
            &checked.idempotency,
            redis.as_ref(),
            &mut background,
        )
        .await?;
        let idempotency = Idempotency::new(store, checked.idempotency)
            .with_host(infra::idempotency::ServiceHost)
            .with_durable_outcomes(durable);
        Ok(Self {
            database,
            redis,
            tokens: Arc::new(checked.tokens),
            revocations,
            mailer,
            rate_limiter,
            idempotency: Arc::new(idempotency),
            background,
        })
    }

    /// What a module is given when it is mounted.
    pub fn module_context(&self, settings: &Settings) -> ModuleContext {
        ModuleContext {
            settings: settings.clone(),
            database: self.database.clone(),
            redis: self.redis.clone(),
            tokens: Arc::clone(&self.tokens),
            mailer: Arc::clone(&self.mailer),
            rate_limiter: self.rate_limiter.clone(),
            revocations: self.revocations.clone(),
            directory: modules::directory(&self.database),
            background: BackgroundTasks::default(),
        }
    }
}

/// The idempotency store `idempotency.store` names (checked against what is configured).
async fn idempotency_store(
    settings: &Settings,
    idempotency: &IdempotencySettings,
    redis: Option<&Redis>,
    background: &mut Vec<JoinHandle<()>>,
) -> anyhow::Result<Store> {
    Ok(match (idempotency.store, redis) {
        (StoreKind::Postgres, _) => {
            // A pool of its own: the store's statements are PostgreSQL's, and a claim must
            // not wait behind the modules' transactions for a connection.
            let pool = sqlx::postgres::PgPoolOptions::new()
                .max_connections(settings.database.max_connections)
                .connect(settings.database.url.expose())
                .await
                .context("database.url (for idempotency.store = \"postgres\")")?;
            let store = PostgresStore::new(pool, POSTGRES_DEFAULT_TABLE)
                .await
                .context("idempotency.store = \"postgres\"")?;
            background.push(store.clone().sweep_periodically(OUTCOME_SWEEP_INTERVAL));
            Store::new(store)
        }
        (StoreKind::Redis | StoreKind::Auto, Some(redis)) => Store::new(RedisStore::new(
            redis.connection(),
            settings.redis.key_prefix.as_str(),
        )),
        (StoreKind::Memory | StoreKind::Auto | StoreKind::Redis, _) => {
            tracing::warn!(
                "idempotency records stay in this process: duplicates reaching different \
                 instances are neither excluded nor replayed (idempotency.store \"redis\" or \
                 \"postgres\" shares them)"
            );
            Store::new(MemoryStore::new(
                idempotency.memory_max_entries,
                idempotency.memory_max_bytes,
            ))
        }
    })
}

/// Redis as configured, and whether it answered at start-up.
async fn connect_redis(
    settings: &Settings,
    background: &mut Vec<JoinHandle<()>>,
) -> anyhow::Result<(Option<Redis>, bool)> {
    let Some((redis, at_startup)) = infra::redis::connect_from_settings(&settings.redis).await?
    else {
        // The one start-up warning for every in-process fallback.
        tracing::warn!(
            "Redis is not configured (redis.url, redis.cluster_nodes): rate limits and \
             revocations stay in this process, so limits count per instance"
        );
        return Ok((None, false));
    };
    let AtStartup::Unavailable(err) = at_startup else {
        return Ok((Some(redis), true));
    };
    // Tolerated: serving degraded beats not serving. The handle connects on first use; the
    // background pings make sure that happens promptly.
    tracing::warn!(
        error = %err,
        "{}: Redis did not answer at start-up; serving with idempotency failing open and rate \
         limits counted in process until it does",
        settings.redis.key_name()
    );
    background.push(redis.connect_in_background());
    Ok((Some(redis), false))
}

/// The access-token keys `[auth]` describes.
pub fn token_keys(auth: &AuthSettings) -> anyhow::Result<AccessTokenKeys> {
    use infra::settings::JwtAlgorithm;
    use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey};
    let private = auth.private_key_pem.expose().as_bytes();
    let public = auth.public_key_pem.as_bytes();
    let (algorithm, encoding, decoding) = match auth.algorithm {
        JwtAlgorithm::EdDSA => (
            Algorithm::EdDSA,
            EncodingKey::from_ed_pem(private),
            DecodingKey::from_ed_pem(public),
        ),
        JwtAlgorithm::RS256 => (
            Algorithm::RS256,
            EncodingKey::from_rsa_pem(private),
            DecodingKey::from_rsa_pem(public),
        ),
        JwtAlgorithm::ES256 => (
            Algorithm::ES256,
            EncodingKey::from_ec_pem(private),
            DecodingKey::from_ec_pem(public),
        ),
        JwtAlgorithm::HS256 => {
            return AccessTokenKeys::hs256(
                auth.jwt_secret.expose().as_bytes(),
                &auth.issuer,
                &auth.audience,
            )
            .context("auth.jwt_secret: not a usable signing key");
        }
    };
    Ok(AccessTokenKeys::with_keys(
        algorithm,
        encoding.context("auth.private_key_pem: not a PEM key for auth.algorithm")?,
        decoding.context("auth.public_key_pem: not a PEM key for auth.algorithm")?,
        &auth.issuer,
        &auth.audience,
    ))
}
