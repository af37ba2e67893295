//! A real local Redis Cluster for tests: three masters and three replicas, six `redis-server`
//! processes from `PATH` joined by `redis-cli --cluster create`.
//!
//! [`shared_redis_cluster`] is one cluster per test binary, shared by every test that needs
//! one (each test uses its own key prefix). A test that changes the topology (stops a node,
//! fails over) starts its own with [`RedisCluster::start`]: those methods take `&mut self`, so
//! the shared one cannot be disturbed.
//!
//! The harness talks to the nodes with the synchronous `redis` client, one short-lived
//! connection per question, so a stopped node costs a refused connection, not a hang.

use std::collections::{BTreeSet, HashMap};
use std::fs::File;
use std::io;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use crate::process::Supervised;
use crate::redis::redis_server_binary;

/// The hash slots of a Redis Cluster, `0..=16383`.
pub const SLOTS: usize = 16384;

/// `cluster-node-timeout`: how long a node may be unreachable before it is flagged failing.
/// Short, so a stopped master fails over within seconds; not shorter, so a busy two-core
/// machine does not cause failovers nobody asked for.
pub const NODE_TIMEOUT: Duration = Duration::from_millis(2000);

/// A bound on forming the cluster (six processes, `--cluster create`, replicas syncing).
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// A bound on a manual failover, the replica catching up included.
const FAILOVER_TIMEOUT: Duration = Duration::from_secs(30);

/// The cluster bus listens on the node's port + 10000.
const BUS_OFFSET: u16 = 10000;

/// Node ports are drawn from `10000..22768`: with their bus ports (`20000..32768`) they stay
/// below Linux's ephemeral range (32768 and up), so no outgoing connection takes one between
/// the check that it is free and the node binding it, nor while a stopped node is down.
const PORTS: RangeInclusive<u16> = 10000..=22767;

/// The cluster every test in this binary shares, started on first use.
///
/// Its nodes live until the test process ends (statics are never dropped): each has a
/// watchdog that kills it, and removes its directory, once the process is gone. Panics with
/// instructions when `redis-server` or `redis-cli` is missing.
pub fn shared_redis_cluster() -> &'static RedisCluster {
    static CLUSTER: OnceLock<RedisCluster> = OnceLock::new();
    CLUSTER.get_or_init(|| {
        RedisCluster::start().unwrap_or_else(|err| {
            panic!(
                "the tests need a local Redis Cluster: install redis-server and redis-cli \
                 (e.g. `apt-get install redis-server`; REDIS_SERVER_BIN and REDIS_CLI_BIN name \
                 other binaries) ({err})"
            )
        })
    })
}

/// A master as the cluster describes it (`CLUSTER NODES`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterMaster {
    pub port: u16,
    pub id: String,
    /// The hash slots it serves, as inclusive ranges.
    pub slots: Vec<RangeInclusive<u16>>,
}

/// A replica as the cluster describes it (`CLUSTER NODES`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterReplica {
    pub port: u16,
    pub id: String,
    /// The node id of the master it follows.
    pub master_id: String,
    /// That master's port, when the cluster knows its address.
    pub master_port: Option<u16>,
}

/// A local Redis Cluster of three masters and three replicas. Dropping it kills its nodes.
pub struct RedisCluster {
    nodes: Vec<Node>,
}

/// One `redis-server`, in its own directory (where its `nodes.conf` outlives a stop, so a
/// restarted node rejoins as itself).
struct Node {
    port: u16,
    /// Declared before `dir`: the process is killed before its directory is removed.
    process: Option<Supervised>,
    dir: tempfile::TempDir,
}

impl RedisCluster {
    /// Starts six nodes on free ports, joins them with `redis-cli --cluster create
    /// --cluster-replicas 1`, and waits until every node reports `cluster_state:ok`, all
    /// slots are served and every replica is in sync with its master.
    pub fn start() -> io::Result<Self> {
        let deadline = Instant::now() + START_TIMEOUT;
        let nodes = (0..6)
            .map(|_| Node::start(deadline))
            .collect::<io::Result<Vec<_>>>()?;
        let cluster = Self { nodes };
        cluster.create(deadline)?;
        cluster.wait_until(remaining(deadline), "formed", |cluster| {
            cluster.health()?;
            let masters = cluster.masters()?;
            let replicas = cluster.replicas()?;
            let followed: BTreeSet<Option<u16>> =
                replicas.iter().map(|replica| replica.master_port).collect();
            let master_ports: BTreeSet<Option<u16>> =
                masters.iter().map(|master| Some(master.port)).collect();
            if masters.len() == 3 && replicas.len() == 3 && followed == master_ports {
                Ok(())
            } else {
                Err(io::Error::other(format!(
                    "not yet three masters with a replica each: {masters:?}, {replicas:?}"
                )))
            }
        })?;
        Ok(cluster)
    }

