//! Building and running the service.
//!
//! [`Application::build`] connects the infrastructure, mounts the modules and binds the
//! listener (port 0 picks a free one, which is how tests run many servers at once);
//! [`Application::run_until`] serves until a shutdown signal, then lets in-flight requests
//! finish within `server.shutdown_grace`.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use infra::http::{
    AllowedMethods, AnswerAllow, Authenticate, BodyLimit, ResolveClient, observe, panic_as_problem,
    refuse_nul_in_url,
};
use infra::mail::{MailSettings, mailer_from_settings};
use infra::module::ModuleContext;
use infra::rate_limit::{RateLimitSettings, RateLimiter};
use infra::redis::AtStartup;
use infra::revocation::Revocations;
use infra::settings::{AuthSettings, Environment, Settings, SettingsError};
use infra::{Database, Migration};
use kernel::{AccessTokenKeys, Authenticator};
use poem::listener::{Acceptor, Listener, TcpAcceptor, TcpListener};
use poem::middleware::{CatchPanic, Cors, SetHeader};
use poem::{EndpointExt, Route, Server, get};
use poem_idempotency::intent::DeclaredIntents;
use poem_idempotency::{DurableOutcomes, Idempotency, IdempotencySettings};
use poem_openapi::{OpenApi, OpenApiService};

use crate::docs::{self, OpenApiDocument};
use crate::health::HealthApi;
use crate::modules;

/// The idempotency layer's own table (see `poem_idempotency::durable`).
const DURABLE_OUTCOMES_MIGRATIONS: &[Migration] = &[Migration {
    version: 1,
    name: "outcomes committed by transactional operations",
    sql: poem_idempotency::durable::MIGRATION,
}];

/// How often expired committed outcomes are deleted.
const OUTCOME_SWEEP_INTERVAL: Duration = Duration::from_secs(60);

/// A built service, bound to its port, ready to serve.
pub struct Application {
    acceptor: TcpAcceptor,
    local_addr: SocketAddr,
    endpoint: poem::endpoint::BoxEndpoint<'static>,
    document: OpenApiDocument,
    idempotency: Arc<Idempotency>,
    settings: Settings,
    /// Background tasks stopped at shutdown: the pings of a Redis that did not answer at
    /// start-up, the revocation follower, the modules' own.
    background: Vec<tokio::task::JoinHandle<()>>,
    /// Cancelled when shutdown begins, for the modules' endless responses.
    modules_stopping: tokio_util::sync::CancellationToken,
}

