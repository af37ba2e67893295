//! One handle on the service's Redis, whichever shape it has: a single node, or a Redis Cluster.
//!
//! It owns how the service reaches Redis — the topology, TLS (`rediss://`, rustls), credentials
//! and bounded waits — and gives every user the same three things:
//!
//! - [`RedisConnection`], for commands and scripts: a `ConnectionManager` on a single node, the
//!   `redis` crate's own cluster client on a cluster (it follows `MOVED`/`ASK` and topology
//!   changes; nothing here routes). Scripts go through `redis::Script`, whose `NOSCRIPT`
//!   recovery loads them with `SCRIPT LOAD`, which the cluster client sends to every node.
//! - [`Redis::publish`] / [`Redis::subscribe`]: pub/sub that works on both — `PUBLISH` and
//!   `SUBSCRIBE` on a node, sharded `SPUBLISH` and `SSUBSCRIBE` (Redis 7) on a cluster, where a
//!   channel lives on the shard that owns its name's slot, like a key.
//! - [`Redis::state`]: what readiness reports, the cluster's own `cluster_state` included.
//!
//! Redis is a dependency the service tolerates losing, at start-up too: [`Redis::connect`]
//! refuses a configuration that can never work (a malformed URL, a wrong password), but a Redis
//! that merely does not answer yet gives a handle that connects on first use, so the process
//! starts, serves degraded, and switches to Redis as soon as it answers.

use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{Stream, StreamExt as _};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::cluster::{ClusterClient, ClusterClientBuilder, ClusterConfig};
use redis::cluster_async::ClusterConnection;
use redis::{
    Client, ConnectionInfo, IntoConnectionInfo, ProtocolVersion, PushKind, RedisError,
    TlsCertificates, Value,
};

/// Where Redis is.
#[derive(Clone, PartialEq, Eq)]
pub enum Topology {
    /// One node (`redis://host:port`, `rediss://`, `unix:`).
    Node(String),
    /// A Redis Cluster, found from these seed nodes (any of its nodes will do).
    Cluster(Vec<String>),
}

impl std::fmt::Debug for Topology {
    // URLs may carry a password: only their number is printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Node(_) => f.write_str("Node(..)"),
            Self::Cluster(nodes) => write!(f, "Cluster({} seed nodes)", nodes.len()),
        }
    }
}

/// How to reach Redis: everything [`Redis::connect`] needs.
#[derive(Clone)]
pub struct RedisOptions {
    pub topology: Topology,
    /// An ACL user; `None` keeps the URL's (or `default`).
    pub username: Option<String>,
    /// Overrides the URL's password; `None` keeps it.
    pub password: Option<String>,
    /// PEM certificates to trust for `rediss://` besides the bundled public roots (a private
    /// CA, a test certificate).
    pub tls_root_certificates: Option<Vec<u8>>,
    /// How long a connection attempt to one node may take.
    pub connect_timeout: Duration,
    /// How long a command may wait for its answer, redirections and retries included.
    pub response_timeout: Duration,
}

impl std::fmt::Debug for RedisOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisOptions")
            .field("topology", &self.topology)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "[redacted]"))
            .field(
                "tls_root_certificates",
                &self.tls_root_certificates.is_some(),
            )
            .field("connect_timeout", &self.connect_timeout)
            .field("response_timeout", &self.response_timeout)
            .finish()
    }
}

impl RedisOptions {
    /// `message` with every URL and password of these options replaced by `[redacted]`: what
    /// may be logged of an error about them.
    pub fn redact(&self, message: &str) -> String {
        let urls = match &self.topology {
            Topology::Node(url) => std::slice::from_ref(url),
            Topology::Cluster(nodes) => nodes.as_slice(),
        };
        let url_passwords = urls.iter().filter_map(|url| {
            let info = url.as_str().into_connection_info().ok()?;
            info.redis_settings().password().map(str::to_owned)
        });
        let secrets: Vec<String> = urls
            .iter()
            .cloned()
            .chain(url_passwords)
            .chain(self.password.clone())
            .filter(|secret| !secret.is_empty())
            .collect();
        secrets.iter().fold(message.to_owned(), |message, secret| {
            message.replace(secret.as_str(), "[redacted]")
        })
    }