    /// `redis-cli --cluster create`, its output kept in a file for the error message.
    fn create(&self, deadline: Instant) -> io::Result<()> {
        let log_path = self.nodes[0].dir.path().join("cluster-create.log");
        let log = File::create(&log_path)?;
        let mut child = Command::new(redis_cli_binary()?)
            .args(["--cluster", "create"])
            .args(
                self.nodes
                    .iter()
                    .map(|node| format!("127.0.0.1:{}", node.port)),
            )
            .args(["--cluster-replicas", "1", "--cluster-yes"])
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()?;
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if Instant::now() >= deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!(
                        "redis-cli --cluster create did not finish in time: {}",
                        read_log(&log_path)
                    ),
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        if status.success() {
            Ok(())
        } else {
            Err(io::Error::other(format!(
                "redis-cli --cluster create failed ({status}): {}",
                read_log(&log_path)
            )))
        }
    }

    /// `redis://127.0.0.1:P` for every node, running or stopped: the seeds for a cluster client.
    pub fn seed_urls(&self) -> Vec<String> {
        self.nodes.iter().map(|node| node_url(node.port)).collect()
    }

    /// Every node's port, running or stopped.
    pub fn ports(&self) -> Vec<u16> {
        self.nodes.iter().map(|node| node.port).collect()
    }

    /// The ports of the nodes that are running (not stopped by [`Self::stop_node`]).
    pub fn running_ports(&self) -> Vec<u16> {
        self.nodes
            .iter()
            .filter(|node| node.process.is_some())
            .map(|node| node.port)
            .collect()
    }

    /// The running masters that are not flagged failing, as the first running node sees them
    /// (after [`Self::wait_until_healthy`] every node sees the same).
    pub fn masters(&self) -> io::Result<Vec<ClusterMaster>> {
        Ok(self
            .current_view()?
            .into_iter()
            .filter(|node| node.is_master())
            .map(|node| ClusterMaster {
                port: node.port,
                id: node.id,
                slots: node.slots,
            })
            .collect())
    }

    /// The running replicas that are not flagged failing, and the masters they follow, as the
    /// first running node sees them.
    pub fn replicas(&self) -> io::Result<Vec<ClusterReplica>> {
        let view = self.view_of_first_running()?;
        let running = self.running_ports();
        Ok(view
            .iter()
            .filter(|node| running.contains(&node.port) && !node.is_failing())
            .filter(|node| node.is_replica())
            .filter_map(|node| {
                let master_id = node.master_id.clone()?;
                Some(ClusterReplica {
                    port: node.port,
                    id: node.id.clone(),
                    // Looked up among all nodes: the master may be stopped or failing.
                    master_port: view
                        .iter()
                        .find(|other| other.id == master_id)
                        .map(|other| other.port),
                    master_id,
                })
            })
            .collect())
    }

    /// The port of the master serving `key`'s hash slot (`CLUSTER KEYSLOT`).
    pub fn master_for_key(&self, key: &str) -> io::Result<u16> {
        let port = self.first_running()?;
        let slot: u16 = query(port, redis::cmd("CLUSTER").arg("KEYSLOT").arg(key))?;
        self.masters()?
            .into_iter()
            .find(|master| master.slots.iter().any(|range| range.contains(&slot)))
            .map(|master| master.port)
            .ok_or_else(|| io::Error::other(format!("no running master serves slot {slot}")))
    }

    /// Stops the node on `port` (SIGKILL, like a crash). Its port and directory are kept for
    /// [`Self::restart_node`]. Stopping a master does not wait for its replica to take over:
    /// [`Self::wait_until_healthy`] does (after [`NODE_TIMEOUT`] and an election).
    ///
    /// Panics when no node of this cluster has that port.
    pub fn stop_node(&mut self, port: u16) {
        // Dropping the process kills it.
        self.node_mut(port).process = None;
    }