impl Application {
    /// Builds the service with every module.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        Self::build_with(settings, ()).await
    }

    /// Builds the service with an extra API mounted beside the modules (test fixtures use this).
    pub async fn build_with<X: OpenApi + DeclaredIntents + 'static>(
        settings: Settings,
        extra: X,
    ) -> anyhow::Result<Self> {
        let database = Database::connect(&settings.database)
            .await
            .context("database.url")?;
        let mut background = Vec::new();
        let mut redis_answered = false;
        let idempotency_settings: IdempotencySettings = settings.section("idempotency")?;
        idempotency_settings
            .validate()
            .map_err(|(key, reason)| SettingsError::invalid(key, reason))?;
        if settings.redis.is_configured()
            && settings.redis.response_timeout > idempotency_settings.lock_wait
        {
            // A duplicate waits `lock_wait` for the original; a Redis answer slower than that
            // would hold a request longer than the contract says.
            return Err(SettingsError::invalid(
                "redis.response_timeout",
                "must not exceed idempotency.lock_wait",
            )
            .into());
        }
        let redis = match infra::redis::connect_from_settings(&settings.redis).await? {
            Some((redis, at_startup)) => {
                let key = settings.redis.key_name();
                if let AtStartup::Unavailable(err) = at_startup {
                    // Tolerated: serving degraded beats not serving. The handle connects on
                    // first use; the background pings make sure that happens promptly.
                    tracing::warn!(
                        error = %err,
                        "{key}: Redis did not answer at start-up; serving with idempotency \
                         failing open and rate limits counted in process until it does"
                    );
                    background.push(redis.connect_in_background());
                } else {
                    redis_answered = true;
                }
                Some(redis)
            }
            None => {
                // The one start-up warning for every in-process fallback.
                tracing::warn!(
                    "Redis is not configured (redis.url, redis.cluster_nodes): idempotency records and \
                     rate limits stay in this process, \
                     so duplicates reaching different instances are neither excluded nor replayed, \
                     and limits count per instance"
                );
                None
            }
        };
        let tokens = Arc::new(token_keys(&settings.auth)?);
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
        if redis_answered && !revocations.wait_synced(Duration::from_secs(2)).await {
            tracing::warn!("revocations in force could not be read from Redis yet; serving anyway");
        }
        let mail_settings: MailSettings = settings.section("mail")?;
        if settings.environment == Environment::Production && mail_settings.smtp_url().is_none() {
            return Err(SettingsError::invalid(
                "mail.smtp_url",
                "production needs an SMTP server: the log mailer would write single-use links to the logs",
            )
            .into());
        }
        let mailer = mailer_from_settings(&mail_settings).context("mail.smtp_url")?;
        let rate_limits: RateLimitSettings = settings.section("rate_limit")?;
        rate_limits.validate()?;
        let rate_limiter =
            RateLimiter::from_settings(&rate_limits, redis.as_ref(), &settings.redis.key_prefix);
        // Transactional operations commit their outcomes in the service's own database.
        database
            .migrate("idempotency", DURABLE_OUTCOMES_MIGRATIONS)
            .await?;
        let durable = DurableOutcomes::new(database.pool().clone());
        background.push(durable.clone().sweep_periodically(OUTCOME_SWEEP_INTERVAL));
        let idempotency = Arc::new(
            match &redis {
                Some(redis) => Idempotency::with_redis(
                    redis.connection(),
                    &settings.redis.key_prefix,
                    idempotency_settings,
                ),
                None => Idempotency::in_process(idempotency_settings),
            }
            .with_host(infra::idempotency::ServiceHost)
            .with_durable_outcomes(durable),
        );
        let context = ModuleContext {
            settings: settings.clone(),
            database: database.clone(),
            redis: redis.clone(),
            tokens: Arc::clone(&tokens),
            mailer,
            rate_limiter,
            revocations: revocations.clone(),
            directory: modules::directory(&database),
            background: Default::default(),
        };
        let module_apis = modules::mount_all(&context).await?;
        let legal_enforcement = modules::legal_enforcement(&module_apis);
        background.extend(context.background.take());
        let modules_stopping = context.background.stopping();

        let version = env!("CARGO_PKG_VERSION");
        let api = OpenApiService::new((module_apis, extra), docs::TITLE, version)
            .description("A Poem service starter whose unsafe operations are safe to retry with an Idempotency-Key.")
            .url_prefix(kernel::API_PREFIX);
        let health = OpenApiService::new(HealthApi { database, redis }, docs::TITLE, version)
            .url_prefix("/health");
        let mut document = docs::finish(
            serde_json::from_str(&api.spec())
                .context("the generated OpenAPI document is not JSON")?,
            serde_json::from_str(&health.spec())
                .context("the generated OpenAPI document is not JSON")?,
        );
        modules::document_legal_enforcement(&mut document);
        poem_idempotency::openapi::document_intents(
            &mut document,
            &<(modules::ModuleApis, X)>::declared_intents(),
            idempotency.settings(),
        );
        let allowed_methods = Arc::new(AllowedMethods::from_openapi(&document));
        let document = OpenApiDocument(Arc::new(serde_json::to_string_pretty(&document)?));

        let swagger = docs::swagger_config();
        let route = Route::new()
            .nest(kernel::API_PREFIX, api)
            .nest("/health", health)
            // The document and Swagger UI's settings only where they are served: data added
            // around every route costs every request an insertion.
            .at(
                "/openapi.json",
                get(docs::openapi_json).data(document.clone()),
            )
            .at("/docs", get(docs::docs_redirect))
            .at("/docs/", get(docs::swagger_ui).data(swagger.clone()))
            .at("/docs/*path", get(docs::swagger_ui).data(swagger));

        let cors = (!settings.server.cors.allowed_origins.is_empty()).then(|| {
            settings
                .server
                .cors
                .allowed_origins
                .iter()
                .fold(Cors::new(), |cors, origin| {
                    if origin == "*" {
                        cors
                    } else {
                        cors.allow_origin(origin.as_str())
                    }
                })
                .expose_header(infra::http::REQUEST_ID)
        });
        // Innermost first; `observe` is outermost so that it sees (and renders) every error.
        let endpoint = route
            // Inside `Authenticate`: it reads the caller the authentication step proved.
            .with(legal_enforcement)
            .with(BodyLimit(settings.server.body_limit_bytes))
            .with(CatchPanic::new().with_handler(panic_as_problem))
            .with(Authenticate(Arc::new(Authenticator::new(
                tokens,
                revocations.revoked_sessions(),
            ))));
        // CORS only when configured: a layer merely switched off (`with_if`) still makes every
        // request's future as large as its own, and moving that future cost more than the
        // rest of the stack (docs/benchmarks.md).
        let endpoint = match cors {
            Some(cors) => endpoint.with(cors).boxed(),
            None => endpoint.boxed(),
        };
        let endpoint = endpoint
            .data(Arc::clone(&idempotency))
            .around(refuse_nul_in_url)
            .around(observe)
            .with(AnswerAllow(allowed_methods))
            .with(ResolveClient(Arc::new(settings.server.client_addresses()?)))
            .with_if(
                settings.server.instance_header,
                SetHeader::new().overriding(INSTANCE_ID, instance_id()),
            )
            .boxed();

        let address = format!("{}:{}", settings.server.host, settings.server.port);
        let acceptor = TcpListener::bind(address.clone())
            .into_acceptor()
            .await
            .with_context(|| format!("server.host/server.port: cannot listen on {address}"))?;
        let local_addr = acceptor
            .local_addr()
            .first()
            .and_then(|addr| addr.as_socket_addr().copied())
            .context("the listener has no socket address")?;

        Ok(Self {
            acceptor,
            local_addr,
            endpoint,
            document,
            idempotency,
            settings,
            background,
            modules_stopping,
        })
    }

    /// The address the service listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The finished OpenAPI document, as served at `/openapi.json`.
    pub fn openapi_json(&self) -> &str {
        &self.document.0
    }

    /// The whole service as one endpoint, every middleware included, for benchmarks that call
    /// it in process (no socket, no HTTP parsing).
    pub fn endpoint(&self) -> &poem::endpoint::BoxEndpoint<'static> {
        &self.endpoint
    }

    /// The idempotency layer's state (its counters and store), for tests and benchmarks.
    pub fn idempotency(&self) -> Arc<Idempotency> {
        Arc::clone(&self.idempotency)
    }

    /// Serves until `shutdown` completes, then drains in-flight requests and guarded executions
    /// (whose clients may have gone) within `server.shutdown_grace`.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        tracing::info!(address = %self.local_addr, "serving");
        let grace = self.settings.server.shutdown_grace;
        let (signalled_tx, signalled) = tokio::sync::oneshot::channel();
        let modules_stopping = self.modules_stopping.clone();
        let shutdown = async move {
            shutdown.await;
            modules_stopping.cancel();
            let _ = signalled_tx.send(tokio::time::Instant::now());
        };
        let served = Server::new_with_acceptor(self.acceptor)
            .run_with_graceful_shutdown(self.endpoint, shutdown, Some(grace))
            .await;
        // One grace period in all, counted from the signal: connections first, then executions
        // that outlived their connections.
        let deadline = signalled
            .await
            .map_or_else(|_| tokio::time::Instant::now(), |at| at + grace);
        let remaining = deadline.saturating_duration_since(tokio::time::Instant::now());
        if !self.idempotency.drain(remaining).await {
            tracing::warn!(
                still_running = self.idempotency.abandoned_executions_running(),
                "shutdown grace ended with guarded executions still running: their keys stay \
                 claimed until idempotency.lock_ttl ends"
            );
        }
        for task in self.background {
            task.abort();
        }
        served
    }

    /// Serves until SIGTERM or Ctrl-C.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.run_until(shutdown_signal()).await
    }
}

/// The response header that names the instance that answered (`server.instance_header`).
pub const INSTANCE_ID: &str = "x-instance-id";

/// A random id for this process: tells instances apart without naming a host.
fn instance_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..12].to_owned()
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

/// Completes on Ctrl-C, or SIGTERM on Unix.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutdown signal received: draining in-flight requests");
}