    /// A single node at `url`, with the service's default timeouts (500 ms to connect, 1 s for
    /// an answer).
    pub fn node(url: impl Into<String>) -> Self {
        Self::new(Topology::Node(url.into()))
    }

    /// A cluster found from `seed_nodes`, with the default timeouts.
    pub fn cluster<S: Into<String>>(seed_nodes: impl IntoIterator<Item = S>) -> Self {
        Self::new(Topology::Cluster(
            seed_nodes.into_iter().map(Into::into).collect(),
        ))
    }

    /// `topology` with the default timeouts, no credentials beyond the URLs', public TLS roots.
    pub fn new(topology: Topology) -> Self {
        Self {
            topology,
            username: None,
            password: None,
            tls_root_certificates: None,
            connect_timeout: Duration::from_millis(500),
            response_timeout: Duration::from_secs(1),
        }
    }

    fn connection_info(&self, url: &str) -> Result<ConnectionInfo, RedisError> {
        let info = url.into_connection_info()?;
        let mut redis = info.redis_settings().clone();
        if let Some(username) = &self.username {
            redis = redis.set_username(username);
        }
        if let Some(password) = &self.password {
            redis = redis.set_password(password);
        }
        Ok(info.set_redis_settings(redis))
    }

    fn certificates(&self) -> TlsCertificates {
        TlsCertificates {
            client_tls: None,
            root_cert: self.tls_root_certificates.clone(),
        }
    }

    fn node_client(&self, url: &str) -> Result<Client, RedisError> {
        let info = self.connection_info(url)?;
        match self.tls_root_certificates {
            Some(_) => Client::build_with_tls(info, self.certificates()),
            None => Client::open(info),
        }
    }

    fn cluster_builder(&self, seed_nodes: &[String]) -> Result<ClusterClientBuilder, RedisError> {
        let nodes = seed_nodes
            .iter()
            .map(|url| self.connection_info(url))
            .collect::<Result<Vec<_>, _>>()?;
        let mut builder = ClusterClientBuilder::new(nodes)
            .connection_timeout(self.connect_timeout)
            .response_timeout(self.response_timeout)
            // The bound holds redirections and retries too: a hung node costs a request this
            // much, never more.
            .overall_response_timeout(Some(self.response_timeout))
            .retries(2);
        if self.tls_root_certificates.is_some() {
            builder = builder.certs(self.certificates());
        }
        Ok(builder)
    }
}

/// What [`Redis::connect`] found.
#[derive(Debug)]
pub enum AtStartup {
    /// Redis answered.
    Available,
    /// Redis did not answer (refused, timed out, unreachable); the handle connects when it does.
    Unavailable(RedisError),
}

/// A connection for commands and scripts: cheap to clone, shared by every task, reconnecting
/// by itself. Pass it to `query_async` and `Script::invoke_async` like any `redis` connection.
/// The idempotency crate's own (it takes a connection the service makes), used for every
/// other command too.
pub use poem_idempotency::store::RedisConnection;

/// The service's Redis: a connection for commands, and what it takes to open subscriptions.
/// Cheap to clone.
#[derive(Clone)]
pub struct Redis {
    connection: RedisConnection,
    /// Subscriptions need connections of their own, made from the same options.
    options: Arc<RedisOptions>,
}

impl std::fmt::Debug for Redis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redis")
            .field("connection", &self.connection)
            .field("options", &self.options)
            .finish()
    }
}

/// What readiness reports of Redis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RedisState {
    /// It answers, and a cluster says `cluster_state:ok`.
    Ok,
    /// A cluster answered but some master did not, or it reports itself failing
    /// (`cluster_state:fail`: some slot has no serving master, as during a failover); keys on
    /// the other slots still work.
    ClusterFailing,
}

/// New messages of one channel, as they arrive; the stream ends when the subscription's
/// connection is lost (subscribe again, and catch up on what may have been missed).
pub type Messages = Pin<Box<dyn Stream<Item = Vec<u8>> + Send>>;