    /// Starts the node on `port` again, with its directory and `nodes.conf`, and waits until
    /// it answers. It rejoins as itself: a master whose replica took over comes back as that
    /// replica's replica. Call [`Self::wait_until_healthy`] to wait for the rejoin.
    ///
    /// Panics when no node of this cluster has that port.
    pub fn restart_node(&mut self, port: u16) -> io::Result<()> {
        let node = self.node_mut(port);
        node.process = None;
        node.spawn()?;
        node.wait_until_answers(Instant::now() + Duration::from_secs(10))
    }

    /// Promotes the replica on `replica_port` with `CLUSTER FAILOVER` (coordinated with its
    /// master, so no write is lost; `FORCE` when its master is stopped), then waits until it
    /// is a master and the cluster is healthy again: its old master follows it.
    pub fn manual_failover(&mut self, replica_port: u16) -> io::Result<()> {
        let deadline = Instant::now() + FAILOVER_TIMEOUT;
        let view = view_of(replica_port)?;
        let myself = view
            .iter()
            .find(|node| node.has("myself"))
            .ok_or_else(|| io::Error::other(format!("node {replica_port} does not list itself")))?;
        let master_id = match (&myself.master_id, myself.is_replica()) {
            (Some(master_id), true) => master_id.clone(),
            _ => {
                return Err(io::Error::other(format!(
                    "node {replica_port} is not a replica ({})",
                    myself.flags.join(",")
                )));
            }
        };
        let master_running = view
            .iter()
            .find(|node| node.id == master_id)
            .is_some_and(|master| self.running_ports().contains(&master.port));
        if master_running {
            // A replica behind its master would let the coordinated failover time out.
            self.wait_until(remaining(deadline), "ready to fail over", |_| {
                let replication: String =
                    query(replica_port, redis::cmd("INFO").arg("replication"))?;
                match info_field(&replication, "master_link_status") {
                    Some("up") => Ok(()),
                    status => Err(io::Error::other(format!(
                        "node {replica_port}: master_link_status {status:?}"
                    ))),
                }
            })?;
        }
        loop {
            let mut failover = redis::cmd("CLUSTER");
            failover.arg("FAILOVER");
            if !master_running {
                failover.arg("FORCE");
            }
            let () = query(replica_port, &failover)?;
            // A coordinated failover the master does not complete is abandoned after 5 s;
            // ask again after a little more.
            let attempt = (Instant::now() + Duration::from_secs(7)).min(deadline);
            while Instant::now() < attempt {
                let replication: String =
                    query(replica_port, redis::cmd("INFO").arg("replication"))?;
                if info_field(&replication, "role") == Some("master") {
                    return self.wait_until_healthy(remaining(deadline));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            if Instant::now() >= deadline {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!(
                        "node {replica_port} did not become a master within {FAILOVER_TIMEOUT:?}"
                    ),
                ));
            }
        }
    }

    /// Waits until every running node reports `cluster_state:ok` and sees every other running
    /// node as healthy, all 16384 slots are served by running masters, every node agrees on
    /// which, and every replica of a running master is in sync with it.
    pub fn wait_until_healthy(&self, timeout: Duration) -> io::Result<()> {
        self.wait_until(timeout, "healthy", Self::health)
    }

    /// `INFO commandstats` of every running node: calls per command (`"evalsha"`, `"get"`,
    /// `"cluster|info"`...). The harness's own questions count too (`cluster|*`, `info`,
    /// `ping`). On the shared cluster other tests' commands count as well: compare before and
    /// after, on a key of your own, or use a cluster of your own.
    pub fn commandstats(&self) -> io::Result<Vec<(u16, HashMap<String, u64>)>> {
        self.running_ports()
            .into_iter()
            .map(|port| {
                let info: String = query(port, redis::cmd("INFO").arg("commandstats"))?;
                Ok((port, parse_commandstats(&info)))
            })
            .collect()
    }

    /// `CONFIG RESETSTAT` on every running node (command statistics back to zero). On the
    /// shared cluster it resets other tests' counts too.
    pub fn reset_stats(&self) -> io::Result<()> {
        for port in self.running_ports() {
            let () = query(port, redis::cmd("CONFIG").arg("RESETSTAT"))?;
        }
        Ok(())
    }

