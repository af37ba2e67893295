//! What Redis itself says it did: `INFO commandstats` and `INFO cpu`.
//!
//! Counting on the server rather than in the client is the point: it includes every command the
//! service sends (and any it was not meant to), and, because Redis counts the commands a Lua
//! script runs (`redis.call`) under their own names, it shows the work behind each `EVALSHA`.
//! The bench's redis-server is private, so the only other client is this probe, whose own
//! `INFO` calls are left out.
//!
//! On a Redis Cluster (`--cluster`), [`ClusterProbe`] resets every node's statistics
//! (`CONFIG RESETSTAT`) before a run and sums every node's `INFO commandstats` after it,
//! masters and replicas alike, keeping the replicas' share apart: what they count is what
//! replication made them run, not what the service sent.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use anyhow::Context as _;
use redis::aio::MultiplexedConnection;
use testing::redis_cluster::RedisCluster;

/// Commands the probes themselves send, left out of every count.
const PROBE_COMMANDS: [&str; 2] = ["info", "config|resetstat"];

/// A connection used only to read statistics.
pub struct RedisProbe {
    connection: MultiplexedConnection,
}

/// Cumulative counters at one moment.
#[derive(Debug, Clone, Default)]
pub struct RedisSnapshot {
    /// Calls per command name (`evalsha`, `hset`, ...), since the server started.
    pub calls: BTreeMap<String, u64>,
    /// Seconds of CPU (user + system) the server has used.
    pub cpu_seconds: f64,
}

/// What happened between two snapshots.
#[derive(Debug, Clone, Default)]
pub struct RedisDelta {
    /// Calls per command, summed over every node (a cluster's replicas included).
    pub calls: BTreeMap<String, u64>,
    /// The part of `calls` that a cluster's replicas counted; empty for a single node.
    pub replica_calls: BTreeMap<String, u64>,
    /// CPU used by every node, in seconds.
    pub cpu_seconds: f64,
}

impl RedisDelta {
    pub fn calls_of(&self, command: &str) -> u64 {
        self.calls.get(command).copied().unwrap_or(0)
    }

    pub fn total_calls(&self) -> u64 {
        self.calls.values().sum()
    }

    /// Adds another scenario run's delta (the bench sums rounds before dividing).
    pub fn add(&mut self, other: &RedisDelta) {
        for (command, calls) in &other.calls {
            *self.calls.entry(command.clone()).or_default() += calls;
        }
        for (command, calls) in &other.replica_calls {
            *self.replica_calls.entry(command.clone()).or_default() += calls;
        }
        self.cpu_seconds += other.cpu_seconds;
    }
}

impl RedisProbe {
    pub async fn connect(url: &str) -> anyhow::Result<RedisProbe> {
        let client = redis::Client::open(url).context("bench Redis URL")?;
        let connection = client
            .get_multiplexed_async_connection()
            .await
            .context("connecting the statistics probe to the bench's Redis")?;
        Ok(RedisProbe { connection })
    }

    pub async fn snapshot(&mut self) -> anyhow::Result<RedisSnapshot> {
        // One INFO with both sections (Redis 7 accepts several): one round trip per snapshot.
        let info: String = redis::cmd("INFO")
            .arg("commandstats")
            .arg("cpu")
            .query_async(&mut self.connection)
            .await
            .context("INFO commandstats cpu")?;
        parse_info(&info)
    }
}

impl RedisSnapshot {
    /// What happened since `before`, less this probe's own `INFO` calls.
    pub fn since(&self, before: &RedisSnapshot) -> RedisDelta {
        let calls = self
            .calls
            .iter()
            .filter(|(command, _)| !PROBE_COMMANDS.contains(&command.as_str()))
            .map(|(command, &calls)| {
                let earlier = before.calls.get(command).copied().unwrap_or(0);
                (command.clone(), calls.saturating_sub(earlier))
            })
            .filter(|(_, calls)| *calls > 0)
            .collect();
        RedisDelta {
            calls,
            replica_calls: BTreeMap::new(),
            cpu_seconds: self.cpu_seconds - before.cpu_seconds,
        }
    }
}

