//! Building and running the service.
//!
//! [`Application::build`] is six named steps: check the settings, connect the infrastructure,
//! mount the modules, make the routes and the document, wrap them in the middleware, bind the
//! listener (port 0 picks a free one, which is how tests run many servers at once);
//! [`Application::run_until`] serves until a shutdown signal, then lets in-flight requests
//! finish within `server.shutdown_grace`.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context as _;
use infra::http::AllowedMethods;
use infra::settings::{ServerSettings, Settings};
use kernel::Authenticator;
use poem::listener::{Acceptor, Listener, TcpAcceptor, TcpListener};
use poem::middleware::Cors;
use poem::{EndpointExt, Route, Server, get};
use poem_idempotency::Idempotency;
use poem_idempotency::intent::DeclaredIntents;
use poem_openapi::{OpenApi, OpenApiService};

use crate::docs::{self, OpenApiDocument};
use crate::health::HealthApi;
use crate::infrastructure::{CheckedSettings, Infrastructure};
use crate::middleware::{self, Layers};
use crate::modules::{self, ModuleApis};

/// A built service, bound to its port, ready to serve.
pub struct Application {
    acceptor: TcpAcceptor,
    local_addr: SocketAddr,
    endpoint: poem::endpoint::BoxEndpoint<'static>,
    middleware: &'static [&'static str],
    document: OpenApiDocument,
    idempotency: Arc<Idempotency>,
    /// Closed last at shutdown, so that nothing the database's threads hold outlives the run.
    database: infra::database::Database,
    settings: Settings,
    /// Background tasks stopped at shutdown: the infrastructure's and the modules' own.
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
        // 1. Every section the host reads, checked before anything connects.
        let checked = CheckedSettings::check(&settings)?;
        let client_addresses = Arc::clone(&checked.client_addresses);
        // 2. Database, Redis and what is built on them.
        let infrastructure = Infrastructure::connect(&settings, checked).await?;
        // 3. The modules, migrated and mounted.
        let context = infrastructure.module_context(&settings);
        let modules = modules::mount_all(&context).await?;
        // 4. The routes and the OpenAPI document they serve.
        let Routes {
            routes,
            document,
            allowed_methods,
        } = routes(modules.apis, extra, &infrastructure)?;
        // 5. The middleware, outermost first (see `middleware::stack`).
        let stack = middleware::stack(
            routes,
            Layers {
                instance_header: settings.server.instance_header,
                client_addresses,
                allowed_methods: Arc::new(allowed_methods),
                idempotency: Arc::clone(&infrastructure.idempotency),
                cors: cors(&settings.server),
                authenticator: Arc::new(Authenticator::new(
                    Arc::clone(&infrastructure.tokens),
                    infrastructure.revocations.revoked_sessions(),
                )),
                body_limit_bytes: settings.server.body_limit_bytes,
                legal_enforcement: modules.legal_enforcement,
            },
        );
        // 6. The listener.
        let (acceptor, local_addr) = bind(&settings.server).await?;

        let mut background = infrastructure.background;
        background.extend(context.background.take());
        Ok(Self {
            acceptor,
            local_addr,
            endpoint: stack.endpoint,
            middleware: stack.layers,
            document,
            idempotency: infrastructure.idempotency,
            database: infrastructure.database,
            settings,
            background,
            modules_stopping: context.background.stopping(),
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

    /// The middleware layers every request passes, outermost first, as served.
    pub fn middleware(&self) -> &'static [&'static str] {
        self.middleware
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
        // Connections closed, not dropped: SQLite's worker threads end holding nothing (a span
        // handed to one is let go before the caller flushes its telemetry and exits).
        if tokio::time::timeout(grace, self.database.pool().close())
            .await
            .is_err()
        {
            tracing::warn!("database connections still in use at the end of the shutdown grace");
        }
        served
    }

    /// Serves until SIGTERM or Ctrl-C.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.run_until(shutdown_signal()).await
    }
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

/// What [`routes`] makes.
struct Routes {
    routes: Route,
    /// The document as served at `/openapi.json`.
    document: OpenApiDocument,
    /// The methods the document lists for each path, for the `Allow` header of a 405.
    allowed_methods: AllowedMethods,
}

/// Every module's API and the health probes under their prefixes, the OpenAPI document (with
/// each operation's declared intent) and Swagger UI.
fn routes<X: OpenApi + DeclaredIntents + 'static>(
    module_apis: ModuleApis,
    extra: X,
    infrastructure: &Infrastructure,
) -> anyhow::Result<Routes> {
    let version = env!("CARGO_PKG_VERSION");
    let api = OpenApiService::new((module_apis, extra), docs::TITLE, version)
        .description(
            "A Poem service starter whose unsafe operations are safe to retry with an Idempotency-Key.",
        )
        .url_prefix(kernel::API_PREFIX);
    let health = OpenApiService::new(
        HealthApi {
            database: infrastructure.database.clone(),
            redis: infrastructure.redis.clone(),
        },
        docs::TITLE,
        version,
    )
    .url_prefix("/health");
    let document = docs::served_document(
        serde_json::from_str(&api.spec()).context("the generated OpenAPI document is not JSON")?,
        serde_json::from_str(&health.spec())
            .context("the generated OpenAPI document is not JSON")?,
        &<(ModuleApis, X)>::declared_intents(),
        infrastructure.idempotency.settings(),
    );
    let allowed_methods = AllowedMethods::from_openapi(&document);
    let document = OpenApiDocument(Arc::new(serde_json::to_string_pretty(&document)?));
    let swagger = docs::swagger_config();
    let routes = Route::new()
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
    Ok(Routes {
        routes,
        document,
        allowed_methods,
    })
}

/// CORS for `server.cors.allowed_origins`, or none when no origin is set.
fn cors(server: &ServerSettings) -> Option<Cors> {
    let origins = &server.cors.allowed_origins;
    (!origins.is_empty()).then(|| {
        origins
            .iter()
            // `*` alone allows every origin, which is what a `Cors` without origins does.
            .filter(|origin| origin.as_str() != "*")
            .fold(Cors::new(), |cors, origin| {
                cors.allow_origin(origin.as_str())
            })
            .expose_header(infra::http::REQUEST_ID)
    })
}

/// Listens on `server.host:server.port` (port 0 picks a free one).
async fn bind(server: &ServerSettings) -> anyhow::Result<(TcpAcceptor, SocketAddr)> {
    let address = format!("{}:{}", server.host, server.port);
    let acceptor = TcpListener::bind(address.clone())
        .into_acceptor()
        .await
        .with_context(|| format!("server.host/server.port: cannot listen on {address}"))?;
    let local_addr = acceptor
        .local_addr()
        .first()
        .and_then(|addr| addr.as_socket_addr().copied())
        .context("the listener has no socket address")?;
    Ok((acceptor, local_addr))
}