    fn health(&self) -> io::Result<()> {
        let running = self.running_ports();
        let mut agreed: Option<(u16, Topology)> = None;
        for &port in &running {
            let info: String = query(port, redis::cmd("CLUSTER").arg("INFO"))?;
            let slots_ok = SLOTS.to_string();
            if info_field(&info, "cluster_state") != Some("ok")
                || info_field(&info, "cluster_slots_ok") != Some(slots_ok.as_str())
            {
                return Err(not_yet(format!(
                    "node {port}: cluster_state {:?}, cluster_slots_ok {:?}",
                    info_field(&info, "cluster_state"),
                    info_field(&info, "cluster_slots_ok")
                )));
            }
            let view = view_of(port)?;
            let topology = Topology::of(&view, &running)
                .map_err(|reason| not_yet(format!("node {port} sees {reason}")))?;
            match &agreed {
                None => agreed = Some((port, topology)),
                Some((first, expected)) if *expected != topology => {
                    return Err(not_yet(format!(
                        "nodes {first} and {port} disagree: {expected:?} / {topology:?}"
                    )));
                }
                Some(_) => {}
            }
            // A replica out of sync would lose writes in a failover (or stall a manual one).
            let myself = view.iter().find(|node| node.has("myself"));
            if let Some(myself) = myself.filter(|node| node.is_replica()) {
                let master_port = view
                    .iter()
                    .find(|node| Some(&node.id) == myself.master_id.as_ref())
                    .map(|node| node.port);
                if master_port.is_some_and(|master| running.contains(&master)) {
                    let replication: String = query(port, redis::cmd("INFO").arg("replication"))?;
                    if info_field(&replication, "master_link_status") != Some("up") {
                        return Err(not_yet(format!("replica {port} is not in sync")));
                    }
                }
            }
        }
        if agreed.is_none() {
            return Err(not_yet("no node is running".to_owned()));
        }
        Ok(())
    }