/// What a server's Redis is asked before and after each run: a single node, or every node of
/// a cluster.
pub enum Probe {
    Node(RedisProbe),
    Cluster(ClusterProbe),
    /// A PostgreSQL server holding the idempotency records (`--store-cost`).
    Postgres(PostgresProbe),
}

/// A [`Probe`]'s state at the start of a run.
pub enum Before {
    Node(RedisSnapshot),
    /// Each node's CPU so far (its command counts were reset instead).
    Cluster(Vec<RedisSnapshot>),
    Postgres(RedisSnapshot),
}

impl Probe {
    /// Called right before a run.
    pub async fn start(&mut self) -> anyhow::Result<Before> {
        match self {
            Probe::Node(probe) => Ok(Before::Node(probe.snapshot().await?)),
            Probe::Cluster(probe) => Ok(Before::Cluster(probe.start().await?)),
            Probe::Postgres(probe) => Ok(Before::Postgres(probe.snapshot().await?)),
        }
    }

    /// Called after a run, once the requests in flight have finished.
    pub async fn finish(&mut self, before: &Before) -> anyhow::Result<RedisDelta> {
        match (self, before) {
            (Probe::Node(probe), Before::Node(before)) => Ok(probe.snapshot().await?.since(before)),
            (Probe::Cluster(probe), Before::Cluster(before)) => probe.finish(before).await,
            (Probe::Postgres(probe), Before::Postgres(before)) => {
                Ok(probe.snapshot().await?.since(before))
            }
            _ => anyhow::bail!("a probe finished with another kind of probe's start"),
        }
    }
}

/// Every node of a Redis Cluster: command counts through the harness
/// (`RedisCluster::reset_stats`, `RedisCluster::commandstats`), CPU through a [`RedisProbe`]
/// per node. The roles are read once: nothing fails over during the bench.
pub struct ClusterProbe {
    cluster: Arc<RedisCluster>,
    nodes: Vec<RedisProbe>,
    replicas: BTreeSet<u16>,
}

impl ClusterProbe {
    pub async fn connect(cluster: Arc<RedisCluster>) -> anyhow::Result<ClusterProbe> {
        let replicas = tokio::task::block_in_place(|| cluster.replicas())
            .context("the cluster's replicas")?
            .into_iter()
            .map(|replica| replica.port)
            .collect();
        let mut nodes = Vec::new();
        for url in cluster.seed_urls() {
            nodes.push(RedisProbe::connect(&url).await?);
        }
        Ok(ClusterProbe {
            cluster,
            nodes,
            replicas,
        })
    }

    async fn start(&mut self) -> anyhow::Result<Vec<RedisSnapshot>> {
        tokio::task::block_in_place(|| self.cluster.reset_stats())
            .context("CONFIG RESETSTAT on every cluster node")?;
        let mut cpu = Vec::with_capacity(self.nodes.len());
        for node in &mut self.nodes {
            cpu.push(node.snapshot().await?);
        }
        Ok(cpu)
    }

    async fn finish(&mut self, before: &[RedisSnapshot]) -> anyhow::Result<RedisDelta> {
        let stats = tokio::task::block_in_place(|| self.cluster.commandstats())
            .context("INFO commandstats on every cluster node")?;
        anyhow::ensure!(
            stats.len() == self.nodes.len(),
            "{} of {} cluster nodes answered INFO commandstats",
            stats.len(),
            self.nodes.len()
        );
        let mut delta = RedisDelta::default();
        for (port, calls) in stats {
            for (command, calls) in calls {
                if calls == 0 || PROBE_COMMANDS.contains(&command.as_str()) {
                    continue;
                }
                *delta.calls.entry(command.clone()).or_default() += calls;
                if self.replicas.contains(&port) {
                    *delta.replica_calls.entry(command).or_default() += calls;
                }
            }
        }
        for (node, before) in self.nodes.iter_mut().zip(before) {
            delta.cpu_seconds += node.snapshot().await?.cpu_seconds - before.cpu_seconds;
        }
        Ok(delta)
    }
}