impl Redis {
    /// Connects as `options` say. A malformed URL, or a Redis that answers but refuses the
    /// credentials, is an error: it would never work. A Redis that does not answer is not: the
    /// handle is returned anyway, with [`AtStartup::Unavailable`], and connects on first use.
    pub async fn connect(options: RedisOptions) -> Result<(Self, AtStartup), RedisError> {
        let options = Arc::new(options);
        let (connection, at_startup) = match &options.topology {
            Topology::Node(url) => {
                let client = options.node_client(url)?;
                let attempt = async {
                    let mut manager = ConnectionManager::new_with_config(
                        client.clone(),
                        manager_config(&options),
                    )
                    .await?;
                    // Credentials are only checked by the first command when the URL carries none.
                    redis::cmd("PING")
                        .query_async::<String>(&mut manager)
                        .await?;
                    Ok::<_, RedisError>(manager)
                };
                match attempt.await {
                    Ok(manager) => (RedisConnection::Node(manager), AtStartup::Available),
                    Err(err) if is_unavailability(&err) => {
                        let manager = ConnectionManager::new_lazy_with_config(
                            client,
                            manager_config(&options),
                        )?;
                        (RedisConnection::Node(manager), AtStartup::Unavailable(err))
                    }
                    Err(err) => return Err(err),
                }
            }
            Topology::Cluster(seed_nodes) => {
                let client = options.cluster_builder(seed_nodes)?.build()?;
                match client.get_async_connection().await {
                    Ok(mut connection) => {
                        // PING asks every master: one that is down (a failover under way) is
                        // tolerated like an absent Redis, not a reason to refuse to start.
                        let pinged = redis::cmd("PING")
                            .query_async::<Value>(&mut connection)
                            .await;
                        let at_startup = match pinged {
                            Ok(_) => AtStartup::Available,
                            Err(err) if is_unavailability(&err) || err.is_cluster_error() => {
                                AtStartup::Unavailable(err)
                            }
                            Err(err) => return Err(err),
                        };
                        (RedisConnection::Cluster(connection), at_startup)
                    }
                    // A cluster that answers but cannot serve yet (slots not covered, a
                    // failover in progress) is tolerated too.
                    Err(err) if is_unavailability(&err) || err.is_cluster_error() => {
                        let connection =
                            client.get_pending_async_connection_with_config(ClusterConfig::new());
                        (
                            RedisConnection::Cluster(connection),
                            AtStartup::Unavailable(err),
                        )
                    }
                    Err(err) => return Err(err),
                }
            }
        };
        Ok((
            Self {
                connection,
                options,
            },
            at_startup,
        ))
    }

    /// The connection for commands and scripts (a clone: they share one multiplexed link).
    pub fn connection(&self) -> RedisConnection {
        self.connection.clone()
    }

    /// Whether this is a cluster.
    pub fn is_cluster(&self) -> bool {
        matches!(self.connection, RedisConnection::Cluster(_))
    }

    /// Answers whether Redis takes a PING (every master, on a cluster).
    pub async fn ping(&self) -> Result<(), RedisError> {
        let mut connection = self.connection();
        redis::cmd("PING")
            .query_async::<Value>(&mut connection)
            .await
            .map(|_| ())
    }

    /// What readiness reports: an error when Redis does not answer.
    pub async fn state(&self) -> Result<RedisState, RedisError> {
        let pinged = self.ping().await;
        if !self.is_cluster() {
            return pinged.map(|()| RedisState::Ok);
        }
        // Asked even when a master did not answer: the nodes that do tell a failing cluster
        // (a failover under way) from an unreachable one.
        let mut connection = self.connection();
        let info = redis::cmd("CLUSTER")
            .arg("INFO")
            .query_async::<String>(&mut connection)
            .await;
        match (pinged, info) {
            (Ok(()), Ok(info)) if cluster_state_is_ok(&info) => Ok(RedisState::Ok),
            (_, Ok(_)) => Ok(RedisState::ClusterFailing),
            (Err(err), Err(_)) | (Ok(()), Err(err)) => Err(err),
        }
    }

