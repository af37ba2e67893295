//! Liveness and readiness probes for orchestrators and load balancers.

use infra::Database;
use kernel::Problem;
use poem::http::StatusCode;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};
use redis::aio::ConnectionManager;

#[derive(Tags)]
enum ApiTags {
    /// Probes for orchestrators and load balancers.
    Health,
}

/// What the probes check.
pub struct HealthApi {
    pub database: Database,
    pub redis: Option<ConnectionManager>,
}

/// The state of the service and its dependencies.
#[derive(Debug, Object)]
pub struct HealthReport {
    /// `ok` when every dependency answered.
    pub status: String,
    /// The database: `ok`.
    pub database: String,
    /// Redis: `ok`, or `not configured` when the service runs on in-process stores.
    pub redis: String,
}

#[derive(ApiResponse)]
enum LiveResponse {
    /// The process is up.
    #[oai(status = 200)]
    Live(Json<HealthReport>),
}

#[derive(ApiResponse)]
enum ReadyResponse {
    /// Every dependency answered: the service can take traffic.
    #[oai(status = 200)]
    Ready(Json<HealthReport>),
    /// A dependency did not answer; the problem names it.
    #[oai(status = 503, content_type = "application/problem+json")]
    NotReady(Json<Problem>),
}

#[OpenApi(tag = "ApiTags::Health")]
impl HealthApi {
    /// Liveness
    ///
    /// Answers 200 while the process is up. Checks no dependency, so a database outage does not
    /// get the process restarted.
    #[oai(path = "/live", method = "get", operation_id = "healthLive")]
    async fn live(&self) -> LiveResponse {
        LiveResponse::Live(Json(HealthReport {
            status: "ok".into(),
            database: "unchecked".into(),
            redis: "unchecked".into(),
        }))
    }

    /// Readiness
    ///
    /// Answers 200 when the database (and Redis, when configured) answer; 503 naming the
    /// failing dependency otherwise.
    #[oai(path = "/ready", method = "get", operation_id = "healthReady")]
    async fn ready(&self) -> ReadyResponse {
        if let Err(err) = self.database.ping().await {
            tracing::warn!(error = %err, "readiness: database did not answer");
            return not_ready("database");
        }
        let redis = match &self.redis {
            Some(connection) => match infra::redis::ping(connection).await {
                Ok(()) => "ok",
                Err(err) => {
                    tracing::warn!(error = %err, "readiness: redis did not answer");
                    return not_ready("redis");
                }
            },
            None => "not configured",
        };
        ReadyResponse::Ready(Json(HealthReport {
            status: "ok".into(),
            database: "ok".into(),
            redis: redis.into(),
        }))
    }
}

fn not_ready(dependency: &str) -> ReadyResponse {
    ReadyResponse::NotReady(Json(
        Problem::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "/problems/dependency-unavailable",
            "Dependency unavailable",
        )
        .with_detail(format!("The {dependency} did not answer.")),
    ))
}
