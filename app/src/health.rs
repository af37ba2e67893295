//! Liveness and readiness probes for orchestrators and load balancers.

use infra::Database;
use infra::redis::{Redis, RedisState};
use kernel::Problem;
use poem::http::StatusCode;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};

#[derive(Tags)]
enum ApiTags {
    /// Probes for orchestrators and load balancers.
    Health,
}

/// What the probes check.
pub struct HealthApi {
    pub database: Database,
    pub redis: Option<Redis>,
}

/// The state of the service and its dependencies.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct HealthReport {
    /// `ok` when every dependency answered; `degraded` when one the service can do without did
    /// not (it still serves: see the dependency's field).
    pub status: String,
    /// The database: `ok`.
    pub database: String,
    /// Redis: `ok`; `cluster failing` (a Redis Cluster answers but some master does not, or some
    /// slot has no serving master, as during a failover: keys there fail open until it heals); `unavailable`
    /// (idempotency fails open, rate limits count per instance, until it answers again); or
    /// `not configured` when the service runs on in-process stores.
    pub redis: String,
    /// How Redis is deployed: `node` or `cluster`; absent without Redis.
    #[oai(skip_serializing_if_is_none)]
    pub redis_topology: Option<String>,
}

#[derive(ApiResponse)]
enum LiveResponse {
    /// The process is up.
    #[oai(status = 200)]
    Live(Json<HealthReport>),
}

#[derive(ApiResponse)]
enum ReadyResponse {
    /// The service can take traffic: `status` is `ok`, or `degraded` when a dependency it can do
    /// without (Redis) did not answer.
    #[oai(status = 200)]
    Ready(Json<HealthReport>),
    /// The service cannot serve: a dependency it needs (the database) did not answer; the
    /// problem names it.
    #[oai(status = 503, content_type = "application/problem+json")]
    NotReady(Json<Problem>),
}

#[OpenApi(tag = "ApiTags::Health")]
impl HealthApi {
    /// Liveness
    ///
    /// Answers 200 while the process is up. Checks no dependency, so an outage of the database or
    /// Redis never gets the process restarted. Point a Kubernetes liveness probe here.
    #[oai(path = "/live", method = "get", operation_id = "healthLive")]
    async fn live(&self) -> LiveResponse {
        LiveResponse::Live(Json(HealthReport {
            status: "ok".into(),
            database: "unchecked".into(),
            redis: "unchecked".into(),
            redis_topology: None,
        }))
    }

    /// Readiness
    ///
    /// Answers whether this instance can serve: 503 only when the database does not answer. A
    /// Redis outage answers 200 with `status: degraded` and `redis: unavailable`: every instance
    /// shares that Redis, so taking them out of rotation for it would turn a degraded service
    /// into no service. Point a load balancer's health check or a Kubernetes readiness probe here.
    #[oai(path = "/ready", method = "get", operation_id = "healthReady")]
    async fn ready(&self) -> ReadyResponse {
        if let Err(err) = self.database.ping().await {
            tracing::warn!(error = %err, "readiness: database did not answer");
            return not_ready("database");
        }
        let redis = match &self.redis {
            Some(redis) => match redis.state().await {
                Ok(RedisState::Ok) => "ok",
                Ok(RedisState::ClusterFailing) => "cluster failing",
                Err(err) => {
                    tracing::debug!(error = %err, "readiness: redis did not answer");
                    "unavailable"
                }
            },
            None => "not configured",
        };
        let topology = self.redis.as_ref().map(|redis| {
            if redis.is_cluster() {
                "cluster"
            } else {
                "node"
            }
            .to_owned()
        });
        ReadyResponse::Ready(Json(HealthReport {
            status: if matches!(redis, "ok" | "not configured") {
                "ok"
            } else {
                "degraded"
            }
            .into(),
            database: "ok".into(),
            redis: redis.into(),
            redis_topology: topology,
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