    /// Publishes `payload` on `channel`: `PUBLISH` on a node, `SPUBLISH` on a cluster (the
    /// channel's shard only, where [`Self::subscribe`] listens).
    pub async fn publish(&self, channel: &str, payload: &[u8]) -> Result<(), RedisError> {
        let mut connection = self.connection();
        redis::cmd(self.publish_command())
            .arg(channel)
            .arg(payload)
            .query_async::<i64>(&mut connection)
            .await
            .map(|_| ())
    }

    /// The command [`Self::publish`] sends, for callers that publish inside a transaction or a
    /// pipeline (on a cluster, its keys must then share the channel's slot).
    pub fn publish_command(&self) -> &'static str {
        if self.is_cluster() {
            "SPUBLISH"
        } else {
            "PUBLISH"
        }
    }

    /// Subscribes to `channel` on a connection of its own (bounded by the connect timeout and
    /// twice the response timeout). The messages end when that connection is lost.
    pub async fn subscribe(&self, channel: &str) -> Result<Messages, RedisError> {
        let limit = self.options.connect_timeout + self.options.response_timeout * 2;
        tokio::time::timeout(limit, self.subscribe_unbounded(channel))
            .await
            .unwrap_or_else(|_| Err(timed_out()))
    }

    async fn subscribe_unbounded(&self, channel: &str) -> Result<Messages, RedisError> {
        match &self.options.topology {
            Topology::Node(url) => {
                let mut pubsub = self.options.node_client(url)?.get_async_pubsub().await?;
                pubsub.subscribe(channel).await?;
                Ok(pubsub
                    .into_on_message()
                    .map(|message| message.get_payload_bytes().to_vec())
                    .boxed())
            }
            Topology::Cluster(seed_nodes) => {
                let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
                // Pushes (messages, and disconnections) need RESP3.
                let client: ClusterClient = self
                    .options
                    .cluster_builder(seed_nodes)?
                    .use_protocol(ProtocolVersion::RESP3)
                    .push_sender(sender)
                    .build()?;
                let mut connection = client.get_async_connection().await?;
                connection.ssubscribe(channel).await?;
                Ok(cluster_messages(connection, receiver))
            }
        }
    }

    /// Pings with backoff (250 ms doubling to 5 s) until Redis answers, then logs that it did.
    /// Started when Redis was unavailable at start-up, so that the connection is made as soon as
    /// Redis is back even when no request comes to trigger it.
    pub fn connect_in_background(&self) -> tokio::task::JoinHandle<()> {
        let redis = self.clone();
        tokio::spawn(async move {
            let mut pause = Duration::from_millis(250);
            loop {
                match redis.ping().await {
                    Ok(()) => {
                        tracing::info!("Redis answered: records and limits are shared again");
                        return;
                    }
                    Err(err) if !is_unavailability(&err) => {
                        // It answered, with an error: keep trying, but say so, once per attempt.
                        tracing::error!(error = %err, "Redis answered with an error; retrying");
                    }
                    Err(_) => {}
                }
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(5));
            }
        })
    }
}

/// The sharded messages a cluster connection pushes, until it reports a disconnection: the
/// client resubscribes by itself then, but what was published meanwhile is lost, so the stream
/// ends and its reader subscribes afresh and catches up.
fn cluster_messages(
    connection: ClusterConnection,
    pushes: tokio::sync::mpsc::UnboundedReceiver<redis::PushInfo>,
) -> Messages {
    futures_util::stream::unfold(
        (connection, pushes),
        |(connection, mut pushes)| async move {
            loop {
                let push = pushes.recv().await?;
                match push.kind {
                    PushKind::SMessage => {
                        // [channel, payload]
                        if let Some(Value::BulkString(payload)) = push.data.into_iter().nth(1) {
                            return Some((payload, (connection, pushes)));
                        }
                    }
                    PushKind::Disconnection => return None,
                    _ => {}
                }
            }
        },
    )
    .boxed()
}

fn manager_config(options: &RedisOptions) -> ConnectionManagerConfig {
    // Bounded waits: a Redis that stops answering must cost a request milliseconds, not minutes.
    ConnectionManagerConfig::new()
        .set_connection_timeout(Some(options.connect_timeout))
        .set_response_timeout(Some(options.response_timeout))
        .set_number_of_retries(1)
}

