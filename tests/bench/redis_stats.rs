//! What Redis itself says it did: `INFO commandstats` and `INFO cpu`.
//!
//! Counting on the server rather than in the client is the point: it includes every command the
//! service sends (and any it was not meant to), and, because Redis counts the commands a Lua
//! script runs (`redis.call`) under their own names, it shows the work behind each `EVALSHA`.
//! The bench's redis-server is private, so the only other client is this probe, whose own
//! `INFO` calls are left out.

use std::collections::BTreeMap;

use anyhow::Context as _;
use redis::aio::MultiplexedConnection;

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
    pub calls: BTreeMap<String, u64>,
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
            .filter(|(command, _)| command.as_str() != "info")
            .map(|(command, &calls)| {
                let earlier = before.calls.get(command).copied().unwrap_or(0);
                (command.clone(), calls.saturating_sub(earlier))
            })
            .filter(|(_, calls)| *calls > 0)
            .collect();
        RedisDelta {
            calls,
            cpu_seconds: self.cpu_seconds - before.cpu_seconds,
        }
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
