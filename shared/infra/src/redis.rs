//! The optional shared Redis, from the `[redis]` settings.
//!
//! The handle itself ([`Redis`]: a single node or a cluster, commands, scripts, pub/sub,
//! readiness) lives in the `redis-topology` crate, which the idempotency store also uses; this
//! module turns settings into its options and connects, naming the setting at fault in every
//! error without ever printing a URL (which may carry a password).

use anyhow::Context as _;

pub use redis_topology::{
    AtStartup, Messages, Redis, RedisConnection, RedisOptions, RedisState, Topology,
    is_unavailability,
};

use crate::settings::{RedisSettings, SettingsError};

/// The options `settings` describe, or `None` when Redis is not configured.
fn options_from_settings(settings: &RedisSettings) -> Result<Option<RedisOptions>, SettingsError> {
    let topology = match (settings.url(), settings.cluster_nodes()) {
        (None, nodes) if nodes.is_empty() => return Ok(None),
        (Some(url), _) => Topology::Node(url.to_owned()),
        (None, nodes) => Topology::Cluster(nodes.into_iter().map(str::to_owned).collect()),
    };
    let non_empty = |value: &str| {
        let value = value.trim();
        (!value.is_empty()).then(|| value.to_owned())
    };
    let tls_root_certificates = match non_empty(&settings.tls_ca_file) {
        Some(path) => Some(std::fs::read(&path).map_err(|err| {
            SettingsError::invalid("redis.tls_ca_file", format!("cannot read `{path}`: {err}"))
        })?),
        None => None,
    };
    Ok(Some(RedisOptions {
        topology,
        username: non_empty(&settings.username),
        password: non_empty(settings.password.expose()),
        tls_root_certificates,
        connect_timeout: settings.connect_timeout,
        response_timeout: settings.response_timeout,
    }))
}

/// Connects as `settings` say (`None` when Redis is not configured). Only a configuration that
/// can never work is an error, naming `redis.url` or `redis.cluster_nodes`; a Redis that does
/// not answer yet is [`AtStartup::Unavailable`].
pub async fn connect_from_settings(
    settings: &RedisSettings,
) -> anyhow::Result<Option<(Redis, AtStartup)>> {
    let Some(options) = options_from_settings(settings)? else {
        return Ok(None);
    };
    let key = settings.key_name();
    let connected = Redis::connect(options.clone())
        .await
        // Redacted: an error may quote the URL it was given, password included.
        .map_err(|err| anyhow::anyhow!(options.redact(&err.to_string())));
    connected
        .with_context(|| {
            format!(
                "{key}: not a usable Redis (a malformed URL, credentials Redis refused, or a TLS \
                 certificate not trusted)"
            )
        })
        .map(Some)
}

/// A single node at `url` with the default timeouts (for tests and tools).
pub async fn connect(url: &str) -> Result<(Redis, AtStartup), redis::RedisError> {
    Redis::connect(RedisOptions::node(url)).await
}