/// Whether `info` (`CLUSTER INFO`'s text) says the cluster serves every slot.
fn cluster_state_is_ok(info: &str) -> bool {
    info.lines().any(|line| line.trim() == "cluster_state:ok")
}

/// Whether `err` says "Redis is not there (yet)" rather than "this can never work".
pub fn is_unavailability(err: &RedisError) -> bool {
    (err.is_io_error()
        || err.is_timeout()
        || err.is_connection_refusal()
        || err.is_connection_dropped())
        && !is_refused_tls(err)
}

/// A TLS handshake that failed on what was presented (a certificate nobody trusts, another
/// host's name): the configuration, not the network, so waiting will not help.
fn is_refused_tls(err: &RedisError) -> bool {
    type Shared = Arc<dyn std::error::Error + Send + Sync>;
    // The crate keeps the I/O error behind an `Arc`, which is what `source` hands out.
    std::error::Error::source(err)
        .and_then(|source| source.downcast_ref::<Shared>())
        .and_then(|inner| inner.downcast_ref::<std::io::Error>())
        .is_some_and(|io| io.kind() == std::io::ErrorKind::InvalidData)
}

fn timed_out() -> RedisError {
    RedisError::from(std::io::Error::from(std::io::ErrorKind::TimedOut))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cluster_is_ok_only_when_it_says_so() {
        assert!(cluster_state_is_ok(
            "cluster_enabled:1\r\ncluster_state:ok\r\n"
        ));
        assert!(!cluster_state_is_ok(
            "cluster_state:fail\r\ncluster_slots_assigned:16384\r\n"
        ));
        assert!(!cluster_state_is_ok(""));
    }

    #[test]
    fn options_never_print_the_password() {
        let mut options = RedisOptions::node("redis://:hunter2@127.0.0.1:6379");
        options.password = Some("correct horse".into());
        let printed = format!("{options:?}");
        assert!(!printed.contains("hunter2"), "{printed}");
        assert!(!printed.contains("correct horse"), "{printed}");
    }

    #[test]
    fn redaction_removes_urls_and_passwords() {
        let mut options = RedisOptions::cluster(["redis://:in-url@10.0.0.1:7000"]);
        options.password = Some("from-settings".into());
        let message = "failed: redis://:in-url@10.0.0.1:7000, then in-url and from-settings";
        let redacted = options.redact(message);
        assert!(!redacted.contains("in-url"), "{redacted}");
        assert!(!redacted.contains("from-settings"), "{redacted}");
    }

    #[tokio::test]
    async fn an_untrusted_certificate_is_an_error_not_an_outage() {
        testing::needs_tools_of!(testing::tools::Suite::PrivateRedis);
        let server = testing::redis::RedisServer::start_tls().expect("a TLS redis-server");

        let result = Redis::connect(RedisOptions::node(server.url())).await;

        let err = result.expect_err("refused, not waited for");
        assert!(err.to_string().contains("certificate"), "{err}");
    }

    #[tokio::test]
    async fn a_node_that_is_not_there_yet_is_unavailable_not_an_error() {
        let mut options = RedisOptions::node("redis://127.0.0.1:1");
        options.connect_timeout = Duration::from_millis(200);
        let (_, at_startup) = Redis::connect(options).await.expect("tolerated");
        assert!(matches!(at_startup, AtStartup::Unavailable(_)));
    }

    #[tokio::test]
    async fn messages_published_on_a_node_reach_its_subscribers() {
        let (redis, _) = Redis::connect(RedisOptions::node(testing::redis::shared_redis_url()))
            .await
            .expect("connects");
        let channel = format!("topology-test:{}", testing::unique_suffix());
        let mut messages = redis.subscribe(&channel).await.expect("subscribes");
        redis.publish(&channel, b"hello").await.expect("publishes");
        let message = tokio::time::timeout(Duration::from_secs(2), messages.next())
            .await
            .expect("in time");
        assert_eq!(message.as_deref(), Some(&b"hello"[..]));
    }
}