    /// Polls `check` until it passes or `timeout` elapses; the error says why it last failed.
    fn wait_until(
        &self,
        timeout: Duration,
        what: &str,
        check: impl Fn(&Self) -> io::Result<()>,
    ) -> io::Result<()> {
        let deadline = Instant::now() + timeout;
        loop {
            let reason = match check(self) {
                Ok(()) => return Ok(()),
                Err(reason) => reason,
            };
            if Instant::now() >= deadline {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!(
                        "the Redis Cluster on ports {:?} was not {what} within {timeout:?}: {reason}",
                        self.ports()
                    ),
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The running, non-failing nodes, as the first running node sees them.
    fn current_view(&self) -> io::Result<Vec<NodeLine>> {
        let running = self.running_ports();
        Ok(self
            .view_of_first_running()?
            .into_iter()
            .filter(|node| running.contains(&node.port) && !node.is_failing())
            .collect())
    }

    fn view_of_first_running(&self) -> io::Result<Vec<NodeLine>> {
        view_of(self.first_running()?)
    }

    fn first_running(&self) -> io::Result<u16> {
        self.running_ports()
            .first()
            .copied()
            .ok_or_else(|| io::Error::other("no node of the Redis Cluster is running"))
    }

    fn node_mut(&mut self, port: u16) -> &mut Node {
        self.nodes
            .iter_mut()
            .find(|node| node.port == port)
            .unwrap_or_else(|| panic!("no node of this Redis Cluster listens on port {port}"))
    }
}

impl Node {
    /// Starts a node on a free port pair and waits until it answers. Another process may take
    /// a port between the check and the bind: then the node exits and another port is tried.
    fn start(deadline: Instant) -> io::Result<Self> {
        let mut last_error = None;
        for _ in 0..5 {
            let mut node = Self {
                port: reserve_port()?,
                process: None,
                dir: tempfile::tempdir()?,
            };
            node.spawn()?;
            match node.wait_until_answers(deadline) {
                Ok(()) => return Ok(node),
                Err(err) => last_error = Some(err),
            }
        }
        Err(last_error.unwrap_or_else(|| io::Error::other("no node started")))
    }

    fn spawn(&mut self) -> io::Result<()> {
        let dir = self.dir.path();
        let mut command = Command::new(redis_server_binary()?);
        command
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args([
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
            ])
            .args([
                "--cluster-node-timeout",
                &NODE_TIMEOUT.as_millis().to_string(),
            ])
            // Roles move only when a test moves them.
            .args(["--cluster-allow-replica-migration", "no"])
            // A replica may take over however long it was cut off from its master.
            .args(["--cluster-replica-validity-factor", "0"])
            // A new or restarted replica syncs at once (the default waits 5 s for company).
            .args(["--repl-diskless-sync-delay", "0"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(dir)
            .arg("--logfile")
            .arg(dir.join("redis.log"));
        self.process = Some(Supervised::spawn(command, dir)?);
        Ok(())
    }

    fn wait_until_answers(&mut self, deadline: Instant) -> io::Result<()> {
        let deadline = deadline.min(Instant::now() + Duration::from_secs(10));
        while Instant::now() < deadline {
            if crate::redis::answers(&node_url(self.port)) {
                return Ok(());
            }
            if self.process.as_mut().is_none_or(Supervised::has_exited) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Err(io::Error::other(format!(
            "the cluster node on port {} did not answer (or exited): {}",
            self.port,
            read_log(&self.dir.path().join("redis.log"))
        )))
    }
}

/// A port P in [`PORTS`] with P and P + 10000 free, never handed out twice in this process
/// (clusters started by concurrent tests must not collide; a stopped node keeps its port).
fn reserve_port() -> io::Result<u16> {
    static RESERVED: Mutex<BTreeSet<u16>> = Mutex::new(BTreeSet::new());
    let mut reserved = RESERVED.lock().unwrap_or_else(PoisonError::into_inner);
    let span = u128::from(PORTS.end() - PORTS.start() + 1);
    for _ in 0..1000 {
        let offset = u16::try_from(uuid::Uuid::new_v4().as_u128() % span).expect("span fits u16");
        let port = PORTS.start() + offset;
        let free = |port: u16| std::net::TcpListener::bind(("127.0.0.1", port)).is_ok();
        if !reserved.contains(&port) && free(port) && free(port + BUS_OFFSET) {
            reserved.insert(port);
            return Ok(port);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AddrInUse,
        format!("no free port pair (P, P + {BUS_OFFSET}) for a cluster node in {PORTS:?}"),
    ))
}

fn node_url(port: u16) -> String {
    format!("redis://127.0.0.1:{port}")
}

/// `redis-cli` from `REDIS_CLI_BIN` or `PATH`.
fn redis_cli_binary() -> io::Result<PathBuf> {
    crate::tools::Tool::RedisCli.located()
}

fn remaining(deadline: Instant) -> Duration {
    deadline.saturating_duration_since(Instant::now())
}

fn not_yet(reason: String) -> io::Error {
    io::Error::other(reason)
}

/// The last lines of a log, for an error message.
fn read_log(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

/// Sends `command` to the node on `port` over a fresh connection with short timeouts.
fn query<T: redis::FromRedisValue>(port: u16, command: &redis::Cmd) -> io::Result<T> {
    let result = (|| {
        let client = redis::Client::open(node_url(port))?;
        let mut connection = client.get_connection_with_timeout(Duration::from_secs(1))?;
        connection.set_read_timeout(Some(Duration::from_secs(5)))?;
        connection.set_write_timeout(Some(Duration::from_secs(5)))?;
        command.query(&mut connection)
    })();
    result.map_err(|err| io::Error::other(format!("node {port}: {err}")))
}

/// `CLUSTER NODES` as the node on `port` sees the cluster.
fn view_of(port: u16) -> io::Result<Vec<NodeLine>> {
    let text: String = query(port, redis::cmd("CLUSTER").arg("NODES"))?;
    Ok(parse_nodes(&text))
}

/// One line of `CLUSTER NODES`: `<id> <ip:port@cport[,hostname]> <flags> <master> <ping-sent>
/// <pong-recv> <config-epoch> <link-state> <slot>...`.
#[derive(Clone, Debug)]
struct NodeLine {
    id: String,
    /// 0 while the node does not know its own address yet.
    port: u16,
    flags: Vec<String>,
    master_id: Option<String>,
    slots: Vec<RangeInclusive<u16>>,
}

impl NodeLine {
    fn has(&self, flag: &str) -> bool {
        self.flags.iter().any(|own| own == flag)
    }

    fn is_master(&self) -> bool {
        self.has("master")
    }

    fn is_replica(&self) -> bool {
        self.has("slave")
    }

    fn is_failing(&self) -> bool {
        ["fail", "fail?", "handshake", "noaddr"]
            .iter()
            .any(|flag| self.has(flag))
    }
}

/// What every healthy node must agree on: who serves which slots, and who follows whom.
#[derive(Debug, PartialEq, Eq)]
struct Topology {
    /// (master port, its slots), by port.
    owners: Vec<(u16, Vec<RangeInclusive<u16>>)>,
    /// (replica port, its master's port), by port.
    replicas: Vec<(u16, u16)>,
}

impl Topology {
    /// The topology in one node's `view` if it is healthy for the `running` nodes: each is
    /// known and not failing, a master serving slots or a replica of a known master (a
    /// master without slots is a deposed one not yet turned replica), and the running masters
    /// serve all the slots. Otherwise what is wrong.
    fn of(view: &[NodeLine], running: &[u16]) -> Result<Self, String> {
        let mut topology = Self {
            owners: Vec::new(),
            replicas: Vec::new(),
        };
        for &port in running {
            let node = view
                .iter()
                .find(|node| node.port == port)
                .ok_or_else(|| format!("no node {port}"))?;
            let master_port = node
                .master_id
                .as_ref()
                .and_then(|id| view.iter().find(|other| &other.id == id))
                .map(|master| master.port);
            match master_port {
                _ if node.is_failing() => {}
                None if node.is_master() && !node.slots.is_empty() => {
                    topology.owners.push((port, node.slots.clone()));
                    continue;
                }
                Some(master) if node.is_replica() => {
                    topology.replicas.push((port, master));
                    continue;
                }
                _ => {}
            }
            return Err(format!("node {port} as {} {node:?}", node.flags.join(",")));
        }
        if let Some(stopped) = view
            .iter()
            .find(|node| !node.slots.is_empty() && !running.contains(&node.port))
        {
            return Err(format!("slots served by stopped node {}", stopped.port));
        }
        let covered: usize = topology
            .owners
            .iter()
            .flat_map(|(_, slots)| slots)
            .map(|range| range.len())
            .sum();
        if covered != SLOTS {
            return Err(format!("{covered} slots served"));
        }
        Ok(topology)
    }
}

fn parse_nodes(text: &str) -> Vec<NodeLine> {
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() < 8 {
                return None;
            }
            let port = fields[1]
                .split('@')
                .next()
                .and_then(|address| address.rsplit(':').next())
                .and_then(|port| port.parse().ok())
                .unwrap_or(0);
            let slots = fields[8..]
                .iter()
                // `[slot->-id]` / `[slot-<-id]`: a slot being migrated, still served as listed.
                .filter(|slot| !slot.starts_with('['))
                .filter_map(|slot| match slot.split_once('-') {
                    Some((first, last)) => Some(first.parse().ok()?..=last.parse().ok()?),
                    None => slot.parse().ok().map(|slot| slot..=slot),
                })
                .collect();
            Some(NodeLine {
                id: fields[0].to_owned(),
                port,
                flags: fields[2].split(',').map(str::to_owned).collect(),
                master_id: (fields[3] != "-").then(|| fields[3].to_owned()),
                slots,
            })
        })
        .collect()
}

/// `name:value` from an `INFO`-style reply.
fn info_field<'a>(info: &'a str, name: &str) -> Option<&'a str> {
    info.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(':').map(str::trim))
}

/// Calls per command (`evalsha` -> n) from the reply to `INFO commandstats`, whose lines read
/// `cmdstat_<command>:calls=N,usec=...`.
pub fn parse_commandstats(info: &str) -> HashMap<String, u64> {
    info.lines()
        .filter_map(|line| {
            let (command, stats) = line.strip_prefix("cmdstat_")?.split_once(':')?;
            let calls = stats
                .split(',')
                .find_map(|stat| stat.strip_prefix("calls="))?
                .parse()
                .ok()?;
            Some((command.to_owned(), calls))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_cluster_has_three_masters_with_a_replica_each_and_serves_keys() {
        crate::needs_tools_of!(crate::tools::Suite::RedisCluster);
        let started = Instant::now();
        let cluster = shared_redis_cluster();
        eprintln!("cluster ready after {:?}", started.elapsed());

        let masters = cluster.masters().expect("masters");
        assert_eq!(masters.len(), 3, "{masters:?}");
        let served: usize = masters
            .iter()
            .flat_map(|master| &master.slots)
            .map(|range| range.len())
            .sum();
        assert_eq!(served, SLOTS);
        let replicas = cluster.replicas().expect("replicas");
        assert_eq!(replicas.len(), 3, "{replicas:?}");
        let followed: BTreeSet<u16> = replicas.iter().filter_map(|r| r.master_port).collect();
        let master_ports: BTreeSet<u16> = masters.iter().map(|m| m.port).collect();
        assert_eq!(followed, master_ports, "each master has one replica");

        let client = redis::cluster::ClusterClient::new(cluster.seed_urls()).expect("client");
        let mut connection = client.get_connection().expect("cluster connection");
        let key = format!("testing:{}:key", crate::unique_suffix());
        let () = redis::cmd("SET")
            .arg(&key)
            .arg("value")
            .query(&mut connection)
            .expect("SET");
        let value: String = redis::cmd("GET")
            .arg(&key)
            .query(&mut connection)
            .expect("GET");
        assert_eq!(value, "value");

        let owner = cluster.master_for_key(&key).expect("master for the key");
        let stats = cluster.commandstats().expect("commandstats");
        let owner_stats = &stats.iter().find(|(port, _)| *port == owner).unwrap().1;
        assert!(
            owner_stats.get("set").copied().unwrap_or(0) >= 1,
            "{owner_stats:?}"
        );
    }

    #[test]
    fn a_manual_failover_swaps_roles_and_a_restarted_node_rejoins() {
        crate::needs_tools_of!(crate::tools::Suite::RedisCluster);
        let started = Instant::now();
        let mut cluster = RedisCluster::start().expect("a cluster of its own");
        eprintln!("cluster started in {:?}", started.elapsed());

        let replica = cluster.replicas().expect("replicas")[0].clone();
        let old_master = replica.master_port.expect("its master's port");
        cluster.manual_failover(replica.port).expect("failover");
        let masters = cluster.masters().expect("masters");
        assert!(
            masters.iter().any(|m| m.port == replica.port),
            "{masters:?}"
        );
        let replicas = cluster.replicas().expect("replicas");
        assert!(
            replicas
                .iter()
                .any(|r| r.port == old_master && r.master_port == Some(replica.port)),
            "the old master follows the new one: {replicas:?}"
        );

        cluster.reset_stats().expect("reset");
        cluster.stop_node(old_master);
        assert!(!cluster.running_ports().contains(&old_master));
        cluster.restart_node(old_master).expect("restart");
        cluster
            .wait_until_healthy(Duration::from_secs(30))
            .expect("healthy again");
        let replicas = cluster.replicas().expect("replicas");
        assert!(
            replicas
                .iter()
                .any(|r| r.port == old_master && r.master_port == Some(replica.port)),
            "it rejoined as a replica: {replicas:?}"
        );
    }

    #[test]
    fn cluster_nodes_lines_parse() {
        let view = parse_nodes(
            "07c3 127.0.0.1:30004@40004 slave e7d1 0 1426238317239 4 connected\n\
             e7d1 127.0.0.1:30001@40001,host myself,master - 0 0 1 connected 0-5460 7000 [5461->-292f]\n\
             292f :0@0 master,fail? - 0 0 2 disconnected\n",
        );
        assert_eq!(view.len(), 3);
        assert!(view[0].is_replica() && view[0].master_id.as_deref() == Some("e7d1"));
        assert_eq!(view[1].port, 30001);
        assert_eq!(view[1].slots, vec![0..=5460, 7000..=7000]);
        assert!(view[2].is_failing() && view[2].port == 0);
        let stats = parse_commandstats(
            "# Commandstats\r\ncmdstat_evalsha:calls=3,usec=9,usec_per_call=3.00,rejected_calls=0,failed_calls=0\r\ncmdstat_cluster|info:calls=1,usec=2\r\n",
        );
        assert_eq!(stats.get("evalsha"), Some(&3));
        assert_eq!(stats.get("cluster|info"), Some(&1));
    }
}