/// Parses `cmdstat_<name>:calls=N,usec=...` lines and the `used_cpu_{sys,user}` fields.
fn parse_info(info: &str) -> anyhow::Result<RedisSnapshot> {
    let mut snapshot = RedisSnapshot::default();
    for line in info.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("cmdstat_") {
            let (name, stats) = rest
                .split_once(':')
                .with_context(|| format!("INFO line {line:?}"))?;
            let calls = stats
                .split(',')
                .find_map(|field| field.strip_prefix("calls="))
                .with_context(|| format!("no calls in {line:?}"))?
                .parse()
                .with_context(|| format!("calls in {line:?}"))?;
            snapshot.calls.insert(name.to_owned(), calls);
        } else if let Some(value) = line
            .strip_prefix("used_cpu_sys:")
            .or_else(|| line.strip_prefix("used_cpu_user:"))
        {
            snapshot.cpu_seconds += value
                .parse::<f64>()
                .with_context(|| format!("INFO line {line:?}"))?;
        }
    }
    Ok(snapshot)
}

/// What a PostgreSQL server did, in the same terms as Redis's: its transactions committed in
/// the service's database (`pg_stat_database.xact_commit`, counted as the "command"
/// `transactions`; each store operation is one statement, so one transaction) and the CPU of
/// every `postgres` process on this machine (from `/proc`, user + system). The server is the
/// machine's own, not private: other databases' work would count too, so the bench runs with
/// nothing else using it.
pub struct PostgresProbe {
    pool: sqlx::PgPool,
    database: String,
    ticks_per_second: f64,
}

impl PostgresProbe {
    pub async fn connect(database_url: &str) -> anyhow::Result<PostgresProbe> {
        let pool = sqlx::PgPool::connect(database_url)
            .await
            .context("connecting the statistics probe to PostgreSQL")?;
        let database: String = sqlx::query_scalar("SELECT current_database()::TEXT")
            .fetch_one(&pool)
            .await?;
        let ticks = std::process::Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .context("getconf CLK_TCK")?;
        let ticks_per_second = String::from_utf8_lossy(&ticks.stdout)
            .trim()
            .parse()
            .context("CLK_TCK")?;
        Ok(PostgresProbe {
            pool,
            database,
            ticks_per_second,
        })
    }

    pub async fn snapshot(&mut self) -> anyhow::Result<RedisSnapshot> {
        // The statistics collector reports a backend's counts when its transaction ends, and
        // at most every PGSTAT_MIN_INTERVAL: take them fresh.
        sqlx::query("SELECT pg_stat_clear_snapshot()")
            .execute(&self.pool)
            .await?;
        let commits: i64 =
            sqlx::query_scalar("SELECT xact_commit FROM pg_stat_database WHERE datname = $1")
                .bind(&self.database)
                .fetch_one(&self.pool)
                .await?;
        let mut calls = BTreeMap::new();
        calls.insert(
            "transactions".to_owned(),
            u64::try_from(commits).unwrap_or(0),
        );
        Ok(RedisSnapshot {
            calls,
            cpu_seconds: postgres_cpu_ticks()? / self.ticks_per_second,
        })
    }
}

/// User + system clock ticks of every process named `postgres`.
fn postgres_cpu_ticks() -> anyhow::Result<f64> {
    let mut ticks = 0.0;
    for entry in std::fs::read_dir("/proc")? {
        let path = entry?.path();
        let Ok(stat) = std::fs::read_to_string(path.join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`: the name is between the first '(' and the last ')'.
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        if stat[open + 1..close] != *"postgres" {
            continue;
        }
        let fields: Vec<&str> = stat[close + 2..].split_whitespace().collect();
        // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
        let field = |index: usize| {
            fields
                .get(index)
                .and_then(|value| value.parse::<f64>().ok())
        };
        ticks += field(11).unwrap_or(0.0) + field(12).unwrap_or(0.0);
    }
    Ok(ticks)
}
